"""Shared runs: workers on any number of machines work one run's records.

A shared run lives in a Postgres store (``--db postgresql://...``). ``run``
registers the run and queues its records, then works them like any worker;
``worker`` joins in from anywhere. A worker claims a record with a lease
(``FOR UPDATE SKIP LOCKED``) and renews its leases while it works
(heartbeat). A worker that dies stops renewing; once its lease runs out
another worker takes the record over and continues it from its last
checkpoint, since the checkpoints live in the same database. A record is
finished only when its graph set a final status (`records.invoke_thread`); the
output JSONL is written from the store (`export`), each id once.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import MAX_CHARS
from anonygraph.runs import sql
from anonygraph.runs.checkpointers import open_checkpointer
from anonygraph.runs.options import (
    RunOptions,
    build_context,
    check_output_path,
    load_input,
    run_params,
    stored_table,
    writes_table,
)
from anonygraph.runs.output import OutputFile
from anonygraph.runs.records import run_record
from anonygraph.runs.schema import WAITING
from anonygraph.runs.store import RunStore
from anonygraph.runs.summary import RunSummary, fill_totals
from anonygraph.runs.table_output import TableOutput, write_run_table
from anonygraph.runs.warm_up import warm_up_in_background
from anonygraph.state.domain import Record

LEASE_SECONDS = float(os.environ.get("ANONYGRAPH_LEASE_SECONDS", "60"))
"""How long a claim holds without a heartbeat; a dead worker's records wait
this long before another worker takes them over."""

IDLE_POLL_SECONDS = 0.5
"""How often a worker that waits for others' records looks again."""


def worker_name() -> str:
    """Name this process in the queue: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


class NoOutputFile:
    """Output sink of a worker: shared runs write their file with `export`."""

    def append(self, line: dict[str, Any]) -> None:
        """Drop the line; the store holds the record's result."""


@dataclass
class WorkerOptions:
    """What a worker needs: the store, which run, how many records at once."""

    db: str
    run_id: str | None = None
    concurrency: int = 1
    lease_seconds: float = LEASE_SECONDS
    wait: bool = False
    """Keep going until the run has no record left leased to anyone (``run``
    does, to take over dead workers' records and then export); otherwise stop
    when nothing is left to claim."""
    progress: bool = False
    name: str = field(default_factory=worker_name)


@dataclass
class WorkerSummary:
    """What one worker did."""

    worker: str
    done: int = 0
    failed: int = 0
    waiting: int = 0
    """Records paused at a review step (left for `anonygraph review`)."""
    taken_over: int = 0
    """Records this worker continued after another worker's lease ran out."""
    lost: int = 0
    """Records this worker stopped because its own lease ran out (it was
    stalled) and another worker took them over."""
    failures: list[str] = field(default_factory=list)

    def report(self) -> str:
        """Render the summary for people."""
        lines = [
            f"worker {self.worker}: {self.done} done, {self.failed} failed, "
            + (f"{self.waiting} waiting for review, " if self.waiting else "")
            + f"{self.taken_over} taken over from a stopped worker"
            + (
                f", {self.lost} given up (lease ran out while stalled)"
                if self.lost
                else ""
            )
        ]
        return "\n".join(lines + [f"  failed {f}" for f in self.failures])


def require_shared(location: str) -> None:
    """Refuse a store that workers on other machines cannot reach.

    Raises:
        ValueError: naming the option to change.
    """
    if not sql.is_postgres(location):
        raise ValueError(
            f"--db {location}: workers share a run through Postgres; pass "
            "--db postgresql://USER@HOST:PORT/DB (or set ANONYGRAPH_DB)"
        )


async def run_worker(
    options: WorkerOptions, db: RunStore | None = None
) -> WorkerSummary:
    """Claim and work records until none is left (see `WorkerOptions.wait`).

    ``db``: the caller's open store (left open), else one opened here.
    """
    require_shared(options.db)
    own = db is None
    db = RunStore(options.db) if db is None else db
    summary = WorkerSummary(worker=options.name)
    if options.run_id is not None and db.job(options.run_id) is None:
        raise ValueError(
            f"--run {options.run_id}: no shared run of that id in the store; start "
            "it with `anonygraph run --db postgresql://...`"
        )
    bar = tqdm(
        desc=f"worker {options.name}",
        unit="record",
        disable=not options.progress,
        file=sys.stderr,
    )
    try:
        warm_up_in_background()
        async with open_checkpointer(options.db) as saver:
            working: dict[tuple[str, str], asyncio.Task[str]] = {}
            beat = asyncio.create_task(_heartbeat(db, options, working))
            try:
                slots = [
                    _slot(db, saver, options, summary, bar, working)
                    for _ in range(max(1, options.concurrency))
                ]
                await asyncio.gather(*slots)
            finally:
                beat.cancel()
    finally:
        bar.close()
        if own:
            db.close()
    return summary


