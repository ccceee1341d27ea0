"""AURA's types and run parameters: probe, masking, reconstruction."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from anonygraph.prompts.adversary import ANONYMIZE_PROMPT
from anonygraph.prompts.aura import (
    PRIVACY_PROMPT,
    PROBE_GOAL,
    PROFILE_PROMPT,
    RECONSTRUCT_PROMPT,
    SCOPE_PROMPT,
    UTILITY_PROMPT,
)
from anonygraph.state.context import (
    SEARCH_BACKENDS,
    AcceptanceOptions,
    ModelContext,
    ReviewOptions,
    SearchOptions,
)
from anonygraph.state.identifiers import IdentifierOptions

QuasiKind = Literal[
    "personal", "workflow", "tool_stack", "domain_practice", "institution", "other"
]
"""What a probe finding is: a personal attribute or a kind of quasi-identifier."""

UTILITY_DIMENSIONS: dict[str, str] = {
    "theme": "what the text is about",
    "experiential": "events and experiences the author recounts",
    "affect": "feelings, mood and tone",
    "reasoning": "arguments, explanations and motives given",
    "behavioral": "habits, routines and actions described",
    "relational": "people and relationships that matter in the text",
    "temporal": "timing, durations and sequence of events",
    "expertise": "skills and knowledge the author shows",
}
"""The eight dimensions of AURA's utility insight profile P."""

UTILITY_VERDICTS: dict[str, float] = {"kept": 0.0, "partly": 0.5, "lost": 1.0}
"""Loss each keeper verdict on one profile dimension counts for."""


class ScopeItem(BaseModel):
    """One attribute of AURA's privacy scope A."""

    name: str = Field(description="Key the attacker answers under, e.g. 'age'.")
    description: str = Field(description="What the attribute means, shown to models.")
    source: Literal["base", "probe", "fallback"] = Field(
        description="base: a default attribute; probe: found by the probe; "
        "fallback: a default attribute taken because the probe found nothing."
    )
    kind: str = Field(default="personal", description="A `QuasiKind`.")


class BlacklistSpan(BaseModel):
    """One span of the blacklist B: words of the original that give the author away."""

    quote: str = Field(description="The words, exactly as they stand in the text.")
    attribute: str = Field(description="Scope attribute the words reveal.")
    kind: str = Field(default="personal", description="A `QuasiKind`.")


class MaskSpan(BaseModel):
    """One placeholder of a mask template and what stood and stands there."""

    placeholder: str = Field(description="The placeholder, e.g. '[MASK_1]'.")
    original: str = Field(description="The span of the original it hides.")
    seed: str = Field(
        description="What the converged rewrite put there; '' when it dropped it."
    )
    start: int = Field(description="Offset of the placeholder in the template.")
    end: int = Field(description="Offset just past the placeholder in the template.")
    original_start: int = Field(description="Offset of the span in the original.")
    original_end: int = Field(description="Offset just past the span in the original.")


class MaskTemplate(BaseModel):
    """The original text with every span the masking rounds changed masked."""

    text: str = Field(description="The template, with [MASK_i] placeholders.")
    masks: list[MaskSpan] = Field(
        default_factory=list, description="The placeholders, in text order."
    )

    @property
    def mask_map(self) -> dict[str, str]:
        """Placeholder -> the original span it hides (M)."""
        return {m.placeholder: m.original for m in self.masks}

    @property
    def seeds(self) -> dict[str, str]:
        """Placeholder -> what the converged rewrite put there."""
        return {m.placeholder: m.seed for m in self.masks}


class Candidate(BaseModel):
    """One reconstruction of a mask template, with its checks and scores."""

    index: int = Field(description="Which of the N candidates, from 0.")
    variation: str = Field(default="", description="Wording hint it was asked for.")
    replacements: dict[str, str] = Field(
        default_factory=dict, description="Placeholder -> the words filled in."
    )
    text: str = Field(default="", description="The template filled with them.")
    rejected: list[str] | None = Field(
        default=None,
        description="Why it may not be chosen; [] when valid; None unchecked.",
    )
    severity: int | None = Field(
        default=None, description="S: privacy severity 0-5 by the attacker."
    )
    specific: int | None = Field(
        default=None, description="C: identifying details found in the text."
    )
    details: list[str] = Field(
        default_factory=list, description="Those details, as they stand in the text."
    )
    privacy_notes: str = Field(default="", description="The attacker's reasoning.")
    loss: float | None = Field(
        default=None, description="L: utility loss in [0, 1] against the profile."
    )
    dimensions: dict[str, str] = Field(
        default_factory=dict, description="Keeper verdict per profile dimension."
    )

    @property
    def scored(self) -> bool:
        """True when valid and both scorers have answered."""
        return self.rejected == [] and None not in (
            self.severity,
            self.specific,
            self.loss,
        )


VARIANTS: tuple[str, ...] = ("adaptive", "8attr", "pure")
"""adaptive: base attributes + what the probe finds; 8attr: base attributes, no
probe; pure: only what the probe finds."""


@dataclass(kw_only=True)
class AuraContext(
    ModelContext, AcceptanceOptions, SearchOptions, ReviewOptions, IdentifierOptions
):
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
    blacklist_in_masking: bool = field(
        default=True,
        metadata={
            "description": "Let the probe's blacklist B drive masking: its spans "
            "join the rewriter's policy and a standing span keeps masking going "
            "(off in the paper profile: the page gives B no role there, so "
            "masking stops when nothing in A is inferred)."
        },
    )
    max_findings: int = field(
        default=6,
        metadata={"description": "Most findings the probe may report."},
    )
    search_backend: str = field(
        default="offline",
        metadata={
            "description": "Probe search: offline (searches only when "
            "search_index or search_corpus is set), ddgs or tavily (need "
            "allow_web); empty: the probe reads the text alone.",
            "choices": SEARCH_BACKENDS,
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
        offline = self.search_backend == "offline" and not (
            self.search_index or self.search_corpus
        )
        if self.paper and (not self.search_backend or offline):
            raise ValueError(
                "AURA's paper profile starts with a web-search probe (phase 0): "
                "give it a search backend, offline with --search-index or "
                "--search-corpus, or ddgs/tavily with --allow-web"
            )

    PAPER_METHOD: ClassVar[str] = "aura"
    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        # Candidates are chosen by S, C and L alone; masking rewrites are taken.
        {"acceptance": False, "blacklist_in_masking": False}
    )
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType(
        {
            "acceptance": (True, "our acceptance checks (candidates are chosen "
                           "by S, C and L alone)"),
            "blacklist_in_masking": (True, "our blacklist-driven masking (the "
                                     "paper gives B no role there)"),
        }
    )  # fmt: skip
