"""Our cue detectors as a Presidio recognizer (the ``presidio`` extra).

`CueRecognizer` is an ``EntityRecognizer``: add it to any ``AnalyzerEngine``'s
registry and ``analyze`` returns our cues beside Presidio's own entities.
`analyzer_engine` builds an engine that needs no spaCy model: its NLP engine
is Presidio's ``NoOpNlpEngine`` (no model loaded, nothing downloaded), and its
registry holds our recognizer plus any pattern recognizers passed in. With
``identifiers=True`` it also holds the identifier detector's recognizers
(`anonygraph.identifiers.recognizers`: names, e-mails, phones, IDs, ...) and
reads the spaCy parse the cue detectors share, so one engine reports direct
identifiers and cues together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from anonygraph.tools.spacy_import import import_presidio_analyzer

import_presidio_analyzer()  # before the imports below: no torch, no transformers

from presidio_analyzer import (
    AnalysisExplanation,
    AnalyzerEngine,
    EntityRecognizer,
    RecognizerRegistry,
    RecognizerResult,
)
from presidio_analyzer.nlp_engine import NlpArtifacts, NoOpNlpEngine

from anonygraph.attributes import DEFAULT_ATTRIBUTES
from anonygraph.cues import warm_up
from anonygraph.cues.entities import (
    ENTITY_TYPES,
    RECOGNIZER_NAME,
    detect,
    entity_types,
)


class CueRecognizer(EntityRecognizer):
    """Presidio recognizer over anonygraph's explicit-cue detectors.

    Reports places, ages, money amounts, partners, jobs, schools and other
    cues that state one of the author's attributes, with the attribute, the
    value and a coarser replacement in each result's metadata.
    """

    def __init__(
        self,
        attributes: Iterable[str] = DEFAULT_ATTRIBUTES,
        types: Mapping[str, str] = ENTITY_TYPES,
        supported_language: str = "en",
    ) -> None:
        """Report the cues of ``attributes`` as the entity types ``types`` gives."""
        self.attributes = list(attributes)
        self.types = dict(types)
        super().__init__(
            supported_entities=entity_types(self.attributes, self.types),
            name=RECOGNIZER_NAME,
            supported_language=supported_language,
        )

    def load(self) -> None:
        """Build the detectors' tables (the place gazetteer) now, not on first use."""
        warm_up()

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
    ) -> list[RecognizerResult]:
        """Return the cues of the requested entity types as Presidio results."""
        wanted = set(entities or self.supported_entities)
        results = []
        for found in detect(text, self.attributes, self.types):
            if found["entity_type"] not in wanted:
                continue
            meta = found["recognition_metadata"]
            explanation = AnalysisExplanation(
                recognizer=RECOGNIZER_NAME,
                original_score=found["score"],
                textual_explanation=f"states the author's {meta['attribute']}: "
                f"{meta['value']} ({meta['kind']})",
            )
            results.append(
                RecognizerResult(
                    entity_type=found["entity_type"],
                    start=found["start"],
                    end=found["end"],
                    score=found["score"],
                    analysis_explanation=explanation,
                    recognition_metadata={**meta, "recognizer_identifier": self.id},
                )
            )
        return results


def identifier_recognizers() -> list[EntityRecognizer]:
    """Return the identifier detector's recognizers, to add to any registry.

    Their spaCy-based name recognizer needs an NLP engine that parses (not
    ``NoOpNlpEngine``); the others are pattern recognizers.
    """
    from anonygraph.identifiers.recognizers import all_recognizers

    return all_recognizers()


def analyzer_engine(
    recognizers: Iterable[EntityRecognizer] = (),
    attributes: Iterable[str] = DEFAULT_ATTRIBUTES,
    language: str = "en",
    *,
    identifiers: bool = False,
) -> Any:
    """Build an ``AnalyzerEngine`` over our cues (and, if asked, identifiers).

    Args:
        recognizers: other recognizers that need no NLP artifacts (Presidio's
            pattern recognizers: ``EmailRecognizer``, ``PhoneRecognizer``, ...).
        attributes: the attributes whose cues `CueRecognizer` reports.
        language: the language the engine and recognizers are registered for.
        identifiers: also run the identifier detector's recognizers, on the
            shared spaCy parse (English only; loads the pipeline on first use).
            Without it the engine needs no spaCy model.
    """
    extra = identifier_recognizers() if identifiers else []
    registry = RecognizerRegistry(
        recognizers=[
            CueRecognizer(attributes, supported_language=language),
            *extra,
            *recognizers,
        ],
        supported_languages=[language],
    )
    nlp: Any
    if identifiers:
        from anonygraph.cues.engine import default_engine
        from anonygraph.identifiers.engine import SharedSpacyEngine

        nlp = SharedSpacyEngine(default_engine())
    else:
        nlp = NoOpNlpEngine(models=[{"lang_code": language, "model_name": "none"}])
    return AnalyzerEngine(
        registry=registry, nlp_engine=nlp, supported_languages=[language]
    )
