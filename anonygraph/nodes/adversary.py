"""Adversarial-loop steps: attack, arbitrate (RLAA), forward (FgAA), anonymize, finish.

RLAA and FgAA are made of these; SEAL and IntentAnony use `attack`, AURA's
masking rounds use `anonymize`.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.inference import infer_attributes, protected_attributes
from anonygraph.inputs import split_comments
from anonygraph.prompts.adversary import render_feedback, render_reasoning
from anonygraph.prompts.common import fence, fill
from anonygraph.state.answers import Rewrite, verdict_answer_model, verdicts_from_answer
from anonygraph.state.context import Context, ModelContextT, RewriteOptionsT
from anonygraph.state.domain import AttributeInference, PolicyItem
from anonygraph.state.iterative import AdversaryState, IterativeState
from anonygraph.state.review import STOPPED
from anonygraph.state.rlaa import State
from anonygraph.tools.acceptance import rewrite_problem
from anonygraph.tools.policy import select_policy


async def attack(
    state: IterativeState, runtime: Runtime[ModelContextT]
) -> dict[str, Any]:
    """Infer every protected attribute from ``state.current``."""
    inferences, _, calls = await infer_attributes(
        state.current, state.attributes, runtime.context
    )
    return {"inferences": inferences, "calls": calls}


async def arbitrate(state: AdversaryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate the attacker's reasoning and keep only actionable leaks."""
    leaks = [
        inference
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    if not leaks:
        return {"verdicts": [], "policy": []}
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
    )
    verdicts = verdicts_from_answer(answer)
    return {
        "verdicts": [v.model_dump() for v in verdicts],
        "policy": [p.model_dump() for p in select_policy(verdicts)],
        "calls": calls,
    }


def forward_inferences(state: AdversaryState) -> dict[str, Any]:
    """Pass every inference on unfiltered: FgAA has no arbitrator."""
    policy = [
        PolicyItem(
            attribute=inference.attribute,
            action="address",
            evidence=[],
            concept=f"guessed {', '.join(inference.guesses)} because: "
            f"{inference.reasoning}",
        ).model_dump()
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    return {"verdicts": [], "policy": policy}


async def anonymize(
    state: AdversaryState, runtime: Runtime[RewriteOptionsT]
) -> dict[str, Any]:
    """Rewrite ``state.current`` once; keep it when the rewrite is unusable."""
    policy = [PolicyItem.model_validate(p) for p in state.policy]
    prompt = fill(
        runtime.context.anonymize_prompt,
        text=fence("text", state.current),
        feedback=fence("leaks", render_feedback(policy)),
    )
    answer, calls = await models.ask_structured(
        "anonymizer", prompt, Rewrite, runtime.context, step="anonymize"
    )
    problem = rewrite_problem(
        state.current, answer.text, runtime.context.min_length_ratio
    )
    accepted = answer.text.strip() if problem is None else state.current
    update: dict[str, Any] = {
        "current": accepted,
        "round": 1,
        "calls": calls,
        "iterations": [
            state.snapshot(rewritten=accepted, changes=answer.changes, error=problem)
        ],
    }
    if problem:
        update["errors"] = [f"round {state.round + 1}: rewrite rejected: {problem}"]
    return update


def finish_loop(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Publish the final text and why the loop stopped."""
    stopped = state.stopped_in_review()
    converged = not stopped and state.round < runtime.context.max_iterations
    status = "converged" if converged else "max_iterations"
    update: dict[str, Any] = {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": STOPPED if stopped else status,
    }
    # The latest inferences are about the final text unless a rewrite followed.
    if converged or stopped:
        update["iterations"] = [state.snapshot(rewritten=None)]
    return update
