"""Shared fixtures: scripted models and temporary run files."""

from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from scripted import Script  # noqa: E402

from anonygraph.llm import loading  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "reddit_comments.jsonl"
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> Script:
    """Replace every role's model with a scripted one."""
    scripted = Script()
    monkeypatch.setattr(loading, "load_chat_model", scripted.load)
    return scripted


from postgres import pg_server, pg_url, store_location  # noqa: E402, F401
from report_run import review_store  # noqa: E402, F401  (session fixture)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """End the test process with pytest's exit status once pytest is done.

    Registered exit handlers still run (Ray's shutdown, the embedded model's
    close, pytest's own temporary-folder cleanup); what is skipped is the
    interpreter's teardown after them, where Ray's gRPC clients, llama.cpp
    and torch free native state in no fixed order. One CI run segfaulted
    there after every test had passed, and the suite's status was lost.
    The product's own processes are unaffected: the CLI tests run it as
    child processes and check their exit codes.
    """
    session = config.stash.get(_SESSION, None)
    if session is None:
        return
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(session.exitstatus))


_SESSION = pytest.StashKey[pytest.Session]()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Keep the session, whose exit status `pytest_unconfigure` ends with."""
    session.config.stash[_SESSION] = session
