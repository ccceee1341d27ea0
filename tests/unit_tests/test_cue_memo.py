"""Detections kept per text (`anonygraph.cues.memo`) are never stale."""

from __future__ import annotations

import re
from typing import Any

import pytest

from anonygraph.cues import Cue, detect_cues

TEXT = "Record 7: back in Calgary, the winters are long."


def counted_places(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the place detector's runs; return the texts it read."""
    from anonygraph.cues import places

    calls: list[str] = []
    real = places.detect_places

    def counted(text: str) -> Any:
        calls.append(text)
        return real(text)

    monkeypatch.setattr("anonygraph.cues.detect_places", counted)
    return calls


def test_when_a_text_is_read_again_then_its_cues_come_from_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = counted_places(monkeypatch)

    first = detect_cues(TEXT)
    second = detect_cues(TEXT)

    assert first == second and [c.quote for c in first] == ["Calgary"]
    assert calls == [TEXT]
    assert detect_cues(TEXT, ["age"]) == []


def test_when_a_detector_is_replaced_then_the_cache_does_not_answer_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert [c.attribute for c in detect_cues(TEXT)] == ["city_country"]
    age = Cue(0, 6, "Record", "age", "age", "30", "thirties", 5, True)

    monkeypatch.setattr("anonygraph.cues.detect_ages", lambda text: [age])

    assert [c.attribute for c in detect_cues(TEXT)] == ["age", "city_country"]


def test_when_the_gazetteer_is_rebuilt_then_cues_are_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from anonygraph.cues import places

    calls = counted_places(monkeypatch)
    detect_cues(TEXT)
    places._gazetteer.cache_clear()

    detect_cues(TEXT)

    assert calls == [TEXT, TEXT]


def test_every_detector_detect_cues_calls_is_part_of_the_cache_key() -> None:
    """A detector left out of the key would be answered from the cache when patched."""
    import inspect

    import anonygraph.cues as cues

    called = set(re.findall(r"\b(detect_\w+)\(", inspect.getsource(cues.detect_cues)))
    called -= {"detect_cues"}
    keyed = {f.__name__ for f in cues._detectors() if callable(f)}
    assert called, "no detector calls found in detect_cues"
    assert sorted(called - keyed) == []
