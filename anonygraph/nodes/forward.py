"""Forward step (FgAA): every attacker inference becomes an anonymizer instruction."""

from __future__ import annotations

from typing import Any

from anonygraph.state.domain import AttributeInference, PolicyItem


def forward_inferences(state: Any) -> dict[str, Any]:
    """Pass every inference on unfiltered: FgAA has no arbitrator."""
    policy = [
        PolicyItem(
            attribute=inference.attribute,
            action="address",
            evidence=[],
            concept=f"guessed {', '.join(inference.guesses)} because: "
            f"{inference.reasoning}",
        ).model_dump()
        for inference in map(AttributeInference.model_validate, state.inferences)
        if inference.is_leak
    ]
    return {"verdicts": [], "policy": policy}
