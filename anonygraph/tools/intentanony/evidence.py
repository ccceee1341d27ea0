"""IntentAnony's evidence spans: check quotes, plan span edits, judge the outcome."""

from __future__ import annotations

from typing import Any

from anonygraph.state.intentanony import EvidenceChain, SpanEdit
from anonygraph.tools.intentanony.exposure import ACTION_ORDER
from anonygraph.tools.spans import find_span, replacement


def check_quotes(chain: EvidenceChain, text: str, max_steps: int) -> EvidenceChain:
    """Keep steps whose quote is in ``text`` (as it stands there), drop the rest."""
    steps, dropped, seen = [], [], set()
    for step in chain.steps[:max_steps]:
        span = find_span(step.quote, text)
        if span is None:
            dropped.append(step.quote)
        elif span.casefold() not in seen:
            seen.add(span.casefold())
            steps.append(step.model_copy(update={"quote": span}))
    return chain.model_copy(update={"steps": steps, "dropped": dropped})


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
