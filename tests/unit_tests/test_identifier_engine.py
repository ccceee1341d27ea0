"""The shared analyzer's lean context step gives Presidio's own results."""

from __future__ import annotations

import pytest
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

from anonygraph.identifiers.engine import (
    LANGUAGE,
    SharedSpacyEngine,
    analyzer,
    recognizers,
)

TEXTS = [
    "Email me at priya.nair@example.org or call 020 7946 0958.",
    "IBAN GB82 WEST 1234 5698 7654 32, bank transfer by Friday.",
    "My social security number is 078-05-1120 and my NHS number 943 476 5919.",
    "Server log: ip 81.2.69.160 user hkowalski logged in",
    "Dear Mr Adeyemi,\nOluwaseun Adeyemi wrote back.\n",
    "No identifiers here, only a recipe: 2 cups of flour.",
]


def _results(engine: AnalyzerEngine, text: str) -> list[tuple[str, int, int, float]]:
    found = engine.analyze(text=text, language=LANGUAGE)
    return sorted((r.entity_type, r.start, r.end, round(r.score, 9)) for r in found)


@pytest.fixture(scope="module")
def stock() -> AnalyzerEngine:
    """Presidio's own analyzer over the same recognizers and parse."""
    return AnalyzerEngine(
        registry=RecognizerRegistry(
            recognizers=recognizers(), supported_languages=[LANGUAGE]
        ),
        nlp_engine=SharedSpacyEngine(analyzer().nlp_engine.parse),  # type: ignore[attr-defined]
        supported_languages=[LANGUAGE],
    )


@pytest.mark.parametrize("text", TEXTS)
def test_when_the_shared_analyzer_reads_a_text_then_presidio_finds_the_same(
    text: str, stock: AnalyzerEngine
) -> None:
    assert _results(analyzer(), text) == _results(stock, text)
