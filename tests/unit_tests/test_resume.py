"""Resume after a kill between a step's saved writes and the next checkpoint."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from anonygraph.runs.store import RunStore

TESTS = Path(__file__).resolve().parents[1]

# The child kills itself once the writes of the KILL_STEP-th step (1: prepare,
# 2: attack, ...) are saved, before the checkpoint that follows them.
CHILD = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from scripted import calgary_script
from anonygraph.runs.checkpointers import InLoopSqliteSaver
from anonygraph import cli
from anonygraph.llm import loading

kill_step = int(os.environ.get("KILL_STEP", "-99"))
original = InLoopSqliteSaver.aput_writes
saved = []

async def aput_writes(self, config, writes, task_id, task_path=""):
    await original(self, config, writes, task_id, task_path)
    if any(not channel.startswith("__") for channel, _ in writes):
        saved.append(task_id)
        if len(saved) == kill_step + 1:  # the first writes are the input's
            os.kill(os.getpid(), signal.SIGKILL)

InLoopSqliteSaver.aput_writes = aput_writes
loading.load_chat_model = calgary_script().load
sys.exit(cli.main(sys.argv[1:]))
"""


def run_child(
    tmp_path: Path, kill_step: int | None, *args: str
) -> subprocess.CompletedProcess[str]:
    child = tmp_path / "child.py"
    child.write_text(textwrap.dedent(CHILD.format(tests=str(TESTS))))
    source = tmp_path / "in.jsonl"
    record = {"id": "a", "text": "I live in Calgary.", "labels": {"sex": "female"}}
    source.write_text(json.dumps(record) + "\n")
    command = [sys.executable, str(child), *args] if args else [
        sys.executable, str(child), "run", "--input", str(source),
        "--output", str(tmp_path / "out.jsonl"), "--db", str(tmp_path / "runs.sqlite"),
        "--attributes", "city_country", "--max-iterations", "1", "--cache", "off",
        "--no-progress", "--model", "local",
    ]  # fmt: skip
    env = {**os.environ}
    if kill_step is not None:
        env["KILL_STEP"] = str(kill_step)
    return subprocess.run(command, env=env, timeout=120, capture_output=True, text=True)


@pytest.mark.parametrize("kill_step", [1, 2, 3, 4])
def test_when_killed_after_a_steps_writes_then_rerun_finishes_the_record(
    tmp_path: Path, kill_step: int
) -> None:
    killed = run_child(tmp_path, kill_step)
    assert killed.returncode == -signal.SIGKILL, killed.stderr

    resumed = run_child(tmp_path, None)

    assert resumed.returncode == 0, resumed.stderr
    (line,) = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert line["id"] == "a"
    assert line["text"] == "I live in a city."
    assert (line["status"], line["outcome"]) == ("converged", "anonymized")


@pytest.mark.parametrize("kill_step", [1, 2])
def test_when_eval_is_killed_after_a_steps_writes_then_rerun_scores_the_row(
    tmp_path: Path, kill_step: int
) -> None:
    assert run_child(tmp_path, None).returncode == 0
    db = str(tmp_path / "runs.sqlite")
    (run,) = [r["id"] for r in RunStore(db).runs()]
    command = ["eval", "--run", run, "--db", db, "--no-judge", "--no-progress",
               "--model", "local"]  # fmt: skip

    killed = run_child(tmp_path, kill_step, *command)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    resumed = run_child(tmp_path, None, *command)

    assert resumed.returncode == 0, resumed.stderr
    rows = RunStore(db).evaluations(RunStore(db).latest_eval(run) or "")
    assert sorted(r["row"] for r in rows) == ["final", "original"]
    for row in rows:
        assert row["status"] == "done" and json.loads(row["metrics"]), row
