"""Adversarial-loop steps: attack, arbitrate (RLAA), forward (FgAA), anonymize, finish.

RLAA and FgAA are made of these; SEAL and IntentAnony use `attack`, AURA's
masking rounds use `anonymize`.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import llm
from anonygraph.identifiers.prepass import identifier_leaks
from anonygraph.inputs import split_comments
from anonygraph.model_requests.inference import infer_attributes, protected_attributes
from anonygraph.model_requests.rewriting import checked_rewrite
from anonygraph.prompts.adversary import (
    render_feedback,
    render_inference_blocks,
    render_paper_feedback,
    render_paper_reasoning,
    render_reasoning,
)
from anonygraph.prompts.common import fence, fill
from anonygraph.state.answers import Rewrite, verdict_answer_model, verdicts_from_answer
from anonygraph.state.context import (
    Context,
    ContextT,
    ModelContextT,
    RewriteOptionsT,
)
from anonygraph.state.domain import AttributeInference, PolicyItem
from anonygraph.state.iterative import AdversaryState, IterativeState
from anonygraph.state.paper_answers import PaperVerdicts, paper_verdicts, rewrite_model
from anonygraph.state.record import NOT_CHECKED, original_text, outcome_of
from anonygraph.state.review import STOPPED
from anonygraph.state.rlaa import State
from anonygraph.tools.rlaa.policy import cue_leaks, select_policy, surviving_cues


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
    the arbitrator's verdicts stand (`finish_loop` still counts a cue left in
    an unedited text as a leak). The ``rules`` attacker names a guess only
    where a cue's value is one of the attribute's options (a school's name is
    none), so the check runs behind it too. Off with ``cue_check`` (the paper
    profile): only the arbitrator's verdicts or the attacker's inferences act.
    """
    if context.cue_check and state.round:
        attributes = protected_attributes(state.attributes, context)
        policy = policy + surviving_cues(state.current, attributes, policy)
    return [p.model_dump() for p in policy]


def fed_back(
    inferences: list[dict[str, Any]], context: Context
) -> list[AttributeInference]:
    """The inferences a step acts on: committed guesses, or all in the paper profile.

    The papers pass every attribute's inference on (RLAA's arbitrator
    analyses each; FgAA feeds back every one); the product acts only on
    attributes the attacker committed to.
    """
    parsed = [AttributeInference.model_validate(i) for i in inferences]
    return parsed if context.paper else [i for i in parsed if i.is_leak]


async def arbitrate(state: AdversaryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate the attacker's reasoning and keep only actionable leaks."""
    context = runtime.context
    leaks = fed_back(state.inferences, context)
    if not leaks:
        return {"verdicts": [], "policy": _with_cue_check(state, context, [])}
    attributes = protected_attributes(state.attributes, context)
    render = render_paper_reasoning if context.paper else render_reasoning
    prompt = fill(
        context.arbitrate_prompt,
        text=fence("text", state.current),
        attributes=fence("attributes", ", ".join(attributes)),
        reasoning=fence("attacker_reasoning", render(leaks)),
    )
    names = [leak.attribute for leak in leaks]
    answer, calls = await llm.ask_structured(
        "arbitrator",
        prompt,
        PaperVerdicts if context.paper else verdict_answer_model(names),
        context,
        step="arbitrate",
        facts={
            "text": state.current,
            "attributes": attributes,
            "inferences": [leak.model_dump() for leak in leaks],
        },
    )
    verdicts = (
        paper_verdicts(answer, names)
        if isinstance(answer, PaperVerdicts)
        else verdicts_from_answer(answer)
    )
    return {
        "verdicts": [v.model_dump() for v in verdicts],
        "policy": _with_cue_check(state, runtime.context, select_policy(verdicts)),
        "calls": calls,
    }


def forward_inferences(
    state: AdversaryState, runtime: Runtime[ContextT]
) -> dict[str, Any]:
    """Pass the inferences on unfiltered by an arbitrator: FgAA has none.

    The product passes committed guesses; the paper profile every attribute.
    """
    policy = [
        PolicyItem(
            attribute=inference.attribute,
            action="address",
            evidence=[],
            concept=f"guessed {', '.join(inference.guesses)} because: "
            f"{inference.reasoning}",
        )
        for inference in fed_back(state.inferences, runtime.context)
    ]
    return {"verdicts": [], "policy": _with_cue_check(state, runtime.context, policy)}


async def anonymize(
    state: AdversaryState, runtime: Runtime[RewriteOptionsT]
) -> dict[str, Any]:
    """Rewrite ``state.current`` once; keep it when no rewrite passes the checks."""
    context = runtime.context
    policy = [PolicyItem.model_validate(p) for p in state.policy]
    paper = getattr(context, "paper", False)
    method = getattr(context, "PAPER_METHOD", "")
    inferences = [AttributeInference.model_validate(i) for i in state.inferences]
    # Each template reads its own slots: RLAA's {feedback}, FgAA's (SEAL D.1)
    # {inferences}; the paper formats apply to the methods whose paper has them.
    feedback = render_paper_feedback if paper and method == "rlaa" else render_feedback
    prompt = fill(
        context.anonymize_prompt,
        text=fence("text", state.current),
        feedback=fence("leaks", feedback(policy)),
        inferences=fence("inferences", render_inference_blocks(inferences)),
    )
    result = await checked_rewrite(
        "anonymizer",
        prompt,
        rewrite_model(method) if paper else Rewrite,
        context,
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


def finish_loop(state: State, runtime: Runtime[ContextT]) -> dict[str, Any]:
    """Publish the final text, its outcome and the leaks left.

    In the product the loop always ends on an attack of the final text (and,
    in RLAA, its arbitration), so ``policy`` lists what the run's attacker
    still finds, with any explicit cue the detectors find; a reviewer's stop
    ends it with the text as it stands. In the paper profile the T-th rewrite
    ends the loop unattacked (Algorithm 1 returns x(T)): its outcome is "not
    checked".
    """
    context = runtime.context
    stopped = state.stopped_in_review()
    if context.paper and state.round >= context.max_iterations and not stopped:
        return {
            "anonymized": state.current,
            "anonymized_comments": split_comments(state.current, len(state.comments)),
            "status": "max_iterations",
            "outcome": NOT_CHECKED,
            "checked_by": "",
            "leaks": [],
            "iterations": [state.snapshot(rewritten=None)],
        }
    left = sorted({PolicyItem.model_validate(p).attribute for p in state.policy})
    status = "converged" if not left else "max_iterations"
    if context.cue_check:
        # A weak attacker may call "I live in Calgary" clean: an explicit cue
        # the detectors still find is a leak of the outcome all the same.
        attributes = protected_attributes(state.attributes, context)
        left = sorted({*left, *cue_leaks(state.current, attributes)})
    # An identifier left rules out `anonymized`, whatever the attacker said.
    left = sorted({*left, *identifier_leaks(state.current, state.replacements)})
    checker = str(llm.settings_for(context, "attacker").spec)
    return {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": STOPPED if stopped else status,
        "outcome": outcome_of(original_text(state), state.current, left, checker),
        "checked_by": checker,
        "leaks": left,
        "iterations": [state.snapshot(rewritten=None)],
    }
