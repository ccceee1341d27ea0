"""One Presidio ``AnalyzerEngine`` on the spaCy pipeline the cue detectors load.

The engine's NLP step reads the parse cache of `anonygraph.cues.engine`, so a
text is parsed once for the identifier pass and the cue detectors alike. It is
built once per process, on first use, behind a lock.

Presidio's context step (a context word before a match raises its score) is
kept, at the cost of the results it can change only: the word lists it reads
are built when it first asks, and it copies only the results of recognizers
that have context words.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import defaultdict
from functools import lru_cache
from typing import Any

from presidio_analyzer import (
    AnalyzerEngine,
    EntityRecognizer,
    RecognizerRegistry,
    RecognizerResult,
)
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
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

    def _doc_to_nlp_artifact(self, doc: Any, language: str) -> NlpArtifacts:
        """Build the artifacts of a parse (entities as Presidio filters them)."""
        entities, scores = self._get_updated_entities(
            self._get_entities(doc), self._get_scores_for_entities(doc)
        )
        return SharedArtifacts(doc, entities, scores, self, language)

    def process_batch(  # type: ignore[override]
        self,
        texts: Any,
        language: str,
        batch_size: int = 1,
        n_process: int = 1,
        as_tuples: bool = False,
    ) -> Any:
        """Parse each text through the shared cache, one at a time."""
        for text in texts:
            yield text, self.process_text(str(text), language)


class SharedArtifacts(NlpArtifacts):
    """Presidio's artifacts of a parse; its word lists are built when first read.

    Our recognizers read the parse (``tokens``) only. The lemmas, token
    offsets and keywords serve Presidio's context step, which reads them only
    for a result of a recognizer with context words (e-mail, IP, IBAN, ...):
    most texts never need them, and none needs them twice.

    The shared pipeline runs without its lemmatizer (the cue detectors do not
    read lemmas); Presidio's context words are matched against lemmas, so a
    token's lowercased word stands in for its missing lemma (an empty lemma
    would silence every context word).
    """

    def __init__(
        self,
        doc: Any,
        entities: list[Any],
        scores: list[float],
        nlp_engine: SpacyNlpEngine,
        language: str,
    ) -> None:
        """Keep the parse; leave the word lists to the first reader."""
        # Not NlpArtifacts.__init__: it builds every list at once.
        self.entities = entities
        self.tokens = doc
        self.nlp_engine = nlp_engine
        self.scores = scores if scores else [0.85] * len(entities)
        self.language = language
        self._lemmas: list[str] | None = None
        self._indices: list[int] | None = None
        self._keywords: list[str] | None = None

    def _read_tokens(self) -> None:
        """Read each token's lemma (or lowercased word) and offset, in one pass."""
        lemmas: list[str] = []
        indices: list[int] = []
        for token in self.tokens:
            lemmas.append(token.lemma_ or token.lower_)
            indices.append(token.idx)
        if self._lemmas is None:
            self._lemmas = lemmas
        if self._indices is None:
            self._indices = indices

    @property
    def lemmas(self) -> list[str]:
        """Return each token's lemma, or its lowercased word where none."""
        if self._lemmas is None:
            self._read_tokens()
        assert self._lemmas is not None
        return self._lemmas

    @lemmas.setter
    def lemmas(self, value: list[str]) -> None:
        self._lemmas = value

    @property
    def tokens_indices(self) -> list[int]:
        """Return each token's offset in the text."""
        if self._indices is None:
            self._read_tokens()
        assert self._indices is not None
        return self._indices

    @tokens_indices.setter
    def tokens_indices(self, value: list[int]) -> None:
        self._indices = value

    @property
    def keywords(self) -> list[str]:
        """Return the lemmas that are no stop word or punctuation (Presidio's rule)."""
        if self._keywords is None:
            self._keywords = NlpArtifacts.set_keywords(
                self.nlp_engine, self.lemmas, self.language
            )
        return self._keywords

    @keywords.setter
    def keywords(self, value: list[str]) -> None:
        self._keywords = value


