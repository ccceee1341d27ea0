"""Input and output fields every anonymization graph shares (runner, store, API)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any


@dataclass(kw_only=True)
class RecordInput:
    """One author's text: a single text or a list of comments."""

    text: str = ""
    """The text to anonymize (ignored when `comments` is given)."""

    comments: list[str] = field(default_factory=list)
    """One author's comments, anonymized together and split back."""

    attributes: list[str] = field(default_factory=list)
    """Attributes to protect for this input; empty: the run's attributes."""


@dataclass(kw_only=True)
class RecordOutput:
    """What every method returns; the runner and the store read these fields."""

    anonymized: str = ""
    """The final text."""

    anonymized_comments: list[str] = field(default_factory=list)
    """The final text split back into comments, when the input was a list."""

    status: str = "running"
    """How the run ended; the values are the method's (converged, done, ...)."""

    iterations: Annotated[list[dict[str, Any]], operator.add] = field(
        default_factory=list
    )
    """Every round (or pass) of the method, for Studio and the evaluator."""

    calls: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """Accounting of every model call: role, step, tokens, seconds, cache hit."""

    errors: Annotated[list[str], operator.add] = field(default_factory=list)
    """Recoverable problems, e.g. a rewrite that was rejected."""
