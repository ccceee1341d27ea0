"""Model calls in the store: the call log, the call journal, the answer cache."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from anonygraph.runs.store import sql
from anonygraph.runs.store.schema import (
    SCHEMA,
    Tables,
    create_postgres_schema,
    open_connection,
)


class CallTables(Tables):
    """The store's tables of model calls (a part of `RunStore`)."""

    _journaled: dict[tuple[str, str], set[tuple[str, str, int]]]

    def log_call(self, call: dict[str, Any], phase: str, run_id: str, rid: str) -> None:
        """Write a model call's start or end to the call log."""
        if phase == "start":
            row = {k: call.get(k) for k in ("id", "role", "step")}
            self._upsert(
                "call_log",
                [{**row, "run_id": run_id, "record_id": rid, "started": time.time()}],
            )
        else:
            self.db.execute(
                "update call_log set ended = ? where id = ?", [time.time(), call["id"]]
            )

    # The call journal: answered model calls of records not finished yet.

    def journal_take(
        self, run_id: str, rid: str, task: str, request: str, occurrence: int
    ) -> dict[str, Any] | None:
        """Return a journaled answer (``call``, ``answer``); count the replay."""
        if (task, request, occurrence) not in self._journal_index(run_id, rid):
            return None
        key = [run_id, rid, task, request, occurrence]
        where = (
            "run_id = ? and record_id = ? and task = ? and request = ? "
            "and occurrence = ?"
        )
        row = self.db.one(f"select call, answer from call_journal where {where}", key)
        if not row or not row[1]:
            return None
        self.db.execute(
            f"update call_journal set replays = replays + 1 where {where}", key
        )
        return {"call": json.loads(row[0]), "answer": json.loads(row[1])}

    def journal_put(
        self,
        run_id: str,
        rid: str,
        task: str,
        request: str,
        occurrence: int,
        call: dict[str, Any],
        answer: dict[str, Any],
    ) -> None:
        """Journal an answered call, so a re-run of its step does not send it again."""
        row = {"run_id": run_id, "record_id": rid, "task": task, "request": request,
               "occurrence": occurrence, "step": str(call.get("step", "")),
               "call_id": str(call.get("id", "")),
               "call": json.dumps(call, default=str), "answer": json.dumps(answer),
               "replays": 0, "created": time.time()}  # fmt: skip
        self._upsert("call_journal", [row])
        if (run_id, rid) in self._journaled:
            self._journaled[(run_id, rid)].add((task, request, occurrence))

    def _journal_index(self, run_id: str, rid: str) -> set[tuple[str, str, int]]:
        # The answers a record has journaled, read once per thread run (see
        # `journal_reload`): a call with none to replay, the usual case, costs
        # no query (a round trip each on Postgres, measured 9 a record).
        if (run_id, rid) not in self._journaled:
            rows = self.db.query(
                "select task, request, occurrence from call_journal "
                "where run_id = ? and record_id = ? and answer <> ''",
                [run_id, rid],
            )
            self._journaled[(run_id, rid)] = {
                (r["task"], r["request"], int(r["occurrence"])) for r in rows
            }
        return self._journaled[(run_id, rid)]

    def journal_reload(self, run_id: str, rid: str) -> None:
        """Read a record's journal afresh at its next call (a new thread run)."""
        self._journaled.pop((run_id, rid), None)

    def journal_forget(self, run_id: str, rid: str, call_ids: Iterable[str]) -> None:
        """Drop journaled answers a step found unusable: a re-run asks afresh."""
        self.journal_reload(run_id, rid)
        for call_id in call_ids:
            self.db.execute(
                "delete from call_journal where run_id = ? and record_id = ? "
                "and call_id = ?",
                [run_id, rid, call_id],
            )

    def journal_close(self, run_id: str, rid: str) -> None:
        """Drop a finished record's journaled answers (counted replays are kept)."""
        self.journal_reload(run_id, rid)
        self.db.execute(
            "delete from call_journal where run_id = ? and record_id = ? "
            "and replays = 0",
            [run_id, rid],
        )
        self.db.execute(
            "update call_journal set answer = '', call = '{}' "
            "where run_id = ? and record_id = ?",
            [run_id, rid],
        )

    def journal_replays(self, run_id: str) -> int:
        """Count calls of a run served from the journal instead of sent again."""
        row = self.db.one(
            "select sum(replays) from call_journal where run_id = ?", [run_id]
        )
        return int(row[0] or 0) if row else 0

    def call_log_totals(self, run_id: str) -> dict[str, int]:
        """Count a run's model calls: started, cut off, finished but redone.

        A call cut off by a kill has a start and no end; one that ended in a
        step the kill cut off left no row in ``model_calls``.
        """
        row = self.db.one(
            "select count(*), sum(case when ended is null then 1 else 0 end), "
            "sum(case when ended is not null and id not in "
            "(select id from model_calls) then 1 else 0 end) "
            "from call_log where run_id = ?",
            [run_id],
        )
        return {
            "started": int(row[0] or 0),
            "cut_off": int(row[1] or 0),
            "redone": int(row[2] or 0),
        }

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
        self._upsert("model_calls", rows)


_CACHE_CONNECTIONS: dict[str, sql.Connection] = {}
_CACHE_LOCK = threading.Lock()


@contextmanager
def _side_table(location: str, table: str) -> Iterator[sql.Connection]:
    # Postgres: one connection per process, shared by the threads that read
    # and write the cache around model calls. SQLite: a short-lived connection
    # per use, as cheap as a file open and never left pointing at a stale file.
    if sql.is_postgres(location):
        with _CACHE_LOCK:
            if location not in _CACHE_CONNECTIONS:
                conn = open_connection(location)
                create_postgres_schema(conn, location)
                _CACHE_CONNECTIONS[location] = conn
        yield _CACHE_CONNECTIONS[location]
        return
    conn = open_connection(location)
    try:
        conn.create_table(table, *SCHEMA[table][:2])
        yield conn
    finally:
        conn.close()


def cache_get(location: str, key: str) -> dict[str, Any] | None:
    """Return a cached model answer from the store at ``location``, or None."""
    with _side_table(location, "model_cache") as conn:
        row = conn.one("select value from model_cache where key = ?", [key])
    return json.loads(row[0]) if row else None


def cache_put(location: str, key: str, value: dict[str, Any]) -> None:
    """Store a model answer under its cache key in the store at ``location``."""
    row = {"key": key, "value": json.dumps(value), "created": time.time()}
    with _side_table(location, "model_cache") as conn:
        conn.upsert("model_cache", [row], ("key",))


def mode_get(location: str, base_url: str, model: str) -> str | None:
    """Return the structured-output mode detected for a server and model, or None."""
    with _side_table(location, "server_modes") as conn:
        row = conn.one(
            "select mode from server_modes where base_url = ? and model = ?",
            [base_url, model],
        )
    return str(row[0]) if row else None


def mode_put(location: str, base_url: str, model: str, mode: str, note: str) -> None:
    """Remember the structured-output mode a server and model accept."""
    row = {"base_url": base_url, "model": model, "mode": mode, "note": note,
           "detected": time.time()}  # fmt: skip
    with _side_table(location, "server_modes") as conn:
        conn.upsert("server_modes", [row], ("base_url", "model"))
