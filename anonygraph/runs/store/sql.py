"""One small SQL connection interface over SQLite and Postgres.

The run store speaks plain SQL with ``?`` placeholders and ``ON CONFLICT``
upserts, which both engines take; this module holds the few differences
(placeholders, column types, the clock, row locking) so the store has one
code path. A ``postgresql://`` (or ``postgres://``) location selects Postgres,
anything else is a SQLite file.
"""

from __future__ import annotations

import functools
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


def db_errors() -> tuple[type[Exception], ...]:
    """Return the errors either backend raises (a locked file, an unreachable server).

    Postgres's are listed once its driver is loaded: only a process that
    imported it can meet one, and importing it would cost every SQLite run,
    ``anonymize`` and each Ray worker about a third of a second.
    """
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)


TYPES = {
    "sqlite": {str: "TEXT", int: "INTEGER", float: "FLOAT"},
    "postgres": {str: "TEXT", int: "BIGINT", float: "DOUBLE PRECISION"},
}


def is_postgres(location: str | object) -> bool:
    """Tell whether a store location names a Postgres database."""
    return str(location).startswith(("postgresql://", "postgres://"))


class Connection:
    """A thread-safe connection with the calls the store needs.

    Writes outside :meth:`transaction` commit at once. Rows come back as dicts.
    """

    dialect: str

    def __init__(self) -> None:
        """Set up the lock that serializes use of the one connection."""
        self._lock = threading.RLock()
        self._depth = 0

    def _run(self, sql: str, args: Sequence[Any]) -> Any:
        raise NotImplementedError

    def _run_many(self, sql: str, rows: list[list[Any]]) -> None:
        raise NotImplementedError

    def _begin(self) -> None:
        raise NotImplementedError

    def _end(self, ok: bool) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Close the connection."""
        raise NotImplementedError

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Run a statement and return its rows as dicts."""
        with self._lock:
            cursor = self._run(sql, args)
            if cursor.description is None:
                return []
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...]:
        """Run a statement and return its first row as a tuple."""
        with self._lock:
            row = self._run(sql, args).fetchone()
            return tuple(row) if row is not None else ()

    def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a statement; return the number of rows it changed."""
        with self._lock:
            return int(self._run(sql, args).rowcount)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group the statements in the block into one commit (nestable)."""
        with self._lock:
            self._depth += 1
            if self._depth == 1:
                self._begin()
            ok = False
            try:
                yield
                ok = True
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._end(ok)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes (no reads) into one transaction, sent together.

        Only for statements whose results nobody reads: on Postgres they go
        out in pipeline mode and come back with the commit.
        """
        with self.transaction():
            yield

    def upsert(
        self, table: str, rows: Sequence[dict[str, Any]], pk: Sequence[str]
    ) -> None:
        """Insert rows, or update the given columns of rows with the same key."""
        if not rows:
            return
        columns = list(rows[0])
        sql = _upsert_sql(table, tuple(columns), tuple(pk))
        values = [[row.get(c) for c in columns] for row in rows]
        if len(values) == 1:
            # One statement is atomic by itself: no begin/commit round trips.
            with self._lock:
                self._run(sql, values[0])
            return
        with self.transaction():
            self._run_many(sql, values)

    def create_table(
        self,
        table: str,
        columns: dict[str, type],
        pk: Sequence[str],
        indexes: Sequence[Sequence[str]] = (),
    ) -> None:
        """Create a table (and indexes) unless it exists."""
        types = TYPES[self.dialect]
        body = ", ".join(f"{name} {types[kind]}" for name, kind in columns.items())
        with self.transaction():
            self._run(
                f"create table if not exists {table} "
                f"({body}, primary key ({', '.join(pk)}))",
                (),
            )
            for index in indexes:
                name = f"idx_{table}_{'_'.join(index)}"
                self._run(
                    f"create index if not exists {name} on {table} "
                    f"({', '.join(index)})",
                    (),
                )


@functools.lru_cache(maxsize=256)
def _upsert_sql(table: str, columns: tuple[str, ...], pk: tuple[str, ...]) -> str:
    # Built once per shape: the call log writes one upsert per model call.
    updates = [c for c in columns if c not in pk]
    action = (
        "do update set " + ", ".join(f"{c} = excluded.{c}" for c in updates)
        if updates
        else "do nothing"
    )
    return (
        f"insert into {table} ({', '.join(columns)}) values "
        f"({', '.join('?' for _ in columns)}) on conflict ({', '.join(pk)}) " + action
    )


class SqliteConnection(Connection):
    """A SQLite file in WAL mode, autocommit outside transactions."""

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        """Open the file at ``path`` (the caller creates it 0600)."""
        super().__init__()
        self.conn = sqlite3.connect(
            path, timeout=30, isolation_level=None, check_same_thread=False
        )
        self.conn.execute("PRAGMA journal_mode=WAL")
        # A commit reaches the WAL file before it returns, so a killed process
        # loses nothing; only the fsync waits for the next WAL checkpoint (an
        # OS crash or power cut may drop the last commits, never corrupt the
        # file). Saves a disk flush per write: the call log writes twice a call.
        self.conn.execute("PRAGMA synchronous=NORMAL")

    def _run(self, sql: str, args: Sequence[Any]) -> Any:
        return self.conn.execute(sql, list(args))

    def _run_many(self, sql: str, rows: list[list[Any]]) -> None:
        self.conn.executemany(sql, rows)

    def _begin(self) -> None:
        self.conn.execute("begin immediate")

    def _end(self, ok: bool) -> None:
        self.conn.execute("commit" if ok else "rollback")

    def close(self) -> None:
        """Close the file."""
        self.conn.close()


POSTGRES_OPTIONS = "-c synchronous_commit=off"
"""Session settings of the store's and the checkpointer's connections: a commit
returns once the server has it, before its WAL reaches the disk. A worker
that dies loses nothing; a crash of the database server itself may drop the
last fraction of a second of commits (never corrupting anything), as SQLite's
synchronous=NORMAL does. It saves a disk flush per write."""


class PostgresConnection(Connection):
    """A psycopg 3 connection in autocommit mode outside transactions."""

    dialect = "postgres"

    def __init__(self, url: str) -> None:
        """Connect to the database at ``url``.

        Raises:
            ValueError: when Postgres support is not installed.
        """
        try:
            import psycopg
        except ImportError as exc:
            raise ValueError(
                f"--db {url}: Postgres support is not installed; run "
                "pip install 'anonygraph[postgres]'"
            ) from exc

        super().__init__()
        # psycopg's default prepare_threshold: a statement run a few times (the
        # call log's, the checkpoints') is prepared on the server, which halves
        # its round trip.
        self.conn = psycopg.connect(url, autocommit=True, options=POSTGRES_OPTIONS)

    def _run(self, sql: str, args: Sequence[Any]) -> Any:
        # The store writes ``?`` placeholders and never a literal ``?`` or ``%``.
        return self.conn.execute(sql.replace("?", "%s"), list(args))

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes into one transaction sent in one round trip.

        In pipeline mode the statements up to the Sync that ends the block run
        as one implicit transaction, committed (or, on an error, rolled back)
        there: no BEGIN and COMMIT round trips of our own.
        """
        with self._lock, self.conn.pipeline():
            self._depth += 1  # a nested `transaction` adds no BEGIN of its own
            try:
                yield
            finally:
                self._depth -= 1

    def _run_many(self, sql: str, rows: list[list[Any]]) -> None:
        # psycopg pipelines executemany: one round trip for all the rows.
        with self.conn.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)

    def _begin(self) -> None:
        self.conn.execute("begin")

    def _end(self, ok: bool) -> None:
        self.conn.execute("commit" if ok else "rollback")

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def connect(location: str) -> Connection:
    """Open a Postgres URL or a SQLite file path."""
    if is_postgres(location):
        return PostgresConnection(location)
    return SqliteConnection(location)
