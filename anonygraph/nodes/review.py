"""Human review steps: pause with ``interrupt()`` before a proposal is applied.

Each step is a node of its own, so resuming re-runs only the pause (an
interrupted node starts over when resumed) and the graph shows where a run
may wait. The routers in graphs/ skip these steps unless ``review`` is on.
The request and answer follow LangChain's human-in-the-loop convention; their
shapes are in `anonygraph.state.review`.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from anonygraph.state import aura, aura_state, intentanony, rlaa
from anonygraph.state.context import ContextT
from anonygraph.state.domain import AttributeInference, LeakVerdict, PolicyItem
from anonygraph.state.intentanony import EvidenceChain, ExposureBudget
from anonygraph.state.iterative import IterativeState
from anonygraph.state.record import original_text
from anonygraph.state.review import (
    BudgetAnswer,
    PolicyAnswer,
    ReviewAnswer,
    ReviewDetails,
    ReviewRequest,
    SelectionAnswer,
    budget_response_model,
    policy_response_model,
    selection_response_model,
)
from anonygraph.tools.intentanony.exposure import counted_intents
from anonygraph.tools.review_edits import edit_budgets, edit_policy, pick_candidate
from anonygraph.tools.review_requests import build_request


def review_policy(state: rlaa.State, runtime: Runtime[ContextT]) -> dict[str, Any]:
    """Pause RLAA or FgAA before the anonymizer rewrites: approve, edit or reject."""
    proposed = {p["attribute"]: p["action"] for p in state.policy}
    addable = [a for a in state.attributes if a not in proposed]
    schema = policy_response_model(proposed, addable)
    details = _details(state, "review_policy", {"policy": state.policy})
    request = build_request(details, {"policy": proposed}, schema)
    answer = PolicyAnswer(**interrupt(request, response_schema=schema).answer_fields())
    update: dict[str, Any] = {"reviews": [_entry(request, answer)]}
    if answer.decision == "edit":
        policy = edit_policy(
            [PolicyItem.model_validate(p) for p in state.policy],
            answer,
            [LeakVerdict.model_validate(v) for v in state.verdicts],
            [AttributeInference.model_validate(i) for i in state.inferences],
        )
        update["policy"] = [p.model_dump() for p in policy]
    return update


def review_budgets(
    state: intentanony.State, runtime: Runtime[intentanony.IntentAnonyContext]
) -> dict[str, Any]:
    """Pause IntentAnony before its rewrite: approve, change budgets or reject."""
    proposal = {"budgets": state.budgets, "chains": state.chains}
    if state.exceeded:
        proposal["exceeded"] = state.exceeded
    levels = {b["attribute"]: b["level"] for b in state.budgets}
    schema = budget_response_model(levels)
    details = _details(state, "review_budgets", proposal)
    request = build_request(details, {"levels": levels}, schema)
    answer = BudgetAnswer(**interrupt(request, response_schema=schema).answer_fields())
    update: dict[str, Any] = {"reviews": [_entry(request, answer)]}
    if answer.decision == "edit":
        budgets, chains, exceeded = edit_budgets(
            [ExposureBudget.model_validate(b) for b in state.budgets],
            [EvidenceChain.model_validate(c) for c in state.chains],
            answer,
            counted_intents(state.intents, runtime.context.intent_threshold),
            [AttributeInference.model_validate(i) for i in state.inferences],
        )
        update["budgets"] = [b.model_dump() for b in budgets]
        update["chains"] = [c.model_dump() for c in chains]
        update["exceeded"] = exceeded
    return update


def review_selection(
    state: aura_state.State, runtime: Runtime[aura.AuraContext]
) -> dict[str, Any]:
    """Pause AURA before its chosen candidate is used: approve, pick another, reject."""
    proposal = {"candidates": state.candidates, "choice": state.choice}
    valid = [c["index"] for c in state.candidates if c.get("rejected") == []]
    chosen = state.choice.get("index")
    schema = selection_response_model(valid, chosen)
    details = _details(state, "review_selection", proposal)
    request = build_request(details, {"pick": chosen}, schema)
    response = interrupt(request, response_schema=schema)
    answer = SelectionAnswer(**response.answer_fields())
    update: dict[str, Any] = {"reviews": [_entry(request, answer)]}
    if answer.decision == "edit":
        update["choice"] = pick_candidate(state.choice, answer)
    return update


def _details(
    state: IterativeState, step: str, proposal: dict[str, Any]
) -> ReviewDetails:
    return ReviewDetails(
        step=step,
        round=state.round,
        original=original_text(state),
        text=state.current,
        inferences=state.inferences,
        proposal=proposal,
    )


def _entry(request: ReviewRequest, answer: ReviewAnswer) -> dict[str, Any]:
    """Log one review: what was proposed and what the reviewer answered."""
    details = request["details"]
    return {
        "step": details["step"],
        "round": details["round"],
        "proposal": details["proposal"],
        **answer.model_dump(exclude_defaults=True),
        "decision": answer.decision,
    }
