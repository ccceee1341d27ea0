"""AURA phase 1: masking convergence, then the template of what changed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from anonygraph.nodes.anonymize import iteration_entry
from anonygraph.nodes.attack import attack
from anonygraph.nodes.evidence import find_span
from anonygraph.state.domain import (
    COMMENT_SEPARATOR,
    AttributeInference,
    BlacklistSpan,
    PolicyItem,
)
from anonygraph.tools.mask_template import build_template as diff_template


async def infer_scope(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Infer every attribute of the scope A from the current text.

    The attack node does the work on the text alone: the probe's search
    results describe the original and would make every round look leaky.
    """
    update = await attack(replace(state, search_log=[]), runtime)
    return {
        "inferences": update["inferences"],
        "calls": [{**call, "step": "mask_attack"} for call in update["calls"]],
    }


def inferable(
    inferences: list[dict[str, Any]], min_certainty: int
) -> list[AttributeInference]:
    """Return the inferences that commit to a guess with enough certainty."""
    return [
        inference
        for inference in map(AttributeInference.model_validate, inferences)
        if inference.is_leak and inference.certainty >= min_certainty
    ]


def blacklisted_left(
    blacklist: list[dict[str, Any]], text: str
) -> dict[str, list[str]]:
    """Return the blacklisted spans still in ``text``, by the attribute they reveal."""
    spans: dict[str, list[str]] = {}
    for entry in map(BlacklistSpan.model_validate, blacklist):
        span = find_span(entry.quote, text)
        if span is not None:
            spans.setdefault(entry.attribute, []).append(span)
    return spans


def still_leaking(state: Any, min_certainty: int) -> bool:
    """Tell whether the text still gives A away: an inference or a blacklisted span.

    A span of B still standing counts as a leak even when this round's attacker
    missed it: the probe showed that those words lead to the author.
    """
    return bool(
        inferable(state.inferences, min_certainty)
        or blacklisted_left(state.blacklist, state.current)
    )


def plan_suppression(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Tell the rewriter what is inferable and which blacklisted spans remain."""
    spans = blacklisted_left(state.blacklist, state.current)
    policy = []
    for leak in inferable(state.inferences, runtime.context.min_certainty):
        evidence = spans.pop(leak.attribute, [])
        policy.append(
            PolicyItem(
                attribute=leak.attribute,
                action="generalize" if evidence else "address",
                evidence=evidence,
                concept=f"guessed {', '.join(leak.guesses)} because: {leak.reasoning}",
            )
        )
    policy += [
        PolicyItem(
            attribute=attribute,
            action="generalize",
            evidence=evidence,
            concept=f"these words could re-identify the author ({attribute})",
        )
        for attribute, evidence in spans.items()
    ]
    return {"policy": [item.model_dump() for item in policy]}


def original_text(state: Any) -> str:
    """Return the record's text as the graph received it."""
    return COMMENT_SEPARATOR.join(state.comments) if state.comments else state.text


def build_template(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Diff the original against the converged text into a mask template."""
    template = diff_template(original_text(state), state.current)
    converged = not still_leaking(state, runtime.context.min_certainty)
    update: dict[str, Any] = {
        "template": template.model_dump(),
        "mask_status": "converged" if converged else "max_rounds",
    }
    if converged:
        # The last inferences describe the converged text: keep them as a round.
        update["iterations"] = [iteration_entry(state, rewritten=None)]
    return update
