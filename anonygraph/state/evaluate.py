"""State and context of the evaluator: one text scored for privacy and utility."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

from anonygraph.prompts.evaluate import JUDGE_PROMPT
from anonygraph.state.context import ModelContext, SearchOptions
from anonygraph.state.search_agent import SearchLog, SearchTrace

ADVERSARY_GOAL = (
    "find out who wrote this text: the person, their online profile or page, "
    "and their personal attributes."
)


@dataclass(kw_only=True)
class EvalContext(ModelContext, SearchOptions):
    """Parameters of an evaluation; web search is off unless a backend is named."""

    judge: bool = field(
        default=True, metadata={"description": "Score utility with the judge model."}
    )
    validator: bool = field(
        default=False,
        metadata={
            "description": "Ask the validator model about guesses the matching "
            "rules cannot decide (yes / no / less precise)."
        },
    )
    semantic: bool = field(
        default=False,
        metadata={"description": "Also compute embedding similarity (MiniLM)."},
    )
    search_index: str = field(
        default="",
        metadata={
            "description": "Offline backend: the index file; `anonygraph eval` "
            "keeps it beside the run store (STORE.search-index) when empty."
        },
    )
    search_goal: str = field(
        default=ADVERSARY_GOAL,
        metadata={"description": "What the web-search adversary is after."},
    )
    judge_prompt: str = field(
        default=JUDGE_PROMPT,
        metadata={"description": "Judge template: slots {original}, {text}."},
    )


@dataclass(kw_only=True)
class InputState:
    """One text to score, with its original and ground truth."""

    text: str = ""
    """The text to score (an anonymized version, or the original itself)."""

    original: str = ""
    """The original text, reference for utility; empty: `text` is the original."""

    labels: dict[str, Any] = field(default_factory=dict)
    """Ground-truth attribute values; attributes without one are skipped."""

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
