"""The run store (SQLite or Postgres): runs, records, iterations, calls, workers.

Every file the store creates is 0600: it holds raw text and attacker reasoning.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from anonygraph.runs.store import sql
from anonygraph.runs.store.schema import (
    create_postgres_schema,
    create_tables,
    open_connection,
)
from anonygraph.runs.store.worker_tables import WorkerTables

INVERSION_BACKEND = "t5-inversion"
"""The backend DP-Embed's inverter calls record: local T5 folders, no model spec."""


class RunStore(WorkerTables):
    """Results of runs: one row per run, record, iteration and model call.

    ``location`` is a SQLite file (the default) or a ``postgresql://`` URL; the
    same methods work on both.
    """

    def __init__(self, location: str | Path) -> None:
        """Open (creating 0600 or creating the tables) the store at ``location``."""
        self.location = str(location)
        self.postgres = sql.is_postgres(self.location)
        self.path = Path(self.location) if not self.postgres else Path("postgres")
        self.db = open_connection(self.location)
        self._journaled: dict[tuple[str, str], set[tuple[str, str, int]]] = {}
        if self.postgres:
            create_postgres_schema(self.db, self.location)
        else:
            create_tables(self.db)

    def runs(self) -> list[dict[str, Any]]:
        """Return every run, oldest first."""
        return self.db.query("select * from runs order by created")

    def start_run(
        self, run_id: str, method: str, params: dict[str, Any], input: str, output: str
    ) -> None:
        """Register a run, keeping its creation time when it is resumed."""
        now = time.time()
        existing = self.get_run(run_id)
        self._upsert(
            "runs",
            [
                {
                    "id": run_id,
                    "method": method,
                    "created": existing["created"] if existing else now,
                    "updated": now,
                    "input": input,
                    "output": output,
                    "params": json.dumps(params, sort_keys=True, default=str),
                    "status": "running",
                }
            ],
        )

    def get_run(self, run_id: str) -> dict[str, Any] | None:
        """Return a run's row, or None."""
        rows = self._where("runs", "id = ?", [run_id])
        return rows[0] if rows else None

    def finish_run(self, run_id: str, status: str, summary: dict[str, Any]) -> None:
        """Record a run's end state and summary."""
        self.db.execute(
            "update runs set status = ?, summary = ?, updated = ? where id = ?",
            [status, json.dumps(summary), time.time(), run_id],
        )

    def record_statuses(self, run_id: str) -> dict[str, str]:
        """Return record id -> status for a run."""
        return {
            row["record_id"]: row["status"]
            for row in self._where("records", "run_id = ?", [run_id])
        }

    def wall_seconds(self, run_id: str, record_id: str) -> float:
        """Return the time already spent on a record (0 when new)."""
        row = self.db.one(
            "select wall_seconds from records where run_id = ? and record_id = ?",
            [run_id, record_id],
        )
        return float(row[0] or 0.0) if row else 0.0

    def records(self, run_id: str, status: str | None = None) -> list[dict[str, Any]]:
        """Return a run's record rows, optionally of one status."""
        where, args = "run_id = ?", [run_id]
        if status:
            where, args = where + " and status = ?", [run_id, status]
        return self._where("records", where, args, " order by record_id")

    def records_of(self, run_id: str, ids: list[str]) -> list[dict[str, Any]]:
        """Return the record rows of some of a run's records (a batch of a table)."""
        rows: list[dict[str, Any]] = []
        for start in range(0, len(ids), 500):  # SQLite caps a query's parameters
            chunk = ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows += self._where(
                "records", f"run_id = ? and record_id in ({marks})", [run_id, *chunk]
            )
        return rows

    def save_result(
        self,
        run_id: str,
        record_id: str,
        *,
        status: str,
        original: str,
        result: dict[str, Any],
        labels: dict[str, Any],
        wall_seconds: float,
        error: str = "",
    ) -> None:
        """Store a record's outcome with its iterations and model calls."""
        calls = result.get("calls", [])
        with self.db.batch():  # writes only: one round trip on Postgres
            if status == "done":
                self.journal_close(run_id, record_id)
            self.save_calls(run_id, record_id, calls)
            self.save_queries(run_id, record_id, "run", result.get("search_log", []))
            self._upsert(
                "iterations",
                [
                    {
                        "run_id": run_id,
                        "record_id": record_id,
                        "round": it.get("round", i),
                        "text": it.get("text", ""),
                        "rewritten": it.get("rewritten"),
                        "inferences": json.dumps(it.get("inferences", [])),
                        "verdicts": json.dumps(it.get("verdicts", [])),
                        "policy": json.dumps(it.get("policy", [])),
                        "error": it.get("error") or "",
                    }
                    for i, it in enumerate(result.get("iterations", []))
                ],
            )
            self._upsert(
                "records",
                [
                    {
                        "run_id": run_id,
                        "record_id": record_id,
                        "status": status,
                        "error": error,
                        "original": original,
                        "anonymized": result.get("anonymized", ""),
                        "labels": json.dumps(labels),
                        "result": json.dumps(
                            {k: v for k, v in result.items() if k not in ("calls",)},
                            default=str,
                        ),
                        "iterations": len(result.get("iterations", [])),
                        "calls": len(calls),
                        "tokens_in": sum(c.get("tokens_in", 0) for c in calls),
                        "tokens_out": sum(c.get("tokens_out", 0) for c in calls),
                        "model_seconds": round(
                            sum(c.get("seconds", 0.0) for c in calls), 4
                        ),
                        "wall_seconds": round(wall_seconds, 4),
                        "updated": time.time(),
                    }
                ],
            )

    def models_used(self, run_id: str, step: str = "") -> list[str]:
        """Return the model specs a run's (or an evaluation's) calls went to.

        ``step`` keeps only the calls of that graph step.
        """
        # DP-Embed's inverter calls name a model folder, not a model spec.
        where, args = "run_id = ? and backend != ?", [run_id, INVERSION_BACKEND]
        if step:
            where, args = where + " and step = ?", [*args, step]
        rows = self.db.query(
            f"select distinct model from model_calls where {where}", args
        )
        return sorted(str(r["model"]) for r in rows if r["model"])

    def run_totals(self, run_id: str) -> dict[str, Any]:
        """Sum calls, tokens and seconds over a run's finished records."""
        row = self.db.one(
            "select count(*), sum(calls), sum(tokens_in), sum(tokens_out), "
            "sum(model_seconds), sum(wall_seconds) from records "
            "where run_id = ? and status = 'done'",
            [run_id],
        )
        n = int(row[0] or 0)
        totals: dict[str, Any] = {
            "records": n,
            "calls": int(row[1] or 0),
            "tokens_in": int(row[2] or 0),
            "tokens_out": int(row[3] or 0),
            "model_seconds": round(float(row[4] or 0.0), 3),
            "wall_seconds": round(float(row[5] or 0.0), 3),
        }
        totals["call_log"] = {
            **self.call_log_totals(run_id),
            "replayed": self.journal_replays(run_id),
        }
        if n:
            totals["per_record"] = {
                k: round(totals[k] / n, 3)
                for k in ("calls", "tokens_in", "tokens_out", "wall_seconds")
            }
        return totals

    def purge_intermediates(self, run_id: str) -> None:
        """Delete a run's iterations and call details, keeping final texts."""
        with self.db.transaction():
            self.db.execute("delete from iterations where run_id = ?", [run_id])
            self.db.execute("delete from model_calls where run_id = ?", [run_id])
            # Journaled answers hold raw text: the run's and its evaluations'.
            self.db.execute(
                "delete from call_journal where run_id = ? or substr(run_id, 1, ?) = ?",
                [run_id, len(run_id) + 1, f"{run_id}/"],
            )
            self.db.execute(
                "update records set result = null where run_id = ?", [run_id]
            )

    def close(self) -> None:
        """Close the connection."""
        self.db.close()
