"""State and run parameters of IntentAnony: intents, evidence chains, budgets."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

from anonygraph.prompts.evidence import EVIDENCE_PROMPT
from anonygraph.prompts.intent import INTENT_PROMPT
from anonygraph.prompts.rewrite import REWRITE_PROMPT
from anonygraph.state.context import ModelContext
from anonygraph.state.domain import LEVELS
from anonygraph.state.record import RecordInput, RecordOutput


@dataclass(kw_only=True)
class IntentAnonyContext(ModelContext):
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
    min_length_ratio: float = field(
        default=0.4,
        metadata={
            "description": "A rewrite shorter than this share of its input is "
            "rejected and the previous text kept."
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


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments."""


@dataclass(kw_only=True)
class OutputState(RecordOutput):
    """What a run returns and the evaluator reads.

    Status: done (single pass), within_budget or over_budget (verify).
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
class State(InputState, OutputState):
    """Working state of one record."""

    current: str = ""
    """The text as it stands after the last accepted rewrite."""

    round: Annotated[int, operator.add] = 0
    """Rewrites done so far (1 + the verify loop's extra ones)."""

    inferences: list[dict[str, Any]] = field(default_factory=list)
    """The attacker's latest `AttributeInference`s (of `current` after verify)."""

    exceeded: list[dict[str, Any]] = field(default_factory=list)
    """Attributes whose latest inference is over budget: attribute, level,
    certainty, max_certainty, guesses, reasoning."""
