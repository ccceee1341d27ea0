"""What a run does around its records, the same on every engine.

The local engine (`local`) and the Ray engine (`ray_engine`) differ in who
works the records; both call these for the rest: the identity an output
file carries, the input's bad lines counted in the summary, the run's row
in the store started and, when an exception stops the run, marked
``interrupted`` (a run must not stay ``running``), the table output written
from the store, and the final status.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from anonygraph.inputs import BadLine
from anonygraph.runs.io.table_output import write_run_table
from anonygraph.runs.options import RunOptions, run_params
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.schema import WAITING
from anonygraph.runs.summary import RunSummary, fill_totals
from anonygraph.state.domain import Record


def output_identity(options: RunOptions, run_id: str) -> dict[str, Any]:
    """Say which run an output file belongs to (a rerun checks it before appending)."""
    return {
        "run_id": run_id,
        "method": options.method,
        "input": str(Path(options.input).resolve()),
        "options": options.context,
    }


def records_of(
    items: list[Record | BadLine], options: RunOptions, summary: RunSummary
) -> list[Record]:
    """Keep the input's records; name its bad lines (or rows) in ``summary``."""
    summary.bad_lines = [str(i) for i in items if isinstance(i, BadLine)]
    if options.is_table:
        summary.bad_unit = "row"
    return [i for i in items if isinstance(i, Record)]


@contextlib.contextmanager
def run_in_store(
    db: RunStore, options: RunOptions, context: Any, summary: RunSummary
) -> Iterator[None]:
    """Start (or resume) the run's row; mark it ``interrupted`` if an exception ends it.

    A process killed outright (SIGKILL) leaves it ``running``; the next run
    of the same command takes it over.
    """
    run_id = summary.run_id
    db.start_run(
        run_id, options.method, run_params(options, context), options.input,
        options.output,
    )  # fmt: skip
    try:
        yield
    except BaseException:
        db.finish_run(run_id, "interrupted", asdict(summary))
        raise


def write_table(
    db: RunStore, options: RunOptions, summary: RunSummary, context: Any
) -> None:
    """Write a table run's output from the store: its rows in input order."""
    summary.table_rows = write_run_table(
        db, summary.run_id, options.input, options.output, options.table,
        max_chars=getattr(context, "max_chars", 20_000),
    )  # fmt: skip


def finish(db: RunStore, summary: RunSummary) -> None:
    """Count the run's totals from the store and record its final status.

    ``partial`` when a record failed, ``waiting`` when some wait for a
    reviewer and none failed, else ``done``.
    """
    fill_totals(summary, db)
    status = "partial" if summary.failed else WAITING if summary.waiting else "done"
    db.finish_run(summary.run_id, status, asdict(summary))
