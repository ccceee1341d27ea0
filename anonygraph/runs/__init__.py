"""Batch runs, in three rooms: engines, reading and writing records, the store.

`engines.batch.run_batch` is the one entry: this process works a run's
records (`engines.local`), or Ray workers do (`engines.ray_engine`, imported
only when asked for: Ray is an optional extra); both share `engines.run_frame`.
`io` reads records (our JSONL, the shared data formats, tables) and writes
them (the output file, the output table). `store` is the run store (SQLite or
Postgres) with its table groups, checkpoints, locks and the call recorder the
model layer writes through. Beside them: a run's options, its summary and
tracing.

Importing this package imports none of them, so that a module anywhere can
import one of its parts without pulling in the graphs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anonygraph.runs.engines.batch import run_batch
    from anonygraph.runs.options import RunOptions
    from anonygraph.runs.store import RunStore
    from anonygraph.runs.summary import RunSummary

_LAZY = {
    "run_batch": "anonygraph.runs.engines.batch",
    "RunOptions": "anonygraph.runs.options",
    "RunStore": "anonygraph.runs.store",
    "RunSummary": "anonygraph.runs.summary",
}

__all__ = ["RunOptions", "RunStore", "RunSummary", "run_batch"]


def __getattr__(name: str) -> Any:
    """Import ``run_batch``, ``RunOptions``, ``RunStore``, ``RunSummary`` on use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)
