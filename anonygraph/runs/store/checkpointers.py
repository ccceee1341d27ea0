"""Checkpoints of runs: LangGraph's savers, writing in the event loop's own thread.

`open_checkpointer` gives a run its saver: a SQLite file beside the store
file, or LangGraph's tables in the store's Postgres database.

LangGraph's async savers pay per statement for a trip through another thread
(``AsyncSqliteSaver``: every execute and commit goes through aiosqlite's
thread, about 4 trips a write; ``AsyncPostgresSaver``: serialization in
``asyncio.to_thread`` plus awaiting the socket). Measured on a 2-core box
with a zero-latency model, those trips were most of the store's cost per
record (about 88 per RLAA record of 2 rounds), while the writes themselves
(SQLite in WAL mode without a flush per commit, one Postgres pipeline per
checkpoint) take tens of microseconds each.

The savers here are LangGraph's own synchronous savers, whose async methods
call the synchronous ones directly. A write blocks the event loop for as long
as it takes, as the run store's writes already do; model calls take seconds,
so other records waiting in the same loop barely notice. What is written is
LangGraph's: each step's writes and checkpoint are committed before the next
step starts (``durability="sync"``), so a killed run resumes after its last
finished step.

A task's writes are committed with the checkpoint that follows them, not on
their own (`InLoopSaver.aput_writes`): in a linear graph every step's writes are
followed at once by its checkpoint, so an RLAA record of 2 rounds makes 12
checkpoint commits instead of 23, and on Postgres 12 round trips instead of
23 (measured: the Postgres overhead per record fell by about a fifth).
Writes wait at most `WRITES_COMMIT_DELAY` seconds, and a read of the thread's
state commits them first.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.checkpoint.sqlite import SqliteSaver

from anonygraph.runs.files import secure_file
from anonygraph.runs.store import sql
from anonygraph.runs.store.schema import open_connection, prepare_postgres

COMMIT_AT_ONCE = frozenset({"__resume__", "__interrupt__", "__error__"})
"""LangGraph's channels of a reviewer's answer, a pause and a step's error:
their writes are never held for a checkpoint (`InLoopSaver.aput_writes`)."""

WRITES_COMMIT_DELAY = 0.05
"""Seconds a task's writes may wait for the checkpoint that commits them with
it. Parallel tasks of one step finish at different times: the first one's
writes must not hold the database's write lock while another task waits for a
model. A kill inside the delay loses only writes whose task then runs again,
its answered model calls served from the call journal."""


class InLoopSaver(BaseCheckpointSaver[str]):
    """Async methods of a checkpointer that run its sync ones in place.

    First in the method order of the savers below, before the sync saver whose
    async methods only raise. Subclasses say how to hold a write back from its
    commit (`_holding`) and how to commit what was held (`_commit_held`).
    """

    _hold_commit: bool = False
    """True while `put_writes` runs for `aput_writes`: its commit is held."""
    _held: asyncio.TimerHandle | None = None
    """The timer that commits held writes, while some are held."""

    @contextmanager
    def _holding(self) -> Iterator[None]:
        self._hold_commit = True
        try:
            yield
        finally:
            self._hold_commit = False

    def _commit_held(self) -> None:
        raise NotImplementedError

    def _stop_timer(self) -> bool:
        # True when writes were held: the caller commits them.
        if self._held is None:
            return False
        self._held.cancel()
        self._held = None
        return True

    def flush(self) -> None:
        """Commit writes held back for the next checkpoint, if any."""
        if self._stop_timer():
            self._commit_held()

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """Read a checkpoint (`get_tuple`), held writes committed first.

        After a step failed or paused for a review, LangGraph saves its writes
        and no checkpoint; the runner then reads the thread's state.
        """
        self.flush()
        return self.get_tuple(config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        """List checkpoints (`list`), read whole before the first is yielded."""
        self.flush()
        found = list(self.list(config, filter=filter, before=before, limit=limit))
        for item in found:
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Commit a checkpoint (`put`), with any writes held for it."""
        self._stop_timer()  # `put` commits them
        return self.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Write a task's writes (`put_writes`), committed with the next checkpoint.

        At the latest `WRITES_COMMIT_DELAY` seconds later (see the module).
        A reviewer's answer, a pause for one and a step's error are committed
        at once: no checkpoint may follow them, and an answer cannot be asked
        for again without the reviewer.
        """
        if any(channel in COMMIT_AT_ONCE for channel, _ in writes):
            self.flush()
            self.put_writes(config, writes, task_id, task_path)
            return
        with self._holding():
            self.put_writes(config, writes, task_id, task_path)
        if self._held is None:
            loop = asyncio.get_running_loop()
            self._held = loop.call_later(WRITES_COMMIT_DELAY, self.flush)

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete a thread's checkpoints and writes (`delete_thread`)."""
        self.flush()
        self.delete_thread(thread_id)


class InLoopSqliteSaver(InLoopSaver, SqliteSaver):
    """LangGraph's `SqliteSaver`, usable from async graphs."""

    @contextmanager
    def cursor(self, transaction: bool = True) -> Iterator[Any]:
        """Yield a cursor; commit after it unless a write is held (`_holding`)."""
        with super().cursor(transaction and not self._hold_commit) as cur:
            yield cur

    def _commit_held(self) -> None:
        with self.lock:
            self.conn.commit()


def postgres_saver(conn: Any, pipe: Any = None) -> InLoopSaver:
    """Wrap a psycopg connection (autocommit, dict rows) in an in-loop saver.

    ``pipe``: the connection's pipeline, held open for the saver's life. Each
    write then ends with one Sync (the round trip that commits it) instead of
    entering and leaving pipeline mode around it: measured, a fifth fewer
    waits on the server and about 2 ms less CPU per record.
    """
    saver: InLoopSaver = _postgres_saver_class()(conn, pipe)
    return saver


@functools.cache
def _postgres_saver_class() -> Any:
    # Postgres support is an extra: import it only when a run asks for it.
    from langgraph.checkpoint.postgres import PostgresSaver

    class InLoopPostgresSaver(InLoopSaver, PostgresSaver):
        """LangGraph's `PostgresSaver`, usable from async graphs.

        Held writes wait in the connection's pipeline for the next Sync.
        """

        @contextmanager
        def _cursor(self, *, pipeline: bool = False) -> Iterator[Any]:
            with super()._cursor(pipeline=pipeline and not self._hold_commit) as cur:
                yield cur

        def _commit_held(self) -> None:
            if self.pipe is not None:  # without a pipeline every write commits
                with self.lock:
                    self.pipe.sync()

    return InLoopPostgresSaver


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
    Both write in the event loop's thread (see the module).
    """
    if sql.is_postgres(location):
        import psycopg
        from psycopg.rows import dict_row

        prepare_postgres(str(location))  # LangGraph's tables, once per process
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
            async with _flushed(postgres_saver(pg, pipe)) as saver:
                yield saver
        return
    path = secure_file(checkpoint_path(location))
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
    try:
        # WAL with synchronous=NORMAL: see `sql.SqliteConnection`.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        async with _flushed(InLoopSqliteSaver(conn)) as saver:
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
