"""IntentAnony's types, state and run parameters: intents, evidence chains, budgets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from anonygraph.attributes import resolve_attributes
from anonygraph.prompts.intentanony import (
    EVIDENCE_PROMPT,
    INTENT_PROMPT,
    PAPER_EVIDENCE_PROMPT,
    PAPER_INTENT_PROMPT,
    PAPER_INTENTANONY_INFER_PROMPT,
    PAPER_INTENTANONY_REWRITE_PROMPT,
    REWRITE_PROMPT,
)
from anonygraph.state.context import (
    AcceptanceOptions,
    ModelContext,
    ReviewOptions,
)
from anonygraph.state.identifiers import IdentifierOptions
from anonygraph.state.iterative import IterativeState
from anonygraph.state.record import RecordInput, RecordOutput, RoundSnapshot
from anonygraph.state.review import ReviewLog

IntentCode = Literal["I1", "I2", "I3", "I4", "I5"]
Level = Literal["L0", "L1", "L2", "L3", "BAN"]
SpanAction = Literal["keep", "generalize", "remove"]

INTENT_NAMES: dict[str, str] = {
    "I1": "self-expression",
    "I2": "social interaction",
    "I3": "professional showcase",
    "I4": "information sharing",
    "I5": "sensitive disclosure",
}
"""The pragmatic intents IntentAnony recognizes, by code."""

LEVELS: tuple[str, ...] = get_args(Level)
"""Exposure levels, least to most restrictive: L0 keeps, BAN suppresses."""

INTENT_WEIGHTS: tuple[float, ...] = tuple(i / 10 for i in range(11))
"""The weights a constrained decoder may emit: a 0.1 grid over [0, 1]."""


class Intent(BaseModel):
    """One pragmatic intent of a text, with how prominent it is."""

    code: IntentCode = Field(description="I1 ... I5.")
    name: str = Field(description="Readable name, e.g. 'self-expression'.")
    weight: float = Field(ge=0, le=1, description="Prominence in [0, 1]; 0: absent.")


class EvidenceStep(BaseModel):
    """One link of an evidence chain: a verbatim quote and what it gives away."""

    step: str = Field(default="", description="What this step of inference does.")
    quote: str = Field(description="Words of the text, verbatim.")
    explanation: str = Field(
        default="", description="Why the quote reveals the attribute."
    )
    intent: IntentCode | Literal["none"] = Field(
        default="none", description="The recognized intent the quote serves, if any."
    )
    intent_relevant: bool = Field(
        default=False,
        description="Set in code: the quote serves an intent above the threshold.",
    )
    action: SpanAction = Field(
        default="keep",
        description="Set in code from the budget: keep, generalize, "
        "or remove the quote.",
    )


class EvidenceChain(BaseModel):
    """How the text supports inferring one attribute, step by step."""

    attribute: str = Field(description="Attribute the chain supports.")
    steps: list[EvidenceStep] = Field(
        default_factory=list, description="Ordered steps whose quotes are in the text."
    )
    dropped: list[str] = Field(
        default_factory=list,
        description="Quotes the model gave that are not in the text (discarded).",
    )


class ExposureBudget(BaseModel):
    """How much one attribute may still be inferable from the anonymized text."""

    attribute: str = Field(description="Attribute the budget is for.")
    level: Level = Field(description="Effective level: the strictest over intents.")
    max_certainty: int = Field(
        ge=1, le=5, description="Highest attacker certainty the level tolerates."
    )
    source: Literal["table", "privacy_level", "no_intent", "review"] = Field(
        description="table: eq. 6 over the counted intents; privacy_level: the "
        "run's override; no_intent: no intent passed the threshold; review: "
        "set by a person reviewing the budgets."
    )
    by_intent: dict[str, Level] = Field(
        default_factory=dict, description="G(scene, intent, attribute) per intent."
    )
    defaulted: list[str] = Field(
        default_factory=list,
        description="Intents whose table entry was missing (default level used).",
    )


class ExposureTable(BaseModel):
    """The governance function G(scene, intent, attribute) -> level, as data."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(default="", description="Free notes for readers.")
    fallback_scene: str = Field(
        default="general",
        description="Scene consulted when the recognized one has no entry.",
    )
    scenes: dict[str, dict[IntentCode, dict[str, Level]]] = Field(
        description="scene -> intent -> attribute -> level."
    )

    @model_validator(mode="after")
    def _known_names(self) -> ExposureTable:
        for by_intent in self.scenes.values():
            for intent, levels in by_intent.items():
                by_intent[intent] = {
                    resolve_attributes([name])[0]: level
                    for name, level in levels.items()
                }
        if self.fallback_scene not in self.scenes:
            raise ValueError(
                f"fallback scene {self.fallback_scene!r} is not among the "
                f"scenes {sorted(self.scenes)}"
            )
        return self

    def lookup(self, scene: str, intent: str, attribute: str) -> str | None:
        """Return G(scene, intent, attribute), trying the fallback scene second."""
        for name in (scene, self.fallback_scene):
            level = self.scenes.get(name, {}).get(intent, {}).get(attribute)  # type: ignore[call-overload]
            if level is not None:
                return str(level)
        return None


