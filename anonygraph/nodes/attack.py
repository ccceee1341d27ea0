"""Attack step: an attacker model infers the protected attributes from the text."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.attributes import describe_attributes, resolve_attributes
from anonygraph.nodes.search_agent import render_notes
from anonygraph.prompts.search_agent import IDENTIFY_PROMPT
from anonygraph.state.domain import inferences_from_answer, scope_answer_model


def protected_attributes(state: Any, context: Any) -> list[str]:
    """Return the record's attributes if it names any, else the run's."""
    return resolve_attributes(
        getattr(state, "attributes", None) or context.attributes,
        custom_attributes(state),
    )


def custom_attributes(state: Any) -> dict[str, str]:
    """Return the state's attributes beyond the base ones, name -> description."""
    return dict(getattr(state, "custom_attributes", None) or {})


async def attack(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Infer every protected attribute from ``state.current``."""
    attributes = protected_attributes(state, runtime.context)
    custom = custom_attributes(state)
    prompt = runtime.context.attack_prompt.format(
        text=state.current, attributes=describe_attributes(attributes, custom)
    )
    # After web searches, the attacker reads their results and may name the
    # author's profile (the agentic adversary); otherwise it reads the text alone.
    search_log = getattr(state, "search_log", None)
    if search_log:
        prompt = IDENTIFY_PROMPT.format(attack=prompt, notes=render_notes(search_log))
    schema = scope_answer_model(attributes, custom, identify=bool(search_log))
    answer, calls = await models.ask_structured(
        "attacker", prompt, schema, runtime.context, step="attack"
    )
    update: dict[str, Any] = {
        "inferences": [i.model_dump() for i in inferences_from_answer(answer)],
        "calls": calls,
    }
    if search_log:
        update["identified_profile"] = getattr(answer, "identified_profile", "")
    return update
