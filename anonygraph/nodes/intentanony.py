"""IntentAnony steps: intents, evidence chains, budgets, one rewrite, verify, finish.

The attack step is the shared `attack` (nodes/adversary.py); the rules these
steps apply are in tools/intentanony/ (exposure, evidence).
"""

from __future__ import annotations

import json
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import llm
from anonygraph.identifiers.prepass import identifier_leaks
from anonygraph.inputs import split_comments
from anonygraph.model_requests.inference import (
    infer_attributes,
    protected_attributes,
)
from anonygraph.model_requests.rewriting import checked_rewrite
from anonygraph.prompts.adversary import render_reasoning
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.intentanony import (
    render_budgets,
    render_intents,
    render_overruns,
    render_spans,
)
from anonygraph.state.answers import (
    ConstrainedRewrite,
    chains_from_answer,
    evidence_answer_model,
    intent_answer_model,
    intents_from_answer,
)
from anonygraph.state.domain import AttributeInference
from anonygraph.state.intentanony import (
    INTENT_NAMES,
    EvidenceChain,
    ExposureBudget,
    Intent,
    IntentAnonyContext,
    State,
)
from anonygraph.state.paper_answers import (
    PaperEvidence,
    PaperIntentRewrite,
    PaperIntentVector,
    paper_chains,
)
from anonygraph.state.record import original_text, outcome_of
from anonygraph.state.review import STOPPED
from anonygraph.tools.intentanony.evidence import (
    check_quotes,
    span_outcome,
    span_plan,
    violations,
)
from anonygraph.tools.intentanony.exposure import (
    budget_notes,
    budgets_for,
    check_level,
    counted_intents,
    load_table,
    mark_chain,
    over_budget,
)
from anonygraph.tools.rlaa.policy import cue_leaks


