"""A real Postgres server for the tests: Debian's binaries, started once per session.

The server runs from a temporary folder on a free port (as the ``postgres``
user when the tests run as root: Postgres refuses root). Each test that asks
for ``pg_url`` gets a database of its own. Under ``CI=true`` a server that
cannot start fails the run; elsewhere those tests are skipped with the reason.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unavailable(reason: str) -> None:
    message = f"Postgres cannot start: {reason} (make test installs postgresql)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


class PostgresUnavailable(RuntimeError):
    """The server could not start; the message says why."""


def start_postgres(*, durable: bool = False) -> tuple[str, Callable[[], None]]:
    """Start a throw-away server; return its base URL and a function stopping it.

    Tests run it with fsync off (nothing to keep); ``durable`` keeps the
    server's defaults, for benchmarks.

    Raises:
        PostgresUnavailable: when psycopg or the binaries are missing, or the
            server does not start.
    """
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise PostgresUnavailable(
            "psycopg is not installed (pip install -e '.[postgres]')"
        ) from exc
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise PostgresUnavailable("no initdb/pg_ctl (apt-get install postgresql)")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="anonygraph-pg-"))
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data, port = folder / "data", _free_port()
    try:
        subprocess.run(
            [*as_user, initdb, "-D", str(data), "-U", "postgres", "-A", "trust",
             "--no-sync", "-E", "UTF8"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-w", "-t", "60", "-l",
             str(folder / "log"), "-o",
             f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 "
             f"-c fsync={'on' if durable else 'off'} -c max_connections=200",
             "start"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        shutil.rmtree(folder, ignore_errors=True)
        raise PostgresUnavailable(
            f"{exc} {detail.decode(errors='replace')[-500:]}"
        ) from exc

    def stop() -> None:
        subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True, timeout=60,
        )  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)

    return f"postgresql://postgres@127.0.0.1:{port}", stop


def create_database(server: str, name: str) -> str:
    """Create an empty database on ``server``; return its URL."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f"create database {name}")
    return f"{server}/{name}"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """Start a Postgres server; yield its base URL (no database part)."""
    try:
        url, stop = start_postgres()
    except PostgresUnavailable as exc:
        _unavailable(str(exc))
        return
    try:
        yield url
    finally:
        stop()


_NUMBERS = itertools.count()


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """Create an empty database for one test; return its URL."""
    return create_database(pg_server, f"t{os.getpid()}_{next(_NUMBERS)}")


@pytest.fixture(params=["sqlite", "postgres"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A run store location on each backend: a SQLite file, a Postgres database."""
    if request.param == "sqlite":
        return str(tmp_path / "runs.sqlite")
    return str(request.getfixturevalue("pg_url"))
