"""SEAL steps: judge against the original, record a state, revise, revert, finish.

The inference step is the shared `attack` (nodes/adversary.py); these are the rest.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import llm
from anonygraph.identifiers.prepass import identifier_leaks
from anonygraph.inputs import split_comments
from anonygraph.model_requests.inference import protected_attributes
from anonygraph.model_requests.rewriting import checked_rewrite
from anonygraph.state.answers import Rewrite, UtilityAnswer
from anonygraph.state.domain import AttributeInference
from anonygraph.state.paper_answers import PaperUtilityAnswer, rewrite_model
from anonygraph.state.record import original_text, outcome_of, source_text
from anonygraph.state.seal import (
    SealContext,
    State,
    TrajectoryContextT,
    TrajectoryStep,
)
from anonygraph.tools.rlaa.policy import cue_leaks
from anonygraph.tools.seal.feedback import anonymize_request, judge_request


async def assess(state: State, runtime: Runtime[TrajectoryContextT]) -> dict[str, Any]:
    """Judge ``state.current`` against the original: U_t with explanations."""
    prompt = judge_request(
        runtime.context.judge_prompt, source_text(state), state.current
    )
    if runtime.context.paper:
        # D.3's answer names its third part "hallucinations".
        paper, calls = await llm.ask_structured(
            "judge", prompt, PaperUtilityAnswer, runtime.context, step="judge"
        )
        return {"utility": paper.as_utility_answer().model_dump(), "calls": calls}
    answer, calls = await llm.ask_structured(
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


async def revise(state: State, runtime: Runtime[TrajectoryContextT]) -> dict[str, Any]:
    """Rewrite x_t given its inferences (and utility); refuse an unusable rewrite."""
    context = runtime.context
    utility = UtilityAnswer.model_validate(state.utility)
    prompt = anonymize_request(
        context.anonymize_prompt,
        state.current,
        map(AttributeInference.model_validate, state.inferences),
        utility if context.utility_feedback else None,
        paper=context.paper,
    )
    result = await checked_rewrite(
        "anonymizer",
        prompt,
        rewrite_model("seal") if context.paper else Rewrite,
        context,
        step="anonymize",
        original=state.current,
        facts={
            "text": state.current,
            "policy": [
                {"attribute": i.attribute, "evidence": []}
                for i in map(AttributeInference.model_validate, state.inferences)
                if i.is_leak
            ],
        },
    )
    error = result.error(f"round {state.round + 1}")
    update: dict[str, Any] = {
        "current": result.text,
        "round": 1,
        "rejected": not result.accepted,
        "calls": result.calls,
        "iterations": [
            state.snapshot(
                # The round's last answer, as before the checks (refused or not).
                rewritten=result.answer.text,
                changes=result.answer.changes if result.accepted else "",
                error=error,
                rejections=result.refusals,
            )
        ],
    }
    if error:
        update["errors"] = [error]
    return update


def revert(state: State, runtime: Runtime[SealContext]) -> dict[str, Any]:
    """Drop a rewrite judged under the utility floor; go back to the last state."""
    last = state.trajectory[-1]
    return {
        "current": last["text"],
        "utility": last["utility"],
        "status": "utility_floor",
        "errors": [
            f"round {state.round}: rewrite dropped: utility "
            f"{state.utility_score():.3f} is under the floor "
            f"{runtime.context.min_utility}; the previous text is kept"
        ],
    }


def finish_refinement(
    state: State, runtime: Runtime[TrajectoryContextT]
) -> dict[str, Any]:
    """Publish the final text and why refinement stopped."""
    status = state.status
    if status == "running":
        status = "converged" if state.infers_nothing() else "max_iterations"
    # Every path here leaves `inferences` about `current`: an accepted rewrite
    # is attacked before the loop can end, a refused or reverted one left the
    # attacked text in place.
    left = sorted(
        {
            i.attribute
            for i in map(AttributeInference.model_validate, state.inferences)
            if i.is_leak
        }
    )
    if not runtime.context.paper:
        # An explicit cue the detectors still find is a leak, whatever a weak
        # attacker said (the paper profile counts its attacker's word only).
        attributes = protected_attributes(state.attributes, runtime.context)
        left = sorted({*left, *cue_leaks(state.current, attributes)})
    # An identifier left rules out `anonymized`, whatever the attacker said.
    left = sorted({*left, *identifier_leaks(state.current, state.replacements)})
    checker = str(llm.settings_for(runtime.context, "attacker").spec)
    return {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": status,
        "outcome": outcome_of(original_text(state), state.current, left, checker),
        "checked_by": checker,
        "leaks": left,
        "iterations": [state.snapshot(rewritten=None)],
    }
