"""The test process ends with pytest's status, whatever native teardown does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

# A test that leaves an object whose finalizer crashes the interpreter (a read
# of address 0) when module globals are torn down at exit, as a native
# library's destructor can; and one that fails, to see the status carried.
PLANTED = """
import ctypes


class CrashesAtTeardown:
    def __del__(self, read=ctypes.string_at):
        read(0)


KEPT = []


def test_leaves_a_crashing_global():
    KEPT.append(CrashesAtTeardown())


def test_fails():
    raise AssertionError("planted failure")
"""


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # tests/conftest.py loaded as a plugin: its hooks are what is under test.
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-p", "conftest", "--rootdir", str(folder), str(folder), *args],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(TESTS)},
    )  # fmt: skip


def test_when_teardown_would_crash_then_the_run_still_exits_with_its_status(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_planted.py").write_text(PLANTED)

    passed = _pytest(tmp_path, "-k", "leaves")
    failed = _pytest(tmp_path, "-k", "fails")

    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "1 passed" in passed.stdout
    assert failed.returncode == 1, failed.stdout + failed.stderr
