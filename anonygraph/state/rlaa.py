"""State of the adversarial loops: RLAA (with arbitrator) and FgAA (without).

FgAA is RLAA's ablation and runs on the same state and `Context`.
"""

from __future__ import annotations

from dataclasses import dataclass

from anonygraph.state.iterative import AdversaryState
from anonygraph.state.record import RecordInput, RecordOutput
from anonygraph.state.review import ReviewLog


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments."""


@dataclass(kw_only=True)
class OutputState(RecordOutput, ReviewLog):
    """What a run returns and the evaluator reads.

    Status: converged (nothing left worth editing), max_iterations or
    stopped_by_reviewer (a reviewer stopped it; `reviews` says when).
    """


@dataclass(kw_only=True)
class State(InputState, OutputState, AdversaryState):
    """Working state of one record.

    `current`, `round` (t), `inferences`, `verdicts` (RLAA only) and `policy`
    come from `AdversaryState`.
    """
