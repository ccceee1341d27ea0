"""Batch runs: bad input, store, cache, and resume after SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, attack_json, rewrite_json, rlaa_batch, verdicts_json

from anonygraph import cli
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.checkpointers import checkpoint_path
from anonygraph.runs.store.locks import RunLockedError, run_lock

TESTS = Path(__file__).resolve().parents[1]


def write_jsonl(path: Path, lines: list[Any]) -> Path:
    with open(path, "wb") as handle:
        for line in lines:
            handle.write(line if isinstance(line, bytes) else json.dumps(line).encode())
            handle.write(b"\n")
    return path


def script_city_leak(script: Script) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", lambda p: rewrite_json(edited(p)))


def edited(prompt: str) -> str:
    text = re.search(r"<text>\n(.*?)\n</text>", prompt, re.S).group(1)  # type: ignore[union-attr]
    return text.replace("Calgary", "a city")


def batch(tmp_path: Path, input: Path, **context: Any) -> Any:
    return rlaa_batch(tmp_path, input, **context)


def test_when_input_has_bad_lines_then_each_is_reported_and_the_batch_goes_on(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "ok1", "text": "I live in Calgary."},
            {"id": "empty", "text": ""},
            {"id": "blank", "text": "   \n\t "},
            {"id": "huge", "text": "word " * 10_000},
            b'{"id": "latin1", "text": "caf\xe9"}',
            b'{"id": "broken", "text": ',
            {"text": "no id here"},
            {"id": "attrs", "text": "I live in Calgary.", "attributes": ["shoe_size"]},
            {"id": "ok1", "text": "duplicate"},
            {"id": "ok2", "comments": ["I live in Calgary.", "It is cold."]},
        ],
    )

    summary = batch(tmp_path, source)

    assert (summary.done, summary.failed) == (2, 0)
    reasons = "\n".join(summary.bad_lines)
    for expected in (
        "line 2 (record 'empty'): the text is empty",
        "line 3 (record 'blank'): the text is only whitespace",
        "line 4 (record 'huge'): the text has 50,000 characters",
        "line 5 (a record): not valid UTF-8",
        "line 6 (a record): malformed JSON",
        "line 7 (a record): the record has no 'id'",
        "line 8 (record 'attrs'): unknown attribute(s) 'shoe_size'",
        "line 9 (record 'ok1'): duplicate id",
    ):
        assert expected in reasons
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [x["id"] for x in lines] == ["ok1", "ok2"]
    assert lines[0]["text"] == "I live in a city."
    assert lines[1]["comments"] == ["I live in a city.", "It is cold."]


def test_when_a_model_never_answers_usably_then_the_record_fails_and_is_not_output(
    tmp_path: Path, script: Script
) -> None:
    script.set("attacker", "no json")
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "a", "text": "I live in Calgary."}]
    )

    summary = batch(tmp_path, source)

    assert summary.failed == 1
    assert (
        "record 'a'" in summary.failures[0] and "step 'attack'" in summary.failures[0]
    )
    assert (tmp_path / "out.jsonl").read_text() == ""
    (row,) = RunStore(tmp_path / "runs.sqlite").records(summary.run_id)
    assert row["status"] == "failed" and "attacker" in row["error"]
    assert row["calls"] == 3 and row["anonymized"] == ""


def test_when_a_run_finishes_then_store_holds_records_iterations_and_calls(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "a", "text": "I live in Calgary."}]
    )

    summary = batch(tmp_path, source)

    store = RunStore(tmp_path / "runs.sqlite")
    (row,) = store.records(summary.run_id)
    # attack, arbitrate, anonymize, then the final text attacked and arbitrated.
    assert row["status"] == "done" and row["calls"] == 5 and row["tokens_out"] > 0
    rounds = store.db.query("select * from iterations")
    assert [r["rewritten"] for r in rounds] == ["I live in a city.", None]
    assert store.db.one("select count(*) from model_calls") == (5,)
    assert summary.totals["per_record"]["calls"] == 5
    for path in (
        tmp_path / "runs.sqlite",
        checkpoint_path(tmp_path / "runs.sqlite"),
        tmp_path / "out.jsonl",
    ):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    # The run closed its store, which moved the WAL's pages into the file: a
    # copy of runs.sqlite without its -wal file holds the run.
    copy = tmp_path / "copy" / "runs.sqlite"
    copy.parent.mkdir()
    shutil.copy(tmp_path / "runs.sqlite", copy)
    assert RunStore(copy).records(summary.run_id)[0]["status"] == "done"


def test_when_run_again_then_temperature_zero_calls_come_from_the_cache(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "a", "text": "I live in Calgary."}]
    )
    batch(tmp_path, source)
    assert len(script.prompts("arbitrator")) == 2  # the original and the rewrite

    (tmp_path / "out.jsonl").unlink()
    batch(tmp_path, source, max_retries=3)  # another run id, same arbitrator prompts

    assert len(script.prompts("arbitrator")) == 2
    assert len(script.prompts("attacker")) == 4  # temperature 0.1: not cached


def test_when_cli_gets_an_unknown_model_spec_then_it_names_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        ["run", "--input", "x", "--output", "y", "--model", "attacker=gpt5"]
    )
    assert code == 2
    assert "--model attacker=gpt5: unknown model spec 'gpt5'" in capsys.readouterr().err


CHILD = """
import os, re, signal, sys
sys.path.insert(0, {tests!r})
from scripted import Script, attack_json, rewrite_json, verdicts_json
from anonygraph import cli
from anonygraph.llm import loading

