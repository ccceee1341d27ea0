"""State of the adversarial loops: RLAA (with arbitrator) and FgAA (without)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

from anonygraph.state.record import RecordInput, RecordOutput


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments."""


@dataclass(kw_only=True)
class OutputState(RecordOutput):
    """What a run returns and the evaluator reads.

    Status: converged (nothing left worth editing) or max_iterations.
    """


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
