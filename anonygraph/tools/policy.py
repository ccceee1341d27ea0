"""RLAA's Pi_select: the deterministic control layer from verdicts to a policy."""

from __future__ import annotations

from anonygraph.state.domain import LeakVerdict, PolicyItem

ACTIONS: dict[str, str] = {"high": "generalize", "medium": "rephrase"}
"""Validity -> what the anonymizer does (RLAA section 3.3.2); others are dropped."""


def select_policy(verdicts: list[LeakVerdict]) -> list[PolicyItem]:
    """Map verdicts to instructions: high -> generalize, medium -> rephrase."""
    order = {"high": 0, "medium": 1}
    actionable = sorted(
        (v for v in verdicts if v.validity in ACTIONS), key=lambda v: order[v.validity]
    )
    return [
        PolicyItem(
            attribute=v.attribute,
            action=ACTIONS[v.validity],  # type: ignore[arg-type]
            evidence=v.evidence,
            concept=v.concept or f"reveals the author's {v.attribute}",
        )
        for v in actionable
    ]
