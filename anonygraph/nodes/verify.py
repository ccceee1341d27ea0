"""Verify step (beyond the paper): attack the rewrite again, list budget overruns."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph.nodes.attack import attack
from anonygraph.nodes.budget import over_budget
from anonygraph.state.domain import AttributeInference, ExposureBudget


async def verify(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Re-run the attacker on ``state.current`` and compare it with the budgets."""
    update = await attack(state, runtime)
    inferences = [AttributeInference.model_validate(i) for i in update["inferences"]]
    budgets = [ExposureBudget.model_validate(b) for b in state.budgets]
    return {
        "inferences": update["inferences"],
        "exceeded": over_budget(inferences, budgets),
        # The attacker node names its calls "attack"; these checked a rewrite.
        "calls": [{**call, "step": "verify"} for call in update["calls"]],
    }
