"""Word lists shipped in ``anonygraph/cues/data`` (see NOTICE.md there)."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def table(name: str) -> tuple[tuple[str, ...], ...]:
    """Return the rows of a tab-separated word list, comments skipped."""
    text = (
        resources.files("anonygraph.cues")
        .joinpath("data")
        .joinpath(name)
        .read_text("utf-8")
    )
    return tuple(
        tuple(cell.strip() for cell in line.split("\t"))
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


@cache
def words(name: str) -> frozenset[str]:
    """Return the one-column word list ``name`` as a set."""
    return frozenset(row[0] for row in table(name))
