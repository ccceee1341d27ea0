"""Intent step: weigh the text's pragmatic intents I1..I5 and label its scene."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.nodes.budget import check_level, load_table
from anonygraph.state.domain import Intent, intent_answer_model, intents_from_answer


async def recognize_intents(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Ask the intent model for the five weights and one of the table's scenes."""
    ctx = runtime.context
    # Check the governance options first: a bad table must fail before any call.
    check_level(ctx.default_level, "default_level")
    if ctx.privacy_level:
        check_level(ctx.privacy_level, "privacy_level")
    table = load_table(ctx)
    scenes = [table.fallback_scene, *sorted(set(table.scenes) - {table.fallback_scene})]
    prompt = ctx.intent_prompt.format(text=state.current, scenes=", ".join(scenes))
    answer, calls = await models.ask_structured(
        "intent", prompt, intent_answer_model(scenes), ctx, step="intent"
    )
    intents, scene = intents_from_answer(answer)
    return {
        "intents": [i.model_dump() for i in intents],
        "scene": scene,
        "calls": calls,
    }


def render_intents(intents: list[Intent]) -> str:
    """Render intents for a prompt, e.g. ``I1 self-expression (0.6)``."""
    if not intents:
        return "none recognized"
    return ", ".join(f"{i.code} {i.name} ({i.weight:.1f})" for i in intents)
