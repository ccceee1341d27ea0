"""Answer schemas: what a model is asked to emit, shaped for constrained decoding.

They are keyed by attribute, not lists, so schema-constrained decoding emits each
attribute exactly once (a free list lets a small model repeat items until it runs
out of tokens). Bounds and enums here steer decoders; converters turn an answer
into the domain types of `anonygraph.state.domain` and the methods' states.
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any, Literal, ParamSpec

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from anonygraph.attributes import ATTRIBUTES
from anonygraph.state.aura import UTILITY_DIMENSIONS, QuasiKind
from anonygraph.state.domain import (
    AttributeInference,
    LeakVerdict,
    UtilityScore,
    Validity,
)
from anonygraph.state.intentanony import (
    INTENT_NAMES,
    INTENT_WEIGHTS,
    EvidenceChain,
    EvidenceStep,
    Intent,
)


def _bounded(limit: int, description: str, default: Any = ...) -> Any:
    # "maxLength" goes into the JSON schema only: it steers constrained decoders
    # (bounding a small model's rambling) but is not enforced when validating.
    return Field(
        default, description=description, json_schema_extra={"maxLength": limit}
    )


_SCHEMAS: weakref.WeakKeyDictionary[type, dict[Any, str]] = weakref.WeakKeyDictionary()

P = ParamSpec("P")
_SHAPES = 256
"""Answer models kept per builder: a run asks the same few shapes again and again."""


def _one_per_shape(
    build: Callable[P, type[BaseModel]],
) -> Callable[P, type[BaseModel]]:
    """Build each answer model once per argument set, not once per call.

    Building a pydantic model and its JSON schema took ~11 ms of CPU per RLAA
    record (measured), most of the time a record spends outside model calls.
    """
    built: OrderedDict[str, type[BaseModel]] = OrderedDict()
    lock = threading.Lock()

    def shaped(*args: P.args, **kwargs: P.kwargs) -> type[BaseModel]:
        key = json.dumps([args, kwargs], sort_keys=True, default=str)
        with lock:
            if key in built:
                built.move_to_end(key)
                return built[key]
        model = build(*args, **kwargs)
        with lock:
            built[key] = model
            if len(built) > _SHAPES:
                built.popitem(last=False)
        return model

    shaped.__doc__, shaped.__name__ = build.__doc__, build.__name__
    return shaped


class _Schema(BaseModel):
    """An answer model whose JSON schema is built once per class.

    The model layer asks for a call's schema twice, for the decoder's
    constraint and for the call journal's key, and pydantic builds it afresh
    each time: measured, that second build was most of a batch run's added
    CPU per record.
    """

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Return (a fresh copy of) pydantic's JSON schema of the class."""
        built = _SCHEMAS.setdefault(cls, {})
        key = (args, tuple(sorted(kwargs.items())))
        if key not in built:
            built[key] = json.dumps(super().model_json_schema(*args, **kwargs))
        schema: dict[str, Any] = json.loads(built[key])  # cheaper than a deepcopy
        return schema

    @classmethod
    def schema_digest(cls) -> str:
        """Return a hash of the class's JSON schema (model-call cache keys)."""
        built = _SCHEMAS.setdefault(cls, {})
        if "digest" not in built:
            text = json.dumps(cls.model_json_schema(), sort_keys=True)
            built["digest"] = hashlib.sha256(text.encode()).hexdigest()
        return built["digest"]


class Rewrite(_Schema):
    """The anonymizer's answer."""

    changes: str = _bounded(300, "One-sentence plan of the edits.", "")
    text: str = Field(description="The full anonymized text, nothing before or after.")


def _require_all(schema: dict[str, Any]) -> None:
    schema["required"] = list(schema.get("properties", {}))


class _Answer(_Schema):
    # Every key is required in the schema a decoder follows, yet a key a model
    # leaves out validates to its default ("no clue", "no verdict").
    model_config = ConfigDict(json_schema_extra=_require_all)


