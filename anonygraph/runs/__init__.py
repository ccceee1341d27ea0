"""Batch runs: inputs, the run store, checkpoints, engines, tables in and out.

`batch.run_batch` is the one entry: a SQLite store is worked by this process
(`local`), a Postgres store by any number of workers (`shared`). Below it:
the store (`store`, split by table group into `call_tables`, `eval_tables`,
`queue`; `schema`, `sql`), checkpoints (`checkpointers`), locks, one record's
thread (`records`), the output file, the call recorder the model layer
writes through (`recorder`) and the answering of paused reviews
(`pending_reviews`). Beside them: the shared data formats (`datasets`),
tables in and out (`tables`, `table_output`) and tracing. `ray_engine` spreads
a run's records over a Ray cluster (imported only when asked for: Ray is an
optional extra).

Importing this package imports none of them, so that a module anywhere can
import one of its parts without pulling in the graphs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anonygraph.runs.batch import run_batch
    from anonygraph.runs.options import RunOptions
    from anonygraph.runs.store import RunStore
    from anonygraph.runs.summary import RunSummary

_LAZY = {
    "run_batch": "anonygraph.runs.batch",
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
