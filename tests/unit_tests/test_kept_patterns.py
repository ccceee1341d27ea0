"""Patterns whose compiled code is kept between runs: equal to ``re.compile``'s.

`anonygraph.tools.kept_patterns` uses CPython's own compiler in pieces
(``re._parser.parse``, ``re._compiler._code``, ``_sre.compile``); these tests
name them, so that a Python upgrade that changes them fails here first.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import json
import re
import stat
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

import pytest

from anonygraph.tools import kept_patterns

SAMPLES = [
    (r"(?P<age>\d{1,3})\s*(?:years?|yrs?)\s+old\b", re.IGNORECASE),
    (r"(?<![\w-])(?:nurse practitioner|nurse|plumber)(?![\w-])", re.IGNORECASE),
    (r"(?i)\b(?:my|our)\s+(?P<kin>wife|husband)\b(?=\s)", 0),
    (r"^\s*(?:[A-Z]{2}\d{2}[ ]?){2,}$", re.MULTILINE),
    (r"[^\W\d_](?:[\w'’.&-]*\w)?\.?", re.UNICODE),
]
TEXT = "I'm 34 years old; my wife is a Nurse Practitioner.\nGB29 NWBK 6016"


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A process that has kept nothing yet, its cache folder empty."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget(monkeypatch)
    return tmp_path / "cache" / "anonygraph"


def forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start as a new process would: nothing read, compiled or used."""
    monkeypatch.setattr(kept_patterns, "_kept", None)
    monkeypatch.setattr(kept_patterns, "_used", {})
    monkeypatch.setattr(kept_patterns, "_made", {})
    monkeypatch.setattr(kept_patterns, "_new", False)
    monkeypatch.setattr(kept_patterns.atexit, "register", lambda *_: None)


def test_when_cpython_compiles_a_pattern_then_its_kept_parts_build_an_equal_one() -> (
    None
):
    # re.Pattern's equality compares pattern, flags and compiled code.
    for rx, flags in SAMPLES:
        parts = json.loads(json.dumps(kept_patterns._parts(rx, flags)))
        built = kept_patterns._pattern(rx, parts)
        assert built == re.compile(rx, flags)
        assert built.groupindex == re.compile(rx, flags).groupindex
        assert [m.span() for m in built.finditer(TEXT)] == [
            m.span() for m in re.finditer(rx, TEXT, flags)
        ]
    # The internals the module calls, by name.
    assert callable(_parser.parse) and callable(_compiler._code)
    assert callable(_sre.compile)


def test_when_patterns_were_kept_then_a_new_process_builds_them_without_parsing(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = [kept_patterns.compile(rx, flags) for rx, flags in SAMPLES]
    kept_patterns._write()
    (kept,) = fresh.glob("patterns-*.json")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600

    forget(monkeypatch)

    def no_parse(*_: Any) -> None:
        raise AssertionError("a kept pattern was parsed again")

    monkeypatch.setattr(kept_patterns._parser, "parse", no_parse)
    second = [kept_patterns.compile(rx, flags) for rx, flags in SAMPLES]
    assert second == first == [re.compile(rx, flags) for rx, flags in SAMPLES]


def test_when_the_kept_file_is_damaged_then_each_pattern_is_compiled_again(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rx, flags = SAMPLES[0]
    kept_patterns.compile(rx, flags)
    kept_patterns._write()
    (kept,) = fresh.glob("patterns-*.json")
    entries = json.loads(kept.read_text())
    for parts in entries.values():
        parts[1] = [99999, 3, 1]  # code _sre refuses
    kept.write_text(json.dumps(entries))

    forget(monkeypatch)
    assert kept_patterns.compile(rx, flags) == re.compile(rx, flags)

    kept.write_text("{not json")
    forget(monkeypatch)
    assert kept_patterns.compile(rx, flags) == re.compile(rx, flags)


def test_when_the_cues_and_recognizers_compile_then_each_equals_re_compile() -> None:
    import importlib

    from anonygraph.cues import occupations, phrases, workplaces
    from anonygraph.identifiers.recognizers import all_recognizers

    patterns: list[re.Pattern[str]] = [
        occupations._title_pattern(),
        *phrases._patterns().values(),
        *workplaces._patterns().values(),
    ]
    for recognizer in all_recognizers():
        patterns += [p for _, p, _ in getattr(recognizer, "compiled", [])]
    for module in KEEPING:
        found = vars(importlib.import_module(module)).values()
        patterns += [p for p in found if isinstance(p, re.Pattern)]
    assert len(patterns) > 150
    for pattern in patterns:
        assert pattern == re.compile(pattern.pattern, pattern.flags)


KEEPING = (
    "anonygraph.cues",
    "anonygraph.cues.ages",
    "anonygraph.cues.boundaries",
    "anonygraph.cues.frames",
    "anonygraph.cues.money",
    "anonygraph.cues.named_entities",
    "anonygraph.cues.placeholders",
    "anonygraph.cues.places",
    "anonygraph.cues.retirement",
    "anonygraph.cues.self_descriptions",
    "anonygraph.cues.teaching",
    "anonygraph.cues.work_verbs",
    "anonygraph.identifiers.detect",
    "anonygraph.identifiers.person_spans",
    "anonygraph.identifiers.recognizers.addresses",
    "anonygraph.identifiers.recognizers.fields",
    "anonygraph.identifiers.recognizers.lookalikes",
    "anonygraph.identifiers.recognizers.phones",
    "anonygraph.identifiers.recognizers.plates",
    "anonygraph.identifiers.recognizers.urls",
)
"""The modules whose own patterns are kept (`kept_patterns.compile`)."""


def test_when_the_kept_file_grows_past_its_bound_then_it_keeps_the_last_process_only(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept_patterns.compile(*SAMPLES[0])
    kept_patterns._write()
    forget(monkeypatch)
    monkeypatch.setattr(kept_patterns, "MOST_BYTES", 1)  # every write is too big
    kept_patterns.compile(*SAMPLES[1])
    kept_patterns._write()

    (kept,) = fresh.glob("patterns-*.json")
    rx, flags = SAMPLES[1]
    assert list(json.loads(kept.read_text())) == [f"{int(flags)}:{rx}"]
