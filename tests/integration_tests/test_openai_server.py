"""RLAA and the evaluator against a real OpenAI-compatible server (llama_cpp.server).

The server is stopped in the middle of a run and started again: the re-run
completes, no answered request is sent twice, every record is written once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from servers import LlamaServer, RecordingProxy, free_port

from anonygraph.reporting import report
from anonygraph.runs.store import RunStore

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, timeout: float = 900) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "ANONYGRAPH_SERVER_RETRIES": "2",
        "ANONYGRAPH_SERVER_BACKOFF": "0.1",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "anonygraph.cli", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def interrupted_run(
    llama_server: LlamaServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """Run RLAA on two records through a proxy; kill the server mid-run; re-run."""
    tmp = tmp_path_factory.mktemp("openai-run")
    source = tmp / "two.jsonl"
    source.write_text("".join(EXAMPLES.read_text().splitlines(keepends=True)[:2]))
    # The proxy goes silent after its first answer, so the first record is cut
    # part-way through however fast the run is; then the server really stops.
    proxy = RecordingProxy(llama_server.port, free_port(), answer_limit=1)
    proxy.start()
    spec = f"openai:smol@{proxy.url}"
    command = ["run", "--method", "rlaa", "--input", str(source),
               "--output", str(tmp / "out.jsonl"), "--db", str(tmp / "runs.sqlite"),
               "--model", f"default={spec}", "--max-iterations", "1",
               "--attributes", "age", "--no-progress"]  # fmt: skip
    first = cli(*command)
    # Stop once the first answer came back: the first record is part-way through.
    deadline = time.monotonic() + 600
    while not any(s == 200 for _, s in proxy.answered) and first.poll() is None:
        assert time.monotonic() < deadline, "the server answered nothing"
        time.sleep(0.2)
    proxy.stop()
    llama_server.stop()
    _, first_err = first.communicate(timeout=600)
    lines_after_first = (tmp / "out.jsonl").read_text().splitlines()

    llama_server.start()
    proxy.answer_limit = None
    proxy.start()
    second = cli(*command)
    _, second_err = second.communicate(timeout=900)
    proxy.stop()
    return {
        "tmp": tmp,
        "spec": spec,
        "proxy": proxy,
        "first": (first.returncode, first_err),
        "second": (second.returncode, second_err),
        "lines_after_first": lines_after_first,
    }


def test_when_the_server_stops_mid_run_then_records_fail_naming_it_and_none_is_written(
    interrupted_run: dict[str, Any],
) -> None:
    code, err = interrupted_run["first"]
    url = interrupted_run["spec"].partition("@")[2]
    assert code == 1, err
    assert "failed" in err and url in err and "connection failed" in err, err
    written = [json.loads(line)["id"] for line in interrupted_run["lines_after_first"]]
    assert len(written) < 2  # a failed record is never written out as anonymized


def test_when_the_server_is_back_then_the_rerun_completes_without_repeating_calls(
    interrupted_run: dict[str, Any],
) -> None:
    code, err = interrupted_run["second"]
    assert code == 0, err
    assert "structured output: " + interrupted_run["spec"] + " -> json_object" in err
    out = interrupted_run["tmp"] / "out.jsonl"
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == ["r01", "r02"]
    answered = Counter(h for h, s in interrupted_run["proxy"].answered if s == 200)
    assert answered and max(answered.values()) == 1
    store = RunStore(interrupted_run["tmp"] / "runs.sqlite")
    modes = store.db.query("select * from server_modes")
    assert [(m["model"], m["mode"]) for m in modes] == [("smol", "json_object")]
    assert "json_schema refused (HTTP 500" in modes[0]["note"]


def test_when_the_run_is_evaluated_on_the_server_then_scores_name_their_models(
    interrupted_run: dict[str, Any], llama_server: LlamaServer
) -> None:
    tmp: Path = interrupted_run["tmp"]
    db = str(tmp / "runs.sqlite")
    run_id = RunStore(db).runs()[0]["id"]
    spec = f"openai:smol@{llama_server.url}"
    models = ["--model", f"attacker={spec}", "--model", f"judge={spec}"]
    evaluation = cli("eval", "--run", run_id, "--db", db, *models, "--no-progress")
    _, err = evaluation.communicate(timeout=900)
    assert evaluation.returncode in (0, 1), err  # 1: a judgement that failed, stored
    assert f"structured output: {spec} -> json_object" in err
    store = RunStore(db)
    rows = store.evaluations(store.latest_eval(run_id) or "")
    assert {r["row"] for r in rows} == {"original", "final"}
    assert any(r["status"] == "done" and r["matches"] != "[]" for r in rows)
    assert any(r["status"] == "done" and r["utility"] != "{}" for r in rows)
    calls = store.db.query(
        "select * from model_calls where run_id like ?", [f"{run_id}/%"]
    )
    assert {c["model"] for c in calls} == {spec}
    assert "attacker" in {c["role"] for c in calls}
    changed = [r for r in store.records(run_id) if r["anonymized"] != r["original"]]
    if changed:  # an unchanged text keeps full utility without a judge call
        assert "judge" in {c["role"] for c in calls}

    files = report.write_report(db, str(tmp / "report"))
    table = files["markdown"].read_text()
    assert table.splitlines()[2].startswith("| method | profile | run |")
    assert table.count(f"| {spec} | {spec} |") == 2  # original and the run
    header = files["csv"].read_text().splitlines()[0]
    assert header.endswith("attacker,judge")
