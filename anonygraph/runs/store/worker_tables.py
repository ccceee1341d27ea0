"""Where a Ray run's records ran: the worker and node of each (a part of the store).

A Ray worker writes a record's row when it starts the record and again when
it ends it, so `status` shows the records per worker and node, those still
running (or cut off by a worker's death) among them, and `export` writes the
output in input order (each row keeps the record's place in the input).
"""

from __future__ import annotations

import time
from typing import Any

from anonygraph.runs.store.eval_tables import EvalTables


class WorkerTables(EvalTables):
    """The ``record_workers`` table (a part of `RunStore`)."""

    def note_worker(
        self,
        run_id: str,
        record_id: str,
        position: int,
        worker: str,
        where: dict[str, Any],
        *,
        ended: bool = False,
    ) -> None:
        """Note that ``worker`` (on the node in ``where``) started or ended a record.

        ``position`` is the record's place in the input; ``ended``: done,
        failed or waiting for review, whichever it is in ``records``.
        """
        self._upsert(
            "record_workers",
            [
                {
                    "run_id": run_id,
                    "record_id": record_id,
                    "position": position,
                    "worker": worker,
                    "node": str(where.get("node", "")),
                    "address": str(where.get("address", "")),
                    "pid": int(where.get("pid", 0)),
                    "updated": time.time(),
                    "ended": time.time() if ended else 0.0,
                }
            ],
        )

    def record_workers(self, run_id: str) -> list[dict[str, Any]]:
        """Return a run's rows of where each record ran (last worker), input order."""
        return self._where(
            "record_workers", "run_id = ?", [run_id], " order by position, record_id"
        )
