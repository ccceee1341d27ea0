"""One Presidio ``AnalyzerEngine`` on the spaCy pipeline the cue detectors load.

The engine's NLP step reads the parse cache of `anonygraph.cues.engine`, so a
text is parsed once for the identifier pass and the cue detectors alike. It is
built once per process, on first use, behind a lock.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry
from presidio_analyzer.nlp_engine import (
    NerModelConfiguration,
    NlpArtifacts,
    SpacyNlpEngine,
)

from anonygraph.cues.engine import Engine, default_engine

LANGUAGE = "en"

_LOCK = threading.Lock()

_OTHER_LABELS = (
    "CARDINAL", "DATE", "EVENT", "FAC", "GPE", "LANGUAGE", "LAW", "LOC", "MONEY",
    "NORP", "ORDINAL", "ORG", "PERCENT", "PRODUCT", "QUANTITY", "TIME",
    "WORK_OF_ART",
)  # fmt: skip
"""spaCy's entity labels other than PERSON (en_core_web_sm's OntoNotes set)."""


class SharedSpacyEngine(SpacyNlpEngine):
    """Presidio's spaCy NLP engine over an already loaded, caching parser."""

    def __init__(self, parse: Engine) -> None:
        """Read parses from ``parse`` (text -> spaCy ``Doc``); load nothing."""
        # Only PERSON is read from spaCy's entities: places, dates and numbers
        # are cues (anonygraph.cues) or look-alikes, not direct identifiers.
        ner = NerModelConfiguration(
            model_to_presidio_entity_mapping={"PERSON": "PERSON"},
            labels_to_ignore=list(_OTHER_LABELS),
        )
        super().__init__(
            models=[{"lang_code": LANGUAGE, "model_name": "shared"}],
            ner_model_configuration=ner,
        )
        self.parse = parse
        self.nlp: Any = {LANGUAGE: getattr(parse, "nlp", None)}

    def load(self) -> None:
        """Do nothing: the pipeline is loaded by `anonygraph.cues.engine`."""

    def is_loaded(self) -> bool:
        """Return True: the parser was handed in loaded."""
        return True

    def process_text(self, text: str, language: str) -> NlpArtifacts:
        """Return the artifacts of the shared (cached) parse of ``text``."""
        return self._doc_to_nlp_artifact(self.parse(text), language)

    def process_batch(  # type: ignore[override]
        self, texts: Any, language: str, batch_size: int = 1, n_process: int = 1,
        as_tuples: bool = False,
    ) -> Any:
        """Parse each text through the shared cache, one at a time."""
        for text in texts:
            yield text, self.process_text(str(text), language)


def recognizers() -> list[EntityRecognizer]:
    """Build the recognizers of every kind (Presidio's and ours)."""
    from anonygraph.identifiers.recognizers import all_recognizers

    return all_recognizers()


@lru_cache(maxsize=4)
def _analyzer(parse: Engine) -> AnalyzerEngine:
    registry = RecognizerRegistry(
        recognizers=recognizers(), supported_languages=[LANGUAGE]
    )
    return AnalyzerEngine(
        registry=registry,
        nlp_engine=SharedSpacyEngine(parse),
        supported_languages=[LANGUAGE],
    )


def analyzer(parse: Engine | None = None) -> AnalyzerEngine:
    """Return the process's analyzer, building it on first use."""
    with _LOCK:
        return _analyzer(parse or default_engine())
