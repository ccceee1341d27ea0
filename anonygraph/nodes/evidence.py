"""Evidence step: one inference chain per inferred attribute, quotes checked in code."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.nodes.arbitrate import render_reasoning
from anonygraph.nodes.budget import counted_intents
from anonygraph.nodes.intent import render_intents
from anonygraph.state.domain import (
    AttributeInference,
    EvidenceChain,
    chains_from_answer,
    evidence_answer_model,
)

QUOTE_MARKS = "\"'`\u201c\u201d\u2018\u2019 \t\n"
"""Characters a model wraps around a quote; stripped before the lookup."""


async def trace_evidence(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Build the evidence chains of the attributes the attacker committed to."""
    ctx = runtime.context
    leaks = [
        inference
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    if not leaks:
        return {"chains": []}
    counted = counted_intents(state.intents, ctx.intent_threshold)
    prompt = ctx.evidence_prompt.format(
        text=state.current,
        inferences=render_reasoning(leaks),
        intents=render_intents(counted),
        max_steps=ctx.max_evidence_steps,
    )
    schema = evidence_answer_model(
        [leak.attribute for leak in leaks],
        [intent.code for intent in counted],
        ctx.max_evidence_steps,
    )
    answer, calls = await models.ask_structured(
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


def locate(quote: str, text: str) -> re.Match[str] | None:
    """Find the words of ``text`` that ``quote`` copies.

    Case and runs of whitespace may differ; everything else must match, and
    the match may not start or end inside a word ("he" is not in "the").
    """
    words = quote.strip(QUOTE_MARKS).split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    if words[0][0].isalnum():
        pattern = r"(?<!\w)" + pattern
    if words[-1][-1].isalnum():
        pattern += r"(?!\w)"
    return re.search(pattern, text, flags=re.IGNORECASE)


def find_span(quote: str, text: str) -> str | None:
    """Return the span of ``text`` that ``quote`` copies, as written there, or None."""
    found = locate(quote, text)
    return found.group(0) if found else None


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
