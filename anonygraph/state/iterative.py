"""Base state of the iterative methods: the text, its round and its inferences.

RLAA, FgAA, SEAL, AURA's masking rounds and IntentAnony's verify loop extend
`IterativeState`, so the steps they share (prepare, attack, anonymize) are typed
against it and every round is recorded as one `RoundSnapshot`.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, cast

from anonygraph.state.domain import AttributeInference
from anonygraph.state.record import RecordInput, RecordOutput, RoundSnapshot


@dataclass(kw_only=True)
class IterativeState(RecordInput, RecordOutput):
    """What an attack-and-rewrite loop works on."""

    current: str = ""
    """The text as it stands after the last accepted rewrite."""

    round: Annotated[int, operator.add] = 0
    """Rewrites done so far."""

    inferences: list[dict[str, Any]] = field(default_factory=list)
    """The attacker's latest `AttributeInference`s about `current`."""

    def infers_nothing(self) -> bool:
        """Say whether the latest inferences commit to no guess at all."""
        return not any(
            AttributeInference.model_validate(i).is_leak for i in self.inferences
        )

    def snapshot(self, **outcome: Any) -> RoundSnapshot:
        """Snapshot this round for Studio and the store, with the round's outcome."""
        entry = {
            "round": self.round,
            "text": self.current,
            "inferences": self.inferences,
        }
        return cast(RoundSnapshot, {**entry, **outcome})


@dataclass(kw_only=True)
class AdversaryState(IterativeState):
    """The adversarial loop's state (RLAA, FgAA; AURA's masking rounds)."""

    verdicts: list[dict[str, Any]] = field(default_factory=list)
    """The arbitrator's latest `LeakVerdict`s (RLAA only; the shared anonymize
    step records them in each round)."""

    policy: list[dict[str, Any]] = field(default_factory=list)
    """The latest actionable `PolicyItem`s handed to the anonymizer."""

    def snapshot(self, **outcome: Any) -> RoundSnapshot:
        """Snapshot this round with its verdicts and policy."""
        return super().snapshot(verdicts=self.verdicts, policy=self.policy, **outcome)
