"""State of the adversarial loops: RLAA (with arbitrator) and FgAA (without)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any


@dataclass(kw_only=True)
class InputState:
    """What a caller passes in: one text or one author's comments."""

    text: str = ""
    """The text to anonymize (ignored when `comments` is given)."""

    comments: list[str] = field(default_factory=list)
    """One author's comments, anonymized together and split back."""

    attributes: list[str] = field(default_factory=list)
    """Attributes to protect for this input; empty: the run's attributes."""


@dataclass(kw_only=True)
class OutputState:
    """What a run returns and the evaluator reads."""

    anonymized: str = ""
    """The final text."""

    anonymized_comments: list[str] = field(default_factory=list)
    """The final text split back into comments, when the input was a list."""

    status: str = "running"
    """converged (nothing left worth editing), max_iterations, or running."""

    iterations: Annotated[list[dict[str, Any]], operator.add] = field(
        default_factory=list
    )
    """Every round: text attacked, inferences, verdicts, policy, rewrite."""

    calls: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """Accounting of every model call: role, step, tokens, seconds, cache hit."""

    errors: Annotated[list[str], operator.add] = field(default_factory=list)
    """Recoverable problems, e.g. a rewrite that was rejected."""


@dataclass(kw_only=True)
class State(InputState, OutputState):
    """Working state of one record."""

    current: str = ""
    """The text as it stands after the last accepted rewrite."""

    round: Annotated[int, operator.add] = 0
    """t: anonymization rounds done so far."""

    inferences: list[dict[str, Any]] = field(default_factory=list)
    """The attacker's latest `AttributeInference`s."""

    verdicts: list[dict[str, Any]] = field(default_factory=list)
    """The arbitrator's latest `LeakVerdict`s (RLAA only)."""

    policy: list[dict[str, Any]] = field(default_factory=list)
    """The latest actionable `PolicyItem`s handed to the anonymizer."""
