"""The run store's tables (both backends), and opening a connection to them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from anonygraph.runs.files import secure_file
from anonygraph.runs.store import sql

WAITING = "waiting_review"
"""Status of a record paused at a review step (``records.status``)."""

_SET_UP: set[str] = set()
"""Postgres databases whose tables this process has created or checked."""


SCHEMA: dict[str, tuple[dict[str, type], tuple[str, ...], list[list[str]]]] = {
    "runs": (
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
        ("id",),
        [],
    ),
    "records": (
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
        ("run_id", "record_id"),
        [],
    ),
    "iterations": (
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
        ("run_id", "record_id", "round"),
        [],
    ),
    "model_calls": (
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
        ("id",),
        [["run_id", "record_id"]],
    ),
    "call_log": (
        {
            "id": str,
            "run_id": str,
            "record_id": str,
            "role": str,
            "step": str,
            "started": float,
            "ended": float,
        },
        ("id",),
        [["run_id"]],
    ),
    "call_journal": (
        {
            "run_id": str,
            "record_id": str,
            "task": str,
            "request": str,
            "occurrence": int,
            "step": str,
            "call_id": str,
            "call": str,
            "answer": str,
            "replays": int,
            "created": float,
        },
        ("run_id", "record_id", "task", "request", "occurrence"),
        [],
    ),
    "evals": (
        {"id": str, "run_id": str, "created": float, "params": str},
        ("id",),
        [],
    ),
    "evaluations": (
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
        ("eval_id", "record_id", "row"),
        [],
    ),
    "search_queries": (
        {
            "eval_id": str,
            "record_id": str,
            "row": str,
            "n": int,
            "backend": str,
            "query": str,
            "urls": str,
        },
        ("eval_id", "record_id", "row", "n"),
        [],
    ),
    "model_cache": ({"key": str, "value": str, "created": float}, ("key",), []),
    "server_modes": (
        {"base_url": str, "model": str, "mode": str, "note": str, "detected": float},
        ("base_url", "model"),
        [],
    ),
    "record_workers": (
        {
            "run_id": str,
            "record_id": str,
            "position": int,
            "worker": str,
            "node": str,
            "address": str,
            "pid": int,
            "updated": float,
            "ended": float,
        },
        ("run_id", "record_id"),
        [],
    ),
}
"""Every table of the store: columns, primary key, indexes (both backends)."""


def open_connection(location: str | Path) -> sql.Connection:
    """Open the store at a Postgres URL or a SQLite path (created 0600)."""
    text = str(location)
    if sql.is_postgres(text):
        return sql.connect(text)
    return sql.connect(str(secure_file(text)))


SCHEMA_LOCK = 0x616E6F6E
"""Postgres advisory lock key held while creating tables (workers start together)."""

SCHEMA_LOCK_POLL = 0.05
"""Seconds between two tries at `SCHEMA_LOCK` while another session holds it."""


def create_postgres_schema(db: sql.Connection, location: str) -> None:
    """Create the store's and LangGraph's tables in a Postgres database, once."""
    if location in _SET_UP or _postgres_schema_ready(db):
        _SET_UP.add(location)
        return
    # Concurrent CREATE TABLE IF NOT EXISTS can still collide in Postgres's
    # catalog; one lock makes the workers that start together take turns.
    _take_schema_lock(db)
    try:
        if _postgres_schema_ready(db):  # the session before us created them
            _SET_UP.add(location)
            return
        create_tables(db)
        from langgraph.checkpoint.postgres import PostgresSaver

        # LangGraph's migrations on the store's own connection (its cursors
        # set their row factory), so without a disk flush per statement either.
        assert isinstance(db, sql.PostgresConnection)
        PostgresSaver(db.conn).setup()  # type: ignore[arg-type]
        _SET_UP.add(location)
    finally:
        db.execute("select pg_advisory_unlock(?)", [SCHEMA_LOCK])


def _take_schema_lock(db: sql.Connection) -> None:
    # Tried again and again, never waited for inside Postgres: a session
    # blocked in pg_advisory_lock is a running statement, which the lock
    # holder's CREATE INDEX CONCURRENTLY (LangGraph's migrations) waits for,
    # so the two waited on each other (Postgres ended one as a deadlock).
    while True:
        (held,) = db.one("select pg_try_advisory_lock(?)", [SCHEMA_LOCK])
        if held:
            return
        time.sleep(SCHEMA_LOCK_POLL)


def create_tables(db: sql.Connection) -> None:
    """Create every table of the store that is missing."""
    # One transaction: one commit (and one write lock on SQLite), not one a table.
    with db.transaction():
        for name, (columns, pk, indexes) in SCHEMA.items():
            db.create_table(name, columns, pk, indexes)


def prepare_postgres(location: str) -> None:
    """Create a Postgres store's tables (and LangGraph's), once per process."""
    if location in _SET_UP:
        return
    conn = open_connection(location)
    try:
        create_postgres_schema(conn, location)
    finally:
        conn.close()


def _postgres_schema_ready(db: sql.Connection) -> bool:
    # Workers that join a set-up database skip the lock and the DDL.
    from langgraph.checkpoint.postgres.base import BasePostgresSaver

    tables = db.one(
        "select count(*) from information_schema.tables where table_schema = "
        "current_schema() and table_name = any(?)",
        [[*SCHEMA, "checkpoint_migrations"]],
    )
    if int(tables[0]) != len(SCHEMA) + 1:
        return False
    version = db.one("select max(v) from checkpoint_migrations")
    return bool(version[0] == len(BasePostgresSaver.MIGRATIONS) - 1)


class Tables:
    """The store's connection and the two queries every table group uses."""

    db: sql.Connection

    def _upsert(self, table: str, rows: list[dict[str, Any]]) -> None:
        self.db.upsert(table, rows, SCHEMA[table][1])

    def _where(
        self, table: str, where: str, args: list[Any], suffix: str = ""
    ) -> list[dict[str, Any]]:
        return self.db.query(f"select * from {table} where {where}{suffix}", args)
