"""The explicit cue: a span of text that states an attribute of its author."""

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

    def overlaps(self, other: Cue) -> bool:
        """Return True when the two spans share a character."""
        return self.start < other.end and other.start < self.end
