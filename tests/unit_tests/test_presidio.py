"""Presidio interop: our cues as RecognizerResults, our detectors as a recognizer."""

from __future__ import annotations

from typing import Any

import pytest
import spacy
from presidio_analyzer import RecognizerResult
from presidio_analyzer.predefined_recognizers import CreditCardRecognizer

from anonygraph.cues import detect_cues
from anonygraph.cues.entities import ENTITY_TYPES, detect, entity_types
from anonygraph.cues.presidio import CueRecognizer, analyzer_engine

TEXT = "I am 34 and live in Calgary. Card: 4111 1111 1111 1111."


@pytest.fixture(scope="module")
def engine(request: pytest.FixtureRequest) -> Any:
    """Our engine with Presidio's credit card recognizer; spaCy may load nothing."""
    patch = pytest.MonkeyPatch()

    def no_model(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"spaCy was asked to load a model: {args}")

    patch.setattr(spacy, "load", no_model)
    request.addfinalizer(patch.undo)
    return analyzer_engine([CreditCardRecognizer()])


@pytest.mark.parametrize(
    ("text", "entity", "quote", "attribute"),
    [
        ("I am 34 and live in Calgary.", "AGE", "34", "age"),
        ("I am 34 and live in Calgary.", "LOCATION", "Calgary", "city_country"),
        ("I earn $85k a year.", "INCOME_LEVEL", "$85k a year", "income_level"),
    ],
)
def test_when_cues_are_detected_then_they_are_presidio_results(
    text: str, entity: str, quote: str, attribute: str
) -> None:
    found = [r for r in detect(text) if r["entity_type"] == entity]

    (result,) = found
    assert text[result["start"] : result["end"]] == quote
    (cue,) = [c for c in detect_cues(text) if c.quote == quote]
    assert result["score"] == cue.certainty / 5
    assert result["recognition_metadata"]["attribute"] == attribute
    score = result["score"]
    # Presidio reads the dict back as its own result.
    parsed = RecognizerResult.from_json(result)
    assert (parsed.entity_type, parsed.start, parsed.end, parsed.score) == (
        entity,
        result["start"],
        result["end"],
        score,
    )


def test_when_no_cue_is_in_a_text_then_nothing_is_detected() -> None:
    assert detect("The weather was lovely and the tea was hot.") == []


def test_when_attributes_are_named_then_only_their_cues_are_detected() -> None:
    assert {r["entity_type"] for r in detect(TEXT, ["age"])} == {"AGE"}


def test_when_the_entity_types_are_listed_then_places_are_presidios_location() -> None:
    assert entity_types() == [
        "AGE",
        "EDUCATION",
        "INCOME_LEVEL",
        "LOCATION",
        "OCCUPATION",
        "RELATIONSHIP_STATUS",
        "SEX",
    ]
    assert ENTITY_TYPES["birth_city_country"] == "LOCATION"


def test_when_an_analyzer_engine_uses_our_recognizer_then_it_finds_cues_and_its_own(
    engine: Any,
) -> None:
    results = engine.analyze(TEXT, language="en", return_decision_process=True)

    found = sorted((r.entity_type, TEXT[r.start : r.end]) for r in results)
    assert found == [
        ("AGE", "34"),
        ("CREDIT_CARD", "4111 1111 1111 1111"),
        ("LOCATION", "Calgary"),
    ]
    (age,) = [r for r in results if r.entity_type == "AGE"]
    assert age.recognition_metadata["recognizer_name"] == "AnonygraphCueRecognizer"
    assert age.recognition_metadata["value"] == "34"
    assert "states the author's age: 34" in age.analysis_explanation.textual_explanation


def test_when_entities_are_asked_for_then_the_engine_returns_only_those(
    engine: Any,
) -> None:
    results = engine.analyze(TEXT, language="en", entities=["LOCATION"])

    assert [(r.entity_type, TEXT[r.start : r.end]) for r in results] == [
        ("LOCATION", "Calgary")
    ]


def test_when_added_to_an_existing_registry_then_the_recognizer_is_one_among_others(
    engine: Any,
) -> None:
    recognizer = CueRecognizer(attributes=["age"])

    assert recognizer.supported_entities == ["AGE"]
    assert [r.entity_type for r in recognizer.analyze(TEXT, ["AGE"])] == ["AGE"]
    assert recognizer.analyze(TEXT, ["LOCATION"]) == []
    names = [r.name for r in engine.registry.recognizers]
    assert names == ["AnonygraphCueRecognizer", "CreditCardRecognizer"]


def test_when_the_engine_takes_the_identifier_recognizers_then_it_finds_both() -> None:
    text = "Hi, I'm Dana Whitfield, 34, living in Calgary. Mail dana.w@gmail.com."
    engine = analyzer_engine(identifiers=True)
    results = engine.analyze(text, language="en")
    found = {(r.entity_type, text[r.start : r.end]) for r in results}

    assert ("AGE", "34") in found
    assert ("PERSON", "Dana Whitfield") in found
    assert ("EMAIL_ADDRESS", "dana.w@gmail.com") in found