async def _heartbeat(
    db: RunStore,
    options: WorkerOptions,
    working: dict[tuple[str, str], asyncio.Task[str]],
) -> None:
    while True:
        await asyncio.sleep(options.lease_seconds / 3)
        # Only records claimed before the renewal went out can be missing from
        # its answer for having been taken over; one claimed meanwhile is not.
        claimed = dict(working)
        held = await asyncio.to_thread(db.renew, options.name, options.lease_seconds)
        # A worker stalled past its lease (suspended, swapped out) finds its
        # record in another worker's hands: stop working it, so the two do not
        # write the same record's checkpoints or repeat its model calls.
        for key, task in claimed.items():
            if key not in held and not task.done():
                task.cancel()


async def _slot(
    db: RunStore,
    saver: Any,
    options: WorkerOptions,
    summary: WorkerSummary,
    bar: Any,
    working: dict[tuple[str, str], asyncio.Task[str]],
) -> None:
    jobs: dict[str, tuple[Any, Any]] = {}
    while True:
        claim = db.claim(options.name, options.lease_seconds, options.run_id)
        if claim is None:
            if options.wait and _others_working(db, options.run_id):
                await asyncio.sleep(IDLE_POLL_SECONDS)
                continue
            return
        run_id, record = claim["run_id"], Record(**json.loads(claim["payload"]))
        if run_id not in jobs:
            jobs[run_id] = _job(db, saver, run_id)
        app, context = jobs[run_id]
        if claim["claims"] > 1:
            summary.taken_over += 1
        key = (run_id, record.id)
        task = asyncio.create_task(
            run_record(app, context, record, run_id, db, NoOutputFile())
        )
        working[key] = task
        try:
            await asyncio.wait([task])
        finally:
            del working[key]
            if not task.done():  # this worker itself is being stopped
                task.cancel()
        if task.cancelled():
            summary.lost += 1
            continue
        _settle(db, options.name, run_id, record.id, task.result(), summary)
        bar.update(1)


def _settle(
    db: RunStore,
    worker: str,
    run_id: str,
    record_id: str,
    outcome: str,
    summary: WorkerSummary,
) -> None:
    # A record paused for review is neither done nor failed: it waits in the
    # queue, claimed by no one, until `anonygraph review` answers it.
    state = "done" if not outcome else WAITING if outcome == WAITING else "failed"
    db.release(run_id, record_id, worker, state)
    if state == "failed":
        summary.failed += 1
        summary.failures.append(outcome)
    elif state == WAITING:
        summary.waiting += 1
    else:
        summary.done += 1


def _others_working(db: RunStore, run_id: str | None) -> bool:
    if run_id is None:
        return False
    return any(row["state"] == "leased" for row in db.work_rows(run_id))


def _job(db: RunStore, saver: Any, run_id: str) -> tuple[Any, Any]:
    job = db.job(run_id)
    if job is None:
        raise ValueError(f"run {run_id!r}: queued records but no run options")
    context = build_context(job["method"], json.loads(job["context"]))
    app = GRAPHS[job["method"]]().compile(checkpointer=saver, name=job["method"])
    return app, context


async def run_shared(options: RunOptions, run_id: str) -> RunSummary:
    """Register a run in Postgres, work it with the other workers, export it.

    The output file is written at the end from the store, so it holds every
    finished record of the run once, whichever worker finished it.
    """
    check_output_path(options.input, options.output)
    context = build_context(options.method, options.context)
    items = load_input(
        options.input,
        options.format,
        getattr(context, "max_chars", 20_000),
        options.table,
    )
    summary = RunSummary(run_id=run_id, method=options.method)
    if options.is_table:
        summary.bad_unit = "row"
    summary.bad_lines = [str(i) for i in items if not isinstance(i, Record)]
    records = [i for i in items if isinstance(i, Record)]
    db = RunStore(options.db)
    try:
        before = {r["record_id"] for r in db.work_rows(run_id) if r["state"] == "done"}
        db.start_run(
            run_id,
            options.method,
            run_params(options, context),
            options.input,
            options.output,
        )
        db.register_job(run_id, options.method, options.context, records)
        try:
            await run_worker(
                WorkerOptions(
                    db=options.db,
                    run_id=run_id,
                    concurrency=options.concurrency,
                    wait=True,
                    progress=options.progress,
                ),
                db,
            )
        except BaseException:
            db.finish_run(run_id, "interrupted", asdict(summary))
            raise
        ids = {r.id for r in records}
        rows = [r for r in db.work_rows(run_id) if r["record_id"] in ids]
        summary.skipped = len(before & ids)
        summary.done = sum(r["state"] == "done" for r in rows) - summary.skipped
        failed = {
            r["record_id"]: r["error"]
            for r in db.records(run_id, status="failed")
            if r["record_id"] in ids
        }
        summary.failures = [f"record {k!r}: {v}" for k, v in sorted(failed.items())]
        summary.failed = len(failed)
        summary.waiting = sum(r["state"] == WAITING for r in rows)
        _, summary.table_rows = export_counts(
            db, run_id, options.output, force=options.force
        )
        fill_totals(summary, db)
        status = "partial" if summary.failed else WAITING if summary.waiting else "done"
        db.finish_run(run_id, status, asdict(summary))
    finally:
        db.close()
    return summary


