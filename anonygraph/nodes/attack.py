"""Attack step: an attacker model infers the protected attributes from the text."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.state.attributes import describe_attributes, resolve_attributes
from anonygraph.state.domain import attack_answer_model, inferences_from_answer


def protected_attributes(state: Any, context: Any) -> list[str]:
    """Return the record's attributes if it names any, else the run's."""
    return resolve_attributes(getattr(state, "attributes", None) or context.attributes)


async def attack(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Infer every protected attribute from ``state.current``."""
    attributes = protected_attributes(state, runtime.context)
    prompt = runtime.context.attack_prompt.format(
        text=state.current, attributes=describe_attributes(attributes)
    )
    answer, calls = await models.ask_structured(
        "attacker",
        prompt,
        attack_answer_model(attributes),
        runtime.context,
        step="attack",
    )
    return {
        "inferences": [i.model_dump() for i in inferences_from_answer(answer)],
        "calls": calls,
    }
