"""Run parameters every graph reads through ``runtime.context``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Protocol, TypeVar, get_args

from anonygraph.attributes import DEFAULT_ATTRIBUTES
from anonygraph.llm.decoding import (
    PAPER_DECODING,
    ROLE_DECODING,
    DecodingTable,
    with_overrides,
)
from anonygraph.prompts.adversary import (
    ANONYMIZE_PROMPT,
    ARBITRATE_PROMPT,
    ATTACK_PROMPT,
    PAPER_FGAA_ANONYMIZE_PROMPT,
    PAPER_RLAA_ANONYMIZE_PROMPT,
    PAPER_RLAA_ARBITRATE_PROMPT,
    PAPER_RLAA_ATTACK_PROMPT,
)
from anonygraph.prompts.search_agent import SEARCH_AGENT_PROMPT, SEARCH_STEP_PROMPT
from anonygraph.state.identifiers import IdentifierOptions
from anonygraph.state.profile import ProfileError, fields_given
from anonygraph.tools.acceptance import AcceptanceThresholds

_LIMITS = AcceptanceThresholds()

CACHE_MODES: tuple[str, ...] = ("off", "deterministic", "all")
"""Which model calls the cache serves."""

SERVER_FIELDS: tuple[str, ...] = (
    "server_retries",
    "server_backoff",
    "server_max_backoff",
    "request_timeout",
    "endpoint_limit",
)
"""`ModelContext` fields on how model servers are asked: they change how a run
talks to its servers, never its results, so a run resumed with other values is
the same run."""

SEARCH_MODES: tuple[str, ...] = ("auto", "tools", "structured")
"""How a search agent runs: native tool calls, or one structured answer per step."""

PROFILES: tuple[str, ...] = ("product", "paper")
"""product: our defaults (checks, cue injection); paper: each method as its paper
wrote it (docs/paper_profiles.md)."""

ATTACK_FORMATS: tuple[str, ...] = ("product", "rlaa", "seal", "intentanony")
"""Attacker answer formats: ours (a guess may be left empty), or a paper's."""

SearchBackendName = Literal["offline", "ddgs", "tavily"]
"""Search backends a run can name; the last two send queries off the machine."""

SEARCH_BACKENDS: tuple[str, ...] = ("", *get_args(SearchBackendName))
"""Values of ``search_backend``: a backend, or empty for no search."""


