"""A preview of a run: its first records through the method, nothing stored.

The records are read as `run` reads them (`iter_input`: JSONL, a shared data
set format or a table) and run through the method's graph compiled without a
checkpointer, with no call recorder: no store, no output file, no journal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import BadLine
from anonygraph.runs.engines.records import graph_input
from anonygraph.runs.options import RunOptions, build_context, iter_input
from anonygraph.runs.summary import record_outcome
from anonygraph.state.domain import Record


@dataclass
class Preview:
    """One previewed record: what the method made of it and what that cost."""

    record: Record
    result: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    """Why the method failed on the record; '' when it finished."""
    seconds: float = 0.0
    """Wall time of the record."""

    @property
    def outcome(self) -> str:
        """The record's outcome, as the run's output would say it."""
        return "failed" if self.error else record_outcome(self.result)

    @property
    def cost(self) -> dict[str, float]:
        """Model calls, tokens in and out, model seconds and wall seconds."""
        calls = self.result.get("calls", []) or []
        return {
            "calls": len(calls),
            "tokens_in": sum(int(c.get("tokens_in", 0)) for c in calls),
            "tokens_out": sum(int(c.get("tokens_out", 0)) for c in calls),
            "model_seconds": round(sum(c.get("seconds", 0.0) for c in calls), 3),
            "seconds": round(self.seconds, 3),
        }


def first_records(
    options: RunOptions, count: int, max_chars: int
) -> tuple[list[Record], list[BadLine]]:
    """Read the input until ``count`` records, keeping the bad lines met before."""
    records: list[Record] = []
    bad: list[BadLine] = []
    items: Iterator[Record | BadLine] = iter_input(
        options.input, options.format, max_chars, options.table
    )
    for item in items:
        if isinstance(item, BadLine):
            bad.append(item)
        else:
            records.append(item)
            if len(records) >= count:
                break
    return records, bad


async def preview_run(
    options: RunOptions, count: int = 3
) -> tuple[list[Preview], list[BadLine]]:
    """Anonymize the first ``count`` records of ``options.input``; store nothing.

    Raises:
        ValueError: for an unknown method or option, or review (a preview
            cannot pause for a reviewer).
    """
    if options.method not in GRAPHS:
        raise ValueError(
            f"unknown method {options.method!r}; choose from {', '.join(GRAPHS)}"
        )
    context = build_context(options.method, options.context)
    if getattr(context, "review", False):
        raise ValueError(
            "preview runs without a store, so it cannot pause for a review; "
            "preview without --review, then run with it"
        )
    records, bad = first_records(options, count, getattr(context, "max_chars", 20_000))
    graph = GRAPHS[options.method]().compile(name=options.method)
    previews = []
    for record in records:
        start = time.perf_counter()
        shown = Preview(record)
        try:
            shown.result = dict(
                await graph.ainvoke(graph_input(record), context=context)
            )
        except Exception as exc:  # noqa: BLE001 - shown for this record, others go on
            shown.error = f"{type(exc).__name__}: {exc}"
        shown.seconds = time.perf_counter() - start
        previews.append(shown)
    return previews, bad
