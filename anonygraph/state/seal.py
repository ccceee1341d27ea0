"""State and run parameters of SEAL: trajectory synthesis and self-refinement."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BaseModel, Field

from anonygraph.prompts.evaluate import PAPER_JUDGE_PROMPT
from anonygraph.prompts.seal import (
    PAPER_SEAL_ANONYMIZE_PROMPT,
    PAPER_SEAL_INFER_PROMPT,
    PAPER_SEAL_REFINE_PROMPT,
    SEAL_ANONYMIZE_PROMPT,
    SEAL_INFER_PROMPT,
    SEAL_JUDGE_PROMPT,
)
from anonygraph.state.answers import UtilityAnswer
from anonygraph.state.context import (
    AcceptanceOptions,
    ModelContext,
)
from anonygraph.state.domain import AttributeInference
from anonygraph.state.identifiers import IdentifierOptions
from anonygraph.state.iterative import IterativeState
from anonygraph.state.record import RecordInput, RecordOutput, RoundSnapshot

SELF_REFINING_ROLES: tuple[str, ...] = ("attacker", "judge")
"""Roles the single SEAL model plays besides the anonymizer."""


class TrajectoryStep(BaseModel):
    """One state s_i = (x_i, P_i, U_i) of a SEAL anonymization trajectory."""

    index: int = Field(ge=0, description="i: position in the trajectory; 0 = x_0.")
    round: int = Field(
        default=0, ge=0, description="Rewrite attempts made before reaching x_i."
    )
    text: str = Field(description="x_i: the text in this state.")
    inferences: list[AttributeInference] = Field(
        default_factory=list,
        description="P_i: the inference model's answer for every attribute asked.",
    )
    utility: UtilityAnswer = Field(
        description="U_i: scores with explanations of x_i against x_0."
    )


@dataclass(kw_only=True)
class TrajectoryContext(ModelContext, AcceptanceOptions, IdentifierOptions):
    """Run parameters of trajectory synthesis: one teacher model per role."""

    max_iterations: int = field(
        default=3,
        metadata={"description": "T: most rewrites per text (SEAL trajectories: 3)."},
    )

    utility_feedback: bool = field(
        default=False,
        metadata={
            "description": "Show the anonymizer the utility scores of the text it "
            "edits (the teacher of Algorithm 1 sees only the inferences)."
        },
    )

    attack_prompt: str = field(
        default=SEAL_INFER_PROMPT,
        metadata={"description": "Infer template: slots {text}, {attributes}."},
    )

    judge_prompt: str = field(
        default=SEAL_JUDGE_PROMPT,
        metadata={"description": "Judge template: slots {original}, {text}."},
    )

    anonymize_prompt: str = field(
        default=SEAL_ANONYMIZE_PROMPT,
        metadata={
            "description": "Anonymize template: slots {text}, {inferences}, {utility}."
        },
    )

    PAPER_METHOD: ClassVar[str] = "seal"
    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            "default_model": "local",
            "attack_prompt": PAPER_SEAL_INFER_PROMPT,
            "attack_format": "seal",
            "anonymize_prompt": PAPER_SEAL_ANONYMIZE_PROMPT,
            "judge_prompt": PAPER_JUDGE_PROMPT,  # D.3
            "acceptance": False,
        }
    )
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType(
        {
            "acceptance": (True, "our acceptance checks (the paper takes every "
                           "rewrite as the model wrote it)"),
            "attack_format": ("product", "our optional guesses (D.2's attacker "
                              "always answers)"),
        }
    )  # fmt: skip


@dataclass(kw_only=True)
class SealContext(TrajectoryContext):
    """Run parameters of self-refinement: one model anonymizes, infers and judges.

    The anonymizer's spec (``--model anonymizer=SPEC``) is used for the attacker
    and judge roles too, unless those are named in `models` themselves; with no
    anonymizer spec, `default_model` serves all three, as in every graph.
    """

    utility_feedback: bool = field(
        default=True,
        metadata={
            "description": "Show the anonymizer its own utility scores of the text "
            "it edits, besides its own inferences."
        },
    )

    min_utility: float = field(
        default=0.0,
        metadata={
            "description": "Utility floor in [0, 1] (mean of readability/10, "
            "meaning/10 and no-hallucination): a rewrite judged below it is "
            "dropped, the previous text returned and refinement stopped; 0: off."
        },
    )

    stop_when_nothing_inferred: bool = field(
        default=True,
        metadata={
            "description": "Stop refining once the model infers nothing (off in "
            "the paper profile: results are reported at fixed iterations)."
        },
    )

    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            **TrajectoryContext.PAPER_FIELDS,
            # Section 4.3: D.1 plus the model's own utility judgement.
            "anonymize_prompt": PAPER_SEAL_REFINE_PROMPT,
            "stop_when_nothing_inferred": False,
            "min_utility": 0.0,
        }
    )
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType(
        {
            **TrajectoryContext.PAPER_REFUSES,
            "stop_when_nothing_inferred": (
                True,
                "our early stop (the paper reports fixed iterations)",
            ),
        }
    )

    def __post_init__(self) -> None:
        """Read environment fallbacks; then the anonymizer's spec plays every role."""
        super().__post_init__()
        spec = self.models.get("anonymizer")
        if spec:
            self.models = {**dict.fromkeys(SELF_REFINING_ROLES, spec), **self.models}


TrajectoryContextT = TypeVar("TrajectoryContextT", bound=TrajectoryContext)
"""Either SEAL graph's run parameters (steps both graphs share are generic in it)."""


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments."""


@dataclass(kw_only=True)
class OutputState(RecordOutput):
    """What a run returns; the store keeps all of it in records.result.

    Status: converged (nothing inferable), max_iterations or utility_floor.
    """

    trajectory: Annotated[list[dict[str, Any]], operator.add] = field(
        default_factory=list
    )
    """Every state s_i = (x_i, P_i, U_i) as `TrajectoryStep` dicts, x_0 first."""


@dataclass(kw_only=True)
class State(InputState, OutputState, IterativeState):
    """Working state of one record.

    From `IterativeState`: `current` (x_t, the text after the last accepted
    rewrite), `round` (t, rewrite attempts made) and `inferences` (P_t).
    """

    utility: dict[str, Any] = field(default_factory=dict)
    """U_t: the latest `UtilityAnswer` for `current` against the original."""

    rejected: bool = False
    """Whether the latest rewrite was refused, leaving `current` as it was."""

    def utility_score(self) -> float:
        """Return the mean utility of `current` (`UtilityScore.util`)."""
        return UtilityAnswer.model_validate(self.utility).to_score().util

    def snapshot(self, **outcome: Any) -> RoundSnapshot:
        """Snapshot this round with its utility judgement U_t."""
        return super().snapshot(utility=self.utility, **outcome)
