"""The work queue of shared runs: records that workers claim with leases."""

from __future__ import annotations

import json
import time
from typing import Any

from anonygraph.runs.schema import WAITING, Tables


class WorkQueue(Tables):
    """The ``work`` and ``run_jobs`` tables (a part of `RunStore`)."""

    def register_job(
        self, run_id: str, method: str, context: dict[str, Any], records: list[Any]
    ) -> None:
        """Queue a run's records for workers; requeue failed ones, keep done ones.

        ``context`` holds the options a worker needs to rebuild the method's
        `Context`; ``records`` are `Record`s, stored whole as the payload.
        """
        now = time.time()
        with self.db.transaction():
            self._upsert(
                "run_jobs",
                [
                    {
                        "run_id": run_id,
                        "method": method,
                        "context": json.dumps(context, sort_keys=True),
                        "created": now,
                    }
                ],
            )
            known = {
                r["record_id"]: r["state"]
                for r in self.db.query(
                    "select record_id, state from work where run_id = ?", [run_id]
                )
            }
            rows = [
                {
                    "run_id": run_id,
                    "record_id": record.id,
                    "position": n,
                    "payload": json.dumps(record.model_dump()),
                    "state": "pending",
                    "worker": "",
                    "lease_until": 0.0,
                    "claims": 0,
                    "updated": now,
                }
                for n, record in enumerate(records)
                if known.get(record.id) in (None, "failed")
            ]
            self._upsert("work", rows)

    def job(self, run_id: str) -> dict[str, Any] | None:
        """Return a shared run's method and options, or None."""
        rows = self._where("run_jobs", "run_id = ?", [run_id])
        return rows[0] if rows else None

    def claim(
        self, worker: str, lease_seconds: float, run_id: str | None = None
    ) -> dict[str, Any] | None:
        """Lease the next pending record (or one whose lease ran out) to ``worker``.

        Concurrent claims never get the same record: Postgres skips rows another
        claim has locked; SQLite serializes writers.
        """
        where, args = "", []
        if run_id is not None:
            where, args = "run_id = ? and ", [run_id]
        now = self.db.now_sql
        pick = (
            f"select run_id, record_id from work where {where}"
            f"(state = 'pending' or (state = 'leased' and lease_until < {now})) "
            f"order by position limit 1{self.db.skip_locked}"
        )
        # One statement, atomic by itself: no begin/commit round trips.
        rows = self.db.query(
            f"update work set state = 'leased', worker = ?, "
            f"lease_until = {now} + ?, claims = claims + 1, updated = {now} "
            f"where (run_id, record_id) = ({pick}) "
            "returning run_id, record_id, payload, claims",
            [worker, lease_seconds, *args],
        )
        return rows[0] if rows else None

    def renew(self, worker: str, lease_seconds: float) -> set[tuple[str, str]]:
        """Extend every lease ``worker`` holds (its heartbeat); return those records.

        A record the worker is working but that is missing from the answer was
        taken over after its lease ran out (the worker was stopped too long).
        """
        now = self.db.now_sql
        rows = self.db.query(
            f"update work set lease_until = {now} + ? "
            "where worker = ? and state = 'leased' returning run_id, record_id",
            [lease_seconds, worker],
        )
        return {(r["run_id"], r["record_id"]) for r in rows}

    def release(self, run_id: str, record_id: str, worker: str, state: str) -> None:
        """Mark a leased record done, failed or waiting for review (`WAITING`).

        Unless another worker took it over. A record waiting for review is
        claimed by no one: `anonygraph review` answers it and `settle`s it.
        """
        self.db.execute(
            f"update work set state = ?, updated = {self.db.now_sql} "
            "where run_id = ? and record_id = ? and worker = ? and state = 'leased'",
            [state, run_id, record_id, worker],
        )

    def settle(self, run_id: str, record_id: str, state: str) -> None:
        """Mark a record that waited for review done or failed once it went on."""
        self.db.execute(
            f"update work set state = ?, updated = {self.db.now_sql} "
            "where run_id = ? and record_id = ? and state = ?",
            [state, run_id, record_id, WAITING],
        )

    def work_rows(self, run_id: str) -> list[dict[str, Any]]:
        """Return a shared run's queue rows (with seconds left on each lease)."""
        return self.db.query(
            f"select record_id, position, state, worker, claims, "
            f"lease_until - {self.db.now_sql} as lease_left "
            "from work where run_id = ? order by position",
            [run_id],
        )

