"""A Presidio recognizer driven by a table of cued patterns.

Each pattern is a regular expression whose named group ``v`` is the
identifier and whose other parts are the cue that makes it one ("DOB",
"passport no.", "Dear"). A subclass declares its entity and patterns as data
and checks a candidate in one small ``validate`` method (a checksum, a
look-alike guard).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult

from anonygraph.identifiers.recognizers.needs import facts, needs_of
from anonygraph.tools import kept_patterns


class CuedPatternRecognizer(EntityRecognizer):
    """Find ``ENTITY`` where one of ``PATTERNS`` matches and ``validate`` agrees."""

    ENTITY: ClassVar[str] = ""
    """The entity type reported (one of our kinds)."""
    PATTERNS: ClassVar[tuple[tuple[str, str, float], ...]] = ()
    """(name, regular expression, score); group ``v`` is the span if present."""
    FLAGS: ClassVar[int] = 0
    """Flags every pattern is compiled with."""

    def __init__(self) -> None:
        """Compile the patterns once."""
        self.compiled = [
            (name, kept_patterns.compile(rx, self.FLAGS), score)
            for name, rx, score in self.PATTERNS
        ]
        super().__init__(
            supported_entities=[self.ENTITY],
            name=type(self).__name__,
            supported_language="en",
        )

    def load(self) -> None:
        """Load nothing: the patterns are compiled in the constructor."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return one result per validated match of any pattern."""
        results: list[RecognizerResult] = []
        found = facts(text)
        for name, pattern, score in self.compiled:
            if not needs_of(pattern).met_by(found):
                continue  # a text without what every match holds: no match to find
            for match in pattern.finditer(text):
                span = self.span(match, text, nlp_artifacts)
                if span is None:
                    continue
                start, end = span
                results.append(self.result(start, end, score, name))
        return results

    def span(
        self, match: re.Match[str], text: str, nlp_artifacts: Any
    ) -> tuple[int, int] | None:
        """Return the identifier's offsets in a match, or None to reject it."""
        group = "v" if "v" in match.re.groupindex else 0
        start, end = match.span(group)
        if start < 0 or not self.validate(match.group(group), text, start, end):
            return None
        return start, end

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Accept a candidate (the default); subclasses check it."""
        return True

    def result(
        self, start: int, end: int, score: float, pattern: str
    ) -> RecognizerResult:
        """Build a Presidio result that names this recognizer and pattern."""
        return RecognizerResult(
            entity_type=self.ENTITY,
            start=start,
            end=end,
            score=score,
            analysis_explanation=AnalysisExplanation(
                recognizer=type(self).__name__,
                original_score=score,
                pattern_name=pattern,
            ),
            recognition_metadata={
                RecognizerResult.RECOGNIZER_NAME_KEY: type(self).__name__,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
            },
        )


def before(text: str, start: int, width: int = 30) -> str:
    """Return the lowercased ``width`` characters before ``start``."""
    return text[max(0, start - width) : start].lower()


def digits(value: str) -> str:
    """Return the digits of ``value`` only."""
    return "".join(c for c in value if c.isdigit())


def luhn_valid(number: str) -> bool:
    """Check the Luhn (mod 10) digit of a digit string."""
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return bool(number) and total % 10 == 0


IBAN_FORM = kept_patterns.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}")
"""An IBAN's characters: a country code, two check digits, the account."""


def iban_valid(value: str) -> bool:
    """Tell an IBAN by its form and its mod-97 check ("IR33 0620 … 2000 01")."""
    compact = value.replace(" ", "")
    if not IBAN_FORM.fullmatch(compact):
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1
