"""The state AURA's graph carries for one record (LangGraph reducers included).

Kept apart from `anonygraph.state.aura`, which holds AURA's `AuraContext` and
answer types: the command line reads that `Context` for its flags, and this
module's search trace imports LangGraph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from anonygraph.prompts.aura import VARIATIONS
from anonygraph.state.aura import AuraContext
from anonygraph.state.iterative import AdversaryState
from anonygraph.state.record import RecordInput, RecordOutput
from anonygraph.state.review import ReviewLog
from anonygraph.state.search_agent import SearchLog, SearchTrace


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
class OutputState(RecordOutput, SearchLog, ReviewLog):
    """What a run returns: the text, the artifacts of each phase, the choice.

    Status: selected (a candidate won), no_masks (nothing to reconstruct: the
    converged text), no_valid_candidate (all rejected: the converged text)
    or stopped_by_reviewer (a reviewer stopped it: the converged text).
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
class State(InputState, OutputState, AdversaryState, SearchTrace):
    """Working state of one record.

    From `AdversaryState`: `current` (the text as the masking rounds left it;
    the converged text at the end), `round` (masking rewrites done), the
    attacker's latest `inferences` over A and the `policy` handed to the masking
    rewriter (its `verdicts` stay empty: AURA has no arbitrator). From
    `SearchTrace`: what the probe's search agent left (`search_log`, its
    conversation, a tool refusal).
    """

    custom_attributes: dict[str, str] = field(default_factory=dict)
    """Scope attributes beyond the base ones, name -> description (the masking
    attack reads them)."""

    def masking_blacklist(self, context: AuraContext) -> list[dict[str, Any]]:
        """Return the blacklist the masking rounds act on (none in the paper's)."""
        return self.blacklist if context.blacklist_in_masking else []


def candidate_task(state: State, index: int, text: str = "") -> CandidateTask:
    """Build what a fanned-out step for candidate ``index`` is sent."""
    return CandidateTask(
        index=index,
        variation=VARIATIONS[index % len(VARIATIONS)],
        text=text,
        template=state.template,
        scope=state.scope,
        profile=state.profile,
    )
