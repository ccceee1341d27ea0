"""The real path: RLAA on the embedded SmolLM2 model, on shipped records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from conftest import EXAMPLES

from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore


def test_when_rlaa_runs_on_the_embedded_model_then_two_records_finish_accounted(
    tmp_path: Path,
) -> None:
    source = tmp_path / "two.jsonl"
    source.write_text("".join(EXAMPLES.read_text().splitlines(keepends=True)[:2]))
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={"max_iterations": 1, "default_model": "local"},
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    assert (summary.done, summary.failed, summary.bad_lines) == (2, 0, [])
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [x["id"] for x in lines] == ["r01", "r02"]
    assert all(
        x["text"].strip() and x["status"] in ("converged", "max_iterations")
        for x in lines
    )
    store = RunStore(tmp_path / "runs.sqlite")
    for row in store.records(summary.run_id):
        assert row["calls"] >= 2 and row["tokens_in"] > 0 and row["tokens_out"] > 0
        assert 0 < row["model_seconds"] <= row["wall_seconds"]
    calls = store.db.query("select * from model_calls")
    assert {c["backend"] for c in calls} == {"local"}
    assert {"attacker", "arbitrator"} <= {c["role"] for c in calls}
    assert summary.totals["records"] == 2
