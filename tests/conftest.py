"""Shared fixtures: scripted models and temporary run files."""

from __future__ import annotations

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