class ContextWordEnhancer(LemmaContextAwareEnhancer):
    """Presidio's context step, run on the results it can change only.

    Presidio's step deep-copies every result, then raises the score of those
    whose recognizer has context words and finds one before the match. The
    others come back unchanged: here they are passed through as they are
    (no copy), and the step runs on the rest, each result on its own.
    """

    def enhance_using_context(
        self,
        text: str,
        raw_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts,
        recognizers: list[EntityRecognizer],
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        """Return the results in their order, those with context words enhanced."""
        worded = {r.id for r in recognizers if r.context}
        chosen = [
            i
            for i, result in enumerate(raw_results)
            if (result.recognition_metadata or {}).get(_ID_KEY) in worded
        ]
        results = list(raw_results)
        if not chosen:
            return results
        enhanced = super().enhance_using_context(
            text=text,
            raw_results=[raw_results[i] for i in chosen],
            nlp_artifacts=nlp_artifacts,
            recognizers=recognizers,
            context=context,
        )
        for i, result in zip(chosen, enhanced, strict=True):
            results[i] = result
        return results

    @staticmethod
    def _find_index_of_match_token(
        word: str, start: int, tokens: Any, tokens_indices: list[int]
    ) -> int:
        """Return the index of the first token that ends after ``start``.

        Presidio walks the tokens from the first; their offsets are sorted
        and they do not overlap, so it is the last token to start at or
        before ``start`` where that one reaches past it, else the next one.
        """
        at = bisect_right(tokens_indices, start) - 1
        if at >= 0 and tokens_indices[at] + len(tokens[at]) > start:
            return at
        if at + 1 < len(tokens_indices):
            return at + 1
        raise ValueError(f"Did not find word '{word}' in the list of tokens")


_ID_KEY = RecognizerResult.RECOGNIZER_IDENTIFIER_KEY


class SharedAnalyzer(AnalyzerEngine):
    """Presidio's analyzer, its context step grouped by recognizer in one pass.

    Presidio hands each recognizer its own results and everyone else's, by a
    scan of all results per recognizer (some fifty of ours); a recognizer
    that keeps Presidio's default (returns its own results as they are) gets
    its own results from one grouping instead, in the same order.
    """

    def _enhance_using_context(
        self,
        text: str,
        raw_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts,
        recognizers: list[EntityRecognizer],
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        own: defaultdict[str, list[RecognizerResult]] = defaultdict(list)
        for result in raw_results:
            own[result.recognition_metadata[_ID_KEY]].append(result)
        results: list[RecognizerResult] = []
        for recognizer in recognizers:
            mine = own.get(recognizer.id, [])
            if _enhances(recognizer):
                others = [
                    r
                    for r in raw_results
                    if r.recognition_metadata[_ID_KEY] != recognizer.id
                ]
                mine = recognizer.enhance_using_context(
                    text=text,
                    raw_recognizer_results=mine,
                    other_raw_recognizer_results=others,
                    nlp_artifacts=nlp_artifacts,
                    context=context,
                )
            results.extend(mine)
        return self.context_aware_enhancer.enhance_using_context(
            text=text,
            raw_results=results,
            nlp_artifacts=nlp_artifacts,
            recognizers=recognizers,
            context=context,
        )


def _enhances(recognizer: EntityRecognizer) -> bool:
    """Tell a recognizer that overrides Presidio's (do-nothing) context hook."""
    hook = type(recognizer).enhance_using_context
    return hook is not EntityRecognizer.enhance_using_context


def recognizers() -> list[EntityRecognizer]:
    """Build the recognizers of every kind (Presidio's and ours)."""
    from anonygraph.identifiers.recognizers import all_recognizers

    return all_recognizers()


@lru_cache(maxsize=4)
def _analyzer(parse: Engine) -> AnalyzerEngine:
    registry = RecognizerRegistry(
        recognizers=recognizers(), supported_languages=[LANGUAGE]
    )
    return SharedAnalyzer(
        registry=registry,
        nlp_engine=SharedSpacyEngine(parse),
        supported_languages=[LANGUAGE],
        context_aware_enhancer=ContextWordEnhancer(),
    )


def analyzer(parse: Engine | None = None) -> AnalyzerEngine:
    """Return the process's analyzer, building it on first use."""
    with _LOCK:
        return _analyzer(parse or default_engine())
