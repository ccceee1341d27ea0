"""Batch runs: checkpointed, resumable, one thread per record, N records at once."""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from langgraph.errors import is_invalid_resume
from langgraph.types import Command
from tqdm import tqdm

from anonygraph import models, sql, store
from anonygraph.graphs import GRAPHS
from anonygraph.inputs import (
    BadLine,
    InputError,
    check_input_path,
    check_text,
    read_records,
)
from anonygraph.runs.tracing import tracing_scope
from anonygraph.state.context import SERVER_FIELDS, Context
from anonygraph.state.domain import Record


@dataclass
class RunOptions:
    """Everything a batch run needs; the CLI fills it from flags."""

    method: str
    input: str
    output: str
    db: str = "runs.sqlite"
    context: dict[str, Any] = field(default_factory=dict)
    """Fields of the method's `Context` (models, max_iterations, ...)."""
    concurrency: int = 1
    format: str = "jsonl"
    """jsonl (ours), or a shared data set format: personalreddit, profile, synthpai."""
    run_id: str = ""
    progress: bool = True
    force: bool = False
    """Start the output file afresh even when another run wrote it."""
    trace: bool = False
    """Send LangSmith traces; off otherwise, whatever the environment says."""


@dataclass
class RunSummary:
    """What a run did, for the terminal and the store."""

    run_id: str
    method: str
    done: int = 0
    failed: int = 0
    skipped: int = 0
    """Records already finished by an earlier (interrupted) run."""
    waiting: int = 0
    """Records paused at a review step, waiting for `anonygraph review`."""
    bad_lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)
    structured: dict[str, str] = field(default_factory=dict)
    """Model spec -> how structured answers were asked for (server modes)."""
    search: dict[str, str] = field(default_factory=dict)
    """Model spec -> how its search agent ran, where its server refused tools."""
    outcomes: dict[str, int] = field(default_factory=dict)
    """Records of the run (this session's and earlier ones') per outcome."""
    refusals: dict[str, int] = field(default_factory=dict)
    """Refused rewrites per acceptance check, over the run's records."""

    checked_by: dict[str, int] = field(default_factory=dict)
    """Records per checker spec (the attacker that checked the final text)."""

    def all_anonymized(self) -> bool:
        """Tell whether every record ended as clean as its checker can tell.

        ``anonymized`` (a model attacker found nothing) or ``no explicit cue
        found`` (the rules detectors found nothing: all they can check).
        """
        records = sum(self.outcomes.values())
        clean = self.outcomes.get("anonymized", 0) + self.outcomes.get(
            "no explicit cue found", 0
        )
        return (
            not self.failed and not self.bad_lines and records > 0 and clean == records
        )

    def report(self) -> str:
        """Render the summary for people."""
        lines = [
            f"run {self.run_id} ({self.method}): {self.done} done, "
            f"{self.failed} failed, "
            + (f"{self.waiting} waiting for review, " if self.waiting else "")
            + f"{self.skipped} already done, {len(self.bad_lines)} bad input line(s)"
        ]
        if self.outcomes:
            lines.append(
                "  outcomes: "
                + ", ".join(f"{n} {name}" for name, n in self.outcomes.items())
            )
        if self.checked_by:
            lines.append(
                "  checked by: "
                + ", ".join(
                    f"{spec} ({n})"
                    + (" (explicit cues only: style and topics unchecked)"
                       if spec.split(":", 1)[0] == "rules" else "")
                    for spec, n in self.checked_by.items()
                )
            )  # fmt: skip
        if self.refusals:
            lines.append(
                "  refused rewrites by check: "
                + ", ".join(f"{n} {name}" for name, n in self.refusals.items())
            )
        lines += [f"  bad input {b}" for b in self.bad_lines]
        lines += [f"  failed {f}" for f in self.failures]
        calls = self.totals.get("call_log", {})
        if calls.get("cut_off") or calls.get("redone"):
            lines.append(
                f"  model calls: {calls['started']} started, {calls['cut_off']} cut "
                f"off by a kill or crash, {calls['redone']} finished but redone "
                "after one"
            )
        if calls.get("replayed"):
            lines.append(
                f"  model calls: {calls['replayed']} answered call(s) served from "
                "the run's call journal after a fault, not sent again"
            )
        lines += [
            f"  structured output: {s} -> {m}" for s, m in self.structured.items()
        ]
        lines += [f"  search agent: {s} -> {m}" for s, m in self.search.items()]
        per = self.totals.get("per_record")
        wall = self.totals.get("wall_seconds", 0.0)
        if per and wall:
            # Stored wall times are never below the record's model time.
            outside = max(0.0, 1 - self.totals["model_seconds"] / wall)
            lines.append(
                f"  per record: {per['calls']} model calls, "
                f"{per['tokens_in']} tokens in, "
                f"{per['tokens_out']} tokens out, {per['wall_seconds']} s "
                f"({outside:.1%} of it outside model calls)"
            )
        return "\n".join(lines)


