"""``anonygraph status``: a run's records per Ray worker and node, from the store.

A Ray run's workers note in the store which worker and node started and
ended each record (`worker_tables`); a local run's records all ran in the
one process that worked the run.
"""

from __future__ import annotations

import time
from typing import Any

from anonygraph.runs.store import RunStore
from anonygraph.runs.store.schema import WAITING

COLUMNS = ("done", "failed", WAITING, "running")
"""What a status row counts; ``running``: started by the worker and not ended
(running now, or cut off by the death of its worker or of the driver)."""

LOCAL = "this process (local engine)"
"""The worker of records that no Ray worker noted: a local run's."""


def status_rows(db: RunStore, run_id: str) -> list[dict[str, Any]]:
    """Count a run's records per worker and node: done, failed, waiting, running.

    A record is counted under the last worker that started it (one whose
    worker died continues on another).
    """
    statuses = db.record_statuses(run_id)
    counts: dict[tuple[str, str], dict[str, Any]] = {}

    def count(worker: str, node: str, state: str) -> None:
        entry = counts.setdefault(
            (worker, node),
            {"worker": worker, "node": node, **dict.fromkeys(COLUMNS, 0)},
        )
        entry[state] += 1

    placed = set()
    for row in db.record_workers(run_id):
        placed.add(row["record_id"])
        state = statuses.get(row["record_id"], "running") if row["ended"] else "running"
        node = f"{row['address']} {str(row['node'])[:8]}".strip() or "-"
        count(str(row["worker"]), node, state if state in COLUMNS else "failed")
    for record_id, state in statuses.items():
        if record_id not in placed:
            count(LOCAL, "-", state if state in COLUMNS else "failed")
    return sorted(counts.values(), key=lambda e: (e["worker"] == LOCAL, e["worker"]))


def render_status(db: RunStore, run_id: str) -> str:
    """Render `status_rows` as a table with a total line and the run's state.

    Raises:
        ValueError: naming the run when the store has no such run.
    """
    run = db.get_run(run_id)
    if run is None:
        raise ValueError(f"--run {run_id}: no such run in the store")
    rows = status_rows(db, run_id)
    header = ("worker", "node", "done", "failed", "waiting for review", "running")
    table = [header] + [
        (str(r["worker"]), str(r["node"]), *(str(r[k]) for k in COLUMNS)) for r in rows
    ]
    table.append(("total", "", *(str(sum(r[k] for r in rows)) for k in COLUMNS)))
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    note = ""
    if run["status"] != "running" and any(r["running"] for r in rows):
        note = "; its records counted running were cut off: run it again to finish them"
    return (
        "\n".join(
            "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
            for line in table
        )
        + f"\nrun {run_id} ({run['status']}{note}): updated {time.strftime('%H:%M:%S')}"
    )