Phrase = Annotated[str, Field(json_schema_extra={"maxLength": 160})]
"""A quoted phrase; bounded in the schema so a small model cannot ramble."""


class _Guess(_Answer):
    # Defaults rescue an answer cut off at the token limit; the schema still
    # requires every key (see _Answer).
    reasoning: str = _bounded(
        400, "Clues quoted from the text and where they lead.", ""
    )
    guesses: list[Phrase] = Field(
        default_factory=list,
        max_length=3,
        description="Up to three guesses, most likely first; [] if none.",
    )
    # An enum, not a bounded integer: llama.cpp grammars ignore min/max.
    certainty: Literal[1, 2, 3, 4, 5] = Field(
        default=1, description="1 = wild guess ... 5 = stated."
    )

    _clean = field_validator("guesses", mode="before")(
        AttributeInference._clean_guesses.__func__  # type: ignore[attr-defined]
    )


@_one_per_shape
def attack_answer_model(
    attributes: list[str], *, identify: bool = False
) -> type[BaseModel]:
    """Build the attacker's answer schema: one object per attribute to infer.

    With ``identify``, the attacker also names the page or profile its web
    searches traced the author to (``identified_profile``).
    """
    fields: dict[str, Any] = {}
    for name in attributes:
        options = ATTRIBUTES[name].options
        guess_model = _Guess
        if options:
            guess_model = create_model(
                f"Guess_{name}",
                __base__=_Guess,
                guesses=(
                    list[Literal[options]],  # type: ignore[valid-type]
                    Field(
                        default_factory=list,
                        max_length=3,
                        description=f"Up to three of: {', '.join(options)}.",
                    ),
                ),
            )
        fields[name] = (
            guess_model,
            Field(
                default_factory=lambda m=guess_model: m(
                    reasoning="not answered", guesses=[], certainty=1
                ),
                description=ATTRIBUTES[name].description,
            ),
        )
    if identify:
        fields["identified_profile"] = (
            str,
            _bounded(200, "Address or title of the author's own page; '' if none.", ""),
        )
    return create_model("AttackAnswer", __base__=_Answer, **fields)


def inferences_from_answer(answer: BaseModel) -> list[AttributeInference]:
    """Turn an attacker answer into one `AttributeInference` per attribute."""
    return [
        AttributeInference(attribute=name, **getattr(answer, name).model_dump())
        for name in type(answer).model_fields
        if name != "identified_profile"
    ]


class _Verdict(_Answer):
    validity: Validity = Field(
        description="high: stated or undeniable; medium: strong style or topic cue; "
        "low: vague stereotype; invalid: not supported by the text."
    )
    evidence: list[Phrase] = Field(
        default_factory=list,
        max_length=3,
        description="Exact phrases of the text the reasoning relies on.",
    )
    concept: str = _bounded(200, "For high or medium: the fact to neutralize.", "")
    notes: str = _bounded(200, "Why this validity level.", "")

    @field_validator("evidence", mode="before")
    @classmethod
    def _first_three(cls, evidence: Any) -> Any:
        return evidence[:3] if isinstance(evidence, list) else evidence


@_one_per_shape
def verdict_answer_model(attributes: list[str]) -> type[BaseModel]:
    """Build the arbitrator's answer schema: one verdict per leaked attribute."""
    missing = _Verdict(
        validity="invalid", evidence=[], concept="", notes="no verdict was given"
    )
    fields: dict[str, Any] = {
        name: (_Verdict, Field(default_factory=missing.model_copy))
        for name in attributes
    }
    return create_model("ArbitrationAnswer", __base__=_Answer, **fields)


def verdicts_from_answer(answer: BaseModel) -> list[LeakVerdict]:
    """Turn an arbitrator answer into one `LeakVerdict` per attribute."""
    return [
        LeakVerdict(attribute=name, **getattr(answer, name).model_dump())
        for name in type(answer).model_fields
    ]