def derive_run_id(options: RunOptions) -> str:
    """Name a run after what defines it, so re-running a command resumes it."""
    key = json.dumps(
        [
            options.method,
            str(Path(options.input).resolve()),
            str(Path(options.output).resolve()),
            {k: v for k, v in options.context.items() if k not in SERVER_FIELDS},
        ],
        sort_keys=True,
        default=str,
    )
    return f"{options.method}-{hashlib.sha256(key.encode()).hexdigest()[:10]}"


def build_context(method: str, values: dict[str, Any]) -> Any:
    """Build the method's `Context`, rejecting unknown options by name.

    Raises:
        ValueError: naming the option the method does not take.

    """
    context_type = GRAPHS[method]().context_schema or Context
    known = set(context_type.__dataclass_fields__)
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"method {method!r} takes no option(s) {', '.join(unknown)}")
    return context_type(**values)


def load_input(path: str, format: str, max_chars: int) -> list[Record | BadLine]:
    """Read the input file as records and the lines that could not be used."""
    check_input_path(path)
    if format == "jsonl":
        return list(read_records(path, max_chars=max_chars))
    from anonygraph.runs.datasets import load_records

    loaded = load_records(path, format)  # type: ignore[arg-type]
    items: list[Record | BadLine] = [
        BadLine(e.line, None, e.message) for e in loaded.errors
    ]
    for record in loaded.records:
        try:
            check_text(record.text, max_chars)
        except InputError as exc:
            items.append(BadLine(0, record.id, str(exc)))
        else:
            items.append(record)
    return items


def graph_input(record: Record) -> dict[str, Any]:
    """Turn a record into the graphs' common input."""
    payload: dict[str, Any] = {"text": record.text, "comments": record.comments}
    if record.meta.get("attributes"):
        payload["attributes"] = record.meta["attributes"]
    return payload


async def run_batch(options: RunOptions) -> RunSummary:
    """Anonymize every record of ``options.input``; resume an interrupted run.

    Finished records (in the output file or the store) are not redone; a record
    cut off mid-way continues from its last checkpointed step; the output file
    ends with each finished record exactly once.
    """
    if options.method not in GRAPHS:
        raise ValueError(
            f"unknown method {options.method!r}; choose from {', '.join(GRAPHS)}"
        )
    run_id = options.run_id or derive_run_id(options)
    if sql.is_postgres(options.db):
        from anonygraph.workers import run_shared

        # Shared by workers on other machines: leases, not a local lock.
        with tracing_scope(options.trace):
            return await run_shared(options, run_id)
    with tracing_scope(options.trace), store.run_lock(options.db, run_id):
        return await _run_batch(options, run_id)


