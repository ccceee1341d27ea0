"""Rewrite step: one constrained rewrite of the planned spans, checked span by span."""

from __future__ import annotations

import difflib
import re
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.inputs import split_comments
from anonygraph.nodes.anonymize import rewrite_problem
from anonygraph.nodes.budget import ACTION_ORDER, counted_intents
from anonygraph.nodes.evidence import find_span, locate
from anonygraph.nodes.intent import render_intents
from anonygraph.prompts.rewrite import (
    BUDGET_LINE,
    EDIT_LINE,
    FEEDBACK_LINE,
    FEEDBACK_SECTION,
    KEEP_LINE,
    LEVEL_MEANINGS,
    NOTHING,
)
from anonygraph.state.domain import (
    AttributeInference,
    ConstrainedRewrite,
    EvidenceChain,
    ExposureBudget,
    SpanEdit,
)


async def rewrite(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Rewrite ``state.current`` once under the plan; report every plan violation."""
    ctx = runtime.context
    plan = span_plan(state.chains, state.current)
    prompt = ctx.rewrite_prompt.format(
        text=state.current,
        intents=render_intents(counted_intents(state.intents, ctx.intent_threshold)),
        budgets=render_budgets(state),
        edits=render_spans(plan, edit=True),
        keep=render_spans(plan, edit=False),
        feedback=render_feedback(state.exceeded) if state.round or not plan else "",
    )
    answer, calls = await models.ask_structured(
        "rewriter", prompt, ConstrainedRewrite, ctx, step="rewrite"
    )
    problem = rewrite_problem(state.current, answer.text, ctx.min_length_ratio)
    accepted = answer.text.strip() if problem is None else state.current
    edits = [span_outcome(span, state.current, accepted) for span in plan]
    if problem:
        errors = [f"rewrite {state.round + 1}: rejected: {problem}"]
    else:
        errors = violations(edits, state.round + 1)
    return {
        "current": accepted,
        "round": 1,
        "edits": [e.model_dump() for e in edits],
        "calls": calls,
        "errors": errors,
        "iterations": [
            iteration_entry(
                state,
                rewritten=accepted,
                edits=[e.model_dump() for e in edits],
                error=problem,
            )
        ],
    }


def span_plan(chains: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Merge the chains' spans still in ``text``; the strictest action wins."""
    merged: dict[str, dict[str, Any]] = {}
    for chain in map(EvidenceChain.model_validate, chains):
        for step in chain.steps:
            span = find_span(step.quote, text)
            if span is None:
                continue  # edited away in an earlier round
            entry = merged.setdefault(
                span.casefold(),
                {"quote": span, "attributes": [], "action": "keep"},
            )
            entry["attributes"].append(chain.attribute)
            entry["intent_relevant"] = entry.get("intent_relevant", False) or (
                step.intent_relevant
            )
            if ACTION_ORDER[step.action] > ACTION_ORDER[entry["action"]]:
                entry["action"] = step.action
    # A kept span only binds the rewriter when an intent needs it (L0 spans may
    # move for fluency), so the plan lists edits and intent-relevant keeps.
    return [s for s in merged.values() if s["action"] != "keep" or s["intent_relevant"]]


def render_spans(plan: list[dict[str, Any]], *, edit: bool) -> str:
    """List the spans to edit (``edit``) or to keep verbatim, one line each."""
    lines = [
        EDIT_LINE.format(
            action=s["action"], quote=s["quote"], attributes=", ".join(s["attributes"])
        )
        if edit
        else KEEP_LINE.format(quote=s["quote"])
        for s in plan
        if (s["action"] != "keep") == edit
    ]
    return "\n".join(lines) or NOTHING


def render_budgets(state: Any) -> str:
    """List the budgets of the attributes an attacker committed to."""
    leaks = {
        i.attribute: i
        for i in map(AttributeInference.model_validate, state.inferences)
        if i.is_leak
    }
    lines = [
        BUDGET_LINE.format(
            attribute=b.attribute,
            level=b.level,
            meaning=LEVEL_MEANINGS[b.level],
            guess=f" (an attacker guessed: {', '.join(leaks[b.attribute].guesses)})",
        )
        for b in map(ExposureBudget.model_validate, state.budgets)
        if b.attribute in leaks
    ]
    return "\n".join(lines) or NOTHING


def render_feedback(exceeded: list[dict[str, Any]]) -> str:
    """Say which attributes are still over budget (verify loop), or nothing."""
    if not exceeded:
        return ""
    lines = [
        FEEDBACK_LINE.format(**{**e, "guesses": ", ".join(e["guesses"])})
        for e in exceeded
    ]
    return FEEDBACK_SECTION.format(lines="\n".join(lines))


def span_outcome(span: dict[str, Any], before: str, after: str) -> SpanEdit:
    """Say whether ``span`` survived the rewrite and, if not, what replaced it."""
    kept = find_span(span["quote"], after) is not None
    return SpanEdit(
        quote=span["quote"],
        attributes=span["attributes"],
        action=span["action"],
        intent_relevant=span["intent_relevant"],
        outcome="kept" if kept else "changed",
        replaced_by=None if kept else replacement(span["quote"], before, after),
    )


TOKEN = re.compile(r"\w+|[^\w\s]")
"""Words and punctuation marks: the units the span diff aligns."""


def replacement(quote: str, before: str, after: str) -> str:
    """Return the part of ``after`` that took the place of ``quote`` in ``before``."""
    found = locate(quote, before)
    if found is None:
        return ""
    old = list(TOKEN.finditer(before))
    new = list(TOKEN.finditer(after))
    inside = [
        i
        for i, m in enumerate(old)
        if m.end() > found.start() and m.start() < found.end()
    ]
    lo, hi = inside[0], inside[-1] + 1
    matcher = difflib.SequenceMatcher(
        None, [m.group(0) for m in old], [m.group(0) for m in new], autojunk=False
    )
    picked: list[int] = []
    for tag, b1, b2, a1, a2 in matcher.get_opcodes():
        if b2 <= lo or b1 >= hi:
            continue
        if tag == "equal":
            picked += range(a1 + max(lo, b1) - b1, a1 + min(hi, b2) - b1)
        else:
            picked += range(a1, a2)
    if not picked:
        return ""
    return after[new[min(picked)].start() : new[max(picked)].end()]


def violations(edits: list[SpanEdit], rewrite_no: int) -> list[str]:
    """Describe every span the rewrite treated against the plan."""
    problems = []
    for edit in edits:
        if not edit.violates_plan:
            continue
        if edit.action == "keep":
            problems.append(
                f"rewrite {rewrite_no}: altered intent-relevant span "
                f"{edit.quote!r} ({', '.join(edit.attributes)}) into "
                f"{edit.replaced_by!r}"
            )
        else:
            problems.append(
                f"rewrite {rewrite_no}: left span {edit.quote!r} "
                f"({', '.join(edit.attributes)}) unedited; the plan said "
                f"{edit.action}"
            )
    return problems


def iteration_entry(state: Any, **outcome: Any) -> dict[str, Any]:
    """Snapshot one rewrite (or the final text) for Studio and the store."""
    return {
        "round": state.round,
        "text": state.current,
        "inferences": state.inferences,
        "intents": state.intents,
        "scene": state.scene,
        "chains": state.chains,
        "budgets": state.budgets,
        "exceeded": state.exceeded,
        **outcome,
    }


def finish(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Publish the final text and whether it met its budgets."""
    verified = runtime.context.verify
    status = "done"
    if verified:
        status = "over_budget" if state.exceeded else "within_budget"
    update: dict[str, Any] = {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": status,
    }
    # The last inferences describe the final text only when no rewrite followed
    # them: no rewrite at all, or the verify step ran after the last one.
    if state.round == 0 or verified:
        update["iterations"] = [iteration_entry(state, rewritten=None)]
    return update
