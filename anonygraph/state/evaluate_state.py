"""The state the evaluator's graph carries for one text (LangGraph reducers included).

Kept apart from `anonygraph.state.evaluate`, which holds `EvalContext`: the
command line reads that `Context` for ``eval``'s flags, and this module's
search trace imports LangGraph.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

from anonygraph.state.search_agent import SearchLog, SearchTrace


@dataclass(kw_only=True)
class InputState:
    """One text to score, with its original and ground truth."""

    text: str = ""
    """The text to score (an anonymized version, or the original itself)."""

    original: str = ""
    """The original text, reference for utility; empty: `text` is the original."""

    labels: dict[str, Any] = field(default_factory=dict)
    """Ground-truth attribute values; attributes without one are skipped."""

    gold_pii: list[str] = field(default_factory=list)
    """PII strings known to be in the original (DP-Embed's leak metric)."""

    identity: list[str] = field(default_factory=list)
    """Who wrote the original: pages or names (AURA's re-identification)."""

    facts: dict[str, list[str]] = field(default_factory=dict)
    """AURA's utility facts of the original: ``profile`` and ``codebook``."""

    grid_units: list[list[int]] = field(default_factory=list)
    """AURA's (profile fact, codebook fact) index pairs; empty: every pair."""

    hardness: dict[str, int] = field(default_factory=dict)
    """Label hardness per attribute, where the data has it."""

    attributes: list[str] = field(default_factory=list)
    """Attributes to attack; empty: the run's attributes."""


@dataclass(kw_only=True)
class OutputState(SearchLog):
    """Scores of one text."""

    inferences: list[dict[str, Any]] = field(default_factory=list)
    """The attacker's `AttributeInference`s."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    """Each inference judged against its label (`AttributeMatch`)."""

    utility: dict[str, Any] = field(default_factory=dict)
    """The judge's `UtilityScore` plus `util`; empty when not judged."""

    metrics: dict[str, Any] = field(default_factory=dict)
    """ROUGE-L F1 and BLEU against the original (and semantic similarity)."""

    identified_profile: str = ""
    """The page or profile the web-search adversary traced the author to."""

    facts_recovered: dict[str, list[bool | None]] = field(default_factory=dict)
    """Per fact level, whether each fact can still be recovered (None: the
    checker gave no answer for it)."""

    calls: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """Accounting of every model call."""

    errors: Annotated[list[str], operator.add] = field(default_factory=list)
    """Problems that did not stop the evaluation."""


@dataclass(kw_only=True)
class State(InputState, OutputState, SearchTrace):
    """Working state of one evaluation.

    From `SearchTrace`: what the adversary's search agent left (`search_log`,
    its conversation, a tool refusal).
    """

    current: str = ""
    """The text under attack (the search agent investigates it too)."""