@dataclass(kw_only=True)
class ModelContext:
    """Parameters every graph shares: models, attributes, retries, cache."""

    default_model: str = field(
        default="local",
        metadata={
            "description": "Model spec for every role not named in `models`: local, "
            "llamacpp:PATH, ollama:NAME[@URL], openai:NAME[@URL] or hf:ID."
        },
    )

    models: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "description": "Role -> model spec, e.g. {'attacker': 'ollama:qwen2.5'}."
        },
    )

    attributes: list[str] = field(
        default_factory=lambda: list(DEFAULT_ATTRIBUTES),
        metadata={"description": "Attributes to protect (and attack)."},
    )

    max_retries: int = field(
        default=2,
        metadata={
            "description": "Extra tries when a structured answer does not parse."
        },
    )

    max_chars: int = field(
        default=20_000,
        metadata={"description": "Longest text accepted, in characters."},
    )

    cache_mode: str = field(
        default="deterministic",
        metadata={
            "description": "Which calls the cache serves: off, deterministic "
            "(temperature 0) or all.",
            "choices": CACHE_MODES,
        },
    )

    server_retries: int = field(
        default=4,
        metadata={
            "description": "Model servers: tries again after a refused connection, "
            "a timeout, 429 or 5xx, with backoff; then the record fails naming the "
            "server (env ANONYGRAPH_SERVER_RETRIES)."
        },
    )

    server_backoff: float = field(
        default=1.0,
        metadata={
            "description": "Model servers: seconds before the first retry, doubled "
            "each time (a Retry-After header waits longer) "
            "(env ANONYGRAPH_SERVER_BACKOFF)."
        },
    )

    server_max_backoff: float = field(
        default=30.0,
        metadata={
            "description": "Model servers: longest wait between retries, seconds "
            "(env ANONYGRAPH_SERVER_MAX_BACKOFF)."
        },
    )

    request_timeout: float = field(
        default=300.0,
        metadata={
            "description": "Model servers: seconds one request may take before it "
            "counts as timed out (env ANONYGRAPH_REQUEST_TIMEOUT)."
        },
    )

    endpoint_limit: int = field(
        default=4,
        metadata={
            "description": "Model servers named as URL1,URL2: requests at once per "
            "server from this process (env ANONYGRAPH_ENDPOINT_LIMIT)."
        },
    )

    attack_prompt: str = field(
        default=ATTACK_PROMPT,
        metadata={"description": "Attacker template: slots {text}, {attributes}."},
    )

    profile: str = field(
        default="product",
        metadata={
            "description": "product: our defaults; paper: the method as its paper "
            "wrote it (its prompts, decoding per role, loop rules; no acceptance "
            "checks, no cue injection, forced guesses). It fills the fields not "
            "given; a given one is kept, or refused where the paper cannot take "
            "it (rules as a role, our checks switched on).",
            "choices": PROFILES,
        },
    )

    decoding: list[str] = field(
        default_factory=list,
        metadata={
            "description": "Per-role decoding over the profile's table: "
            "ROLE.KEY=VALUE with KEY temperature, top_p or max_tokens, e.g. "
            "attacker.temperature=0.1,anonymizer.max_tokens=1024."
        },
    )

    attack_format: str = field(
        default="product",
        metadata={
            "description": "Attacker answer: product (guesses may be empty) or a "
            "paper's forced guesses: rlaa (one per key), seal (one, null "
            "allowed), intentanony (three per attribute).",
            "choices": ATTACK_FORMATS,
        },
    )

    PAPER_METHOD: ClassVar[str] = ""
    """The method whose paper the paper profile follows ('' for none)."""

    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Field -> value the paper profile sets where the user gave none. A
    ``default_model`` here means every role of the paper is a model: a role
    given as ``rules`` is refused."""

    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType({})
    """Field -> (value, what it adds): a given value the paper profile refuses,
    since it adds a step of ours that the paper does not have."""

    @property
    def paper(self) -> bool:
        """Tell whether this run follows the paper (``profile == 'paper'``)."""
        return self.profile == "paper"

    def decoding_table(self) -> DecodingTable:
        """Return the profile's per-role decoding with the run's overrides."""
        base = PAPER_DECODING.get(self.PAPER_METHOD, ROLE_DECODING)
        return with_overrides(base if self.paper else ROLE_DECODING, self.decoding)

    def __post_init__(self) -> None:
        """Read ANONYGRAPH_<FIELD> variables, then apply the profile.

        A context built by `from_given` knows which fields the user gave: the
        profile fills only the others. Built directly (Studio's form, a Python
        caller), a field at its default counts as not given.

        Raises:
            ValueError: for an unknown profile or a malformed decoding override.
            ProfileError: for a given value the profile cannot honour.
        """
        given = self._read_environment(fields_given())
        if self.profile not in PROFILES:
            raise ValueError(
                f"profile {self.profile!r}: choose one of {', '.join(PROFILES)}"
            )
        if self.paper:
            self.apply_paper(given)
        self.decoding_table()  # a malformed override fails here, before any call

    def apply_paper(self, given: frozenset[str]) -> None:
        """Set the paper's values on the fields not given; refuse what it cannot take.

        Raises:
            ProfileError: naming the first given value `paper_conflict` finds.
        """
        for name, value in self.PAPER_FIELDS.items():
            if name not in given:
                setattr(self, name, value)
        conflict = self.paper_conflict({name: getattr(self, name) for name in given})
        if conflict is not None:
            raise conflict

    @classmethod
    def paper_conflict(cls, given: Mapping[str, Any]) -> ProfileError | None:
        """Return the refusal of a given value the paper profile cannot honour.

        Two kinds: a role played by ``rules`` where the paper profile names a
        model for every role (rules do not answer the paper's prompts), and a
        `PAPER_REFUSES` value, which adds a step of ours the paper lacks. Any
        other given value (a model, T, decoding, a prompt) is the user's
        choice and is honoured. None: nothing to refuse.
        """
        if cls.PAPER_FIELDS.get("default_model"):
            from anonygraph.llm.registry import answers_from_cues

            roles = [("default_model", "", given.get("default_model"))]
            models = dict(given.get("models") or {})
            roles += [("models", role, spec) for role, spec in models.items()]
            for name, role, spec in roles:
                if spec and answers_from_cues(str(spec)):
                    return ProfileError(
                        "paper",
                        name,
                        spec,
                        "cannot play the paper's roles (rules do not answer its "
                        "prompts)",
                        role=role,
                        example="local",
                    )
        for name, (value, why) in cls.PAPER_REFUSES.items():
            if name in given and given[name] == value:
                return ProfileError("paper", name, value, f"adds {why}")
        return None

    def _read_environment(self, given: frozenset[str] | None) -> frozenset[str]:
        """Set each field not given from its variable; return the fields given.

        ``given`` None (no record): a field at its default counts as not given.
        A field set from the environment counts as given (the user's choice).
        """
        for f in fields(self):
            env = os.environ.get(f"ANONYGRAPH_{f.name.upper()}")
            unset = (
                getattr(self, f.name) == _default_of(f)
                if given is None
                else f.name not in given
            )
            if env is None or not unset:
                continue
            if f.type in ("int", int):
                setattr(self, f.name, int(env))
            elif f.type in ("float", float):
                setattr(self, f.name, float(env))
            elif f.type in ("bool", bool):
                setattr(self, f.name, env.lower() in ("1", "true", "yes"))
            elif f.type in ("str", str):
                setattr(self, f.name, env)
            else:
                continue
            given = None if given is None else given | {f.name}
        if given is not None:
            return given
        return frozenset(
            f.name for f in fields(self) if getattr(self, f.name) != _default_of(f)
        )


@dataclass(kw_only=True)
class ReviewOptions:
    """Human review before a proposal is applied (RLAA, FgAA, IntentAnony, AURA)."""

    review: bool = field(
        default=False,
        metadata={
            "description": "Pause for a person to approve, edit or stop each "
            "proposal before it is applied (policy, budgets, candidate); needs a "
            "checkpointer: batch runs leave records waiting for `anonygraph review`."
        },
    )


@dataclass(kw_only=True)
class AcceptanceOptions:
    """Checks a model's rewrite must pass before it replaces the text.

    Every rewriting step reads these (`anonygraph.tools.acceptance`); a refused
    rewrite is asked again with the reason, then the text stays as it was.
    """

    min_length_ratio: float = field(
        default=_LIMITS.min_length_ratio,
        metadata={
            "description": "A rewrite shorter than this share of its input is "
            "refused: generalizing details shortens a text by a few words, a "
            "rewrite at 40 % dropped content."
        },
    )
    min_similarity: float = field(
        default=_LIMITS.min_similarity,
        metadata={
            "description": "Lowest MiniLM similarity of a rewrite to the text it "
            "rewrites. 0.60 was chosen on PersonalReddit (benchmarks/"
            "acceptance_floor.py): rule rewrites score 0.77 or more, unrelated "
            "texts 0.50 or less, meta-text answers 0.38 or less."
        },
    )
    similarity_min_words: int = field(
        default=_LIMITS.similarity_min_words,
        metadata={
            "description": "The similarity check runs on texts of at least this "
            "many words: in a shorter one, one generalized word moves the score "
            "by 0.3 or more, and the floor was chosen on longer texts."
        },
    )
    min_kept_share: float = field(
        default=_LIMITS.min_kept_share,
        metadata={
            "description": "Share of words, in order, a rewrite must keep of each "
            "sentence no policy asked to change: a pronoun or a generalized word "
            "passes, a rewritten or dropped sentence does not."
        },
    )
    check_task_talk: bool = field(
        default=_LIMITS.check_task_talk,
        metadata={
            "description": "Refuse a rewrite holding phrases of our prompts or "
            "assistant talk ('JSON', 'here is', 'edited text') its input lacks."
        },
    )
    check_new_specifics: bool = field(
        default=_LIMITS.check_new_specifics,
        metadata={
            "description": "Refuse a rewrite adding names, places or numbers "
            "beyond coarser forms of what it replaced (invented details)."
        },
    )
    acceptance: bool = field(
        default=True,
        metadata={
            "description": "Check each model rewrite before it replaces the text "
            "(the checks below); off in the paper profile, where every rewrite "
            "is taken as the model wrote it."
        },
    )
    rewrite_retries: int = field(
        default=1,
        metadata={
            "description": "Asks again, telling the model why, after a refused "
            "rewrite; then the text stays as it was. One retry fixes most "
            "slips; more rarely help a model that misread the task."
        },
    )


@dataclass(kw_only=True)
class Context(ModelContext, AcceptanceOptions, ReviewOptions, IdentifierOptions):
    """Parameters of the adversarial loops (RLAA, FgAA); Studio shows them as a form.

    The attacker, arbitrator and anonymizer default to ``rules`` (explicit cues,
    milliseconds per text); ``--model local`` or another spec gives them a model.
    """

    default_model: str = field(
        default="rules",
        metadata={
            "description": "Model spec for every role not named in `models`: "
            "rules (explicit cues, no model), local, llamacpp:PATH, "
            "ollama:NAME[@URL], openai:NAME[@URL] or hf:ID."
        },
    )

    max_iterations: int = field(
        default=10,
        metadata={"description": "T: most attack-anonymize rounds (RLAA, FgAA)."},
    )

    stop_when_nothing_inferred: bool = field(
        default=True,
        metadata={"description": "FgAA: stop early once the attacker infers nothing."},
    )

    arbitrate_prompt: str = field(
        default=ARBITRATE_PROMPT,
        metadata={
            "description": "Arbitrator template: slots {text}, {attributes}, "
            "{reasoning}."
        },
    )

    anonymize_prompt: str = field(
        default=ANONYMIZE_PROMPT,
        metadata={"description": "Anonymizer template: slots {text}, {feedback}."},
    )

    cue_check: bool = field(
        default=True,
        metadata={
            "description": "Add explicit cues the detectors still find in the "
            "text to the policy (the final check; off in the paper profile: "
            "only the arbitrator's verdicts or the attacker's inferences act)."
        },
    )

    PAPER_METHOD: ClassVar[str] = "rlaa"
    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            # Every role of the paper is a model: rules cannot answer its prompts.
            "default_model": "local",
            "attack_prompt": PAPER_RLAA_ATTACK_PROMPT,
            "attack_format": "rlaa",
            "arbitrate_prompt": PAPER_RLAA_ARBITRATE_PROMPT,
            "anonymize_prompt": PAPER_RLAA_ANONYMIZE_PROMPT,
            "acceptance": False,
            "cue_check": False,
            "stop_when_nothing_inferred": False,
        }
    )
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType(
        {
            "acceptance": (True, "our acceptance checks (the paper takes every "
                           "rewrite as the model wrote it)"),
            "cue_check": (True, "our cue check (the paper's policy holds only the "
                          "arbitrator's verdicts)"),
            "attack_format": ("product", "our optional guesses (the paper's "
                              "attacker always guesses)"),
        }
    )  # fmt: skip


@dataclass(kw_only=True)
class FgaaContext(Context):
    """Parameters of FgAA (RLAA's loop without arbitrator); Studio shows them.

    Its paper profile feeds every attribute's inference to SEAL D.1's
    anonymizer (the RLAA paper prints no FgAA anonymizer) for T rounds.
    """

    PAPER_METHOD: ClassVar[str] = "fgaa"
    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {**Context.PAPER_FIELDS, "anonymize_prompt": PAPER_FGAA_ANONYMIZE_PROMPT}
    )
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType(
        {
            **Context.PAPER_REFUSES,
            "stop_when_nothing_inferred": (
                True,
                "our early stop (the paper feeds back every round of its T)",
            ),
        }
    )


@dataclass(kw_only=True)
class SearchOptions:
    """Web search settings of the agents that search (adversary, AURA's probe)."""

    search_backend: str = field(
        default="",
        metadata={
            "description": "offline (a local corpus index), ddgs or tavily; empty: "
            "no search. ddgs and tavily send queries off the machine.",
            "choices": SEARCH_BACKENDS,
        },
    )
    allow_web: bool = field(
        default=False,
        metadata={"description": "Opt-in to ddgs/tavily: queries leave the machine."},
    )
    search_index: str = field(
        default="", metadata={"description": "Offline backend: the index file."}
    )
    search_corpus: str = field(
        default="",
        metadata={"description": "Offline backend: JSONL or folder to index first."},
    )
    max_search_steps: int = field(
        default=3, metadata={"description": "Most searches per text."}
    )
    search_results: int = field(
        default=5, metadata={"description": "Results read per search."}
    )
    search_goal: str = field(
        default="",
        metadata={"description": "What the search loop looks for (the {goal} slot)."},
    )
    query_max_words: int = field(
        default=0,
        metadata={
            "description": "Most keywords a query may send; 0: no cap (the "
            "adversary searches freely, AURA's probe sends a few keywords)."
        },
    )
    query_max_copy: int = field(
        default=4,
        metadata={
            "description": "With a keyword cap, a query repeating more "
            "consecutive words of the text than this is not sent."
        },
    )
    search_step_prompt: str = field(
        default=SEARCH_STEP_PROMPT,
        metadata={
            "description": "Search step template: {goal}, {text}, {notes}, "
            "{steps_left}."
        },
    )
    search_mode: str = field(
        default="auto",
        metadata={
            "description": "auto: native tool calls where the attacker's backend "
            "has them (openai, ollama), else structured steps; tools; structured.",
            "choices": SEARCH_MODES,
        },
    )
    search_agent_prompt: str = field(
        default=SEARCH_AGENT_PROMPT,
        metadata={
            "description": "Tool-calling search agent template: {goal}, {text}, "
            "{max_searches}."
        },
    )


def _default_of(f: Field[object]) -> object:
    if f.default is not MISSING:
        return f.default
    return f.default_factory() if f.default_factory is not MISSING else None


class RewriteOptions(Protocol):
    """What the shared anonymize step reads; `Context` and `AuraContext` have it."""

    __dataclass_fields__: ClassVar[dict[str, Any]]
    anonymize_prompt: str
    min_length_ratio: float
    rewrite_retries: int


ModelContextT = TypeVar("ModelContextT", bound=ModelContext)
"""Any method's run parameters (steps every graph shares are generic in it)."""

SearchOptionsT = TypeVar("SearchOptionsT", bound=SearchOptions)
"""Run parameters of a graph that searches."""

ContextT = TypeVar("ContextT", bound=Context)
"""RLAA's or FgAA's run parameters (steps both loops share are generic in it)."""

RewriteOptionsT = TypeVar("RewriteOptionsT", bound=RewriteOptions)
"""Run parameters of a graph that uses the shared anonymize step."""
