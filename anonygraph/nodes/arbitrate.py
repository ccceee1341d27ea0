"""Arbitrate step: grade each inference, then map grades to a policy (Pi_select)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.nodes.attack import protected_attributes
from anonygraph.state.domain import (
    AttributeInference,
    LeakVerdict,
    PolicyItem,
    verdict_answer_model,
    verdicts_from_answer,
)

# Pi_select: the deterministic control layer of RLAA section 3.3.2.
ACTIONS: dict[str, str] = {"high": "generalize", "medium": "rephrase"}


async def arbitrate(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Validate the attacker's reasoning and keep only actionable leaks."""
    leaks = [
        inference
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    if not leaks:
        return {"verdicts": [], "policy": []}
    prompt = runtime.context.arbitrate_prompt.format(
        text=state.current,
        attributes=", ".join(protected_attributes(state, runtime.context)),
        reasoning=render_reasoning(leaks),
    )
    answer, calls = await models.ask_structured(
        "arbitrator",
        prompt,
        verdict_answer_model([leak.attribute for leak in leaks]),
        runtime.context,
        step="arbitrate",
    )
    verdicts = verdicts_from_answer(answer)
    return {
        "verdicts": [v.model_dump() for v in verdicts],
        "policy": [p.model_dump() for p in select_policy(verdicts)],
        "calls": calls,
    }


def render_reasoning(leaks: list[AttributeInference]) -> str:
    """Render the attacker's inferences as the arbitrator reads them."""
    return "\n".join(
        f"- {leak.attribute}: guesses {', '.join(leak.guesses)} "
        f"(certainty {leak.certainty}/5). Reasoning: {leak.reasoning}"
        for leak in leaks
    )


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
