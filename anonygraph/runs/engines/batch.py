"""The one entry of batch runs: this process works them, or Ray workers do.

``RunOptions.engine`` picks: ``local`` works the run's records in this
process (`local`), under a lock on the run (a file lock beside a SQLite
store, an advisory lock on Postgres); ``ray`` spreads them over a Ray
cluster's workers (`ray_engine`, imported only then: Ray is an optional
extra).
"""

from __future__ import annotations

from anonygraph.graphs import GRAPHS
from anonygraph.runs.engines.local import run_local
from anonygraph.runs.options import RunOptions, check_engine, derive_run_id
from anonygraph.runs.store.locks import run_lock
from anonygraph.runs.summary import RunSummary
from anonygraph.runs.tracing import tracing_scope


async def run_batch(options: RunOptions) -> RunSummary:
    """Anonymize every record of ``options.input``; resume an interrupted run.

    Finished records (in the output file or the store) are not redone; a record
    cut off mid-way continues from its last checkpointed step; the output file
    ends with each finished record exactly once.

    Raises:
        ValueError: for a method or engine that is not registered, or a run
            the Ray engine refuses (`ray_connect.RayEngineError`).
    """
    check_engine(options.engine)
    if options.method not in GRAPHS:
        raise ValueError(
            f"unknown method {options.method!r}; choose from {', '.join(GRAPHS)}"
        )
    if options.engine == "ray":
        from anonygraph.runs import collector
        from anonygraph.runs.engines.ray_engine import run_on_ray

        collector.started()  # the records start in the workers, not here
        # Blocking, in the caller's thread: Ray's driver wants the main thread
        # (its signal handlers), and the loop has nothing else to run.
        return run_on_ray(options, options.ray)
    run_id = options.run_id or derive_run_id(options)
    with tracing_scope(options.trace), run_lock(options.db, run_id):
        return await run_local(options, run_id)
