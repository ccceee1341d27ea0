"""Regular expressions compiled once per machine and Python, not at each start.

Python keeps no compiled pattern between processes: each start parses and
compiles every pattern of the cue detectors and identifier recognizers
again, about 0.2 s of CPU in a one-text ``anonymize`` (the occupation
titles' alternation alone 50 ms). `compile` keeps what CPython's compiler
makes of a pattern (the code ``re._compiler.compile`` passes to
``_sre.compile``) in one file of the cache folder
(`anonygraph.runs.files.cache_dir`, 0600), named for the Python version;
a later process builds the pattern from that code, which ``_sre`` checks
before it takes it, without parsing the pattern again. The result equals
what ``re.compile`` returns (a `re.Pattern` compares its code); an entry
that cannot be used is compiled again, a folder that cannot be written
costs only the time. The patterns are our own code's: the file holds no
user text.

These are CPython internals (``re._parser.parse``, ``re._compiler._code``,
``_sre.compile``); ``tests/unit_tests/test_kept_patterns.py`` names them, so
that a Python upgrade that changes them fails there first.
"""

from __future__ import annotations

import _sre
import atexit
import json
import re
import threading
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

from anonygraph.runs.files import write_private
from anonygraph.runs.kept_tables import kept_path

LAYOUT = 1
"""Raise it when an entry's shape changes."""

MOST_BYTES = 4 << 20
"""Past this size (old versions of edited patterns add up), the file keeps only
the patterns of the last process that wrote it."""

Parts = list[Any]
"""What ``_sre.compile`` takes after the pattern: flags, code, groups, names."""

_LOCK = threading.Lock()
_kept: dict[str, Parts] | None = None
_used: dict[str, Parts] = {}
_made: dict[str, re.Pattern[str]] = {}
_new = False


def compile(rx: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001
    """Return ``re.compile(rx, flags)``, its compiled code kept between runs."""
    global _new
    key = f"{int(flags)}:{rx}"
    made = _made.get(key)
    if made is not None:  # a pattern built inside a function, asked again
        return made
    with _LOCK:
        parts = _store().get(key)
        if parts is not None:
            try:
                pattern = _pattern(rx, parts)
            except (TypeError, ValueError, RuntimeError, OverflowError):
                parts = None  # damaged: compiled again below
        if parts is None:
            parts = _parts(rx, int(flags))
            pattern = _pattern(rx, parts)
            if not _new:
                _new = True
                atexit.register(_write)
        _used[key] = parts
        _made[key] = pattern
    return pattern


def _parts(rx: str, flags: int) -> Parts:
    # What re._compiler.compile does with a pattern string, kept as data.
    parsed = _parser.parse(rx, flags)
    code = _compiler._code(parsed, flags)
    names = parsed.state.groupdict
    index: list[str | None] = [None] * parsed.state.groups
    for name, number in names.items():
        index[number] = name
    return [flags | parsed.state.flags, code, parsed.state.groups - 1, names, index]


def _pattern(rx: str, parts: Parts) -> re.Pattern[str]:
    flags, code, groups, names, index = parts
    if not isinstance(names, dict) or not isinstance(index, list):
        raise TypeError("not a kept pattern")
    pattern: re.Pattern[str] = _sre.compile(
        rx, flags, code, groups, names, tuple(index)
    )
    return pattern


def _path() -> Path | None:
    return kept_path("patterns", LAYOUT, ())


def _read(path: Path | None) -> dict[str, Parts]:
    if path is None:
        return {}
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def _store() -> dict[str, Parts]:
    global _kept
    if _kept is None:
        _kept = _read(_path())
    return _kept


def _write() -> None:
    """Add this process's new patterns to the file (at exit: one write)."""
    path = _path()
    if path is None:
        return
    with _LOCK:
        kept = {**_read(path), **_used}  # another process may have added some
        data = json.dumps(kept, separators=(",", ":")).encode()
        if len(data) > MOST_BYTES:  # rules edited many times: drop the old ones
            data = json.dumps(_used, separators=(",", ":")).encode()
    try:
        write_private(path, data)
        for older in path.parent.glob("patterns-*-*.json"):
            if older != path:  # another Python's: not read by this one
                older.unlink(missing_ok=True)
    except OSError:
        pass
