"""Human review of a proposal before it is applied: the request and the answer.

A method run with ``review=True`` pauses (LangGraph's ``interrupt()``) in a
review step: RLAA and FgAA after the policy is chosen, IntentAnony before a
rewrite (the budgets), AURA once the selection rule has picked a candidate.
The pause carries a `ReviewRequest`; the run goes on when it is resumed with
``Command(resume=ANSWER)``, where ANSWER is a plain dict of this shape::

    {"decision": "approve"}                      # apply the proposal as it is
    {"decision": "stop"}                         # finish with the current text
    {"decision": "edit", "drop": ["age"], "add": ["sex"],
     "actions": {"city_country": "rephrase"}}    # RLAA, FgAA: the policy
    {"decision": "edit", "levels": {"age": "L3"}}  # IntentAnony: the budgets
    {"decision": "edit", "pick": 2}              # AURA: another candidate

Each step validates the answer against its proposal (`policy_answer_model`,
`budget_answer_model`, `selection_answer_model`); a bad answer raises a
pydantic ``ValidationError`` to the caller and leaves the record paused, so
it can be answered again.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

# pydantic builds Studio's JSON schemas; on Python < 3.12 it needs this TypedDict.
from typing_extensions import TypedDict

Decision = Literal["approve", "edit", "stop"]
ACTION = Literal["generalize", "rephrase", "address"]
LEVEL = Literal["L0", "L1", "L2", "L3", "BAN"]

STOPPED = "stopped_by_reviewer"
"""The status of a record a reviewer stopped: it ends with its current text."""


class ReviewRequest(TypedDict):
    """What a paused review step shows (the ``interrupt()`` value)."""

    step: str
    """The review step: review_policy, review_budgets or review_selection."""

    round: int
    """Rewrites done before this review."""

    original: str
    """The input text, for the diff so far."""

    text: str
    """The text the proposal applies to (the current text)."""

    inferences: list[dict[str, Any]]
    """The attacker's latest `AttributeInference`s about ``text``."""

    proposal: dict[str, Any]
    """What will be applied: ``policy`` (`PolicyItem`s), ``budgets`` and
    ``chains`` (IntentAnony), or ``candidates`` and ``choice`` (AURA)."""

    answer: str
    """How to answer, in one line."""


class ReviewAnswer(BaseModel):
    """A reviewer's answer: approve, edit (with the changes) or stop."""

    model_config = ConfigDict(extra="forbid")

    decision: Decision = Field(
        description="approve: apply the proposal; edit: apply it with the "
        "changes given; stop: finish the record with its current text."
    )

    edit_fields: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="after")
    def _edits_match_decision(self) -> ReviewAnswer:
        # ``pick: 0`` is a change although 0 is falsy.
        changed = [
            name
            for name in self.edit_fields
            if getattr(self, name) not in (None, [], {})
        ]
        if self.decision != "edit" and changed:
            raise ValueError(
                f"{', '.join(changed)} given with decision {self.decision!r}; "
                "changes need decision 'edit'"
            )
        if self.decision == "edit" and not changed:
            raise ValueError(
                f"decision 'edit' names no change; give {' or '.join(self.edit_fields)}"
                ", or answer approve"
            )
        return self


class PolicyAnswer(ReviewAnswer):
    """An answer to RLAA's and FgAA's policy review."""

    drop: list[str] = Field(
        default_factory=list, description="Attributes to leave out of the rewrite."
    )
    add: list[str] = Field(
        default_factory=list,
        description="Protected attributes the rewrite should address too.",
    )
    actions: dict[str, ACTION] = Field(
        default_factory=dict,
        description="Attribute -> what the anonymizer does about it.",
    )

    edit_fields: ClassVar[tuple[str, ...]] = ("drop", "add", "actions")
    proposed: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="after")
    def _keeps_something(self) -> PolicyAnswer:
        twice = sorted(set(self.drop) & (set(self.add) | set(self.actions)))
        if twice:
            raise ValueError(f"{', '.join(twice)} both dropped and changed")
        unknown = sorted(set(self.actions) - set(self.proposed) - set(self.add))
        if unknown:
            raise ValueError(
                f"actions for {', '.join(unknown)}, which the policy does not hold; "
                "add it first"
            )
        left = (set(self.proposed) - set(self.drop)) | set(self.add)
        if self.decision == "edit" and not left:
            raise ValueError(
                "the edit drops every attribute; to rewrite nothing, answer stop"
            )
        return self


class BudgetAnswer(ReviewAnswer):
    """An answer to IntentAnony's budget review."""

    levels: dict[str, LEVEL] = Field(
        default_factory=dict,
        description="Attribute -> its new exposure level (L0 keeps it, BAN "
        "suppresses it).",
    )

    edit_fields: ClassVar[tuple[str, ...]] = ("levels",)


class SelectionAnswer(ReviewAnswer):
    """An answer to AURA's candidate review."""

    pick: int | None = Field(
        default=None, description="Index of the valid candidate to use instead."
    )

    edit_fields: ClassVar[tuple[str, ...]] = ("pick",)


def _one_of(values: list[str] | list[int]) -> Any:
    """Return a Literal over ``values``; None when there are none."""
    return Literal[tuple(values)] if values else None


def _names_field(values: list[str], value_type: Any = None) -> tuple[Any, Any]:
    """Return a list (or, with ``value_type``, a dict) field keyed by ``values``."""
    key: Any = _one_of(values) or str
    # No name to give: only the empty list (or dict) fits.
    most = None if values else 0
    if value_type is None:
        return list[key], Field(default_factory=list, max_length=most)
    return dict[key, value_type], Field(default_factory=dict, max_length=most)


def policy_answer_model(proposed: list[str], addable: list[str]) -> type[PolicyAnswer]:
    """Build the answer schema of one policy review: names limited to the proposal.

    Args:
        proposed: attributes the policy holds (may be dropped or re-actioned).
        addable: protected attributes it does not hold (may be added).
    """
    model = create_model(
        "PolicyReviewAnswer",
        __base__=PolicyAnswer,
        drop=_names_field(proposed),
        add=_names_field(addable),
        actions=_names_field([*proposed, *addable], ACTION),
    )
    model.proposed = tuple(proposed)
    return model


def budget_answer_model(attributes: list[str]) -> type[BudgetAnswer]:
    """Build the answer schema of one budget review: levels of these attributes."""
    return create_model(
        "BudgetReviewAnswer",
        __base__=BudgetAnswer,
        levels=_names_field(attributes, LEVEL),
    )


def selection_answer_model(valid: list[int]) -> type[SelectionAnswer]:
    """Build the answer schema of one selection review: a pick among ``valid``."""
    return create_model(
        "SelectionReviewAnswer",
        __base__=SelectionAnswer,
        pick=(_one_of(valid) | None, Field(default=None)),
    )


@dataclass(kw_only=True)
class ReviewLog:
    """Output of a method a person can review: every answer given."""

    reviews: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """One entry per review: step, round, proposal, decision and changes."""

    def stopped_in_review(self) -> bool:
        """Tell whether the last review told the record to stop."""
        return bool(self.reviews) and self.reviews[-1].get("decision") == "stop"
