"""Batch runs: checkpointed, resumable, one thread per record, N records at once."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from anonygraph import models, store
from anonygraph.graphs import GRAPHS
from anonygraph.inputs import BadLine, InputError, check_text, read_records
from anonygraph.state.context import Context
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


@dataclass
class RunSummary:
    """What a run did, for the terminal and the store."""

    run_id: str
    method: str
    done: int = 0
    failed: int = 0
    skipped: int = 0
    """Records already finished by an earlier (interrupted) run."""
    bad_lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)
    structured: dict[str, str] = field(default_factory=dict)
    """Model spec -> how structured answers were asked for (server modes)."""

    def report(self) -> str:
        """Render the summary for people."""
        lines = [
            f"run {self.run_id} ({self.method}): {self.done} done, "
            f"{self.failed} failed, "
            f"{self.skipped} already done, {len(self.bad_lines)} bad input line(s)"
        ]
        lines += [f"  bad input {b}" for b in self.bad_lines]
        lines += [f"  failed {f}" for f in self.failures]
        lines += [
            f"  structured output: {s} -> {m}" for s, m in self.structured.items()
        ]
        per = self.totals.get("per_record")
        wall = self.totals.get("wall_seconds", 0.0)
        if per and wall:
            outside = 1 - self.totals["model_seconds"] / wall
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
            options.context,
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
    if format == "jsonl":
        return list(read_records(path, max_chars=max_chars))
    from anonygraph.datasets import load_records

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
    with store.run_lock(options.db, run_id):
        return await _run_batch(options, run_id)


async def _run_batch(options: RunOptions, run_id: str) -> RunSummary:
    db = store.RunStore(options.db)
    context_values = {"cache_db": str(Path(options.db).resolve()), **options.context}
    context = build_context(options.method, context_values)
    max_chars = getattr(context, "max_chars", 20_000)
    items = load_input(options.input, options.format, max_chars)
    summary = RunSummary(run_id=run_id, method=options.method)
    summary.bad_lines = [str(i) for i in items if isinstance(i, BadLine)]
    records = [i for i in items if isinstance(i, Record)]
    db.start_run(run_id, options.method, asdict(context), options.input, options.output)
    output = OutputFile(options.output)
    output.restore(db.records(run_id, status="done"))
    todo = [r for r in records if r.id not in output.ids]
    summary.skipped = len(records) - len(todo)

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
    summary.failures = [e for e in errors if e]
    summary.failed = len(summary.failures)
    summary.done = len(errors) - summary.failed
    summary.totals = db.run_totals(run_id)
    summary.structured = models.structured_modes(
        db.models_used(run_id), context.cache_db
    )
    status = "done" if not summary.failed else "partial"
    db.finish_run(run_id, status, asdict(summary))
    return summary


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


async def invoke_thread(
    app: Any, thread_id: str, payload: dict[str, Any], context: Any
) -> tuple[dict[str, Any], Exception | None]:
    """Run one checkpointed thread to its end, resuming it where it stopped.

    A thread with pending steps continues from its last finished step; a
    finished one is read back; a new one starts from ``payload``.

    Returns:
        The final state and None, or, when a step raised, the state saved so
        far (with the failed step's call records added) and the exception.
    """
    config = {"configurable": {"thread_id": thread_id}}
    snapshot = await app.aget_state(config)
    if snapshot.values and not snapshot.next:
        return dict(snapshot.values), None
    try:
        result = await app.ainvoke(
            None if snapshot.next else payload,
            config,
            context=context,
            durability="sync",
        )
        return dict(result), None
    except Exception as exc:  # noqa: BLE001 - the caller records it and goes on
        state = dict((await app.aget_state(config)).values)
        state["calls"] = [*state.get("calls", []), *getattr(exc, "calls", [])]
        return state, exc


async def run_record(
    app: Any, context: Any, record: Record, run_id: str, db: store.RunStore, output: Any
) -> str:
    """Run (or resume) one record's thread; return an error message or ''."""
    # A record resumed after a failure adds this session to the time it had.
    start = time.perf_counter() - db.wall_seconds(run_id, record.id)
    result, error = await invoke_thread(
        app, f"{run_id}:{record.id}", graph_input(record), context
    )
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
            wall_seconds=time.perf_counter() - start,
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
        wall_seconds=time.perf_counter() - start,
    )
    output.append(output_line(record, result, run_id))
    return ""


def output_line(record: Record, result: dict[str, Any], run_id: str) -> dict[str, Any]:
    """Shape one line of the output JSONL."""
    line: dict[str, Any] = {
        "id": record.id,
        "text": result.get("anonymized", ""),
        "status": result.get("status", ""),
        "run_id": run_id,
    }
    if result.get("anonymized_comments"):
        line["comments"] = result["anonymized_comments"]
    return line


class OutputFile:
    """The output JSONL: appended as records finish, each record once."""

    def __init__(self, path: str) -> None:
        """Open ``path`` (created 0600), dropping a half-written last line."""
        self.path = store.secure_file(path)
        self.ids: set[str] = set()
        raw = self.path.read_bytes()
        if raw and not raw.endswith(b"\n"):
            # A kill mid-write leaves a partial line: cut back to the last whole one.
            raw = raw[: raw.rfind(b"\n") + 1]
            self.path.write_bytes(raw)
        for line in raw.decode("utf-8", "replace").splitlines():
            try:
                self.ids.add(str(json.loads(line)["id"]))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue

    def restore(self, done_rows: list[dict[str, Any]]) -> None:
        """Append records the store finished but the file missed (a kill between)."""
        for row in done_rows:
            if row["record_id"] not in self.ids:
                result = json.loads(row["result"] or "{}")
                record = Record(id=row["record_id"], text=row["original"])
                self.append(output_line(record, result, row["run_id"]))

    def append(self, line: dict[str, Any]) -> None:
        """Write one line and flush it to disk before going on."""
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self.ids.add(str(line["id"]))
