"""Store files: private modes, and locks SQLite holds survive our file handling."""

from __future__ import annotations

import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from anonygraph.runs.files import secure_file
from anonygraph.runs.store import RunStore

WRITE_FROM_ANOTHER_PROCESS = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], timeout=0)
try:
    conn.execute("insert into t values (2)")
    conn.commit()
    print("wrote")
except sqlite3.OperationalError as exc:
    print(exc)
"""


def test_when_a_store_file_is_secured_while_locked_then_the_lock_still_holds(
    tmp_path: Path,
) -> None:
    db = tmp_path / "runs.sqlite"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("create table t (x int)")
    holder.execute("begin exclusive")
    holder.execute("insert into t values (1)")

    secure_file(db)  # must not open and close the file under SQLite's feet

    other = subprocess.run(
        [sys.executable, "-c", WRITE_FROM_ANOTHER_PROCESS, str(db)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert other.stdout.strip() == "database is locked"
    holder.execute("commit")


def test_when_a_store_is_created_then_its_file_is_private(tmp_path: Path) -> None:
    RunStore(tmp_path / "deep" / "runs.sqlite")
    mode = stat.S_IMODE((tmp_path / "deep" / "runs.sqlite").stat().st_mode)
    assert mode == 0o600
