"""SEAL's real path: the embedded model writes trajectories, then TRL-ready data."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES
from trl.data_utils import is_conversational

from anonygraph import cli
from anonygraph.graphs import GRAPHS, seal
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.training.data import FILES, load_trajectories
from anonygraph.training.trl_format import check_row, read_jsonl


def test_when_the_embedded_model_plays_the_teachers_then_data_files_fit_trl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GRAPHS, "seal_trajectory", seal.build_trajectory_graph)
    source = tmp_path / "two.jsonl"
    source.write_text("".join(EXAMPLES.read_text().splitlines(keepends=True)[:2]))
    db = tmp_path / "runs.sqlite"
    options = RunOptions(
        method="seal_trajectory",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(db),
        # Small T and three attributes keep this to about two minutes on 2 cores.
        context={
            "max_iterations": 2,
            "attributes": ["sex", "occupation", "city_country"],
        },
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    assert (summary.done, summary.failed, summary.bad_lines) == (2, 0, [])
    calls = RunStore(db).db.query("select * from model_calls")
    assert {c["backend"] for c in calls} == {"local"}
    assert {"attacker", "judge"} <= {c["role"] for c in calls}
    trajectories = load_trajectories(db, summary.run_id)
    assert len(trajectories) == 2
    for steps in trajectories:
        assert 1 <= len(steps) <= 3
        assert [s.index for s in steps] == list(range(len(steps)))
        assert all(len(s.inferences) == 3 for s in steps)

    out = tmp_path / "data"
    # Through the parser, so every flag of `seal data` has its default.
    assert cli.main(["seal", "data", "--db", str(db), "--run", summary.run_id,
                     "--out", str(out)]) == 0  # fmt: skip

    counts = json.loads((out / "summary.json").read_text())
    sys.stderr.write(f"\nSEAL data from the embedded model: {json.dumps(counts)}\n")
    assert counts["priv"] == counts["util"] == sum(len(t) for t in trajectories)
    for name, filename in FILES.items():
        rows = read_jsonl(out / filename)
        assert len(rows) == counts[name]
        for row in rows:
            check_row(name, row)
            assert is_conversational(row)
