"""The Ray engine: a run's records worked by Ray workers, the run store the one truth.

`run_on_ray` is the whole engine behind one entry: the same run as a local
one (same run id, store and output file), its records spread over
``RayOptions.workers`` Ray actors (`ray_workers`), ``RunOptions.concurrency``
records at once on each. Every record runs through the checkpointed path of
a local run, so a record whose worker or node died continues on another
worker from its last committed step, and the driver writes the output file
from the store at the end: each finished id once, in input order.

A driver killed at any moment loses nothing: its actors die with it (Ray
ends a job's actors when its driver goes), and the same command run again
skips the records the store holds as done and continues the others. The run
lock (a file lock beside a SQLite store, an advisory lock on Postgres) and
the actors' names (``RUN_ID/N``) keep a second driver off a running run.

Ray is an optional extra (``pip install 'anonygraph[ray]'``), imported only
when a run asks for it; a run it cannot do is refused before any record is
touched (`ray_connect`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import BadLine
from anonygraph.runs.engines import run_frame
from anonygraph.runs.engines.ray_connect import (
    RayEngineError,
    RayOptions,
    check_engine_options,
    joined,
)
from anonygraph.runs.engines.ray_workers import WorkerPool
from anonygraph.runs.io.output import OutputFile, write_done
from anonygraph.runs.io.table_output import TableOutput
from anonygraph.runs.options import (
    RunOptions,
    build_context,
    check_output_path,
    derive_run_id,
    load_input,
)
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.locks import run_lock
from anonygraph.runs.store.schema import WAITING
from anonygraph.runs.summary import RunSummary
from anonygraph.runs.tracing import tracing_scope
from anonygraph.state.domain import Record

__all__ = [
    "RayEngineError",
    "RayOptions",
    "RaySummary",
    "evaluate_on_ray",
    "run_on_ray",
]


@dataclass
class RaySummary(RunSummary):
    """A run's summary with what Ray did: where records ran, what it recovered."""

    workers: int = 0
    nodes: dict[str, int] = field(default_factory=dict)
    """Node (address and id) -> records this session ended there."""
    worker_losses: int = 0
    """Worker processes that died (or went out of reach) under records."""
    handed_over: int = 0
    """Records given to another worker after theirs died (each continued from
    its last committed step)."""

    def report(self) -> str:
        """Render the summary for people, with a line on the cluster."""
        where = ", ".join(f"{n} on {node}" for node, n in self.nodes.items())
        line = f"  ray: {self.workers} worker(s); records per node: {where or '-'}"
        if self.worker_losses:
            line += (
                f"; {self.worker_losses} worker(s) lost, {self.handed_over} "
                "record(s) continued on another worker"
            )
        return super().report() + "\n" + line


def run_on_ray(options: RunOptions, engine: RayOptions | None = None) -> RaySummary:
    """Work every record of ``options.input`` on Ray; resume an interrupted run.

    ``engine``: the cluster and workers; default ``options.ray``.

    Raises:
        RayEngineError: for a run refused before any record was touched.
        ValueError: for an unknown method or run option.
        RunLockedError: when another driver is working the run.
    """
    engine = options.ray if engine is None else engine
    check_engine_options(engine)
    if options.method not in GRAPHS:
        raise ValueError(
            f"unknown method {options.method!r}; choose from {', '.join(GRAPHS)}"
        )
    run_id = options.run_id or derive_run_id(options)
    check_output_path(options.input, options.output)
    values = dict(options.context)
    context = build_context(options.method, values)
    items = load_input(
        options.input,
        options.format,
        getattr(context, "max_chars", 20_000),
        options.table,
    )
    job = {
        "name": run_id,
        "run_id": run_id,
        "method": options.method,
        "db": options.db,
        "context": values,
        "trace": options.trace,
    }
    identity = run_frame.output_identity(options, run_id)
    with tracing_scope(options.trace), joined(engine, job) as (ray, _):
        with (
            run_lock(options.db, run_id),
            _open_store(options.db) as db,
            (TableOutput if options.writes_table else OutputFile)(
                options.output, identity, force=options.force
            ) as output,
            WorkerPool(ray, engine, job) as pool,
        ):
            return _run(options, context, items, pool, output, db)


