"""Human review of a proposal before it is applied, in LangChain's HITL convention.

A method run with ``review=True`` pauses (LangGraph's ``interrupt()``) in a
review step: RLAA and FgAA after the policy is chosen, IntentAnony before a
rewrite (the budgets), AURA once the selection rule has picked a candidate.

The pause carries a `ReviewRequest`: LangChain's human-in-the-loop request
(``HITLRequest`` of ``langchain.agents.middleware.human_in_the_loop``, what
``HumanInTheLoopMiddleware`` raises and Agent Chat UI shows) with one action
request (``name``, ``args``: the proposal as it can be edited,
``description``), its review config (``allowed_decisions``: approve, edit,
reject; ``args_schema``: what an edit may hold), plus ``details`` for our own
tools (step, round, original and current text, inferences, full proposal).
The run goes on when it is resumed with ``Command(resume=ANSWER)``, where
ANSWER is LangChain's ``HITLResponse`` with one decision::

    {"decisions": [{"type": "approve"}]}          # apply the proposal as it is
    {"decisions": [{"type": "reject", "message": "why"}]}  # keep the current text
    {"decisions": [{"type": "edit", "edited_action": {"name": "apply_policy",
        "args": {"policy": {"city_country": "rephrase", "sex": "generalize"}}}}]}
    # IntentAnony: {"name": "apply_budgets", "args": {"levels": {"age": "L3"}}}
    # AURA:        {"name": "use_candidate", "args": {"pick": 2}}

An edit gives the action's ``args`` as they should be: the policy (attribute
-> action; an attribute left out is dropped, a new one added), the budget
levels (attributes left out keep theirs) or the candidate to use. An argument
may also come as JSON text, as UIs that edit arguments in text boxes send it.
Each step validates the answer against its proposal (`policy_response_model`,
`budget_response_model`, `selection_response_model`); a bad answer raises a
pydantic ``ValidationError`` to the caller and leaves the record paused, so
it can be answered again.
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    create_model,
    field_validator,
    model_validator,
)

# pydantic builds Studio's JSON schemas; on Python < 3.12 it needs this TypedDict.
from typing_extensions import TypedDict

DecisionType = Literal["approve", "edit", "reject"]
ALLOWED_DECISIONS: list[DecisionType] = ["approve", "edit", "reject"]
"""What a reviewer may answer: LangChain's decision types, less ``respond``."""

ACTION = Literal["generalize", "rephrase", "address"]
LEVEL = Literal["L0", "L1", "L2", "L3", "BAN"]

STOPPED = "stopped_by_reviewer"
"""The status of a record a reviewer rejected: it ends with its current text."""


class ActionRequest(TypedDict):
    """The action a review approves: LangChain's ``ActionRequest``."""

    name: str
    """apply_policy (RLAA, FgAA), apply_budgets (IntentAnony), use_candidate (AURA)."""

    args: dict[str, Any]
    """The proposal as an edit gives it back: ``policy``, ``levels`` or ``pick``."""

    description: str
    """The text, the attacker's guesses and the proposal, in Markdown."""


class ReviewConfig(TypedDict):
    """What a reviewer may answer: LangChain's ``ReviewConfig``."""

    action_name: str
    """The ``name`` of the action request it is for."""

    allowed_decisions: list[DecisionType]
    """approve, edit and reject."""

    args_schema: dict[str, Any]
    """JSON schema of the ``args`` an edit may give (names, actions, levels)."""


class ReviewDetails(TypedDict):
    """What our own tools (``anonygraph review``, Studio, Python) show of a pause."""

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


class ReviewRequest(TypedDict):
    """The ``interrupt()`` value: a LangChain ``HITLRequest`` plus our details."""

    action_requests: list[ActionRequest]
    """One action: the proposal to approve, edit or reject."""

    review_configs: list[ReviewConfig]
    """One config, for that action."""

    details: ReviewDetails
    """Everything the step knows, for tools that show more than the action."""


