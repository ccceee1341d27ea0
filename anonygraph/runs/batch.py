"""The one entry of batch runs: a local run, or a run shared by workers.

A ``--db`` that names a Postgres database is a shared run (`shared`): workers
on any machine claim its records with leases. Anything else is a SQLite file
worked by this process alone (`local`), under a lock on the run.
"""

from __future__ import annotations

from anonygraph.graphs import GRAPHS
from anonygraph.runs import sql
from anonygraph.runs.local import run_local
from anonygraph.runs.locks import run_lock
from anonygraph.runs.options import RunOptions, derive_run_id
from anonygraph.runs.shared import run_shared
from anonygraph.runs.summary import RunSummary
from anonygraph.runs.tracing import tracing_scope


async def run_batch(options: RunOptions) -> RunSummary:
    """Anonymize every record of ``options.input``; resume an interrupted run.

    Finished records (in the output file or the store) are not redone; a record
    cut off mid-way continues from its last checkpointed step; the output file
    ends with each finished record exactly once.

    Raises:
        ValueError: for a method that is not registered.
    """
    if options.method not in GRAPHS:
        raise ValueError(
            f"unknown method {options.method!r}; choose from {', '.join(GRAPHS)}"
        )
    run_id = options.run_id or derive_run_id(options)
    with tracing_scope(options.trace):
        if sql.is_postgres(options.db):
            # Shared by workers on other machines: leases, not a local lock.
            return await run_shared(options, run_id)
        with run_lock(options.db, run_id):
            return await run_local(options, run_id)
