"""One direct identifier found in a text: its kind, where it stands, who found it."""

from __future__ import annotations

from dataclasses import dataclass


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
