"""Find direct identifiers in a text: the analyzer's results as our kinds."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from anonygraph.cues.engine import Engine
from anonygraph.identifiers.engine import LANGUAGE, analyzer
from anonygraph.identifiers.kinds import KINDS, kind_of

PLACEHOLDER = re.compile(r"\[(?:[A-Z]+_)*[A-Z]+(?:_\d+)?\]")
"""A typed placeholder already in the text (``[PERSON_1]``, ``[PLACE]``)."""

MIN_SCORE = 0.5
"""Results below this score (a bare pattern without context) are dropped."""


@dataclass(frozen=True)
class Identifier:
    """One direct identifier found in a text."""

    kind: str
    """One of `KINDS`."""
    start: int
    """Offset of the first character."""
    end: int
    """Offset one past the last character."""
    text: str
    """The identifier as it stands in the text."""
    score: float
    """The recognizer's confidence, 0 to 1."""
    recognizer: str
    """Name of the recognizer that found it."""


def find_identifiers(
    text: str,
    *,
    kinds: Iterable[str] | None = None,
    parse: Engine | None = None,
    min_score: float = MIN_SCORE,
) -> list[Identifier]:
    """Find the direct identifiers in ``text``.

    Overlapping results are resolved so the longer span wins, then the higher
    score; spans inside a typed placeholder already in the text are skipped.

    Args:
        text: The text to scan.
        kinds: Kinds to report (default: all of `KINDS`).
        parse: The spaCy parser to read (default: the shared cached one).
        min_score: Results scored lower are dropped.

    Returns:
        Non-overlapping identifiers sorted by start offset.

    """
    wanted = set(kinds or KINDS)
    if not text.strip():
        return []
    results = analyzer(parse).analyze(text=text, language=LANGUAGE)
    taken = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
    found: list[Identifier] = []
    for result in results:
        kind = kind_of(result.entity_type)
        if kind is None or kind not in wanted or result.score < min_score:
            continue
        start, end = _trim(text, result.start, result.end)
        if end <= start or any(s < end and start < e for s, e in taken):
            continue
        meta = result.recognition_metadata or {}
        found.append(
            Identifier(
                kind=kind,
                start=start,
                end=end,
                text=text[start:end],
                score=float(result.score),
                recognizer=str(meta.get("recognizer_name", "")),
            )
        )
    return _non_overlapping(found)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop whitespace and closing punctuation a recognizer took at the edges."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ".,;:!?)'\""):
        end -= 1
    return start, end


def _non_overlapping(found: list[Identifier]) -> list[Identifier]:
    ranked = sorted(found, key=lambda i: (-(i.end - i.start), -i.score, i.start))
    chosen: list[Identifier] = []
    for ident in ranked:
        if all(ident.end <= c.start or ident.start >= c.end for c in chosen):
            chosen.append(ident)
    return sorted(chosen, key=lambda i: i.start)