@contextlib.contextmanager
def _open_store(location: str) -> Iterator[RunStore]:
    """Open the store, creating its tables, before any worker opens it.

    Workers that find a Postgres database without tables create them, taking
    turns (`schema.create_postgres_schema`); the driver creating them first
    spares the workers that wait.
    """
    db = RunStore(location)
    try:
        yield db
    finally:
        # Closing moves SQLite's WAL pages into the store file.
        db.close()


def _run(
    options: RunOptions,
    context: Any,
    items: list[Record | BadLine],
    pool: WorkerPool,
    output: OutputFile | TableOutput,
    db: RunStore,
) -> RaySummary:
    summary = RaySummary(run_id=pool.job["run_id"], method=options.method)
    summary.workers = len(pool.workers)
    records = run_frame.records_of(items, options, summary)
    with run_frame.run_in_store(db, options, context, summary):
        _work(options, pool, db, records, summary)
        if isinstance(output, TableOutput):
            run_frame.write_table(db, options, summary, context)
        else:
            write_output(output, db, summary.run_id, records)
        run_frame.finish(db, summary)
    return summary


def _work(
    options: RunOptions,
    pool: WorkerPool,
    db: RunStore,
    records: list[Record],
    summary: RaySummary,
) -> None:
    """Run the records not done yet; count each one's end in ``summary``."""
    statuses = db.record_statuses(summary.run_id)
    todo = [r for r in records if statuses.get(r.id) != "done"]
    summary.skipped = len(records) - len(todo)
    bar = tqdm(
        total=len(todo),
        desc=f"{options.method} on ray",
        unit="record",
        disable=not options.progress,
        file=sys.stderr,
    )

    def settle(record: Record, error: str, node: str) -> None:
        if error == WAITING:
            summary.waiting += 1
        elif error:
            summary.failed += 1
            summary.failures.append(error)
        else:
            summary.done += 1
        if node:
            summary.nodes[node] = summary.nodes.get(node, 0) + 1
        bar.update(1)

    def progress() -> None:
        bar.set_postfix(
            failed=summary.failed,
            running=len(pool.calls),
            workers=pool.up(),
            refresh=False,
        )

    try:
        pool.work(todo, max(1, options.concurrency), settle, progress)
    finally:
        bar.close()
        summary.worker_losses = len(pool.lost)
        summary.handed_over = pool.handed_over


def write_output(
    output: OutputFile, db: RunStore, run_id: str, records: list[Record]
) -> int:
    """Write the run's done records to the output file, each once, in input order.

    Returns the number of records in the file.
    """
    done = {r["record_id"]: r for r in db.records(run_id, status="done")}
    return write_done(output, [done[r.id] for r in records if r.id in done])


def evaluate_on_ray(
    job: dict[str, Any],
    rows: list[Any],
    engine: RayOptions,
    concurrency: int,
    bar: Any,
) -> tuple[list[str], dict[str, int]]:
    """Score an evaluation's texts (`EvalRow`s) on Ray workers.

    Returns each text's error ('' when scored) and the texts scored per node.

    ``job`` holds the evaluation's ``run_id``, ``eval_id``, ``db``, ``context``
    (`EvalContext` fields), ``trace``, and what a worker builds and calls:
    ``item_type`` (`EvalRow`), ``graph`` (the evaluator's builder),
    ``context_type`` and ``score`` (`evaluation.score_row`). Each text is
    scored as a local evaluation scores it (its thread checkpointed),
    ``concurrency`` at once on each worker; ``bar`` counts them.

    Raises:
        RayEngineError: for an evaluation refused before any text was scored.
    """
    job = {**job, "kind": "eval", "name": job["eval_id"]}
    errors: list[str] = []
    nodes: dict[str, int] = {}

    def settle(row: Any, error: str, node: str) -> None:
        errors.append(error)
        if node:
            nodes[node] = nodes.get(node, 0) + 1
        bar.update(1)

    with joined(engine, job) as (ray, _), WorkerPool(ray, engine, job) as pool:
        pool.work(rows, max(1, concurrency), settle, lambda: None)
    return errors, nodes