async def recognize_intents(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> dict[str, Any]:
    """Ask the intent model for the five weights and one of the table's scenes.

    The paper profile asks D.1 (weights only, no scene: the paper's G reads a
    scene no prompt produces).
    """
    ctx = runtime.context
    if ctx.paper:
        prompt = fill(ctx.intent_prompt, text=fence("text", state.current))
        vector, calls = await llm.ask_structured(
            "intent", prompt, PaperIntentVector, ctx, step="intent"
        )
        intents = [
            Intent(code=code, name=name, weight=getattr(vector, code))  # type: ignore[arg-type]
            for code, name in INTENT_NAMES.items()
        ]
        return {"intents": [i.model_dump() for i in intents], "calls": calls}
    # Check the governance options first: a bad table must fail before any call.
    check_level(ctx.default_level, "default_level")
    if ctx.privacy_level:
        check_level(ctx.privacy_level, "privacy_level")
    table = load_table(ctx)
    scenes = [table.fallback_scene, *sorted(set(table.scenes) - {table.fallback_scene})]
    prompt = fill(
        ctx.intent_prompt, text=fence("text", state.current), scenes=", ".join(scenes)
    )
    answer, calls = await llm.ask_structured(
        "intent", prompt, intent_answer_model(scenes), ctx, step="intent"
    )
    intents, scene = intents_from_answer(answer)
    return {
        "intents": [i.model_dump() for i in intents],
        "scene": scene,
        "calls": calls,
    }


async def trace_evidence(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> dict[str, Any]:
    """Build the evidence chains of the attributes the attacker committed to.

    The paper profile asks D.3 for every attribute inferred (the comments and
    the D.2 answer only) and keeps its quotes as written.
    """
    ctx = runtime.context
    inferences = [AttributeInference.model_validate(i) for i in state.inferences]
    leaks = inferences if ctx.paper else [i for i in inferences if i.is_leak]
    if not leaks:
        return {"chains": []}
    if ctx.paper:
        prompt = fill(
            ctx.evidence_prompt,
            text=fence("text", state.current),
            inferences=fence("inferences", render_reasoning(leaks)),
        )
        found, calls = await llm.ask_structured(
            "evidence", prompt, PaperEvidence, ctx, step="evidence"
        )
        names = [leak.attribute for leak in leaks]
        return {"chains": paper_chains(found, names), "calls": calls}
    counted = counted_intents(state.intents, ctx.intent_threshold)
    prompt = fill(
        ctx.evidence_prompt,
        text=fence("text", state.current),
        inferences=fence("inferences", render_reasoning(leaks)),
        intents=render_intents(counted),
        max_steps=ctx.max_evidence_steps,
    )
    schema = evidence_answer_model(
        [leak.attribute for leak in leaks],
        [intent.code for intent in counted],
        ctx.max_evidence_steps,
    )
    answer, calls = await llm.ask_structured(
        "evidence", prompt, schema, ctx, step="evidence"
    )
    chains = [
        check_quotes(chain, state.current, ctx.max_evidence_steps)
        for chain in chains_from_answer(answer)
    ]
    return {
        "chains": [c.model_dump() for c in chains],
        "calls": calls,
        "errors": [
            f"evidence for {c.attribute}: quote {q!r} is not in the text; dropped"
            for c in chains
            for q in c.dropped
        ],
    }


def assign_budgets(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> dict[str, Any]:
    """Give every attribute its budget and every evidence step its action."""
    ctx = runtime.context
    counted = counted_intents(state.intents, ctx.intent_threshold)
    budgets = budgets_for(state.attributes, state.scene, counted, ctx)
    by_attribute = {b.attribute: b for b in budgets}
    chains = [
        mark_chain(chain, by_attribute[chain.attribute], counted)
        for chain in map(EvidenceChain.model_validate, state.chains)
        if chain.attribute in by_attribute
    ]
    inferences = [AttributeInference.model_validate(i) for i in state.inferences]
    return {
        "budgets": [b.model_dump() for b in budgets],
        "chains": [c.model_dump() for c in chains],
        "exceeded": over_budget(inferences, budgets),
        "errors": budget_notes(budgets, state.scene, ctx),
    }


async def rewrite(state: State, runtime: Runtime[IntentAnonyContext]) -> dict[str, Any]:
    """Rewrite ``state.current`` once under the plan; report every plan violation.

    The paper profile sends D.4: the model decides each attribute's
    granularity from the intents, the D.2 answer and the D.3 chains; no
    budgets, no span plan.
    """
    ctx = runtime.context
    if ctx.paper:
        return await _paper_rewrite(state, ctx)
    plan = span_plan(state.chains, state.current)
    budgets = render_budgets(
        [AttributeInference.model_validate(i) for i in state.inferences],
        [ExposureBudget.model_validate(b) for b in state.budgets],
    )
    prompt = fill(
        ctx.rewrite_prompt,
        text=fence("text", state.current),
        intents=render_intents(counted_intents(state.intents, ctx.intent_threshold)),
        budgets=fence("budgets", budgets),
        edits=fence("edit_spans", render_spans(plan, edit=True)),
        keep=fence("keep_spans", render_spans(plan, edit=False)),
        feedback=render_overruns(state.exceeded) if state.round or not plan else "",
    )
    result = await checked_rewrite(
        "rewriter",
        prompt,
        ConstrainedRewrite,
        ctx,
        step="rewrite",
        original=state.current,
        evidence=[s["quote"] for s in plan if s["action"] != "keep"],
    )
    accepted = result.text
    edits = [span_outcome(span, state.current, accepted) for span in plan]
    error = result.error(f"rewrite {state.round + 1}")
    errors = [error] if error else []
    if result.accepted:
        errors += violations(edits, state.round + 1)
    return {
        "current": accepted,
        "round": 1,
        "edits": [e.model_dump() for e in edits],
        "calls": result.calls,
        "errors": errors,
        "iterations": [
            state.snapshot(
                rewritten=accepted,
                edits=[e.model_dump() for e in edits],
                error=error,
                rejections=result.refusals,
            )
        ],
    }


async def _paper_rewrite(state: State, ctx: IntentAnonyContext) -> dict[str, Any]:
    inferences = [AttributeInference.model_validate(i) for i in state.inferences]
    vector = {i["code"]: i["weight"] for i in state.intents}
    prompt = fill(
        ctx.rewrite_prompt,
        text=fence("text", state.current),
        inferences=fence("inferences", render_reasoning(inferences)),
        evidence=fence("evidence_chains", json.dumps(state.chains, indent=1)),
        intents=fence("intents", json.dumps(vector)),
    )
    result = await checked_rewrite(
        "rewriter",
        prompt,
        PaperIntentRewrite,
        ctx,
        step="rewrite",
        original=state.current,
        text_of=lambda answer: answer.anonymized_text,
    )
    return {
        "current": result.text,
        "round": 1,
        "calls": result.calls,
        "iterations": [state.snapshot(rewritten=result.text)],
    }


async def verify(state: State, runtime: Runtime[IntentAnonyContext]) -> dict[str, Any]:
    """Beyond the paper: attack the rewrite again and list the budget overruns."""
    inferences, _, calls = await infer_attributes(
        state.current, state.attributes, runtime.context
    )
    budgets = [ExposureBudget.model_validate(b) for b in state.budgets]
    return {
        "inferences": inferences,
        "exceeded": over_budget(
            [AttributeInference.model_validate(i) for i in inferences], budgets
        ),
        # The attack request names its calls "attack"; these checked a rewrite.
        "calls": [{**call, "step": "verify"} for call in calls],
    }


def finish_budgets(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> dict[str, Any]:
    """Publish the final text and whether it met its budgets."""
    verified = runtime.context.verify
    status = "done"
    if state.stopped_in_review():
        status = STOPPED
    elif verified:
        status = "over_budget" if state.exceeded else "within_budget"
    update: dict[str, Any] = {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": status,
    }
    # The last inferences describe the final text only when no rewrite followed
    # them: no rewrite at all, or the verify step ran after the last one (a
    # reviewer's stop comes before a rewrite, so it is one of these).
    if state.round == 0 or verified:
        update["iterations"] = [state.snapshot(rewritten=None)]
        # Checked: the leaks left are the attributes over their budget.
        left = sorted({str(e.get("attribute")) for e in state.exceeded})
        if not runtime.context.paper:
            # An explicit cue the detectors still find is a leak all the same.
            attributes = protected_attributes(state.attributes, runtime.context)
            left = sorted({*left, *cue_leaks(state.current, attributes)})
        # An identifier left rules out `anonymized`, whatever the attacker said.
        left = sorted({*left, *identifier_leaks(state.current, state.replacements)})
        checker = str(llm.settings_for(runtime.context, "attacker").spec)
        update["outcome"] = outcome_of(
            original_text(state), state.current, left, checker
        )
        update["checked_by"] = checker
        update["leaks"] = left
    return update
