"""The real path: IntentAnony on the embedded SmolLM2 model, on one shipped record."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from conftest import EXAMPLES

from anonygraph.attributes import resolve_attributes
from anonygraph.graphs import intentanony
from anonygraph.runs.store.checkpointers import open_checkpointer
from anonygraph.state.intentanony import (
    EvidenceChain,
    ExposureBudget,
    Intent,
    IntentAnonyContext,
    SpanEdit,
)
from anonygraph.tools.spans import find_span

log = logging.getLogger(__name__)


def test_when_intentanony_runs_on_the_embedded_model_then_one_record_is_accounted(
    tmp_path: Path,
) -> None:
    record = json.loads(EXAMPLES.read_text().splitlines()[0])
    # The record's labelled attributes and two-step chains keep it near a minute.
    attributes = resolve_attributes(list(record["labels"]))
    ctx = IntentAnonyContext(attributes=attributes, max_evidence_steps=2)
    config: Any = {"configurable": {"thread_id": f"intentanony:{record['id']}"}}

    async def go() -> dict[str, Any]:
        async with open_checkpointer(tmp_path / "runs.sqlite") as saver:
            app: Any = intentanony.build_graph().compile(checkpointer=saver)
            result: dict[str, Any] = await app.ainvoke(
                {"text": record["text"]}, config, context=ctx, durability="sync"
            )
            return result

    result = asyncio.run(go())

    assert result["status"] == "done"
    assert result["anonymized"].strip()
    intents = [Intent.model_validate(i) for i in result["intents"]]
    assert [i.code for i in intents] == ["I1", "I2", "I3", "I4", "I5"]
    budgets = [ExposureBudget.model_validate(b) for b in result["budgets"]]
    assert [b.attribute for b in budgets] == attributes
    for chain in map(EvidenceChain.model_validate, result.get("chains", [])):
        assert all(find_span(s.quote, record["text"]) for s in chain.steps)
    edits = [SpanEdit.model_validate(e) for e in result.get("edits", [])]
    roles = [c["role"] for c in result["calls"]]
    assert roles[:2] == ["intent", "attacker"]
    assert ("rewriter" in roles) == any(
        s["action"] != "keep" for c in result.get("chains", []) for s in c["steps"]
    )
    assert ("rewriter" in roles) == bool(result["iterations"][0]["rewritten"])
    assert len(edits) <= sum(len(c["steps"]) for c in result.get("chains", []))
    calls = result["calls"]
    assert {c["backend"] for c in calls} == {"local"}
    assert all(c["tokens_in"] > 0 and c["tokens_out"] > 0 for c in calls)
    assert all(c["seconds"] > 0 and c["cached"] is False for c in calls)
    log.info(
        "intentanony on %s: %d calls (%s), %d tokens in, %d tokens out, %.1f s",
        record["id"],
        len(calls),
        ", ".join(c["step"] for c in calls),
        sum(c["tokens_in"] for c in calls),
        sum(c["tokens_out"] for c in calls),
        sum(c["seconds"] for c in calls),
    )
