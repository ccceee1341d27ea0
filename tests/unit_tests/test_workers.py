"""Shared runs: leases, take-over after a SIGKILL, status and export, on Postgres."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scripted import Script, attack_json, rewrite_json, verdicts_json
from shared_run import RUN_FLAGS, cli, output_by_id, write_child, write_records

from anonygraph import cli as anonygraph_cli
from anonygraph.runs.shared import WorkerOptions, _heartbeat, run_worker
from anonygraph.runs.store import RunStore
from anonygraph.state.domain import Record


def test_when_workers_claim_at_once_then_no_record_is_leased_twice(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    records = [Record(id=f"r{i}", text="t") for i in range(40)]
    db.register_job("run1", "rlaa", {}, records)
    claimed: list[str] = []

    def claim_all(worker: str) -> None:
        mine = RunStore(store_location)
        while (row := mine.claim(worker, 60, "run1")) is not None:
            claimed.append(row["record_id"])
        mine.close()

    threads = [threading.Thread(target=claim_all, args=(f"w{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(claimed) == sorted(r.id for r in records)


def test_when_a_lease_runs_out_then_another_worker_takes_the_record_over(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    db.register_job("run1", "rlaa", {}, [Record(id="a", text="t")])
    first = db.claim("dead", 0.2, "run1")
    assert first is not None and first["claims"] == 1
    assert db.claim("alive", 60, "run1") is None  # the lease still holds
    time.sleep(0.3)
    taken = db.claim("alive", 60, "run1")
    assert taken is not None and taken["claims"] == 2
    db.release("run1", "a", "dead", "done")  # the old holder lost the record
    assert db.work_rows("run1")[0]["state"] == "leased"
    db.release("run1", "a", "alive", "done")
    assert [(r["state"], r["worker"]) for r in db.work_rows("run1")] == [
        ("done", "alive")
    ]
    db.register_job("run1", "rlaa", {}, [Record(id="a", text="t")])  # rerun
    assert db.work_rows("run1")[0]["state"] == "done"  # done records stay done


def test_when_a_worker_is_given_a_sqlite_store_then_it_names_the_postgres_option(
    tmp_path: Path, capsys: object
) -> None:
    code = anonygraph_cli.main(["worker", "--db", str(tmp_path / "runs.sqlite")])
    assert code == 2
    assert "postgresql://" in capsys.readouterr().err  # type: ignore[attr-defined]


def _wait_for_work(db: RunStore, run_id: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not db.work_rows(run_id):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never queued its records"
        time.sleep(0.1)


def _mid_record(db: RunStore, run_id: str, worker: str) -> tuple[str, set[str]]:
    """Wait until ``worker`` is inside a record with finished steps and a call
    in flight; return the record and the ids of its finished calls."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for row in db.work_rows(run_id):
            if row["worker"] != worker or row["state"] != "leased":
                continue
            log = db.db.query(
                "select id, ended from call_log where run_id = ? and record_id = ?",
                [run_id, row["record_id"]],
            )
            ended = {c["id"] for c in log if c["ended"] is not None}
            if len(ended) >= 2 and len(log) > len(ended):
                return row["record_id"], ended
        time.sleep(0.01)
    raise AssertionError(f"worker {worker} never got inside a record")


