"""Detected cues as Presidio-shaped results: entity type, start, end, score.

`detect` gives what Presidio's ``AnalyzerEngine.analyze`` and its REST
``/analyze`` return (``RecognizerResult.to_dict()`` fields), so tools that read
Presidio's results read ours; it needs no Presidio. The adapter that lets an
``AnalyzerEngine`` call our detectors is `anonygraph.cues.presidio`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from anonygraph.attributes import DEFAULT_ATTRIBUTES
from anonygraph.cues import Cue, detect_cues

RECOGNIZER_NAME = "AnonygraphCueRecognizer"
"""The name our results carry as their recognizer."""

ENTITY_TYPES: Mapping[str, str] = {
    "city_country": "LOCATION",
    "birth_city_country": "LOCATION",
}
"""Attribute -> entity type where Presidio has one; other attributes are their
name in capitals (AGE, SEX, EDUCATION, OCCUPATION, INCOME_LEVEL,
RELATIONSHIP_STATUS). The attribute itself is in the result's metadata."""


def entity_type(attribute: str, types: Mapping[str, str] = ENTITY_TYPES) -> str:
    """Return the entity type of ``attribute``'s cues."""
    return types.get(attribute, attribute.upper())


def entity_types(
    attributes: Iterable[str] = DEFAULT_ATTRIBUTES,
    types: Mapping[str, str] = ENTITY_TYPES,
) -> list[str]:
    """Return the entity types ``attributes``' cues are reported as, sorted."""
    return sorted({entity_type(a, types) for a in attributes})


def score(cue: Cue) -> float:
    """Map a cue's certainty (1 hint ... 5 stated) onto Presidio's 0-1 score."""
    return cue.certainty / 5


def cue_result(cue: Cue, types: Mapping[str, str] = ENTITY_TYPES) -> dict[str, Any]:
    """Return one cue as a Presidio result dict (``RecognizerResult.to_dict()``).

    ``recognition_metadata`` carries what a Presidio result has no field for:
    the attribute, the kind of span, the value it states and the coarser span
    anonygraph would put in its place.
    """
    return {
        "entity_type": entity_type(cue.attribute, types),
        "start": cue.start,
        "end": cue.end,
        "score": score(cue),
        "analysis_explanation": None,
        "recognition_metadata": {
            "recognizer_name": RECOGNIZER_NAME,
            "recognizer_identifier": RECOGNIZER_NAME,
            "attribute": cue.attribute,
            "kind": cue.kind,
            "value": cue.value,
            "replacement": cue.replacement,
        },
    }


def detect(
    text: str,
    attributes: Iterable[str] | None = None,
    types: Mapping[str, str] = ENTITY_TYPES,
) -> list[dict[str, Any]]:
    """Detect the explicit cues in ``text`` as Presidio result dicts, in text order.

    Args:
        text: the text to scan.
        attributes: keep only cues of these attributes; all when None.
        types: attribute -> entity type (`ENTITY_TYPES` by default).
    """
    return [cue_result(c, types) for c in detect_cues(text, attributes)]
