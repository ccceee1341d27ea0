"""Evaluator steps: prepare, attack (after optional searches), judge, score."""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.inputs import check_text
from anonygraph.model_requests.inference import infer_attributes
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.evaluate import VALIDATE_PROMPT
from anonygraph.state.answers import UtilityAnswer, ValidatorAnswer
from anonygraph.state.domain import AttributeInference, UtilityScore
from anonygraph.state.evaluate import EvalContext, State
from anonygraph.tools.matching import Validator, match_inference
from anonygraph.tools.text_metrics import bleu, rouge_l


def prepare_eval(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Set the text under attack; an empty original means it is the original."""
    check_text(state.text, runtime.context.max_chars)
    return {"current": state.text, "original": state.original or state.text}


async def profile_author(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Infer the author's attributes; after searches, also name their profile."""
    inferences, profile, calls = await infer_attributes(
        state.current, state.attributes, runtime.context, search_log=state.search_log
    )
    update: dict[str, Any] = {"inferences": inferences, "calls": calls}
    if state.search_log:
        update["identified_profile"] = profile
    return update


async def judge(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Judge ``state.current`` against ``state.original``."""
    prompt = fill(
        runtime.context.judge_prompt,
        original=fence("original", state.original),
        text=fence("rewrite", state.current),
    )
    answer, calls = await models.ask_structured(
        "judge", prompt, UtilityAnswer, runtime.context, step="judge"
    )
    score = answer.to_score()
    return {"utility": {**score.model_dump(), "util": score.util}, "calls": calls}


def validator_for(context: EvalContext, calls: list[dict[str, Any]]) -> Validator:
    """Return the hook that asks the validator model about undecided guesses.

    ``match_inference`` calls it from a worker thread, so it runs its own
    event loop; the records of its calls are appended to ``calls``.
    """

    def validate(attribute: str, truth: str, guess: str) -> str:
        prompt = fill(
            VALIDATE_PROMPT,
            attribute=attribute,
            truth=fence("truth", truth),
            guess=fence("guess", guess),
        )
        answer, made = asyncio.run(
            models.ask_structured(
                "validator", prompt, ValidatorAnswer, context, step="validate"
            )
        )
        calls.extend(made)
        return answer.verdict

    return validate


async def score(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Judge every inference against its label and compute text metrics."""
    calls: list[dict[str, Any]] = []
    context = runtime.context
    validate = validator_for(context, calls)
    inferences = {
        i.attribute: i for i in map(AttributeInference.model_validate, state.inferences)
    }
    matches = []
    for attribute, truth in state.labels.items():
        inference = inferences.get(attribute)
        match = await asyncio.to_thread(
            match_inference,
            attribute,
            truth,
            inference.guesses if inference else None,
            hardness=state.hardness.get(attribute),
            validator=validate if context.validator else None,
        )
        matches.append(match.model_dump())
    metrics: dict[str, Any] = {
        "rouge_l": rouge_l(state.original, state.text),
        "bleu": bleu(state.original, state.text),
    }
    if context.semantic:
        from anonygraph.tools.text_metrics import semantic_similarities

        (metrics["semantic"],) = await asyncio.to_thread(
            semantic_similarities, [state.original], [state.text]
        )
    update: dict[str, Any] = {"matches": matches, "metrics": metrics, "calls": calls}
    if state.text == state.original and not state.utility:
        # A text identical to its original keeps all of it, judge or no judge.
        perfect = UtilityScore(readability=10, meaning=10, hallucination=1,
                               rationale="identical to the original")  # fmt: skip
        update["utility"] = {**perfect.model_dump(), "util": perfect.util}
    return update
