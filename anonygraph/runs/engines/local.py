"""Local runs: one process works a run's records, N at once, from a SQLite store."""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from tqdm import tqdm

from anonygraph.graphs import GRAPHS
from anonygraph.runs.engines import run_frame
from anonygraph.runs.engines.records import run_bounded, run_record
from anonygraph.runs.engines.warm_up import warm_up_in_background
from anonygraph.runs.io.output import OutputFile
from anonygraph.runs.io.table_output import TableOutput
from anonygraph.runs.options import (
    RunOptions,
    build_context,
    check_output_path,
    load_input,
)
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.checkpointers import open_checkpointer
from anonygraph.runs.store.schema import WAITING
from anonygraph.runs.summary import RunSummary
from anonygraph.state.domain import Record


async def run_local(options: RunOptions, run_id: str) -> RunSummary:
    """Work the run's records in this process; the caller holds the run's lock."""
    check_output_path(options.input, options.output)
    context = build_context(options.method, options.context)
    max_chars = getattr(context, "max_chars", 20_000)
    items = load_input(options.input, options.format, max_chars, options.table)
    summary = RunSummary(run_id=run_id, method=options.method)
    records = run_frame.records_of(items, options, summary)
    sink = TableOutput if options.writes_table else OutputFile
    identity = run_frame.output_identity(options, run_id)
    with sink(options.output, identity, force=options.force) as output:
        db = RunStore(options.db)
        try:
            with run_frame.run_in_store(db, options, context, summary):
                await _run_records(options, context, records, db, output, summary)
                if options.writes_table:
                    run_frame.write_table(db, options, summary, context)
                run_frame.finish(db, summary)
        finally:
            # Closing moves the WAL's pages into the store file, so the file
            # alone holds the run (a copy of it without its -wal lacked them).
            db.close()
    return summary


async def _run_records(
    options: RunOptions,
    context: Any,
    records: list[Record],
    db: RunStore,
    output: OutputFile | TableOutput,
    summary: RunSummary,
) -> None:
    run_id = summary.run_id
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
