"""State and run parameters of AURA: probe, masking convergence, reconstruction."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from anonygraph.prompts.anonymizer import ANONYMIZE_PROMPT
from anonygraph.prompts.aura import (
    PRIVACY_PROMPT,
    PROBE_GOAL,
    PROFILE_PROMPT,
    RECONSTRUCT_PROMPT,
    SCOPE_PROMPT,
    UTILITY_PROMPT,
)
from anonygraph.state.context import ModelContext, SearchOptions
from anonygraph.state.record import RecordInput, RecordOutput

VARIANTS: tuple[str, ...] = ("adaptive", "8attr", "pure")
"""adaptive: base attributes + what the probe finds; 8attr: base attributes, no
probe; pure: only what the probe finds."""


@dataclass(kw_only=True)
class AuraContext(ModelContext, SearchOptions):
    """Run parameters of AURA; the probe searches an offline corpus unless told."""

    variant: str = field(
        default="adaptive",
        metadata={
            "description": "Privacy scope: adaptive (base attributes + what the "
            "probe finds), 8attr (base attributes, no probe) or pure (only what "
            "the probe finds).",
            "choices": VARIANTS,
        },
    )
    num_candidates: int = field(
        default=3,
        metadata={"description": "N: candidate reconstructions of the template."},
    )
    mask_rounds: int = field(
        default=3,
        metadata={"description": "R_mask: most infer-and-rewrite masking rounds."},
    )
    max_specific: int = field(
        default=1,
        metadata={
            "description": "C_max: candidates with at most this many identifying "
            "details are preferred; among them the lowest (S, L) wins."
        },
    )
    min_certainty: int = field(
        default=1,
        metadata={
            "description": "An attribute counts as inferable in a masking round "
            "when the attacker guesses it with at least this certainty (1-5; 1: "
            "any guess)."
        },
    )
    max_findings: int = field(
        default=6,
        metadata={"description": "Most findings the probe may report."},
    )
    min_length_ratio: float = field(
        default=0.4,
        metadata={
            "description": "A masking rewrite shorter than this share of its "
            "input is rejected and the previous text kept."
        },
    )
    search_backend: str = field(
        default="offline",
        metadata={
            "description": "Probe search: offline (searches only when "
            "search_index or search_corpus is set), ddgs or tavily (need "
            "allow_web); empty: the probe reads the text alone."
        },
    )
    search_goal: str = field(
        default=PROBE_GOAL,
        metadata={"description": "What the probe's search loop looks for."},
    )
    query_max_words: int = field(
        default=6,
        metadata={"description": "Most keywords a probe query may send."},
    )
    query_max_copy: int = field(
        default=4,
        metadata={
            "description": "A probe query repeating more consecutive words of "
            "the text than this is not sent."
        },
    )
    scope_prompt: str = field(
        default=SCOPE_PROMPT,
        metadata={
            "description": "Probe template: slots {text}, {notes}, {prior}, "
            "{max_findings}."
        },
    )
    profile_prompt: str = field(
        default=PROFILE_PROMPT,
        metadata={"description": "Utility profile template: {text}, {dimensions}."},
    )
    anonymize_prompt: str = field(
        default=ANONYMIZE_PROMPT,
        metadata={"description": "Masking rewrite template: {text}, {feedback}."},
    )
    reconstruct_prompt: str = field(
        default=RECONSTRUCT_PROMPT,
        metadata={
            "description": "Reconstructor template: {template}, {seeds}, {scope}, "
            "{profile}, {variation}."
        },
    )
    privacy_prompt: str = field(
        default=PRIVACY_PROMPT,
        metadata={"description": "Candidate attacker template: {text}, {scope}."},
    )
    utility_prompt: str = field(
        default=UTILITY_PROMPT,
        metadata={"description": "Candidate keeper template: {profile}, {text}."},
    )

    def __post_init__(self) -> None:
        """Read environment fallbacks, then refuse settings AURA cannot run with.

        Raises:
            ValueError: naming the field and the values it takes.

        """
        super().__post_init__()
        if self.variant not in VARIANTS:
            raise ValueError(
                f"unknown AURA variant {self.variant!r}; use {', '.join(VARIANTS)}"
            )
        if self.num_candidates < 1:
            raise ValueError("num_candidates (N) must be at least 1")
        if self.mask_rounds < 0 or self.max_specific < 0:
            raise ValueError("mask_rounds and max_specific may not be negative")


def merge_candidates(
    left: list[dict[str, Any]], right: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Merge candidate updates by ``index``: a check or a score adds its fields.

    Returns a new list ordered by index; neither input is changed.
    """
    merged = {entry["index"]: dict(entry) for entry in left}
    for entry in right:
        merged[entry["index"]] = {**merged.get(entry["index"], {}), **entry}
    return [merged[index] for index in sorted(merged)]


