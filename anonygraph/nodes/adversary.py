"""Adversarial-loop steps: attack, arbitrate (RLAA), forward (FgAA), anonymize, finish.

RLAA and FgAA are made of these; SEAL and IntentAnony use `attack`, AURA's
masking rounds use `anonymize`.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.inputs import split_comments
from anonygraph.model_requests.inference import infer_attributes, protected_attributes
from anonygraph.model_requests.rewriting import checked_rewrite
from anonygraph.prompts.adversary import render_feedback, render_reasoning
from anonygraph.prompts.common import fence, fill
from anonygraph.state.answers import Rewrite, verdict_answer_model, verdicts_from_answer
from anonygraph.state.context import Context, ModelContextT, RewriteOptionsT
from anonygraph.state.domain import AttributeInference, PolicyItem
from anonygraph.state.iterative import AdversaryState, IterativeState
from anonygraph.state.record import original_text, outcome_of
from anonygraph.state.review import STOPPED
from anonygraph.state.rlaa import State
from anonygraph.tools.rlaa.policy import select_policy, surviving_cues


async def attack(
    state: IterativeState, runtime: Runtime[ModelContextT]
) -> dict[str, Any]:
    """Infer every protected attribute from ``state.current``."""
    inferences, _, calls = await infer_attributes(
        state.current, state.attributes, runtime.context
    )
    return {"inferences": inferences, "calls": calls}


def _with_cue_check(
    state: AdversaryState, context: Context, policy: list[PolicyItem]
) -> list[dict[str, Any]]:
    """Add explicit cues a model anonymizer left to ``policy`` (the final check).

    Only cues that survived a rewrite count (round 1 on): before any rewrite
    the arbitrator's verdicts stand. The ``rules`` attacker names a guess
    only where a cue's value is one of the attribute's options (a school's
    name is none), so the check runs behind it too.
    """
    if state.round:
        attributes = protected_attributes(state.attributes, context)
        policy = policy + surviving_cues(state.current, attributes, policy)
    return [p.model_dump() for p in policy]


async def arbitrate(state: AdversaryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate the attacker's reasoning and keep only actionable leaks."""
    leaks = [
        inference
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    if not leaks:
        return {"verdicts": [], "policy": _with_cue_check(state, runtime.context, [])}
    attributes = protected_attributes(state.attributes, runtime.context)
    prompt = fill(
        runtime.context.arbitrate_prompt,
        text=fence("text", state.current),
        attributes=fence("attributes", ", ".join(attributes)),
        reasoning=fence("attacker_reasoning", render_reasoning(leaks)),
    )
    answer, calls = await models.ask_structured(
        "arbitrator",
        prompt,
        verdict_answer_model([leak.attribute for leak in leaks]),
        runtime.context,
        step="arbitrate",
        facts={
            "text": state.current,
            "attributes": attributes,
            "inferences": [leak.model_dump() for leak in leaks],
        },
    )
    verdicts = verdicts_from_answer(answer)
    return {
        "verdicts": [v.model_dump() for v in verdicts],
        "policy": _with_cue_check(state, runtime.context, select_policy(verdicts)),
        "calls": calls,
    }


def forward_inferences(
    state: AdversaryState, runtime: Runtime[Context]
) -> dict[str, Any]:
    """Pass every inference on unfiltered: FgAA has no arbitrator."""
    policy = [
        PolicyItem(
            attribute=inference.attribute,
            action="address",
            evidence=[],
            concept=f"guessed {', '.join(inference.guesses)} because: "
            f"{inference.reasoning}",
        )
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    return {"verdicts": [], "policy": _with_cue_check(state, runtime.context, policy)}


async def anonymize(
    state: AdversaryState, runtime: Runtime[RewriteOptionsT]
) -> dict[str, Any]:
    """Rewrite ``state.current`` once; keep it when no rewrite passes the checks."""
    policy = [PolicyItem.model_validate(p) for p in state.policy]
    prompt = fill(
        runtime.context.anonymize_prompt,
        text=fence("text", state.current),
        feedback=fence("leaks", render_feedback(policy)),
    )
    result = await checked_rewrite(
        "anonymizer",
        prompt,
        Rewrite,
        runtime.context,
        step="anonymize",
        original=state.current,
        facts={"text": state.current, "policy": [p.model_dump() for p in policy]},
        evidence=[e for p in policy for e in p.evidence],
    )
    error = result.error(f"round {state.round + 1}")
    update: dict[str, Any] = {
        "current": result.text,
        "round": 1,
        "calls": result.calls,
        "iterations": [
            state.snapshot(
                rewritten=result.text,
                changes=result.answer.changes if result.accepted else "",
                error=error,
                rejections=result.refusals,
            )
        ],
    }
    if error:
        update["errors"] = [error]
    return update


def finish_loop(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Publish the final text, its outcome and the leaks left.

    The loop always ends on an attack of the final text (and, in RLAA, its
    arbitration), so ``policy`` lists what the run's attacker still finds; a
    reviewer's stop ends it with the text as it stands.
    """
    left = sorted({PolicyItem.model_validate(p).attribute for p in state.policy})
    status = "converged" if not left else "max_iterations"
    checker = models.settings_for(runtime.context, "attacker").spec
    return {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": STOPPED if state.stopped_in_review() else status,
        "outcome": outcome_of(original_text(state), state.current, left, checker),
        "checked_by": checker,
        "leaks": left,
        "iterations": [state.snapshot(rewritten=None)],
    }
