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


def surviving_cues(
    text: str, attributes: list[str], policy: list[PolicyItem]
) -> list[PolicyItem]:
    """Policy items for explicit cues still in ``text`` that ``policy`` misses.

    The final check behind a model anonymizer: a city, an age or a job title
    the model left (or the attacker overlooked) is a leak the next round
    must edit, and counts as one for the record's outcome. Only exact cues
    with a coarser form count (a country or "in my thirties" is where
    generalizing stops).
    """
    from anonygraph.cues import detect_cues, generalize

    listed = {e.lower() for item in policy for e in item.evidence}
    found: dict[str, list[str]] = {}
    for cue in detect_cues(text, attributes):
        if not cue.exact or generalize(cue) == cue.quote:
            continue
        if any(cue.quote.lower() in e or e in cue.quote.lower() for e in listed if e):
            continue
        quotes = found.setdefault(cue.attribute, [])
        if cue.quote not in quotes:
            quotes.append(cue.quote)
    return [
        PolicyItem(
            attribute=attribute,
            action="generalize",
            evidence=quotes[:3],
            concept=f"explicit cue left in the text: {', '.join(quotes[:3])}",
        )
        for attribute, quotes in found.items()
    ]


def cue_leaks(text: str, attributes: list[str]) -> list[str]:
    """Attributes whose explicit cues the detectors still find in ``text``.

    What a product run's outcome checks besides its attacker: a text in
    which "I live in Calgary" stands is not anonymized, whatever a weak
    attacker said.
    """
    return sorted({item.attribute for item in surviving_cues(text, attributes, [])})
