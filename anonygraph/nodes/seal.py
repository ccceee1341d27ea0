"""SEAL steps: judge against the original, record a state, rewrite, revert, finish.

The inference step is the shared `attack` node; these are the rest.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.inputs import split_comments
from anonygraph.nodes.anonymize import rewrite_problem
from anonygraph.state.domain import (
    COMMENT_SEPARATOR,
    AttributeInference,
    Rewrite,
    UtilityAnswer,
)
from anonygraph.state.seal import State, TrajectoryContext, TrajectoryStep
from anonygraph.tools.seal_feedback import anonymize_request, leaks


def original_text(state: State) -> str:
    """Return x_0: the input text, or the input comments joined."""
    return COMMENT_SEPARATOR.join(state.comments) if state.comments else state.text


def nothing_inferable(state: State) -> bool:
    """Say whether the latest inferences commit to no guess at all."""
    return not leaks(map(AttributeInference.model_validate, state.inferences))


async def assess(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    """Judge ``state.current`` against the original: U_t with explanations."""
    prompt = runtime.context.judge_prompt.format(
        original=original_text(state), text=state.current
    )
    answer, calls = await models.ask_structured(
        "judge", prompt, UtilityAnswer, runtime.context, step="judge"
    )
    return {"utility": answer.model_dump(), "calls": calls}


def record(state: State) -> dict[str, Any]:
    """Append s_t = (x_t, P_t, U_t) to the trajectory."""
    step = TrajectoryStep(
        index=len(state.trajectory),
        round=state.round,
        text=state.current,
        inferences=[AttributeInference.model_validate(i) for i in state.inferences],
        utility=UtilityAnswer.model_validate(state.utility),
    )
    return {"trajectory": [step.model_dump()]}


async def rewrite(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    """Rewrite x_t given its inferences (and utility); refuse an unusable rewrite."""
    context: TrajectoryContext = runtime.context
    utility = UtilityAnswer.model_validate(state.utility)
    prompt = anonymize_request(
        context.anonymize_prompt,
        state.current,
        map(AttributeInference.model_validate, state.inferences),
        utility if context.utility_feedback else None,
    )
    answer, calls = await models.ask_structured(
        "anonymizer", prompt, Rewrite, context, step="anonymize"
    )
    problem = rewrite_problem(state.current, answer.text, context.min_length_ratio)
    update: dict[str, Any] = {
        "current": answer.text.strip() if problem is None else state.current,
        "round": 1,
        "rejected": problem is not None,
        "calls": calls,
        "iterations": [
            {
                "round": state.round,
                "text": state.current,
                "inferences": state.inferences,
                "utility": state.utility,
                "rewritten": answer.text,
                "changes": answer.changes,
                "error": problem,
            }
        ],
    }
    if problem:
        update["errors"] = [f"round {state.round + 1}: rewrite refused: {problem}"]
    return update


def revert(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
    """Drop a rewrite judged under the utility floor; go back to the last state."""
    last = state.trajectory[-1]
    return {
        "current": last["text"],
        "utility": last["utility"],
        "status": "utility_floor",
        "errors": [
            f"round {state.round}: rewrite dropped: utility {utility_of(state):.3f} "
            f"is under the floor {runtime.context.min_utility}; the previous text "
            "is kept"
        ],
    }


def utility_of(state: State) -> float:
    """Return the mean utility of ``state.current`` (`UtilityScore.util`)."""
    return UtilityAnswer.model_validate(state.utility).to_score().util


def finish(state: State) -> dict[str, Any]:
    """Publish the final text and why refinement stopped."""
    status = state.status
    if status == "running":
        status = "converged" if nothing_inferable(state) else "max_iterations"
    return {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": status,
        "iterations": [
            {
                "round": state.round,
                "text": state.current,
                "inferences": state.inferences,
                "utility": state.utility,
                "rewritten": None,
            }
        ],
    }