Score10 = Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


class _Scored(BaseModel):
    explanation: str = _bounded(300, "Why this score, briefly.")
    score: Score10 = Field(description="1 (worst) to 10 (best).")


class _Flag(BaseModel):
    explanation: str = _bounded(300, "What, if anything, was invented.")
    score: Literal[0, 1] = Field(description="1: nothing invented; 0: invented facts.")


class UtilityAnswer(BaseModel):
    """The judge's answer schema.

    No defaults: a missing score is a failed judgement, never a made-up 0 or 10.
    """

    readability: _Scored
    meaning: _Scored
    hallucination: _Flag

    def to_score(self) -> UtilityScore:
        """Flatten into a `UtilityScore`."""
        return UtilityScore(
            readability=self.readability.score,
            meaning=self.meaning.score,
            hallucination=self.hallucination.score,
            rationale=" | ".join(
                part.explanation
                for part in (self.readability, self.meaning, self.hallucination)
            ),
        )


class SearchStep(BaseModel):
    """One decision of a search agent."""

    thought: str = _bounded(300, "What is known and what to look up next.")
    action: Literal["search", "answer"] = Field(
        description="search: run `query`; answer: stop searching."
    )
    query: str = _bounded(120, "Short keyword query; empty when answering.", "")


class FactCheck(BaseModel):
    """Whether one numbered fact can still be recovered from a rewrite."""

    fact: int = Field(description="The fact's number in the list.")
    recovered: bool = Field(description="True when the rewrite still gives it.")


class FactsAnswer(BaseModel):
    """The fact checker's answer: one entry per listed fact."""

    facts: list[FactCheck] = Field(description="One entry per fact, in order.")


def facts_answer_model(count: int) -> type[FactsAnswer]:
    """Bound the answer to ``count`` entries (a small model would go on)."""
    entries = Field(
        min_length=count, max_length=count, description="One entry per fact, in order."
    )
    return create_model(
        "FactsAnswer", __base__=FactsAnswer, facts=(list[FactCheck], entries)
    )


class ValidatorAnswer(BaseModel):
    """The validator's decision on one guess the rules could not settle."""

    verdict: Literal["yes", "no", "less precise"] = Field(
        description="yes: same thing; less precise: right but coarser; no: wrong."
    )


# IntentAnony's answers: intent weights, evidence chains, the constrained rewrite.


def _weight(description: str) -> Any:
    # A 0.1 grid as an enum: llama.cpp grammars ignore minimum/maximum and let
    # a free number run on; validation clamps whatever a free decoder sends.
    return Field(
        default=0.0,
        description=description,
        json_schema_extra={"enum": list(INTENT_WEIGHTS)},
    )


class _IntentWeights(_Answer):
    I1: float = _weight("Self-expression: opinions, feelings, lived experience.")
    I2: float = _weight("Social interaction: replying, asking, engaging others.")
    I3: float = _weight("Professional showcase: job, education, expertise, skills.")
    I4: float = _weight("Information sharing: facts, knowledge, advice.")
    I5: float = _weight(
        "Sensitive disclosure: health, mental state, politics, money, other private "
        "matters."
    )

    @field_validator("I1", "I2", "I3", "I4", "I5", mode="before")
    @classmethod
    def _clamp(cls, value: Any) -> float:
        try:
            weight = float(value)
        except (TypeError, ValueError):
            return 0.0
        return round(min(1.0, max(0.0, weight)), 2)


@_one_per_shape
def intent_answer_model(scenes: list[str]) -> type[BaseModel]:
    """Build the intent recognizer's answer schema: five weights and a scene."""
    options: list[Any] = list(scenes)
    return create_model(
        "IntentAnswer",
        __base__=_IntentWeights,
        # An enum for the decoder; a free decoder's unknown scene is harmless,
        # since the table falls back to its fallback scene for it.
        scene=(
            str,
            Field(
                default=scenes[0],
                description="The setting the text is written in.",
                json_schema_extra={"enum": options},
            ),
        ),
    )


