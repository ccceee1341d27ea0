"""Evaluations in the store: scored texts, their judge calls, outgoing queries."""

from __future__ import annotations

import json
import time
from typing import Any

from anonygraph.runs.store.call_tables import CallTables


class EvalTables(CallTables):
    """The store's tables of evaluations and search queries (a part of `RunStore`)."""

    def save_queries(
        self, owner: str, record_id: str, row: str, search_log: list[dict[str, Any]]
    ) -> None:
        """Store the outgoing search queries of a run's or an evaluation's record.

        ``owner`` is the run id (row "run") or the evaluation id.
        """
        self._upsert(
            "search_queries",
            [
                {
                    "eval_id": owner,
                    "record_id": record_id,
                    "row": row,
                    "n": n,
                    "backend": q.get("backend", ""),
                    "query": q.get("query", ""),
                    "urls": json.dumps(q.get("urls", [])),
                }
                for n, q in enumerate(search_log)
            ],
        )

    def start_eval(self, eval_id: str, run_id: str, params: dict[str, Any]) -> None:
        """Register an evaluation of a run (kept when it is resumed)."""
        if not self._where("evals", "id = ?", [eval_id]):
            self._upsert(
                "evals",
                [
                    {
                        "id": eval_id,
                        "run_id": run_id,
                        "created": time.time(),
                        "params": json.dumps(params, sort_keys=True),
                    }
                ],
            )

    def evaluated_rows(self, eval_id: str) -> set[tuple[str, str]]:
        """Return (record id, row) pairs an evaluation already scored."""
        return {
            (r["record_id"], r["row"])
            for r in self._where(
                "evaluations", "eval_id = ? and status = 'done'", [eval_id]
            )
        }

    def save_evaluation(
        self,
        eval_id: str,
        run_id: str,
        record_id: str,
        row: str,
        *,
        round_no: int,
        status: str,
        error: str,
        result: dict[str, Any],
        seconds: float,
    ) -> None:
        """Store one scored text, its judge calls and its outgoing queries."""
        calls = result.get("calls", [])
        with self.db.transaction():
            if status == "done":
                self.journal_close(f"{run_id}/{eval_id}", f"{record_id}/{row}")
            self.save_calls(f"{run_id}/{eval_id}", f"{record_id}/{row}", calls)
            self.save_queries(eval_id, record_id, row, result.get("search_log", []))
            self._upsert(
                "evaluations",
                [
                    {
                        "eval_id": eval_id,
                        "run_id": run_id,
                        "record_id": record_id,
                        "row": row,
                        "round": round_no,
                        "status": status,
                        "error": error,
                        "text": result.get("text", ""),
                        "inferences": json.dumps(result.get("inferences", [])),
                        "matches": json.dumps(result.get("matches", [])),
                        "utility": json.dumps(result.get("utility", {})),
                        "metrics": json.dumps(result.get("metrics", {})),
                        "identified_profile": result.get("identified_profile", ""),
                        "calls": len(calls),
                        "tokens_in": sum(c.get("tokens_in", 0) for c in calls),
                        "tokens_out": sum(c.get("tokens_out", 0) for c in calls),
                        "seconds": round(seconds, 4),
                    }
                ],
            )

    def copy_evaluation(
        self, eval_id: str, record_id: str, source: str, target: str
    ) -> bool:
        """Copy a scored row under another row name; False if the source failed."""
        rows = self._where(
            "evaluations",
            "eval_id = ? and record_id = ? and row = ? and status = 'done'",
            [eval_id, record_id, source],
        )
        if not rows:
            return False
        copy = {**rows[0], "row": target, "calls": 0, "tokens_in": 0, "tokens_out": 0}
        copy["round"] = (
            int(target.removeprefix("round_"))
            if target.startswith("round_")
            else rows[0]["round"]
        )
        if target == "final":
            copy["round"] = rows[0]["round"]
        self._upsert("evaluations", [copy])
        return True

    def evaluations(self, eval_id: str) -> list[dict[str, Any]]:
        """Return an evaluation's rows."""
        return self._where("evaluations", "eval_id = ?", [eval_id])

    def latest_eval(self, run_id: str) -> str | None:
        """Return the id of a run's newest evaluation, or None."""
        rows = self._where(
            "evals", "run_id = ?", [run_id], " order by created desc limit 1"
        )
        return str(rows[0]["id"]) if rows else None