def export(db: RunStore, run_id: str, output: str, *, force: bool = False) -> int:
    """Write a run's finished records to ``output`` (JSONL), each id once.

    Records appear in input order; a file this run wrote before is completed,
    not duplicated. A table run's output table (`writes_table`) is written
    whole, every input row once. Returns the number of records (rows) written.

    Raises:
        ValueError: naming the run when the store has no such run.
    """
    return export_counts(db, run_id, output, force=force)[0]


def export_counts(
    db: RunStore, run_id: str, output: str, *, force: bool = False
) -> tuple[int, dict[str, int]]:
    """`export`, also returning a table's rows per outcome ({} for JSONL).

    Raises:
        ValueError: naming the run when the store has no such run.
    """
    run = db.get_run(run_id)
    if run is None:
        raise ValueError(f"--run {run_id}: no such run in the store")
    identity = {
        "run_id": run_id,
        "method": run["method"],
        "input": str(Path(run["input"]).resolve()),
        "options": json.loads((db.job(run_id) or {}).get("context") or "{}"),
    }
    table = stored_table(run)
    if table is not None and writes_table(run["input"], output):
        max_chars = json.loads(run["params"] or "{}").get("max_chars", MAX_CHARS)
        with TableOutput(output, identity, force=force):
            counts = write_run_table(
                db, run_id, run["input"], output, table, max_chars=max_chars
            )
        return sum(counts.values()), counts
    order = {r["record_id"]: r["position"] for r in db.work_rows(run_id)}
    rows = sorted(
        db.records(run_id, status="done"),
        key=lambda r: (order.get(r["record_id"], len(order)), r["record_id"]),
    )
    with OutputFile(output, identity, force=force) as out:
        out.restore(rows)
        return len(out.ids), {}


def status_rows(db: RunStore, run_id: str) -> list[dict[str, Any]]:
    """Count a shared run's records per worker: done, failed, in progress, pending.

    Records waiting for review are counted under the worker that paused them.

    A lease that ran out is shown as such: its worker stopped renewing it and
    the next claim takes the record over.
    """
    counts: dict[str, dict[str, Any]] = {}
    for row in db.work_rows(run_id):
        state = row["state"]
        if state == "leased" and row["lease_left"] < 0:
            state = "expired"
        who = row["worker"] or "-"
        entry = counts.setdefault(
            who,
            {"worker": who, "done": 0, "failed": 0, WAITING: 0, "leased": 0,
             "expired": 0, "pending": 0},
        )  # fmt: skip
        entry[state] += 1
    return sorted(counts.values(), key=lambda e: str(e["worker"]))


def render_status(db: RunStore, run_id: str) -> str:
    """Render `status_rows` as a table with a total line.

    A run worked by one `anonygraph run` process has no work queue: its
    finished records are counted from the store, and what is in progress or
    pending is not known there (shown as "-").
    """
    run = db.get_run(run_id)
    if run is None:
        raise ValueError(f"--run {run_id}: no such run in the store")
    rows: list[dict[str, Any]] = status_rows(db, run_id)
    note = ""
    if not rows:
        finished = Counter(db.record_statuses(run_id).values())
        rows = [
            {"worker": "run", "done": finished["done"], "failed": finished["failed"],
             WAITING: finished[WAITING], "leased": "-", "expired": "-",
             "pending": "-"}
        ]  # fmt: skip
        note = f" ({run['status']}; one process, no work queue)"
    keys = ("done", "failed", WAITING, "leased", "expired", "pending")
    header = ("worker", "done", "failed", "waiting for review", "in progress",
              "lease expired", "pending")  # fmt: skip
    table = [header] + [(str(r["worker"]), *(str(r[k]) for k in keys)) for r in rows]
    counts = [[r[k] for r in rows] for k in keys]
    total = ("total", *(str(sum(c)) if "-" not in c else "-" for c in counts))
    table.append(total)
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    return (
        "\n".join(
            "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
            for line in table
        )
        + f"\nrun {run_id}{note}: updated {time.strftime('%H:%M:%S')}"
    )