def intents_from_answer(answer: BaseModel) -> tuple[list[Intent], str]:
    """Turn an intent answer into the five `Intent`s and the scene label."""
    intents = [
        Intent(code=code, name=name, weight=getattr(answer, code))  # type: ignore[arg-type]
        for code, name in INTENT_NAMES.items()
    ]
    return intents, str(getattr(answer, "scene"))


class _EvidenceStepAnswer(_Answer):
    # Tight bounds: eight attributes times three steps must fit the role's
    # max_tokens, or the answer is cut off and does not parse.
    step: str = _bounded(60, "What this step infers.")
    quote: str = _bounded(120, "Exact words copied from the text.")
    explanation: str = _bounded(120, "Why these words reveal the attribute.")


@_one_per_shape
def evidence_answer_model(
    attributes: list[str], intent_codes: list[str], max_steps: int
) -> type[BaseModel]:
    """Build the evidence answer schema: one bounded chain per inferred attribute."""
    step_model = create_model(
        "EvidenceStepAnswer",
        __base__=_EvidenceStepAnswer,
        # An enum for the decoder; a free decoder's other value reads as "none".
        intent=(
            str,
            Field(
                default="none",
                description="Intent the quote is needed for.",
                json_schema_extra={"enum": [*intent_codes, "none"]},
            ),
        ),
    )
    chain_model = create_model(
        "EvidenceChainAnswer",
        __base__=_Answer,
        steps=(
            list[step_model],  # type: ignore[valid-type]
            # maxItems steers the decoder; a longer list is cut in code, not refused.
            Field(
                description="Ordered inference steps.",
                json_schema_extra={"maxItems": max_steps},
            ),
        ),
    )
    fields: dict[str, Any] = {
        name: (
            chain_model,
            Field(
                default_factory=lambda m=chain_model: m(steps=[]),
                description=ATTRIBUTES[name].description,
            ),
        )
        for name in attributes
    }
    return create_model("EvidenceAnswer", __base__=_Answer, **fields)


def chains_from_answer(answer: BaseModel) -> list[EvidenceChain]:
    """Turn an evidence answer into one unchecked `EvidenceChain` per attribute."""
    return [
        EvidenceChain(
            attribute=name,
            steps=[
                EvidenceStep(
                    step=s.step,
                    quote=s.quote,
                    explanation=s.explanation,
                    intent=s.intent if s.intent in INTENT_NAMES else "none",
                )
                for s in getattr(answer, name).steps
            ],
        )
        for name in type(answer).model_fields
    ]


class ConstrainedRewrite(_Answer):
    """The IntentAnony rewriter's answer: the edited text and nothing else."""

    # No maxLength: llama.cpp unrolls it into nested rules, and a bound in the
    # thousands aborts the process while the grammar is parsed.
    text: str = Field(description="The whole text with the planned edits applied.")


# AURA's answers: probe findings, profile, reconstruction, candidate scores.


class _Finding(_Answer):
    attribute: str = _bounded(
        40, "Attribute name, or a short snake_case label of your own.", ""
    )
    kind: QuasiKind = Field(default="other", description="What kind of clue it is.")
    description: str = _bounded(120, "What the clue reveals about the author.", "")
    quote: Phrase = Field(default="", description="Exact words of the text.")


@_one_per_shape
def probe_answer_model(max_findings: int) -> type[BaseModel]:
    """Build the probe's answer schema: bounded findings and the page matched."""
    return create_model(
        "ProbeAnswer",
        __base__=_Answer,
        findings=(
            list[_Finding],
            # maxItems steers the decoder; a longer list is cut in code.
            Field(
                default_factory=list,
                description="Clues that could re-identify the author.",
                json_schema_extra={"maxItems": max_findings},
            ),
        ),
        matched_page=(
            str,
            _bounded(200, "Title or address of the author's own page; '' if none.", ""),
        ),
    )