class ReviewAnswer(BaseModel):
    """A reviewer's answer as the edit tools apply it: the decision and changes."""

    decision: DecisionType = Field(
        description="approve: apply the proposal; edit: apply it with the "
        "changes given; reject: finish the record with its current text."
    )
    message: str = Field(default="", description="The reviewer's reason, if any.")


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


class BudgetAnswer(ReviewAnswer):
    """An answer to IntentAnony's budget review."""

    levels: dict[str, LEVEL] = Field(
        default_factory=dict,
        description="Attribute -> its new exposure level (L0 keeps it, BAN "
        "suppresses it).",
    )


class SelectionAnswer(ReviewAnswer):
    """An answer to AURA's candidate review."""

    pick: int | None = Field(
        default=None, description="Index of the valid candidate to use instead."
    )


class EditArgs(BaseModel):
    """The ``args`` of an edit; a subclass per review step, built per pause."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _json_text(cls, value: Any) -> Any:
        # Agent Chat UI edits each argument in a text box and sends the text.
        if isinstance(value, str) and value.strip()[:1] in ("{", "[", *"0123456789"):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def changes(self) -> dict[str, Any]:
        """Return what the edit changes, as the step's answer fields."""
        raise NotImplementedError


class PolicyArgs(EditArgs):
    """An edited policy: attribute -> action."""

    policy: dict[str, ACTION] = Field(
        description="Attribute -> action (generalize, rephrase, address); leave "
        "an attribute out to drop it, name a new one to add it."
    )

    proposed: ClassVar[dict[str, str]] = {}

    @model_validator(mode="after")
    def _changes_something(self) -> PolicyArgs:
        if not self.policy:
            raise ValueError(
                "the edit drops every attribute; to rewrite nothing, reject"
            )
        if self.policy == self.proposed:
            raise ValueError("the edit changes nothing; approve instead")
        return self

    def changes(self) -> dict[str, Any]:
        """Return the dropped, added and re-actioned attributes."""
        return {
            "drop": [a for a in self.proposed if a not in self.policy],
            "add": [a for a in self.policy if a not in self.proposed],
            "actions": {
                a: act for a, act in self.policy.items() if self.proposed.get(a) != act
            },
        }


class BudgetArgs(EditArgs):
    """Edited exposure levels: attribute -> level."""

    levels: dict[str, LEVEL] = Field(
        description="Attribute -> exposure level (L0 keeps it ... BAN suppresses "
        "it); attributes left out keep their level."
    )

    current: ClassVar[dict[str, str]] = {}

    @model_validator(mode="after")
    def _changes_something(self) -> BudgetArgs:
        if not self.changes()["levels"]:
            raise ValueError("the edit changes no level; approve instead")
        return self

    def changes(self) -> dict[str, Any]:
        """Return the levels that differ from the proposal."""
        return {
            "levels": {
                a: level
                for a, level in self.levels.items()
                if self.current.get(a) != level
            }
        }


class SelectionArgs(EditArgs):
    """Another candidate to use."""

    pick: int = Field(description="Index of the valid candidate to use.")

    valid: ClassVar[tuple[int, ...]] = ()
    chosen: ClassVar[int | None] = None

    @model_validator(mode="after")
    def _changes_something(self) -> SelectionArgs:
        if self.pick not in self.valid:
            raise ValueError(
                f"candidate {self.pick} did not pass the checks; pick one of "
                f"{', '.join(map(str, self.valid)) or '(none: approve or reject)'}"
            )
        if self.pick == self.chosen:
            raise ValueError("the edit picks the rule's own candidate; approve instead")
        return self

    def changes(self) -> dict[str, Any]:
        """Return the pick."""
        return {"pick": self.pick}


class ApproveDecision(BaseModel):
    """Apply the proposal as it is: LangChain's ``ApproveDecision``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["approve"]


class RejectDecision(BaseModel):
    """Apply nothing and finish with the current text: ``RejectDecision``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["reject"]
    message: str = Field(default="", description="Why, for the record's log.")