log = open({log!r}, "a")

def record_of(prompt):
    return re.search(r"record (r\\d+)", prompt).group(1)

def attacker(prompt):
    log.write("attack " + record_of(prompt) + "\\n"); log.flush()
    if "Calgary" not in prompt:
        return attack_json(city_country=None)
    return attack_json(city_country=("Calgary, Canada", 5))

def arbitrator(prompt):
    log.write("arbitrate " + record_of(prompt) + "\\n"); log.flush()
    return verdicts_json(city_country="high")

def anonymizer(prompt):
    rid = record_of(prompt)
    log.write("anonymize " + rid + "\\n"); log.flush()
    if rid == os.environ.get("KILL_AT"):
        os.kill(os.getpid(), signal.SIGKILL)
    return rewrite_json("record " + rid + " lives in a city somewhere")

script = Script()
script.set("attacker", attacker)
script.set("arbitrator", arbitrator)
script.set("anonymizer", anonymizer)
loading.load_chat_model = script.load
sys.exit(cli.main(sys.argv[1:]))
"""


def test_when_killed_mid_batch_then_rerun_resumes_without_redoing_work(
    tmp_path: Path,
) -> None:
    ids = [f"r{i:02d}" for i in range(1, 6)]
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": rid, "text": f"record {rid} lives in Calgary"} for rid in ids],
    )
    log = tmp_path / "calls.log"
    child = tmp_path / "child.py"
    child.write_text(textwrap.dedent(CHILD.format(tests=str(TESTS), log=str(log))))
    command = [
        sys.executable, str(child), "run", "--input", str(source),
        "--output", str(tmp_path / "out.jsonl"), "--db", str(tmp_path / "runs.sqlite"),
        "--attributes", "city_country", "--max-iterations", "1", "--cache", "off",
        "--no-progress", "--model", "local",
    ]  # fmt: skip

    killed = subprocess.run(command, env={**os.environ, "KILL_AT": "r03"}, timeout=120)
    assert killed.returncode == -signal.SIGKILL
    first = log.read_text().splitlines()
    assert "anonymize r03" in first and not any("r04" in x for x in first)

    resumed = subprocess.run(
        command, env=dict(os.environ), timeout=120, capture_output=True
    )
    assert resumed.returncode == 0, resumed.stderr
    calls = log.read_text().splitlines()
    for rid in ids:
        # The original and the final text are attacked; only the first leaks.
        assert calls.count(f"attack {rid}") == 2, rid
        assert calls.count(f"arbitrate {rid}") == 1, rid
    # r03 was cut off inside anonymize: only that step ran again.
    assert calls.count("anonymize r03") == 2
    assert calls.count("anonymize r01") == 1
    out = [
        json.loads(x)["id"] for x in (tmp_path / "out.jsonl").read_text().splitlines()
    ]
    assert sorted(out) == ids and len(out) == len(set(out))
    assert "2 already done" in resumed.stderr.decode()


def test_when_the_same_run_is_started_twice_then_the_second_is_refused(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "a", "text": "I live in Calgary."}]
    )
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        run_id="busy",
        progress=False,
    )
    with run_lock(options.db, "busy"), pytest.raises(RunLockedError, match="busy"):
        asyncio.run(run_batch(options))


def test_when_a_run_ends_then_its_lock_file_goes_and_a_late_opener_locks_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fcntl
    from contextlib import ExitStack

    db, lock = tmp_path / "runs.sqlite", tmp_path / "runs.sqlite.r1.lock"
    with run_lock(db, "r1"):
        assert lock.exists()
    assert not lock.exists()

    # A second process opens the lock file; the first ends its run (removing
    # the file) before the second takes the lock: that lock is on a removed
    # file and must not count, or a third process could hold the run too.
    holder = ExitStack()
    holder.enter_context(run_lock(db, "r1"))
    real = fcntl.flock
    ended: list[bool] = []

    def flock_after_holder_ends(handle: Any, operation: int) -> None:
        if not ended:
            ended.append(True)
            holder.close()
        real(handle, operation)

    monkeypatch.setattr(fcntl, "flock", flock_after_holder_ends)
    with run_lock(db, "r1"):
        monkeypatch.setattr(fcntl, "flock", real)
        assert lock.exists()
        with pytest.raises(RunLockedError, match="r1"), run_lock(db, "r1"):
            pass


def test_when_input_is_a_shared_data_set_then_its_labels_reach_the_store(
    tmp_path: Path, script: Script
) -> None:
    from conftest import SHARED_DATA

    lines = (SHARED_DATA / "personalreddit" / "train.jsonl").read_text().splitlines()
    source = tmp_path / "pr.jsonl"
    source.write_text("\n".join(lines[:2]) + "\n")
    script.set("attacker", attack_json(city_country=None))
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={"attributes": ["city_country"]},
        format="personalreddit",
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    assert summary.done == 2 and summary.bad_lines == []
    rows = RunStore(tmp_path / "runs.sqlite").records(summary.run_id)
    assert json.loads(rows[0]["labels"]) == {"relationship_status": "divorced"}


def test_when_output_lines_are_appended_then_each_is_readable_at_once_and_flushed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from anonygraph.runs.io import output as output_module

    flushed: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        flushed.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(output_module.os, "fsync", fsync)
    path = tmp_path / "out.jsonl"
    identity = {"run_id": "r1", "method": "rlaa", "input": "in", "options": {}}
    seen: list[int] = []
    with output_module.OutputFile(str(path), identity) as output:
        for rid in ("a", "b", "c"):
            output.append({"id": rid, "text": "x"})
            # Another process (export, a reader) sees the line before the run ends.
            seen.append(len(path.read_text().splitlines()))
        assert flushed == []

    assert seen == [1, 2, 3]
    assert len(flushed) == 1  # one disk flush when the run lets go of the file
    assert [json.loads(x)["id"] for x in path.read_text().splitlines()] == [
        "a", "b", "c",
    ]  # fmt: skip


def test_when_the_warm_up_starts_then_it_waits_for_the_first_model_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from anonygraph import cues
    from anonygraph.runs.engines import warm_up
    from anonygraph.runs.store import recorder

    events: list[str] = []
    monkeypatch.setattr(cues, "warm_up", lambda: events.append("warm-up"))
    went_out = threading.Event()
    monkeypatch.setattr(recorder, "CALL_WENT_OUT", went_out)
    monkeypatch.setattr(warm_up, "CALL_WENT_OUT", went_out)
    thread = threading.Thread(target=warm_up._warm_up)
    thread.start()
    thread.join(0.2)
    events.append("call")
    db = RunStore(tmp_path / "runs.sqlite")
    started = {"id": "c1", "role": "attacker", "step": "attack"}
    recorder.StoreRecorder(db, "r1", "a").started(started)
    thread.join(5)

    assert events == ["call", "warm-up"]
    assert db.call_log_totals("r1")["started"] == 1