class CandidateTask(TypedDict):
    """What one fanned-out reconstruction or scoring step is sent (via `Send`)."""

    index: int
    """Which candidate, from 0."""

    variation: str
    """The wording hint the reconstructor gets."""

    text: str
    """The candidate text to score ('' before reconstruction)."""

    template: dict[str, Any]
    """The `MaskTemplate` to fill."""

    scope: list[dict[str, Any]]
    """The privacy scope A (`ScopeItem`s)."""

    profile: dict[str, str]
    """The utility insight profile P."""


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments.

    `attributes` are the base attributes; the probe extends them into A.
    """


@dataclass(kw_only=True)
class OutputState(RecordOutput):
    """What a run returns: the text, the artifacts of each phase, the choice.

    Status: selected (a candidate won), no_masks (nothing to reconstruct: the
    converged text) or no_valid_candidate (all rejected: the converged text).
    `iterations` holds every masking round: text attacked, inferences, policy,
    rewrite.
    """

    scope: list[dict[str, Any]] = field(default_factory=list)
    """A: the `ScopeItem`s the masking rounds protect."""

    scope_source: str = ""
    """fixed (8attr), probe (the probe found clues) or fallback (it found none)."""

    blacklist: list[dict[str, Any]] = field(default_factory=list)
    """B: `BlacklistSpan`s, evidence quotes the probe gave and code found."""

    profile: dict[str, str] = field(default_factory=dict)
    """P: the utility insight per dimension (theme ... expertise)."""

    probe_match: str = ""
    """The page the probe's searches traced the author to; '' if none."""

    search_log: Annotated[list[dict[str, Any]], operator.add] = field(
        default_factory=list
    )
    """Every query the probe sent, with its backend and the results read."""

    mask_status: str = ""
    """converged (nothing in A leaks) or max_rounds (R_mask reached)."""

    template: dict[str, Any] = field(default_factory=dict)
    """The `MaskTemplate`: text with [MASK_i], mask map and seeds."""

    candidates: Annotated[list[dict[str, Any]], merge_candidates] = field(
        default_factory=list
    )
    """Every `Candidate`: replacements, text, rejection reasons, S, C and L."""

    choice: dict[str, Any] = field(default_factory=dict)
    """The selection: index (None: none valid), rule and the reason in words."""


@dataclass(kw_only=True)
class State(InputState, OutputState):
    """Working state of one record."""

    current: str = ""
    """The text as the masking rounds left it (the converged text at the end)."""

    custom_attributes: dict[str, str] = field(default_factory=dict)
    """Scope attributes beyond the base ones, name -> description (attack reads
    them)."""

    next_query: str = ""
    """The search the probe asked for next; empty when it stopped."""

    round: Annotated[int, operator.add] = 0
    """Masking rewrites done so far."""

    inferences: list[dict[str, Any]] = field(default_factory=list)
    """The attacker's latest `AttributeInference`s over A."""

    verdicts: list[dict[str, Any]] = field(default_factory=list)
    """Always empty: AURA has no arbitrator (shared round snapshots read it)."""

    policy: list[dict[str, Any]] = field(default_factory=list)
    """The latest `PolicyItem`s handed to the masking rewriter."""