class ReviewResponse(BaseModel):
    """LangChain's ``HITLResponse`` to one review: exactly one decision."""

    model_config = ConfigDict(extra="forbid")

    decisions: list[Any]
    action_name: ClassVar[str] = ""
    args_type: ClassVar[type[EditArgs]] = EditArgs

    def answer_fields(self) -> dict[str, Any]:
        """Return the decision as the fields of the step's `ReviewAnswer`."""
        (decision,) = self.decisions
        if decision.type == "edit":
            return {"decision": "edit", **decision.edited_action.args.changes()}
        return {"decision": decision.type, "message": getattr(decision, "message", "")}


def _response_model(action: str, args_type: type[EditArgs]) -> type[ReviewResponse]:
    """Build the HITL response schema of one pause: its action, its edit args."""
    name: Any = Literal[action]
    edited_action: Any = create_model(
        "EditedAction",
        __config__=ConfigDict(extra="forbid"),
        name=(name, Field(description="The action's name, unchanged.")),
        args=(args_type, ...),
    )
    edit: Any = create_model(
        "EditDecision",
        __config__=ConfigDict(extra="forbid"),
        type=_field(Literal["edit"]),
        edited_action=(edited_action, ...),
    )
    decision: Any = Annotated[
        ApproveDecision | edit | RejectDecision, Discriminator("type")
    ]
    model = create_model(
        "ReviewResponse",
        __base__=ReviewResponse,
        decisions=(list[decision], Field(min_length=1, max_length=1)),
    )
    model.action_name, model.args_type = action, args_type
    return model


def _field(annotation: Any) -> tuple[Any, Any]:
    """Return a required field of type ``annotation`` for `create_model`."""
    return annotation, Field(...)


def _mapping(key: Any, value: Any) -> Any:
    """Return ``dict[key, value]`` for keys and values known only at run time."""
    return dict[key, value]


def _one_of(values: list[str] | list[int]) -> Any:
    """Return a Literal over ``values`` (``str`` when there are none)."""
    return Literal[tuple(values)] if values else str


def policy_response_model(
    proposed: dict[str, str], addable: list[str]
) -> type[ReviewResponse]:
    """Build the answer schema of one policy review: names limited to the proposal.

    Args:
        proposed: attribute -> action of the policy (may be dropped or changed).
        addable: protected attributes it does not hold (may be added).
    """
    args = create_model(
        "PolicyArgs",
        __base__=PolicyArgs,
        policy=_field(_mapping(_one_of([*proposed, *addable]), ACTION)),
    )
    args.proposed = dict(proposed)
    return _response_model(POLICY_ACTION, args)


def budget_response_model(current: dict[str, str]) -> type[ReviewResponse]:
    """Build the answer schema of one budget review: levels of these attributes."""
    args = create_model(
        "BudgetArgs",
        __base__=BudgetArgs,
        levels=_field(_mapping(_one_of(list(current)), LEVEL)),
    )
    args.current = dict(current)
    return _response_model(BUDGET_ACTION, args)


def selection_response_model(
    valid: list[int], chosen: int | None
) -> type[ReviewResponse]:
    """Build the answer schema of one selection review: a pick among ``valid``."""
    args = create_model(
        "SelectionArgs",
        __base__=SelectionArgs,
        pick=_field(_one_of(valid) if valid else int),
    )
    args.valid, args.chosen = tuple(valid), chosen
    return _response_model(SELECTION_ACTION, args)


POLICY_ACTION = "apply_policy"
BUDGET_ACTION = "apply_budgets"
SELECTION_ACTION = "use_candidate"


@dataclass(kw_only=True)
class ReviewLog:
    """Output of a method a person can review: every answer given."""

    reviews: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """One entry per review: step, round, proposal, decision and changes."""

    def stopped_in_review(self) -> bool:
        """Tell whether the last review rejected the proposal (the record stops)."""
        return bool(self.reviews) and self.reviews[-1].get("decision") == "reject"
