"""Run store (SQLite or Postgres): runs, records, iterations, calls, call cache.

Also the checkpointer factory. Every file the store creates is 0600: it holds
raw text and attacker reasoning.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from anonygraph import sql

_SET_UP: set[str] = set()
"""Postgres databases whose tables this process has created or checked."""

CALL_LOG: ContextVar[tuple[RunStore, str, str] | None] = ContextVar(
    "anonygraph_call_log", default=None
)
"""The store, run and record that model calls in this task belong to."""


class CallCounter:
    """Occurrences of each request within one thread run (see `journal_scope`).

    The same request asked twice in one step (candidates sampled at
    temperature > 0) is two calls with two answers: the n-th asking is
    occurrence n, in the order the step asks.
    """

    def __init__(self) -> None:
        """Start with no request asked."""
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], int] = {}

    def next(self, task: str, request: str) -> int:
        """Return the occurrence number of this asking of ``request`` in ``task``."""
        with self._lock:
            n = self._seen.get((task, request), 0)
            self._seen[(task, request)] = n + 1
            return n


CALL_COUNTS: ContextVar[CallCounter | None] = ContextVar(
    "anonygraph_call_counts", default=None
)
"""Request occurrences in this thread run; set with `CALL_LOG` by `track_calls`."""


def track_calls(db: RunStore, run_id: str, record_id: str) -> None:
    """Account this task's model calls to a record, and journal their answers.

    Call once per thread run (a fresh run or a resume): a step re-run after a
    crash then counts its requests from the start again, and each answered one
    is served from the journal instead of being sent twice.
    """
    CALL_LOG.set((db, run_id, record_id))
    CALL_COUNTS.set(CallCounter())
    db.journal_reload(run_id, record_id)


def journal_scope() -> tuple[RunStore, str, str, CallCounter] | None:
    """Return the store, run, record and counter model calls journal to, or None.

    None outside a batch run (Studio, the Python API): nothing is journaled.
    """
    owner, counter = CALL_LOG.get(), CALL_COUNTS.get()
    if owner is None or counter is None:
        return None
    return (*owner, counter)


CALL_WENT_OUT = threading.Event()
"""Set once a batch run's first model call has gone out (`log_call`): work that
holds the interpreter lock for long (`runner.warm_up_in_background`) waits for
it, so that it runs while the event loop waits for the model."""


def log_call(call: dict[str, Any], phase: str) -> None:
    """Note a model call's start or end, so calls cut off by a kill are counted.

    The model layer calls this around every call; it does nothing outside a
    batch run (no `CALL_LOG` set), e.g. in Studio or the Python API.
    """
    owner = CALL_LOG.get()
    if owner is None:
        return
    db, run_id, record_id = owner
    db.log_call(call, phase, run_id, record_id)
    if phase == "start" and not CALL_WENT_OUT.is_set():
        CALL_WENT_OUT.set()


@contextmanager
def call_batch() -> Iterator[None]:
    """Commit the model-call writes in the block together (`sql.Connection.batch`).

    The model layer writes a call's end and its journaled answer in one: one
    commit on SQLite, one round trip on Postgres, where each was measured as a
    sizeable share of the store's cost per record. Outside a batch run, nothing.
    """
    owner = CALL_LOG.get()
    if owner is None:
        yield
        return
    with owner[0].db.batch():
        yield


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


def cache_location(location: str | Path) -> str:
    """Name the store for the model-call cache: a Postgres URL or an absolute path."""
    text = str(location)
    return text if sql.is_postgres(text) else str(Path(text).resolve())


def purge_checkpoints(location: str | Path, run_id: str) -> None:
    """Delete the checkpoints of a run's threads (``RUN:RECORD``)."""
    prefix = f"{run_id}:"
    tables: tuple[str, ...] = ("checkpoints", "writes")
    if sql.is_postgres(location):
        tables = ("checkpoints", "checkpoint_writes", "checkpoint_blobs")
        conn = open_connection(location)
    else:
        path = checkpoint_path(location)
        if not path.exists():
            return
        conn = open_connection(path)
    try:
        with conn.transaction():
            for table in tables:
                # A prefix compare, not LIKE: a run id may hold % or _.
                conn.execute(
                    f"delete from {table} where substr(thread_id, 1, ?) = ?",
                    [len(prefix), prefix],
                )
    finally:
        conn.close()


def checkpoint_path(db_path: str | Path) -> Path:
    """Return the checkpoint file that belongs to a store file."""
    db = Path(db_path)
    return db.with_name(f"{db.stem}.checkpoints{db.suffix or '.sqlite'}")


@asynccontextmanager
async def open_checkpointer(location: str | Path) -> AsyncIterator[Any]:
    """Yield an async checkpointer for the store at ``location``.

    SQLite: a file beside the store file. Postgres: LangGraph's tables in the
    same database, so any worker can continue a record another one started.
    Both write in the event loop's thread (`anonygraph.checkpointers`).
    """
    from anonygraph import checkpointers

    if sql.is_postgres(location):
        import psycopg
        from psycopg.rows import dict_row

        if str(location) not in _SET_UP:
            RunStore(location).close()  # creates LangGraph's tables once per process
        with (
            psycopg.connect(
                str(location),
                autocommit=True,
                prepare_threshold=0,
                row_factory=dict_row,
                options=sql.POSTGRES_OPTIONS,
            ) as pg,
            pg.pipeline() as pipe,
        ):  # one Sync per write: `postgres_saver`
            async with _flushed(checkpointers.postgres_saver(pg, pipe)) as saver:
                yield saver
        return
    path = secure_file(checkpoint_path(location))
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
    try:
        # WAL with synchronous=NORMAL: see `sql.SqliteConnection`.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        async with _flushed(checkpointers.InLoopSqliteSaver(conn)) as saver:
            yield saver
    finally:
        conn.close()


