"""Apply a reviewer's edit to a proposal: a policy, budgets or a candidate choice."""

from __future__ import annotations

from typing import Any

from anonygraph.state.domain import AttributeInference, LeakVerdict, PolicyItem
from anonygraph.state.intentanony import EvidenceChain, ExposureBudget, Intent
from anonygraph.state.review import BudgetAnswer, PolicyAnswer, SelectionAnswer
from anonygraph.tools.intentanony.exposure import MAX_CERTAINTY, mark_chain, over_budget


def edit_policy(
    policy: list[PolicyItem],
    answer: PolicyAnswer,
    verdicts: list[LeakVerdict],
    inferences: list[AttributeInference],
) -> list[PolicyItem]:
    """Drop, add and re-action policy items as the reviewer said.

    An added attribute takes the arbitrator's evidence and concept when it
    judged it, else the attacker's guesses; its action is ``generalize``
    unless the answer names one.
    """
    kept = [
        item.model_copy(
            update={"action": answer.actions.get(item.attribute, item.action)}
        )
        for item in policy
        if item.attribute not in answer.drop
    ]
    judged = {v.attribute: v for v in verdicts}
    inferred = {i.attribute: i for i in inferences}
    for name in answer.add:
        verdict, inference = judged.get(name), inferred.get(name)
        concept = verdict.concept if verdict and verdict.concept else ""
        if not concept and inference and inference.is_leak:
            guesses = ", ".join(inference.guesses)
            concept = f"guessed {guesses} because: {inference.reasoning}"
        kept.append(
            PolicyItem(
                attribute=name,
                action=answer.actions.get(name, "generalize"),
                evidence=verdict.evidence if verdict else [],
                concept=concept or f"reveals the author's {name}",
            )
        )
    return kept


def edit_budgets(
    budgets: list[ExposureBudget],
    chains: list[EvidenceChain],
    answer: BudgetAnswer,
    counted: list[Intent],
    inferences: list[AttributeInference],
) -> tuple[list[ExposureBudget], list[EvidenceChain], list[dict[str, Any]]]:
    """Set the levels the reviewer gave; re-mark the chains and the overruns."""
    changed = [
        budget.model_copy(
            update={
                "level": answer.levels[budget.attribute],
                "max_certainty": MAX_CERTAINTY[answer.levels[budget.attribute]],
                "source": "review",
            }
        )
        if budget.attribute in answer.levels
        else budget
        for budget in budgets
    ]
    by_attribute = {b.attribute: b for b in changed}
    marked = [
        mark_chain(chain, by_attribute[chain.attribute], counted)
        if chain.attribute in answer.levels
        else chain
        for chain in chains
    ]
    return changed, marked, over_budget(inferences, changed)


def pick_candidate(choice: dict[str, Any], answer: SelectionAnswer) -> dict[str, Any]:
    """Replace the rule's choice by the reviewer's pick, keeping why it changed."""
    return {
        "index": answer.pick,
        "rule": "review",
        "reason": f"picked by the reviewer over the rule's candidate "
        f"{choice.get('index')} ({choice.get('reason', '')})",
    }
