"""One process per run: an exclusive lock on the run while it is worked.

A SQLite store's runs are locked with a file beside the store (``flock``); a
Postgres store's with an advisory lock in the database, which holds across
machines.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from anonygraph.runs.files import secure_file
from anonygraph.runs.store import sql

RUN_LOCKS = 0x72756E73
"""First key of the Postgres advisory locks on runs (the second: the run id's hash)."""


class RunLockedError(RuntimeError):
    """Another process is working on the same run."""

    def __init__(self, run_id: str) -> None:
        """Name the run and what to do."""
        super().__init__(
            f"run {run_id!r} is already running in another process; wait for it "
            "or stop it, then run the same command again to resume"
        )


@contextmanager
def run_lock(db_path: str | Path, run_id: str) -> Iterator[None]:
    """Hold an exclusive lock on one run, so two processes never share its records.

    The lock file (``STORE.RUN.lock``) is removed when the run ends, while it
    is still locked; a process that opened it just before then finds its lock
    on a removed file and locks the path's new file instead.

    Raises:
        RunLockedError: naming the run when another process holds it.
    """
    if sql.is_postgres(db_path):
        with _advisory_lock(str(db_path), run_id):
            yield
        return
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
            raise RunLockedError(run_id) from exc
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


@contextmanager
def _advisory_lock(url: str, run_id: str) -> Iterator[None]:
    # Its own connection: the lock is held as long as the session is open,
    # and a process that dies releases it with its connection.
    conn = sql.connect(url)
    try:
        (locked,) = conn.one(
            "select pg_try_advisory_lock(?::int, hashtext(?))", [RUN_LOCKS, run_id]
        )
        if not locked:
            raise RunLockedError(run_id)
        yield
    finally:
        conn.close()
