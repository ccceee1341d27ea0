"""Judge step: a model scores readability, meaning and hallucination (RLAA eq. 9)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.prompts.judge import JUDGE_PROMPT
from anonygraph.state.domain import UtilityAnswer, UtilityScore


async def judge_utility(
    original: str, text: str, context: Any, *, step: str = "judge"
) -> tuple[UtilityScore, list[dict[str, Any]]]:
    """Score ``text`` against ``original``; return the score and call records.

    Raises:
        ModelOutputError: when the judge's answer stays unusable after retries.
    """
    prompt = getattr(context, "judge_prompt", JUDGE_PROMPT).format(
        original=original, text=text
    )
    answer, calls = await models.ask_structured(
        "judge", prompt, UtilityAnswer, context, step=step
    )
    return answer.to_score(), calls


async def judge(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Judge ``state.current`` against ``state.original``."""
    score, calls = await judge_utility(state.original, state.current, runtime.context)
    return {"utility": {**score.model_dump(), "util": score.util}, "calls": calls}
