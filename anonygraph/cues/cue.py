"""The explicit cue: a span of text that states an attribute of its author.

Also the two cuts of the text around a span that the recognizers read: the
clause before it (`clause_before`) and its sentence (`sentence_of`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    """One explicit cue found in a text.

    Offsets index the text the detectors read; ``quote`` is ``text[start:end]``.
    """

    start: int
    """Offset of the first character of the span."""

    end: int
    """Offset just past the span."""

    quote: str
    """The span, exactly as it stands in the text."""

    attribute: str
    """Attribute the span points to, e.g. ``city_country``."""

    kind: str
    """What the span is: city, country, age, salary, partner, job, degree, ..."""

    value: str
    """What it says about the attribute, e.g. ``Calgary, Canada`` or ``27``."""

    replacement: str
    """A coarser span that can stand in its place, e.g. ``Canada``."""

    certainty: int = 5
    """How surely the span gives the attribute away, 1 (hint) to 5 (stated)."""

    exact: bool = True
    """True when the span pins the attribute down at label precision (a city,
    an age); False for an already coarse span (a country, "in my thirties")."""

    sure: bool = True
    """True when the parse or the text confirms what the span is, so that its
    ``replacement`` is true and reads in its slot; False when the replacement
    is the attribute's typed placeholder (``[PLACE]``, ``[AGE]``, ``[INCOME]``:
    `anonygraph.cues.placeholders`) because a coarser form would be a guess."""

    def overlaps(self, other: Cue) -> bool:
        """Return True when the two spans share a character."""
        return self.start < other.end and other.start < self.end


PLACE_KINDS = frozenset({"city", "state", "region", "country", "area", "landmark"})
"""Cue kinds that name a place (a demonym is a word about people, not one)."""

SENTENCE_MARKS = ".!?\n"
"""Characters that end a sentence for the recognizers."""


def clause_before(text: str, at: int, marks: str = SENTENCE_MARKS) -> str:
    """Return the text from just after the last of ``marks`` before ``at`` to ``at``."""
    return text[max(text.rfind(mark, 0, at) for mark in marks) + 1 : at]


def sentence_of(text: str, start: int, end: int) -> str:
    """Return the sentence of ``text`` around ``start``-``end``."""
    left = max(text.rfind(mark, 0, start) for mark in SENTENCE_MARKS)
    rights = [i for i in (text.find(mark, end) for mark in SENTENCE_MARKS) if i >= 0]
    return text[left + 1 : min(rights) if rights else len(text)]