async def _run_batch(options: RunOptions, run_id: str) -> RunSummary:
    check_output_path(options.input, options.output)
    context_values = {"cache_db": store.cache_location(options.db), **options.context}
    context = build_context(options.method, context_values)
    max_chars = getattr(context, "max_chars", 20_000)
    items = load_input(options.input, options.format, max_chars)
    summary = RunSummary(run_id=run_id, method=options.method)
    summary.bad_lines = [str(i) for i in items if isinstance(i, BadLine)]
    records = [i for i in items if isinstance(i, Record)]
    identity = {
        "run_id": run_id,
        "method": options.method,
        "input": str(Path(options.input).resolve()),
        "options": options.context,
    }
    with OutputFile(options.output, identity, force=options.force) as output:
        db = store.RunStore(options.db)
        try:
            db.start_run(
                run_id, options.method, asdict(context), options.input, options.output
            )
            try:
                await _run_records(
                    options, run_id, context, records, db, output, summary
                )
            except BaseException:
                # Killed by an exception (not SIGKILL): the run must not stay
                # "running".
                db.finish_run(run_id, "interrupted", asdict(summary))
                raise
        finally:
            # Closing moves the WAL's pages into the store file, so the file
            # alone holds the run (a copy of it without its -wal lacked them).
            db.close()
    return summary


async def _run_records(
    options: RunOptions,
    run_id: str,
    context: Any,
    records: list[Record],
    db: store.RunStore,
    output: OutputFile,
    summary: RunSummary,
) -> None:
    output.restore(db.records(run_id, status="done"))
    todo = [r for r in records if r.id not in output.ids]
    summary.skipped = len(records) - len(todo)
    warm_up_in_background()
    async with store.open_checkpointer(options.db) as saver:
        app = GRAPHS[options.method]().compile(checkpointer=saver, name=options.method)
        bar = tqdm(
            total=len(todo),
            desc=f"{options.method}",
            unit="record",
            disable=not options.progress,
            file=sys.stderr,
        )
        errors = await run_bounded(
            [partial(run_record, app, context, r, run_id, db, output) for r in todo],
            options.concurrency,
            bar,
        )
        bar.close()
    summary.failures = [e for e in errors if e and e != WAITING]
    summary.failed = len(summary.failures)
    summary.waiting = errors.count(WAITING)
    summary.done = len(errors) - summary.failed - summary.waiting
    fill_totals(summary, db, context.cache_db)
    status = "partial" if summary.failed else WAITING if summary.waiting else "done"
    db.finish_run(run_id, status, asdict(summary))


def fill_totals(summary: RunSummary, db: store.RunStore, cache_db: str) -> None:
    """Add what the store knows of the whole run: totals, modes, outcomes."""
    summary.totals = db.run_totals(summary.run_id)
    used = db.models_used(summary.run_id)
    summary.structured = models.structured_modes(used, cache_db)
    stepped = db.models_used(summary.run_id, step="search_step")
    summary.search = models.search_fallbacks(stepped, cache_db)
    rows = db.records(summary.run_id)
    summary.outcomes, summary.refusals = tally_outcomes(rows)
    summary.checked_by = tally_checkers(rows)


WARM_UP_WAIT_SECONDS = 5.0
"""How long the warm-up waits for the first model call before it starts anyway."""


@cache
def warm_up_in_background() -> None:
    """Load the cue detectors' tables in a thread while the first call waits.

    Measured: the place gazetteer took about 0.5 s of the first record's wall
    time in each worker process, outside any model call. Parsing its data
    holds the interpreter lock for a few tenths of a second, so the thread
    starts once the first model call has gone out (`store.CALL_WENT_OUT`),
    when the event loop has nothing else to do. Once per process; a daemon
    thread, so that a run without model calls never waits for it to exit.
    """
    threading.Thread(target=_warm_up, name="anonygraph-warm-up", daemon=True).start()


def _warm_up() -> None:
    from anonygraph import cues

    store.CALL_WENT_OUT.wait(WARM_UP_WAIT_SECONDS)
    try:
        cues.warm_up()
    except Exception:  # noqa: BLE001 - the record's own check reports it
        return


OUTCOMES: tuple[str, ...] = (
    "anonymized",
    "no explicit cue found",
    "partly anonymized",
    "unchanged",
    "failed",
)
"""What can happen to a record, in the order the summary lists them."""


def record_outcome(result: dict[str, Any]) -> str:
    """The outcome of a finished record; ``not checked`` when its method set none."""
    return str(result.get("outcome") or "not checked")


