"""The spaCy pipeline under the cue detectors: loaded without other packages' parts."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
import spacy

from anonygraph.cues import engine


def test_when_the_pipeline_loads_then_no_other_package_s_spacy_components_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # spaCy imports every package's registered components while it builds a
    # pipeline; Presidio's imports transformers (measured: 31 of 35 s).
    factories = spacy.util.registry._entry_point_factories
    seen: list[bool] = []

    def load(**kwargs: Any) -> str:
        seen.append(factories.entry_points)
        return "pipeline"

    package = types.ModuleType(engine.MODEL_PACKAGE)
    package.load = load  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, engine.MODEL_PACKAGE, package)
    before = factories.entry_points

    assert engine._load.__wrapped__() == "pipeline"

    assert seen == [False]
    assert factories.entry_points == before  # spaCy's setting is given back