@asynccontextmanager
async def _flushed(saver: Any) -> AsyncIterator[Any]:
    # Writes held for a checkpoint are committed before the connection closes
    # (closing a SQLite connection would roll them back).
    try:
        yield saver
    finally:
        saver.flush()


class RunLockedError(RuntimeError):
    """Another process is working on the same run."""


@contextmanager
def run_lock(db_path: str | Path, run_id: str) -> Iterator[None]:
    """Hold an exclusive lock on one run, so two processes never share its records.

    The lock file (``STORE.RUN.lock``) is removed when the run ends, while it
    is still locked; a process that opened it just before then finds its lock
    on a removed file and locks the path's new file instead.

    Raises:
        RunLockedError: naming the run when another process holds it.
    """
    path = Path(f"{db_path}.{run_id}.lock")
    while True:
        try:
            handle = open(secure_file(path), "w")  # noqa: SIM115 - closed below
        except FileNotFoundError:  # removed by its holder between create and open
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            handle.close()
            raise RunLockedError(
                f"run {run_id!r} is already running in another process; wait for it "
                "or stop it, then run the same command again to resume"
            ) from exc
        if _is_file_at(handle.fileno(), path):
            break
        handle.close()
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
        handle.close()  # releases the lock


def _is_file_at(fd: int, path: Path) -> bool:
    # True when the open file is still the one at ``path`` (not removed since).
    try:
        there = path.stat()
    except FileNotFoundError:
        return False
    here = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


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
    "work": (
        {
            "run_id": str,
            "record_id": str,
            "position": int,
            "payload": str,
            "state": str,
            "worker": str,
            "lease_until": float,
            "claims": int,
            "updated": float,
        },
        ("run_id", "record_id"),
        [["run_id", "state"]],
    ),
    "run_jobs": (
        {"run_id": str, "method": str, "context": str, "created": float},
        ("run_id",),
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


def _create_postgres_schema(db: sql.Connection, location: str) -> None:
    if location in _SET_UP or _postgres_schema_ready(db):
        _SET_UP.add(location)
        return
    # Concurrent CREATE TABLE IF NOT EXISTS can still collide in Postgres's
    # catalog; one lock makes the workers that start together take turns.
    db.execute("select pg_advisory_lock(?)", [SCHEMA_LOCK])
    try:
        _create_tables(db)
        from langgraph.checkpoint.postgres import PostgresSaver

        # LangGraph's migrations on the store's own connection (its cursors
        # set their row factory), so without a disk flush per statement either.
        assert isinstance(db, sql.PostgresConnection)
        PostgresSaver(db.conn).setup()  # type: ignore[arg-type]
        _SET_UP.add(location)
    finally:
        db.execute("select pg_advisory_unlock(?)", [SCHEMA_LOCK])


def _create_tables(db: sql.Connection) -> None:
    # One transaction: one commit (and one write lock on SQLite), not one a table.
    with db.transaction():
        for name, (columns, pk, indexes) in SCHEMA.items():
            db.create_table(name, columns, pk, indexes)


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


class RunStore:
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
            _create_postgres_schema(self.db, self.location)
        else:
            _create_tables(self.db)

    def _upsert(self, table: str, rows: list[dict[str, Any]]) -> None:
        self.db.upsert(table, rows, SCHEMA[table][1])

    def _where(
        self, table: str, where: str, args: list[Any], suffix: str = ""
    ) -> list[dict[str, Any]]:
        return self.db.query(f"select * from {table} where {where}{suffix}", args)

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
        where, args = "run_id = ?", [run_id]
        if step:
            where, args = where + " and step = ?", [run_id, step]
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

    # Shared runs: a work queue of records that workers claim with leases.

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
        """Mark a leased record done or failed, unless another worker took it over."""
        self.db.execute(
            f"update work set state = ?, updated = {self.db.now_sql} "
            "where run_id = ? and record_id = ? and worker = ? and state = 'leased'",
            [state, run_id, record_id, worker],
        )

    def work_rows(self, run_id: str) -> list[dict[str, Any]]:
        """Return a shared run's queue rows (with seconds left on each lease)."""
        return self.db.query(
            f"select record_id, position, state, worker, claims, "
            f"lease_until - {self.db.now_sql} as lease_left "
            "from work where run_id = ? order by position",
            [run_id],
        )


_CACHE_STORES: dict[str, RunStore] = {}
_CACHE_LOCK = threading.Lock()


@contextmanager
def _side_table(location: str, table: str) -> Iterator[sql.Connection]:
    # Postgres: one connection per process, shared by the threads that read
    # and write the cache around model calls. SQLite: a short-lived connection
    # per use, as cheap as a file open and never left pointing at a stale file.
    if sql.is_postgres(location):
        with _CACHE_LOCK:
            if location not in _CACHE_STORES:
                _CACHE_STORES[location] = RunStore(location)
        yield _CACHE_STORES[location].db
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