def tally_checkers(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Count a run's finished records per checker spec (``checked_by``)."""
    checkers: dict[str, int] = {}
    for row in rows:
        result = json.loads(row.get("result") or "{}") if row.get("result") else {}
        if result.get("checked_by"):
            spec = str(result["checked_by"])
            checkers[spec] = checkers.get(spec, 0) + 1
    return checkers


def tally_outcomes(rows: list[dict[str, Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """Count a run's records per outcome and its refused rewrites per check."""
    outcomes: dict[str, int] = {}
    refusals: dict[str, int] = {}
    for row in rows:
        result = json.loads(row.get("result") or "{}") if row.get("result") else {}
        name = "failed" if row.get("status") == "failed" else record_outcome(result)
        outcomes[name] = outcomes.get(name, 0) + 1
        for snapshot in result.get("iterations", []) or []:
            for refusal in snapshot.get("rejections", []) or []:
                check = str(refusal.get("check", "?"))
                refusals[check] = refusals.get(check, 0) + 1
    order = {name: i for i, name in enumerate(OUTCOMES)}
    ordered = dict(sorted(outcomes.items(), key=lambda kv: order.get(kv[0], 99)))
    return ordered, dict(sorted(refusals.items(), key=lambda kv: -kv[1]))


def check_output_path(input: str, output: str) -> None:
    """Refuse an output that is the input file (also through a link) or a folder.

    Raises:
        InputError: naming both paths.
    """
    if Path(output).exists() and not Path(output).is_file():
        raise InputError(f"--output {output}: not a file (a folder?); name a file")
    same = Path(input).resolve() == Path(output).resolve()
    if not same and Path(output).exists() and Path(input).exists():
        same = os.path.samefile(input, output)
    if same:
        raise InputError(
            f"--output {output} is the input file {input}; name another output file"
        )


async def run_bounded(
    jobs: list[Callable[[], Awaitable[str]]], concurrency: int, bar: Any
) -> list[str]:
    """Run jobs, at most ``concurrency`` at once; return each one's error or ''."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(job: Callable[[], Awaitable[str]]) -> str:
        async with gate:
            error = await job()
        bar.update(1)
        return error

    return list(await asyncio.gather(*(one(job) for job in jobs)))


UNFINISHED = ("", "running")
"""Statuses of a record whose last step has not run (`RecordOutput.status`)."""


class UnfinishedError(RuntimeError):
    """A thread that ended without its last step setting a final status."""


WAITING = "waiting_review"
"""Store status of a record paused at a review step (an ``interrupt()``)."""


class WaitingReview(UnfinishedError):
    """A thread paused at a review step: it goes on only with an answer."""

    def __init__(self, thread_id: str, requests: list[Any]) -> None:
        """Keep the pending review requests (the interrupt values)."""
        step = requests[0].get("details", {}).get("step", "?")
        super().__init__(
            f"the record waits for a review at {step}; "
            f"answer it with `anonygraph review`, or resume thread {thread_id!r} "
            "with Command(resume=...)"
        )
        self.requests = requests


def is_finished(values: dict[str, Any], status_key: str | None = "status") -> bool:
    """Tell whether a thread's values carry the final status of its last step."""
    if status_key is None:
        return bool(values)
    return str(values.get(status_key, "")) not in UNFINISHED


async def invoke_thread(
    app: Any,
    thread_id: str,
    payload: dict[str, Any],
    context: Any,
    *,
    finished: Callable[[dict[str, Any]], bool] = is_finished,
    resume: Any = None,
) -> tuple[dict[str, Any], Exception | None]:
    """Run one checkpointed thread to its end, resuming it where it stopped.

    A thread with a checkpoint is always continued with ``None`` input, never
    judged by its snapshot: a kill after a step's writes were saved but before
    the next checkpoint leaves a snapshot whose ``next`` is empty although the
    graph has steps left (LangGraph lists only tasks without saved writes).
    Continuing applies the saved writes, runs what is left, and returns the
    output at once when the graph had already ended. Whether the record is
    done is read from the output: ``finished`` (a final status by default).

    A thread paused at a review step is continued only with ``resume`` (the
    reviewer's answer); without one it is left as it is.

    Returns:
        The final state and None, or, when a step raised, the graph ended
        without a final status or paused for a review (`WaitingReview`), the
        state saved so far (with the failed step's call records added) and
        the exception.

    Raises:
        pydantic.ValidationError: when ``resume`` does not fit the review
            step's answer schema; the thread stays paused.
    """
    config = {"configurable": {"thread_id": thread_id}}
    snapshot = await app.aget_state(config)
    started = snapshot.created_at is not None
    if resume is None and snapshot.interrupts:
        requests = [i.value for i in snapshot.interrupts]
        return dict(snapshot.values), WaitingReview(thread_id, requests)
    if resume is not None:
        command: Any = Command(resume=resume)
    else:
        command = None if started else payload
    try:
        result = dict(
            await app.ainvoke(command, config, context=context, durability="sync")
        )
        if result.get("__interrupt__"):
            requests = [i.value for i in result["__interrupt__"]]
            raise WaitingReview(thread_id, requests)
        if not finished(result):
            raise UnfinishedError(
                "the graph ended without a final status (status "
                f"{result.get('status', '')!r}); nothing was written for it: "
                "run the same command again, or purge the run and start afresh"
            )
        return result, None
    except Exception as exc:  # noqa: BLE001 - the caller records it and goes on
        if is_invalid_resume(exc):
            raise
        state = dict((await app.aget_state(config)).values)
        state["calls"] = [*state.get("calls", []), *getattr(exc, "calls", [])]
        return state, exc


async def run_record(
    app: Any,
    context: Any,
    record: Record,
    run_id: str,
    db: store.RunStore,
    output: Any,
    resume: Any = None,
) -> str:
    """Run (or resume) one record's thread; return an error message or ''.

    Returns `WAITING` for a record paused at a review step; ``resume`` is the
    reviewer's answer that continues it (`anonygraph.state.review`).
    """
    # A record resumed after a failure adds this session to the time it had.
    start = time.perf_counter() - db.wall_seconds(run_id, record.id)
    # Model calls log their start and end under this record (this task only).
    store.track_calls(db, run_id, record.id)
    result, error = await invoke_thread(
        app, f"{run_id}:{record.id}", graph_input(record), context, resume=resume
    )
    try:
        return _save_record(run_id, record, db, output, result, error, start)
    except (OSError, ValueError, sqlite3.Error) as exc:
        # One record that cannot be stored must not stop the batch.
        return f"record {record.id!r}: could not be stored: {exc}"


def _save_record(
    run_id: str,
    record: Record,
    db: store.RunStore,
    output: Any,
    result: dict[str, Any],
    error: Exception | None,
    start: float,
) -> str:
    # A record resumed after a kill has model time from the killed session
    # too; its wall time is at least that.
    model_seconds = sum(c.get("seconds", 0.0) for c in result.get("calls", []))
    wall = max(time.perf_counter() - start, model_seconds)
    if isinstance(error, WaitingReview):
        # Kept in the store (never the output) with what it did so far.
        db.save_result(
            run_id,
            record.id,
            status=WAITING,
            original=record.text,
            result={
                key: result.get(key, [])
                for key in ("calls", "iterations", "reviews", "errors")
            },
            labels=record.labels,
            wall_seconds=wall,
        )
        return WAITING
    if error is not None:
        db.save_result(
            run_id,
            record.id,
            status="failed",
            original=record.text,
            result={
                "calls": result.get("calls", []),
                "iterations": result.get("iterations", []),
            },
            labels=record.labels,
            wall_seconds=wall,
            error=str(error),
        )
        return f"record {record.id!r}: {error}"
    db.save_result(
        run_id,
        record.id,
        status="done",
        original=record.text,
        result=result,
        labels=record.labels,
        wall_seconds=wall,
    )
    output.append(output_line(record, result, run_id))
    return ""


def output_line(record: Record, result: dict[str, Any], run_id: str) -> dict[str, Any]:
    """Shape one line of the output JSONL, in the input's shape.

    A record given as ``comments`` comes back as ``comments`` (as many, in the
    same order), without a joined ``text``; a record given as ``text`` as text.
    """
    line: dict[str, Any] = {"id": record.id}
    if record.comments:
        line["comments"] = list(result.get("anonymized_comments") or [])
    else:
        line["text"] = result.get("anonymized", "")
    line |= {
        "status": result.get("status", ""),
        "outcome": record_outcome(result),
        "run_id": run_id,
    }
    if result.get("checked_by"):
        line["checked_by"] = result["checked_by"]
    if result.get("leaks"):
        line["leaks_left"] = list(result["leaks"])
    return line


class OutputFileError(InputError):
    """An output file that belongs to another run, or is in use."""


class OutputFile:
    """The output JSONL: appended as records finish, each record once.

    The file belongs to one run. A sidecar ``OUT.run.json`` (0600) records the
    run id, method, input and options: a sidecar rather than a header line,
    so the output stays plain JSONL that any reader (jq, our loaders) takes.
    The output file itself is locked (flock) while a run writes it.
    """

    def __init__(
        self, path: str, identity: dict[str, Any], *, force: bool = False
    ) -> None:
        """Claim ``path`` for the run in ``identity``; drop a half-written last line.

        Raises:
            OutputFileError: when another run wrote the file (without ``force``)
                or another process is writing it now.
        """
        self.path = Path(path)
        self.sidecar = Path(f"{path}.run.json")
        self.identity = identity
        self.force = force
        self.ids: set[str] = set()
        self._lock: Any = None

    def __enter__(self) -> OutputFile:
        """Lock the file, check whose it is, read the ids already written."""
        store.secure_file(self.path)
        self._lock = open(self.path, "rb")  # noqa: SIM115 - held while the run writes
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            self._lock.close()
            raise OutputFileError(
                f"--output {self.path} is being written by another run right now; "
                "wait for it or name another output file"
            ) from exc
        try:
            self._claim()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        """Flush the file to disk and release the lock."""
        if self._lock is not None:
            os.fsync(self._lock.fileno())
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def _claim(self) -> None:
        owner = self._owner()
        raw = self.path.read_bytes()
        mine = owner.get("run_id") == self.identity["run_id"]
        if raw and not mine and not self.force:
            who = (
                f"run {owner['run_id']!r} ({owner.get('method')}, options "
                f"{json.dumps(owner.get('options', {}), sort_keys=True)})"
                if owner
                else "an unknown program (no run sidecar)"
            )
            raise OutputFileError(
                f"--output {self.path} holds results of {who}, not of this run "
                f"{self.identity['run_id']!r}; name another output file, or add "
                "--force to start it afresh"
            )
        if self.force and not mine:
            raw = b""
            self.path.write_bytes(raw)
        if not mine:
            store.secure_file(self.sidecar)
            self.sidecar.write_text(json.dumps(self.identity, indent=2) + "\n")
        if raw and not raw.endswith(b"\n"):
            # A kill mid-write leaves a partial line: cut back to the last whole one.
            raw = raw[: raw.rfind(b"\n") + 1]
            self.path.write_bytes(raw)
        for line in raw.decode("utf-8", "replace").splitlines():
            try:
                self.ids.add(str(json.loads(line)["id"]))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue

    def _owner(self) -> dict[str, Any]:
        try:
            owner = json.loads(self.sidecar.read_text())
        except (OSError, ValueError):
            return {}
        return owner if isinstance(owner, dict) else {}

    def restore(self, done_rows: list[dict[str, Any]]) -> None:
        """Append records the store finished but the file missed (a kill between)."""
        for row in done_rows:
            if row["record_id"] not in self.ids:
                result = json.loads(row["result"] or "{}")
                record = Record(id=row["record_id"], text=row["original"])
                self.append(output_line(record, result, row["run_id"]))

    def append(self, line: dict[str, Any]) -> None:
        """Write one line; it is in the file for any reader once this returns.

        Handed to the operating system, which keeps it when the process is
        killed; the disk flush waits for the end of the run (`__exit__`), as
        the store's commits wait for its next WAL checkpoint. After a power
        cut, `restore` writes again what the store holds and the file lost.
        """
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.ids.add(str(line["id"]))
