"""Context of the evaluator: how one text is scored for privacy and utility."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from anonygraph.llm.decoding import (
    PAPER_DECODING,
    ROLE_DECODING,
    DecodingTable,
    with_overrides,
)
from anonygraph.prompts.adversary import PAPER_RLAA_ATTACK_PROMPT
from anonygraph.prompts.evaluate import (
    JUDGE_PROMPT,
    PAPER_ATTACK_PROMPT,
    PAPER_JUDGE_PROMPT,
    PAPER_VALIDATE_PROMPT,
)
from anonygraph.prompts.seal import PAPER_SEAL_INFER_PROMPT, PAPER_SEAL_VALIDATE_PROMPT
from anonygraph.state.context import ModelContext, SearchOptions

PROTOCOLS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        # RLAA 4.1: one best guess per key, exact correctness only (how
        # equality is decided is not said: the rules decide, no validator).
        "rlaa": {
            "attack_prompt": PAPER_RLAA_ATTACK_PROMPT,
            "attack_format": "rlaa",
            "validator": False,
            "less_precise_score": 0.0,
        },
        # SEAL 5.1, A.1, D.2-D.4: one guess (null allowed), GPT-4.1 validator,
        # less precise occupation, place of birth and location score 0.5.
        "seal": {
            "attack_prompt": PAPER_SEAL_INFER_PROMPT,
            "attack_format": "seal",
            "validator": True,
            "validate_prompt": PAPER_SEAL_VALIDATE_PROMPT,
            # A.1: labels mapped to its categories, age within 5 years by
            # midpoint, categories by equality, free text by the validator.
            "matcher": "seal",
            "less_precise_score": 0.5,
            "less_precise_attributes": [
                "occupation",
                "birth_city_country",
                "city_country",
            ],
        },
        # IntentAnony 5.1, D.2, D.5, D.6: three forced guesses and a certainty,
        # DeepSeek validator at temperature 0; less precise is not scored.
        "intentanony": {
            "attack_prompt": PAPER_ATTACK_PROMPT,
            "attack_format": "intentanony",
            "validator": True,
            "validate_prompt": PAPER_VALIDATE_PROMPT,
            "less_precise_score": 0.0,
            # 5.5: intent preservation (Intent Overlap, Stability F1).
            "intents": True,
        },
        # DP-Embed 4.2: gold-PII leak, raw MiniLM similarity, length ratio and
        # seconds per example; no attacker and no judge.
        "dp-embed": {"attack": False, "judge": False, "validator": False},
        # AURA 'Benchmarks': a web-search agent names the interviewee (counted
        # against the known identity); utility is the facts a reader recovers.
        "aura": {"judge": False, "validator": False},
    }
)
"""The papers' evaluation protocols: field -> value, set under ``profile=paper``
where the user gave none (besides the papers' judge prompt and
semantic similarity, which all three share)."""

ADVERSARY_GOAL = (
    "find out who wrote this text: the person, their online profile or page, "
    "and their personal attributes."
)


@dataclass(kw_only=True)
class EvalContext(ModelContext, SearchOptions):
    """Parameters of an evaluation; web search is off unless a backend is named."""

    attack: bool = field(
        default=True,
        metadata={
            "description": "Infer the author's attributes with the attacker model; "
            "off: text metrics only (DP-Embed's protocol)."
        },
    )
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
    intents: bool = field(
        default=False,
        metadata={
            "description": "Also compare the intents (IntentAnony D.1) of the "
            "original and the rewrite: Intent Overlap and Stability F1 (5.5)."
        },
    )
    judge_prompt: str = field(
        default=JUDGE_PROMPT,
        metadata={"description": "Judge template: slots {original}, {text}."},
    )
    protocol: str = field(
        default="intentanony",
        metadata={
            "description": "Under profile=paper, whose evaluation protocol: rlaa "
            "(one guess, exact only), seal (one guess, less precise = 0.5 for "
            "occupation/birthplace/location, validator) or intentanony (three "
            "forced guesses, validator), dp-embed (no attacker or judge: "
            "gold-PII leak, similarity, length ratio) or aura (re-identification "
            "by a searching adversary, facts recovered). The product profile "
            "ignores it.",
            "choices": tuple(PROTOCOLS),
        },
    )
    validate_prompt: str = field(
        default="",
        metadata={
            "description": "Validator template; empty: ours (one pair: {attribute}, "
            "{truth}, {guess}); a paper's takes {pairs}."
        },
    )
    matcher: str = field(
        default="product",
        metadata={
            "description": "Rules that score guesses: product (ours) or seal "
            "(SEAL A.1: label categories, age within 5 years by midpoint, exact "
            "categories, occupation and places by the validator).",
            "choices": ("product", "seal"),
        },
    )
    less_precise_score: float = field(
        default=0.0,
        metadata={
            "description": "What a less precise guess scores in PRIV (SEAL: 0.5; "
            "0: only correct guesses count)."
        },
    )
    less_precise_attributes: list[str] = field(
        default_factory=list,
        metadata={
            "description": "Attributes whose less precise guesses score "
            "less_precise_score; empty: every attribute."
        },
    )

    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {"judge_prompt": PAPER_JUDGE_PROMPT, "semantic": True}
    )

    def __post_init__(self) -> None:
        """Apply the profile and the chosen paper protocol, then check them.

        Raises:
            ValueError: for an unknown protocol (or as `ModelContext`).
        """
        super().__post_init__()
        if self.protocol not in PROTOCOLS:
            raise ValueError(
                f"protocol {self.protocol!r}: choose one of {', '.join(PROTOCOLS)}"
            )
        if self.matcher not in ("product", "seal"):
            raise ValueError(f"matcher {self.matcher!r}: choose product or seal")
        offline = self.search_backend == "offline" and not (
            self.search_index or self.search_corpus
        )
        if (
            self.paper
            and self.protocol == "aura"
            and (not self.search_backend or offline)
        ):
            raise ValueError(
                "AURA's evaluation re-identifies with a web-search agent: give "
                "the adversary a search backend, offline with --search-index or "
                "--search-corpus, or ddgs/tavily with --allow-web"
            )

    def apply_paper(self, given: frozenset[str]) -> None:
        """Set the paper's values, then the protocol's, on the fields not given."""
        super().apply_paper(given)
        chosen = PROTOCOLS.get(self.protocol, {})  # an unknown one is refused next
        for name, value in chosen.items():
            if name not in given:
                setattr(self, name, list(value) if isinstance(value, list) else value)

    def decoding_table(self) -> DecodingTable:
        """Return the protocol's per-role decoding (paper) with the overrides."""
        base = PAPER_DECODING.get(self.protocol, ROLE_DECODING)
        return with_overrides(base if self.paper else ROLE_DECODING, self.decoding)

    def scores_less_precise(self, attribute: str) -> float:
        """What a less precise guess on ``attribute`` scores."""
        listed = self.less_precise_attributes
        return self.less_precise_score if not listed or attribute in listed else 0.0