class ProfileAnswer(_Answer):
    """The keeper's utility insight profile P: one short phrase per dimension."""

    theme: str = _bounded(160, UTILITY_DIMENSIONS["theme"], "")
    experiential: str = _bounded(160, UTILITY_DIMENSIONS["experiential"], "")
    affect: str = _bounded(160, UTILITY_DIMENSIONS["affect"], "")
    reasoning: str = _bounded(160, UTILITY_DIMENSIONS["reasoning"], "")
    behavioral: str = _bounded(160, UTILITY_DIMENSIONS["behavioral"], "")
    relational: str = _bounded(160, UTILITY_DIMENSIONS["relational"], "")
    temporal: str = _bounded(160, UTILITY_DIMENSIONS["temporal"], "")
    expertise: str = _bounded(160, UTILITY_DIMENSIONS["expertise"], "")


def placeholder_key(placeholder: str) -> str:
    """Return the answer key of a placeholder: '[MASK_1]' -> 'MASK_1'."""
    return placeholder.strip("[]")


@_one_per_shape
def reconstruct_answer_model(placeholders: list[str]) -> type[BaseModel]:
    """Build the reconstructor's answer schema: one bounded string per placeholder."""
    fields: dict[str, Any] = {
        placeholder_key(p): (str, _bounded(100, f"Words to put in place of {p}.", ""))
        for p in placeholders
    }
    return create_model("ReconstructAnswer", __base__=_Answer, **fields)


class PrivacyScoreAnswer(_Answer):
    """The attacker's privacy score of one candidate: details found and severity."""

    reasoning: str = _bounded(300, "What in the text points to the author.", "")
    details: list[Phrase] = Field(
        default_factory=list,
        max_length=5,
        description="Specific identifying details, copied exactly; [] if none.",
    )
    # Unanswered reads as the worst: a missing score must not win a selection.
    severity: Literal[0, 1, 2, 3, 4, 5] = Field(
        default=5,
        description="0 = nothing identifying ... 5 = enough to find the person.",
    )

    @field_validator("details", mode="before")
    @classmethod
    def _first_five(cls, details: Any) -> Any:
        return details[:5] if isinstance(details, list) else details


@_one_per_shape
def utility_loss_answer_model(dimensions: list[str]) -> type[BaseModel]:
    """Build the keeper's answer schema: one verdict per profile dimension."""
    verdict = Literal["kept", "partly", "lost"]
    fields: dict[str, Any] = {
        name: (
            verdict,
            Field(default="partly", description=UTILITY_DIMENSIONS[name]),
        )
        for name in dimensions
    }
    fields["note"] = (str, _bounded(200, "What the rewrite lost, briefly.", ""))
    return create_model("UtilityLossAnswer", __base__=_Answer, **fields)


@_one_per_shape
def scope_answer_model(
    attributes: list[str], custom: dict[str, str], *, identify: bool = False
) -> type[BaseModel]:
    """Build the attacker's answer schema over base attributes and custom ones.

    ``custom`` maps the names of attributes beyond the base eight (AURA's
    quasi-identifiers) to their descriptions; they take free-text guesses.
    Without custom attributes this is `attack_answer_model`.
    """
    extra = [name for name in attributes if name in custom]
    if not extra:
        return attack_answer_model(attributes, identify=identify)
    base = attack_answer_model([n for n in attributes if n not in custom])
    fields: dict[str, Any] = {
        name: (
            _Guess,
            Field(
                default_factory=lambda: _Guess(
                    reasoning="not answered", guesses=[], certainty=1
                ),
                description=custom[name],
            ),
        )
        for name in extra
    }
    if identify:
        page = attack_answer_model([], identify=True).model_fields["identified_profile"]
        fields["identified_profile"] = (str, page)
    return create_model("ScopeAttackAnswer", __base__=base, **fields)
