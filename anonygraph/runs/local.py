"""Local runs: one process works a run's records, N at once, from a SQLite store."""

from __future__ import annotations

import sys
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import BadLine
from anonygraph.runs.checkpointers import open_checkpointer
from anonygraph.runs.options import (
    RunOptions,
    build_context,
    check_output_path,
    load_input,
    run_params,
)
from anonygraph.runs.output import OutputFile
from anonygraph.runs.records import run_bounded, run_record
from anonygraph.runs.schema import WAITING
from anonygraph.runs.store import RunStore
from anonygraph.runs.summary import RunSummary, fill_totals
from anonygraph.runs.table_output import TableOutput, write_run_table
from anonygraph.runs.warm_up import warm_up_in_background
from anonygraph.state.domain import Record


async def run_local(options: RunOptions, run_id: str) -> RunSummary:
    """Work the run's records in this process; the caller holds the run's lock."""
    check_output_path(options.input, options.output)
    context = build_context(options.method, options.context)
    max_chars = getattr(context, "max_chars", 20_000)
    items = load_input(options.input, options.format, max_chars, options.table)
    summary = RunSummary(run_id=run_id, method=options.method)
    summary.bad_lines = [str(i) for i in items if isinstance(i, BadLine)]
    if options.is_table:
        summary.bad_unit = "row"
    records = [i for i in items if isinstance(i, Record)]
    identity = {
        "run_id": run_id,
        "method": options.method,
        "input": str(Path(options.input).resolve()),
        "options": options.context,
    }
    sink = TableOutput if options.writes_table else OutputFile
    with sink(options.output, identity, force=options.force) as output:
        db = RunStore(options.db)
        try:
            db.start_run(
                run_id,
                options.method,
                run_params(options, context),
                options.input,
                options.output,
            )
            try:
                await _run_records(
                    options, run_id, context, records, db, output, summary
                )
                if options.writes_table:
                    summary.table_rows = write_run_table(
                        db, run_id, options.input, options.output, options.table,
                        max_chars=max_chars,
                    )  # fmt: skip
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
    db: RunStore,
    output: OutputFile | TableOutput,
    summary: RunSummary,
) -> None:
    output.restore(db.records(run_id, status="done"))
    todo = [r for r in records if r.id not in output.ids]
    summary.skipped = len(records) - len(todo)
    warm_up_in_background()
    async with open_checkpointer(options.db) as saver:
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
    fill_totals(summary, db)
    status = "partial" if summary.failed else WAITING if summary.waiting else "done"
    db.finish_run(run_id, status, asdict(summary))