class SpanEdit(BaseModel):
    """What one rewrite did to one evidence span."""

    quote: str = Field(description="The span as it stood in the text rewritten.")
    attributes: list[str] = Field(description="Attributes whose chains hold it.")
    action: SpanAction = Field(description="What the plan asked for.")
    intent_relevant: bool = Field(description="The span serves a counted intent.")
    outcome: Literal["kept", "changed"] = Field(
        description="kept: still there verbatim; changed: edited or removed."
    )
    replaced_by: str | None = Field(
        default=None, description="What the span became ('' if deleted); None if kept."
    )

    @property
    def violates_plan(self) -> bool:
        """True when the rewrite did the opposite of what the plan asked."""
        return (self.action == "keep") == (self.outcome == "changed")


@dataclass(kw_only=True)
class IntentAnonyContext(
    ModelContext, AcceptanceOptions, ReviewOptions, IdentifierOptions
):
    """Run parameters of IntentAnony, on top of the shared ones."""

    intent_prompt: str = field(
        default=INTENT_PROMPT,
        metadata={"description": "Intent recognizer template: slots {text}, {scenes}."},
    )
    evidence_prompt: str = field(
        default=EVIDENCE_PROMPT,
        metadata={
            "description": "Evidence chain template: slots {text}, {inferences}, "
            "{intents}, {max_steps}."
        },
    )
    rewrite_prompt: str = field(
        default=REWRITE_PROMPT,
        metadata={
            "description": "Rewriter template: slots {text}, {intents}, {budgets}, "
            "{edits}, {keep}, {feedback}."
        },
    )
    exposure_table: str = field(
        default="",
        metadata={
            "description": "JSON file of the governance table G(scene, intent, "
            "attribute) -> level; empty: the shipped anonygraph/data/"
            "exposure_table.json."
        },
    )
    exposure_table_inline: dict[str, Any] = field(
        default_factory=dict,
        metadata={
            "description": "The governance table itself (same shape as the file); "
            "when given it wins over `exposure_table`."
        },
    )
    intent_threshold: float = field(
        default=0.3,
        metadata={
            "description": "An intent counts in eq. 6 when its weight is at least "
            "this; below it the intent is ignored."
        },
    )
    privacy_level: str = field(
        default="",
        metadata={
            "description": "Section 5.3 knob: L0, L1, L2, L3 or BAN gives every "
            "attribute this budget, bypassing the table; empty: the table decides.",
            "choices": LEVELS,
        },
    )
    default_level: str = field(
        default="L2",
        metadata={
            "description": "Level of an attribute the table has no entry for, and "
            "of every attribute when no intent passes the threshold.",
            "choices": LEVELS,
        },
    )
    max_evidence_steps: int = field(
        default=3,
        metadata={"description": "Most steps per evidence chain."},
    )
    verify: bool = field(
        default=False,
        metadata={
            "description": "Beyond the paper: attack the rewrite again and send "
            "attributes still over budget back to the rewriter."
        },
    )
    max_verify_rounds: int = field(
        default=2,
        metadata={"description": "R: most extra rewrites the verify loop may ask for."},
    )

    PAPER_METHOD: ClassVar[str] = "intentanony"
    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            "default_model": "local",
            "intent_prompt": PAPER_INTENT_PROMPT,
            "attack_prompt": PAPER_INTENTANONY_INFER_PROMPT,
            "attack_format": "intentanony",
            "evidence_prompt": PAPER_EVIDENCE_PROMPT,
            # D.4: the model decides the granularity; no table, no span plan.
            "rewrite_prompt": PAPER_INTENTANONY_REWRITE_PROMPT,
            "intent_threshold": 0.0,
            "verify": False,
            "acceptance": False,
        }
    )
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType(
        {
            "acceptance": (True, "our acceptance checks (D.4's rewrite is taken "
                           "as the model wrote it)"),
            "verify": (True, "our verification rounds (the paper rewrites once)"),
            "attack_format": ("product", "our optional guesses (D.2's attacker "
                              "always guesses three)"),
        }
    )  # fmt: skip


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments."""


@dataclass(kw_only=True)
class OutputState(RecordOutput, ReviewLog):
    """What a run returns and the evaluator reads.

    Status: done (single pass), within_budget or over_budget (verify), or
    stopped_by_reviewer.
    """

    intents: list[dict[str, Any]] = field(default_factory=list)
    """The five `Intent`s with their weights."""

    scene: str = ""
    """The scene label s(x) the table is read with."""

    chains: list[dict[str, Any]] = field(default_factory=list)
    """One `EvidenceChain` per inferred attribute, steps marked with their action."""

    budgets: list[dict[str, Any]] = field(default_factory=list)
    """One `ExposureBudget` per protected attribute."""

    edits: list[dict[str, Any]] = field(default_factory=list)
    """The latest rewrite's `SpanEdit`s: what happened to each evidence span."""


@dataclass(kw_only=True)
class State(InputState, OutputState, IterativeState):
    """Working state of one record.

    From `IterativeState`: `current`, `round` (rewrites done: 1 + the verify
    loop's extra ones) and `inferences` (of `current` after verify).
    """

    exceeded: list[dict[str, Any]] = field(default_factory=list)
    """Attributes whose latest inference is over budget: attribute, level,
    certainty, max_certainty, guesses, reasoning."""

    def snapshot(self, **outcome: Any) -> RoundSnapshot:
        """Snapshot this rewrite (or the final text) with intents, chains, budgets."""
        return super().snapshot(
            intents=self.intents,
            scene=self.scene,
            chains=self.chains,
            budgets=self.budgets,
            exceeded=self.exceeded,
            **outcome,
        )