def test_when_one_of_three_workers_is_killed_then_every_record_finishes_once(
    tmp_path: Path, pg_url: str
) -> None:
    child = write_child(tmp_path)
    source = tmp_path / "in.jsonl"
    ids = write_records(source, 30)
    reference = cli(
        child, "run", "--input", str(source), "--output", str(tmp_path / "ref.jsonl"),
        "--db", str(tmp_path / "ref.sqlite"), "--concurrency", "4", *RUN_FLAGS,
        latency=0.0,
    )  # fmt: skip
    output = tmp_path / "out.jsonl"
    runner = cli(
        child, "run", "--input", str(source), "--output", str(output),
        "--db", pg_url, "--run-id", "shared", *RUN_FLAGS, latency=0.08,
    )  # fmt: skip
    db = RunStore(pg_url)
    _wait_for_work(db, "shared", runner)
    workers = [
        cli(
            child,
            "worker",
            "--db",
            pg_url,
            "--run",
            "shared",
            "--no-progress",
            latency=0.08,
        )
        for _ in range(2)
    ]
    victim = workers[0]
    name = f"{socket.gethostname()}:{victim.pid}"
    record, finished_calls = _mid_record(db, "shared", name)
    os.kill(victim.pid, signal.SIGKILL)

    # Exit 3: every record ran, but the scripted attacker still finds a leak.
    assert runner.wait(timeout=120) == 3, runner.communicate()
    assert workers[1].wait(timeout=60) == 0, workers[1].communicate()
    assert victim.wait(timeout=10) == -signal.SIGKILL
    assert reference.wait(timeout=120) == 3, reference.communicate()

    # All 30 finished exactly once, and the output is the single-process one.
    rows = db.work_rows("shared")
    assert sorted(r["record_id"] for r in rows) == ids
    assert {r["state"] for r in rows} == {"done"}
    assert db.record_statuses("shared") == dict.fromkeys(ids, "done")
    assert output_by_id(output) == output_by_id(tmp_path / "ref.jsonl")
    # The killed record was taken over and continued from its checkpoint: the
    # calls its finished steps made are the ones kept, none was made again.
    (taken,) = [r for r in rows if r["record_id"] == record]
    assert taken["claims"] == 2 and taken["worker"] != name
    log = db.db.query(
        "select id, step, ended from call_log where run_id = ? and record_id = ?",
        ["shared", record],
    )
    kept = db.db.query(
        "select id, step from model_calls where run_id = ? and record_id = ?",
        ["shared", record],
    )
    assert finished_calls <= {c["id"] for c in kept}
    cut_off = [c for c in log if c["ended"] is None]
    assert len(cut_off) == 1  # the call in flight when the worker died
    per_step_called = Counter(c["step"] for c in log if c["ended"] is not None)
    assert per_step_called == Counter(c["step"] for c in kept)
    # Every other record: each step called as often as the result keeps.
    assert db.call_log_totals("shared") == {
        "started": len(db.db.query("select id from model_calls where run_id = ?",
                                   ["shared"])) + 1,
        "cut_off": 1,
        "redone": 0,
    }  # fmt: skip

    status = subprocess.run(
        [*_cli_prefix(), "status", "--db", pg_url, "--run", "shared"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert status.returncode == 0, status.stderr
    total = status.stdout.splitlines()[-2].split()
    assert total[:2] == ["total", "30"] and total[2:] == ["0", "0", "0", "0", "0"]

    again = tmp_path / "again.jsonl"
    exported = subprocess.run(
        [*_cli_prefix(), "export", "--db", pg_url, "--run", "shared",
         "--output", str(again)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    assert output_by_id(again) == output_by_id(output)


def _cli_prefix() -> list[str]:
    import sys

    return [sys.executable, "-m", "anonygraph.cli"]


def test_when_a_stalled_worker_finds_its_record_taken_over_then_it_gives_it_up(
    pg_url: str, script: Script
) -> None:
    db = RunStore(pg_url)
    context = {"attributes": ["city_country"], "max_iterations": 2,
               "default_model": "local", "cache_mode": "off"}  # fmt: skip
    db.register_job("run1", "rlaa", context, [Record(id="a", text="I am in Calgary.")])

    def stalled_attack(prompt: str) -> str:
        # While this call runs, the worker's lease runs out (as if the process
        # had been suspended) and another worker claims the record.
        other = RunStore(pg_url)
        other.db.execute("update work set lease_until = 0 where record_id = 'a'")
        assert other.claim("other", 60, "run1") is not None
        time.sleep(0.5)  # the stalled worker's heartbeat comes round
        return attack_json(city_country=("Calgary, Canada", 5))

    script.set("attacker", stalled_attack)
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("I am in a city."))
    options = WorkerOptions(db=pg_url, run_id="run1", lease_seconds=0.6, name="me")

    summary = asyncio.run(run_worker(options))

    assert (summary.done, summary.failed, summary.lost) == (0, 0, 1), summary.failures
    assert "1 given up (lease ran out while stalled)" in summary.report()
    # The record stays with the worker that took it over; nothing was released
    # or stored for it by the stalled one.
    (row,) = db.work_rows("run1")
    assert (row["state"], row["worker"], row["claims"]) == ("leased", "other", 2)
    assert db.record_statuses("run1") == {}


def test_when_a_record_is_claimed_while_the_heartbeat_renews_then_it_is_kept() -> None:
    async def scenario() -> tuple[bool, bool]:
        stalled = asyncio.create_task(asyncio.sleep(60))  # taken over meanwhile
        fresh = asyncio.create_task(asyncio.sleep(60))  # claimed during renew
        working: dict[tuple[str, str], asyncio.Task[Any]] = {("run1", "a"): stalled}

        class Store:
            def renew(self, worker: str, lease: float) -> set[tuple[str, str]]:
                # The slot claims "b" while the first renewal is on its way:
                # that answer cannot name it yet; later ones do.
                if ("run1", "b") in working:
                    return {("run1", "b")}
                working[("run1", "b")] = fresh
                return set()

        options = WorkerOptions(db="postgresql://x", lease_seconds=0.03, name="me")
        beat = asyncio.create_task(_heartbeat(Store(), options, working))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        beat.cancel()
        await asyncio.sleep(0)
        result = (stalled.cancelled(), fresh.cancelled())
        fresh.cancel()
        return result

    assert asyncio.run(scenario()) == (True, False)
