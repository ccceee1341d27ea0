"""Anonymize step: rewrite the text to neutralize the policy's leaks."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.prompts.anonymizer import LEAK_LINE
from anonygraph.state.domain import PolicyItem, Rewrite


async def anonymize(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Rewrite ``state.current`` once; keep it when the rewrite is unusable."""
    policy = [PolicyItem.model_validate(p) for p in state.policy]
    prompt = runtime.context.anonymize_prompt.format(
        text=state.current, feedback=render_feedback(policy)
    )
    answer, calls = await models.ask_structured(
        "anonymizer", prompt, Rewrite, runtime.context, step="anonymize"
    )
    problem = rewrite_problem(
        state.current, answer.text, runtime.context.min_length_ratio
    )
    accepted = answer.text.strip() if problem is None else state.current
    update: dict[str, Any] = {
        "current": accepted,
        "round": 1,
        "calls": calls,
        "iterations": [
            iteration_entry(
                state, rewritten=accepted, changes=answer.changes, error=problem
            )
        ],
    }
    if problem:
        update["errors"] = [f"round {state.round + 1}: rewrite rejected: {problem}"]
    return update


def render_feedback(policy: list[PolicyItem]) -> str:
    """List the leaks for the anonymizer, one line each."""
    if not policy:
        return "- (no specific leak: make the author harder to profile)"
    return "\n".join(
        LEAK_LINE.format(
            action=item.action,
            attribute=item.attribute,
            concept=item.concept,
            evidence="; ".join(f'"{e}"' for e in item.evidence) or "see concept",
        )
        for item in policy
    )


MAX_GROWTH = 3.0
"""Anonymizing generalizes and trims: a rewrite far longer than its input rambles."""


def rewrite_problem(before: str, after: str, min_ratio: float) -> str | None:
    """Say why a rewrite must not replace ``before``, or None when it may."""
    if not after.strip():
        return "the anonymizer returned an empty text"
    if len(after.strip()) < min_ratio * len(before.strip()):
        return (
            f"the rewrite has {len(after.strip())} characters, under "
            f"{min_ratio:.0%} of the {len(before.strip())} it replaces"
        )
    if len(after.strip()) > MAX_GROWTH * len(before.strip()) + 200:
        return (
            f"the rewrite has {len(after.strip())} characters, over "
            f"{MAX_GROWTH:g} times the {len(before.strip())} it replaces"
        )
    if " ".join(after.split()) == " ".join(before.split()):
        return "the rewrite left the text unchanged"
    return None


def iteration_entry(state: Any, **outcome: Any) -> dict[str, Any]:
    """Snapshot one round for Studio and the evaluator."""
    return {
        "round": state.round,
        "text": state.current,
        "inferences": state.inferences,
        "verdicts": state.verdicts,
        "policy": state.policy,
        **outcome,
    }
