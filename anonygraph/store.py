"""Run store (sqlite-utils): runs, records, iterations, model calls, call cache.

Also the checkpointer factory. Every file the store creates is 0600: it holds
raw text and attacker reasoning.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import sqlite_utils

CALL_LOG: ContextVar[tuple[RunStore, str, str] | None] = ContextVar(
    "anonygraph_call_log", default=None
)
"""The store, run and record that model calls in this task belong to."""


def log_call(call: dict[str, Any], phase: str) -> None:
    """Note a model call's start or end, so calls cut off by a kill are counted.

    The model layer calls this around every call; it does nothing outside a
    batch run (no `CALL_LOG` set), e.g. in Studio or the Python API.
    """
    owner = CALL_LOG.get()
    if owner is None:
        return
    db, run_id, record_id = owner
    if phase == "start":
        row = {k: call.get(k) for k in ("id", "role", "step")}
        db.table("call_log").upsert(
            {**row, "run_id": run_id, "record_id": record_id, "started": time.time()},
            pk="id",
        )
    else:
        db.table("call_log").update(call["id"], {"ended": time.time()})


def secure_file(path: str | Path) -> Path:
    """Create ``path`` (and its folder) readable by the owner alone, if missing.

    An existing file is only chmod-ed, never opened: closing a descriptor of a
    database file would drop the POSIX locks SQLite holds on it in this process,
    and the next write fails with "disk I/O error" or worse.
    """
    target = Path(path)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass
    os.chmod(target, 0o600)
    return target


def checkpoint_path(db_path: str | Path) -> Path:
    """Return the checkpoint file that belongs to a store file."""
    db = Path(db_path)
    return db.with_name(f"{db.stem}.checkpoints{db.suffix or '.sqlite'}")


@asynccontextmanager
async def open_checkpointer(db_path: str | Path) -> AsyncIterator[Any]:
    """Yield an async SQLite checkpointer beside the store file.

    Postgres (langgraph-checkpoint-postgres) is the seam for runs shared by
    several machines: a ``postgresql://`` URL would be opened here.
    """
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    path = secure_file(checkpoint_path(db_path))
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        yield saver


class RunLockedError(RuntimeError):
    """Another process is working on the same run."""


@contextmanager
def run_lock(db_path: str | Path, run_id: str) -> Iterator[None]:
    """Hold an exclusive lock on one run, so two processes never share its records.

    Raises:
        RunLockedError: naming the run when another process holds it.
    """
    path = secure_file(Path(f"{db_path}.{run_id}.lock"))
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise RunLockedError(
                f"run {run_id!r} is already running in another process; wait for it "
                "or stop it, then run the same command again to resume"
            ) from exc
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _connect(path: str | Path) -> sqlite3.Connection:
    conn = sqlite3.connect(secure_file(path), timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


class RunStore:
    """Results of runs: one row per run, record, iteration and model call."""

    def __init__(self, path: str | Path) -> None:
        """Open (creating 0600) the store file at ``path``."""
        self.path = Path(path)
        self.db = sqlite_utils.Database(_connect(self.path))
        self._ensure_tables()
        self._ensure_eval_tables()
        self._ensure_call_log()

    def table(self, name: str) -> sqlite_utils.db.Table:
        """Return one of the store's tables."""
        return self.db.table(name)

    def _ensure_tables(self) -> None:
        tables = self.db.table_names()
        if "runs" not in tables:
            self.table("runs").create(
                {
                    "id": str,
                    "method": str,
                    "created": float,
                    "updated": float,
                    "input": str,
                    "output": str,
                    "params": str,
                    "status": str,
                    "summary": str,
                },
                pk="id",
            )
        if "records" not in tables:
            self.table("records").create(
                {
                    "run_id": str,
                    "record_id": str,
                    "status": str,
                    "error": str,
                    "original": str,
                    "anonymized": str,
                    "labels": str,
                    "result": str,
                    "iterations": int,
                    "calls": int,
                    "tokens_in": int,
                    "tokens_out": int,
                    "model_seconds": float,
                    "wall_seconds": float,
                    "updated": float,
                },
                pk=("run_id", "record_id"),
            )
        if "iterations" not in tables:
            self.table("iterations").create(
                {
                    "run_id": str,
                    "record_id": str,
                    "round": int,
                    "text": str,
                    "rewritten": str,
                    "inferences": str,
                    "verdicts": str,
                    "policy": str,
                    "error": str,
                },
                pk=("run_id", "record_id", "round"),
            )
        if "model_calls" not in tables:
            self.table("model_calls").create(
                {
                    "id": str,
                    "run_id": str,
                    "record_id": str,
                    "step": str,
                    "role": str,
                    "backend": str,
                    "model": str,
                    "tokens_in": int,
                    "tokens_out": int,
                    "seconds": float,
                    "cached": int,
                    "attempt": int,
                    "ok": int,
                    "error": str,
                },
                pk="id",
            )
            self.table("model_calls").create_index(["run_id", "record_id"])

    def _ensure_call_log(self) -> None:
        if "call_log" not in self.db.table_names():
            self.table("call_log").create(
                {
                    "id": str,
                    "run_id": str,
                    "record_id": str,
                    "role": str,
                    "step": str,
                    "started": float,
                    "ended": float,
                },
                pk="id",
            )
            self.table("call_log").create_index(["run_id"])

    def call_log_totals(self, run_id: str) -> dict[str, int]:
        """Count a run's model calls: started, cut off, finished but redone.

        A call cut off by a kill has a start and no end; one that ended in a
        step the kill cut off left no row in ``model_calls``.
        """
        row = self.db.execute(
            "select count(*), sum(ended is null), "
            "sum(ended is not null and id not in (select id from model_calls)) "
            "from call_log where run_id = ?",
            [run_id],
        ).fetchone()
        return {"started": row[0] or 0, "cut_off": row[1] or 0, "redone": row[2] or 0}

    def _ensure_eval_tables(self) -> None:
        tables = self.db.table_names()
        if "evals" not in tables:
            self.table("evals").create(
                {"id": str, "run_id": str, "created": float, "params": str}, pk="id"
            )
        if "evaluations" not in tables:
            self.table("evaluations").create(
                {
                    "eval_id": str,
                    "run_id": str,
                    "record_id": str,
                    "row": str,
                    "round": int,
                    "status": str,
                    "error": str,
                    "text": str,
                    "inferences": str,
                    "matches": str,
                    "utility": str,
                    "metrics": str,
                    "identified_profile": str,
                    "calls": int,
                    "tokens_in": int,
                    "tokens_out": int,
                    "seconds": float,
                },
                pk=("eval_id", "record_id", "row"),
            )
        if "search_queries" not in tables:
            self.table("search_queries").create(
                {
                    "eval_id": str,
                    "record_id": str,
                    "row": str,
                    "n": int,
                    "backend": str,
                    "query": str,
                    "urls": str,
                },
                pk=("eval_id", "record_id", "row", "n"),
            )

    def save_queries(
        self, owner: str, record_id: str, row: str, search_log: list[dict[str, Any]]
    ) -> None:
        """Store the outgoing search queries of a run's or an evaluation's record.

        ``owner`` is the run id (row "run") or the evaluation id.
        """
        self.table("search_queries").upsert_all(
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
            pk=("eval_id", "record_id", "row", "n"),
        )

    def start_eval(self, eval_id: str, run_id: str, params: dict[str, Any]) -> None:
        """Register an evaluation of a run (kept when it is resumed)."""
        if not list(self.table("evals").rows_where("id = ?", [eval_id])):
            self.table("evals").insert(
                {
                    "id": eval_id,
                    "run_id": run_id,
                    "created": time.time(),
                    "params": json.dumps(params, sort_keys=True),
                }
            )

    def evaluated_rows(self, eval_id: str) -> set[tuple[str, str]]:
        """Return (record id, row) pairs an evaluation already scored."""
        return {
            (r["record_id"], r["row"])
            for r in self.table("evaluations").rows_where(
                "eval_id = ? and status = 'done'", [eval_id]
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
        with self.db.conn:
            self.save_calls(f"{run_id}/{eval_id}", f"{record_id}/{row}", calls)
            self.save_queries(eval_id, record_id, row, result.get("search_log", []))
            self.table("evaluations").upsert(
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
                },
                pk=("eval_id", "record_id", "row"),
            )

    def copy_evaluation(
        self, eval_id: str, record_id: str, source: str, target: str
    ) -> bool:
        """Copy a scored row under another row name; False if the source failed."""
        rows = list(
            self.table("evaluations").rows_where(
                "eval_id = ? and record_id = ? and row = ? and status = 'done'",
                [eval_id, record_id, source],
            )
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
        self.table("evaluations").upsert(copy, pk=("eval_id", "record_id", "row"))
        return True

    def evaluations(self, eval_id: str) -> list[dict[str, Any]]:
        """Return an evaluation's rows."""
        return list(self.table("evaluations").rows_where("eval_id = ?", [eval_id]))

    def latest_eval(self, run_id: str) -> str | None:
        """Return the id of a run's newest evaluation, or None."""
        rows = list(
            self.table("evals").rows_where(
                "run_id = ?", [run_id], order_by="created desc", limit=1
            )
        )
        return str(rows[0]["id"]) if rows else None

    def runs(self) -> list[dict[str, Any]]:
        """Return every run, oldest first."""
        return list(self.table("runs").rows_where(order_by="created"))

    def start_run(
        self, run_id: str, method: str, params: dict[str, Any], input: str, output: str
    ) -> None:
        """Register a run, keeping its creation time when it is resumed."""
        now = time.time()
        existing = self.get_run(run_id)
        self.table("runs").upsert(
            {
                "id": run_id,
                "method": method,
                "created": existing["created"] if existing else now,
                "updated": now,
                "input": input,
                "output": output,
                "params": json.dumps(params, sort_keys=True),
                "status": "running",
            },
            pk="id",
        )

    def get_run(self, run_id: str) -> dict[str, Any] | None:
        """Return a run's row, or None."""
        rows = list(self.table("runs").rows_where("id = ?", [run_id]))
        return rows[0] if rows else None

    def finish_run(self, run_id: str, status: str, summary: dict[str, Any]) -> None:
        """Record a run's end state and summary."""
        self.table("runs").update(
            run_id,
            {"status": status, "summary": json.dumps(summary), "updated": time.time()},
        )

    def record_statuses(self, run_id: str) -> dict[str, str]:
        """Return record id -> status for a run."""
        return {
            row["record_id"]: row["status"]
            for row in self.table("records").rows_where("run_id = ?", [run_id])
        }

    def wall_seconds(self, run_id: str, record_id: str) -> float:
        """Return the time already spent on a record (0 when new)."""
        rows = list(
            self.table("records").rows_where(
                "run_id = ? and record_id = ?", [run_id, record_id]
            )
        )
        return float(rows[0]["wall_seconds"] or 0.0) if rows else 0.0

    def records(self, run_id: str, status: str | None = None) -> list[dict[str, Any]]:
        """Return a run's record rows, optionally of one status."""
        where, args = "run_id = ?", [run_id]
        if status:
            where, args = where + " and status = ?", [run_id, status]
        return list(self.table("records").rows_where(where, args))

    def save_calls(
        self, run_id: str, record_id: str, calls: Iterable[dict[str, Any]]
    ) -> None:
        """Upsert call records by id, so a resumed step never duplicates them."""
        rows = [
            {
                **{k: call.get(k) for k in ("id", "step", "role", "backend", "model")},
                "run_id": run_id,
                "record_id": record_id,
                "tokens_in": call.get("tokens_in", 0),
                "tokens_out": call.get("tokens_out", 0),
                "seconds": call.get("seconds", 0.0),
                "cached": int(bool(call.get("cached"))),
                "attempt": call.get("attempt", 0),
                "ok": int(call.get("ok", True)),
                "error": call.get("error", ""),
            }
            for call in calls
        ]
        if rows:
            self.table("model_calls").upsert_all(rows, pk="id")

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
        with self.db.conn:
            self.save_calls(run_id, record_id, calls)
            self.save_queries(run_id, record_id, "run", result.get("search_log", []))
            self.table("iterations").upsert_all(
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
                pk=("run_id", "record_id", "round"),
            )
            self.table("records").upsert(
                {
                    "run_id": run_id,
                    "record_id": record_id,
                    "status": status,
                    "error": error,
                    "original": original,
                    "anonymized": result.get("anonymized", ""),
                    "labels": json.dumps(labels),
                    "result": json.dumps(
                        {k: v for k, v in result.items() if k not in ("calls",)}
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
                },
                pk=("run_id", "record_id"),
            )

    def models_used(self, run_id: str) -> list[str]:
        """Return the model specs a run's (or an evaluation's) calls went to."""
        rows = self.db.execute(
            "select distinct model from model_calls where run_id = ?", [run_id]
        ).fetchall()
        return sorted(str(r[0]) for r in rows if r[0])

    def run_totals(self, run_id: str) -> dict[str, Any]:
        """Sum calls, tokens and seconds over a run's finished records."""
        row = self.db.execute(
            "select count(*), sum(calls), sum(tokens_in), sum(tokens_out), "
            "sum(model_seconds), sum(wall_seconds) from records "
            "where run_id = ? and status = 'done'",
            [run_id],
        ).fetchone()
        n = row[0] or 0
        totals = {
            "records": n,
            "calls": row[1] or 0,
            "tokens_in": row[2] or 0,
            "tokens_out": row[3] or 0,
            "model_seconds": round(row[4] or 0.0, 3),
            "wall_seconds": round(row[5] or 0.0, 3),
        }
        totals["call_log"] = self.call_log_totals(run_id)
        if n:
            totals["per_record"] = {
                k: round(totals[k] / n, 3)
                for k in ("calls", "tokens_in", "tokens_out", "wall_seconds")
            }
        return totals

    def purge_intermediates(self, run_id: str) -> None:
        """Delete a run's iterations and call details, keeping final texts."""
        with self.db.conn:
            self.db.execute("delete from iterations where run_id = ?", [run_id])
            self.db.execute("delete from model_calls where run_id = ?", [run_id])
            self.db.execute(
                "update records set result = null where run_id = ?", [run_id]
            )


def cache_get(db_path: str, key: str) -> dict[str, Any] | None:
    """Return a cached model answer, or None."""
    conn = _connect(db_path)
    try:
        _ensure_cache(conn)
        row = conn.execute(
            "select value from model_cache where key = ?", [key]
        ).fetchone()
        return json.loads(row[0]) if row else None
    finally:
        conn.close()


def cache_put(db_path: str, key: str, value: dict[str, Any]) -> None:
    """Store a model answer under its cache key."""
    conn = _connect(db_path)
    try:
        _ensure_cache(conn)
        with conn:
            conn.execute(
                "insert or replace into model_cache(key, value, created) "
                "values (?, ?, ?)",
                [key, json.dumps(value), time.time()],
            )
    finally:
        conn.close()


def _ensure_cache(conn: sqlite3.Connection) -> None:
    conn.execute(
        "create table if not exists model_cache "
        "(key text primary key, value text, created float)"
    )


def mode_get(db_path: str, base_url: str, model: str) -> str | None:
    """Return the structured-output mode detected for a server and model, or None."""
    conn = _connect(db_path)
    try:
        _ensure_modes(conn)
        row = conn.execute(
            "select mode from server_modes where base_url = ? and model = ?",
            [base_url, model],
        ).fetchone()
        return str(row[0]) if row else None
    finally:
        conn.close()


def mode_put(db_path: str, base_url: str, model: str, mode: str, note: str) -> None:
    """Remember the structured-output mode a server and model accept."""
    conn = _connect(db_path)
    try:
        _ensure_modes(conn)
        with conn:
            conn.execute(
                "insert or replace into server_modes(base_url, model, mode, note, "
                "detected) values (?, ?, ?, ?, ?)",
                [base_url, model, mode, note, time.time()],
            )
    finally:
        conn.close()


def _ensure_modes(conn: sqlite3.Connection) -> None:
    conn.execute(
        "create table if not exists server_modes (base_url text, model text, "
        "mode text, note text, detected float, primary key (base_url, model))"
    )
