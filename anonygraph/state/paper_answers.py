"""Answer schemas of the papers' prompts, and their converters into our types.

The paper profile sends the ``PAPER_*`` prompts; each answers in the fields
its paper names (RLAA's ``inference``/``guess``, SEAL D.2's per-key
``reasoning``/``guess``, IntentAnony D.2's ``Type``/``Inference``/``Guess``/
``Certainty``). They travel as JSON under these schemas (the model layer's
transport), and are converted into `AttributeInference`, `LeakVerdict` and a
rewrite so the graphs' steps stay the same. No field is bounded in length and
no guess may be left out where the paper forces one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from anonygraph.attributes import canonical_attribute
from anonygraph.state.answers import (
    Rewrite,
    UtilityAnswer,
    _Flag,
    _Schema,
    _Scored,
)
from anonygraph.state.domain import AttributeInference, LeakVerdict, UtilityScore

ATTACK_FORMATS: tuple[str, ...] = ("product", "rlaa", "seal", "intentanony")
"""Attacker answer formats: ours (guesses may be empty), or a paper's."""

RLAA_KEYS: Mapping[str, str] = {
    "age": "age",
    "sex": "sex",
    "city_country": "current_city_country",
    "birth_city_country": "birth_city_country",
    "education": "education",
    "occupation": "occupation",
    "income_level": "income_level",
    "relationship_status": "relationship_status",
}
"""Our attribute -> the RLAA attacker prompt's key."""

PAPER_KEYS: Mapping[str, str] = {
    "age": "age",
    "sex": "gender",
    "city_country": "location",
    "birth_city_country": "pobp",
    "education": "education",
    "occupation": "occupation",
    "income_level": "income",
    "relationship_status": "married",
}
"""Our attribute -> SEAL D.2's key (IntentAnony D.2 says relationship_status)."""

INTENTANONY_KEYS: Mapping[str, str] = {
    **PAPER_KEYS,
    "relationship_status": "relationship_status",
}
"""Our attribute -> IntentAnony D.2's key."""

_RLAA_VALUES: Mapping[str, Any] = {
    "age": int,
    "sex": Literal["male", "female"],
    "income_level": Literal["low", "middle", "high", "very high"],
    "relationship_status": Literal[
        "single", "in a relationship", "engaged", "married", "divorced", "widowed"
    ],
}


def _required(schema: dict[str, Any]) -> None:
    schema["required"] = list(schema.get("properties", {}))


class _Paper(_Schema):
    model_config = ConfigDict(json_schema_extra=_required)


@functools.lru_cache(maxsize=32)
def rlaa_attack_model(attributes: tuple[str, ...]) -> type[BaseModel]:
    """RLAA's attacker answer: ``inference`` and one forced ``guess`` per key."""
    keys: dict[str, Any] = {}
    for name in attributes:
        if name not in RLAA_KEYS:
            continue
        kind = _RLAA_VALUES.get(name, str)
        keys[RLAA_KEYS[name]] = (kind, Field(min_length=1) if kind is str else ...)
    guess = create_model("RlaaGuess", __base__=_Paper, **keys)
    return create_model(
        "RlaaAttack",
        __base__=_Paper,
        inference=(str, Field(description="Detailed reasoning for every key.")),
        guess=(guess, Field(description="One best guess per key; none left out.")),
    )


class _SealGuess(_Paper):
    reasoning: str = Field(description="Detailed reasoning for this attribute.")
    guess: str | None = Field(description="The single best guess, or null.")


class _SealIncome(_Paper):
    reasoning: str = Field(description="Detailed reasoning for this attribute.")
    guess: Literal[
        "No income",
        "Low (<30k USD)",
        "Medium (30-60k USD)",
        "High (60-150k USD)",
        "Very High (>150k USD)",
    ] = Field(description="The income band (never null).")


@functools.lru_cache(maxsize=32)
def seal_attack_model(attributes: tuple[str, ...]) -> type[BaseModel]:
    """SEAL D.2's answer: per key ``reasoning`` and one ``guess`` (null allowed)."""
    fields: dict[str, Any] = {
        PAPER_KEYS[name]: (_SealIncome if name == "income_level" else _SealGuess, ...)
        for name in attributes
        if name in PAPER_KEYS
    }
    return create_model("SealAttack", __base__=_Paper, **fields)


class _Top3(_Paper):
    Type: str = Field(description="The attribute's key.")
    Inference: str = Field(description="The detailed basis of the inference.")
    Guess: str = Field(
        min_length=1, description="Three best guesses, separated by semicolons."
    )
    Certainty: Literal[1, 2, 3, 4, 5] = Field(description="1 (guess) to 5 (clear).")


class IntentAnonyAttack(_Paper):
    """IntentAnony D.2's answer (one object per attribute, as a list)."""

    attributes: list[_Top3] = Field(
        min_length=1, description="One object per attribute asked for."
    )


def attack_model(fmt: str, attributes: list[str]) -> type[BaseModel]:
    """Return the answer schema of the attacker format ``fmt``."""
    if fmt == "rlaa":
        return rlaa_attack_model(tuple(attributes))
    if fmt == "seal":
        return seal_attack_model(tuple(attributes))
    if fmt == "intentanony":
        return IntentAnonyAttack
    raise ValueError(f"attack format {fmt!r}: not a paper format ({ATTACK_FORMATS})")


def paper_inferences(
    fmt: str, answer: BaseModel, attributes: list[str]
) -> list[AttributeInference]:
    """Convert a paper attacker's answer into one inference per attribute.

    The paper gives no certainty (RLAA, SEAL D.2): those inferences carry 3
    ("inference from indirect clues"), so a forced guess counts as a guess
    everywhere our steps filter on certainty. An attribute the answer left
    out (IntentAnony's list) comes back without guesses.
    """
    found: dict[str, AttributeInference] = {}
    if fmt == "rlaa":
        guesses = getattr(answer, "guess")
        reasoning = str(getattr(answer, "inference"))
        for name in attributes:
            if name in RLAA_KEYS:
                value = getattr(guesses, RLAA_KEYS[name])
                found[name] = AttributeInference(
                    attribute=name,
                    reasoning=reasoning,
                    guesses=[str(value)],
                    certainty=3,
                )
    elif fmt == "seal":
        for name in attributes:
            if name in PAPER_KEYS:
                part = getattr(answer, PAPER_KEYS[name])
                found[name] = AttributeInference(
                    attribute=name,
                    reasoning=part.reasoning,
                    guesses=[part.guess] if part.guess else [],
                    certainty=3,
                )
    else:
        for item in getattr(answer, "attributes"):
            name = canonical_attribute(item.Type)
            if name in attributes and name not in found:
                found[name] = AttributeInference(
                    attribute=name,
                    reasoning=item.Inference,
                    guesses=[g for g in item.Guess.split(";") if g.strip()][:3],
                    certainty=item.Certainty,
                )
    return [
        found.get(name, AttributeInference(attribute=name, reasoning="not answered"))
        for name in attributes
    ]


class _PaperVerdict(_Paper):
    attribute: str = Field(description="The attribute, such as age.")
    validity_level: Literal["high", "medium", "low", "invalid"]
    reasoning_evidence: list[str] = Field(
        description="The comment's phrases the attacker relied on."
    )
    leaked_concept: str = Field(description="For high or medium: what to neutralize.")
    validation_notes: str = Field(description="Why this level.")


class PaperVerdicts(_Paper):
    """RLAA's arbitrator answer: one verdict per attribute (the paper's list)."""

    verdicts: list[_PaperVerdict] = Field(description="One object per attribute.")


def paper_verdicts(answer: PaperVerdicts, attributes: list[str]) -> list[LeakVerdict]:
    """Convert the arbitrator's list into verdicts on ``attributes`` (first wins).

    An attribute the list leaves out gets no verdict ("invalid"), as in ours.
    """
    found: dict[str, LeakVerdict] = {}
    for item in answer.verdicts:
        name = canonical_attribute(item.attribute)
        if name in attributes and name not in found:
            found[name] = LeakVerdict(
                attribute=name,
                validity=item.validity_level,
                evidence=[e for e in item.reasoning_evidence if e.strip()][:5],
                concept=item.leaked_concept,
                notes=item.validation_notes[:400],
            )
    return [
        found.get(
            name,
            LeakVerdict(attribute=name, validity="invalid", notes="no verdict"),
        )
        for name in attributes
    ]


class PaperRewrite(_Paper):
    """RLAA's anonymizer answer: ``explanation`` then ``anonymized_text``."""

    explanation: str = Field(description="A short account of the changes.")
    anonymized_text: str = Field(description="The edited text alone.")

    @property
    def text(self) -> str:
        """The rewrite (what the rewriting steps read)."""
        return self.anonymized_text

    @property
    def changes(self) -> str:
        """The explanation (what a round's snapshot shows)."""
        return self.explanation


class PaperTextOnly(_Paper):
    """SEAL D.1's anonymizer answer: the text alone."""

    anonymized_text: str = Field(description="The comments, relevant parts changed.")

    @property
    def text(self) -> str:
        """The rewrite (what the rewriting steps read)."""
        return self.anonymized_text

    @property
    def changes(self) -> str:
        """D.1 asks for no explanation."""
        return ""


class PaperIntentRewrite(_Paper):
    """IntentAnony D.4's answer: the intent vector and the anonymized text."""

    intent_vector: dict[str, float] = Field(description="I1..I5 -> weight.")
    anonymized_text: str = Field(description="The anonymized text.")


def rewrite_model(method: str) -> type[BaseModel]:
    """Return the anonymizer's answer schema in ``method``'s paper profile.

    RLAA: explanation and text; FgAA and SEAL (D.1): the text alone; a method
    whose paper prints no anonymizer (AURA's masking) keeps ours.
    """
    papers: dict[str, type[BaseModel]] = {
        "rlaa": PaperRewrite,
        "fgaa": PaperTextOnly,
        "seal": PaperTextOnly,
    }
    return papers.get(method, Rewrite)


class PaperIntentVector(_Schema):
    """IntentAnony D.1's answer: intent code -> weight, absent intents left out."""

    I1: float = Field(default=0.0, ge=0, le=1, description="Self-expression.")
    I2: float = Field(default=0.0, ge=0, le=1, description="Social interaction.")
    I3: float = Field(default=0.0, ge=0, le=1, description="Professional showcase.")
    I4: float = Field(default=0.0, ge=0, le=1, description="Information sharing.")
    I5: float = Field(default=0.0, ge=0, le=1, description="Sensitive disclosure.")


class _PaperChainStep(_Paper):
    step: str = Field(description="What this inference step does.")
    evidence: str | list[str] = Field(description="The comments' words, quoted.")
    explanation: str = Field(description="Why this content reveals the attribute.")


class _PaperChain(_Paper):
    attribute: str = Field(description="The attribute, such as age.")
    privacy_inference_evidence_chain: list[_PaperChainStep]


class PaperEvidence(_Paper):
    """IntentAnony D.3's answer: one evidence chain per target attribute."""

    attributes: list[_PaperChain]


def paper_chains(answer: PaperEvidence, attributes: list[str]) -> list[dict[str, Any]]:
    """Convert D.3's chains into `EvidenceChain` dicts; quotes kept as written.

    The paper passes its chains to D.4 unchecked: a quote not found in the
    text is kept (the product's check drops it).
    """
    chains = []
    for chain in answer.attributes:
        name = canonical_attribute(chain.attribute)
        if name not in attributes:
            continue
        steps = [
            {
                "step": s.step,
                "quote": s.evidence
                if isinstance(s.evidence, str)
                # several quotes of one step stay one step, as the paper's
                else " / ".join(s.evidence),
                "explanation": s.explanation,
            }
            for s in chain.privacy_inference_evidence_chain
        ]
        chains.append({"attribute": name, "steps": steps, "dropped": []})
    return chains


class PaperUtilityAnswer(_Paper):
    """The papers' judge answer (RLAA, SEAL D.3, IntentAnony D.5)."""

    readability: _Scored
    meaning: _Scored
    hallucinations: _Flag

    def as_utility_answer(self) -> UtilityAnswer:
        """The same judgement in our schema (what SEAL's state keeps)."""
        return UtilityAnswer(
            readability=self.readability,
            meaning=self.meaning,
            hallucination=self.hallucinations,
        )

    def to_score(self) -> UtilityScore:
        """Flatten into a `UtilityScore` (as `UtilityAnswer.to_score`)."""
        return self.as_utility_answer().to_score()


class PaperValidatorAnswer(_Paper):
    """The papers' validator answer: one verdict per pair, in order (D.4, D.6)."""

    verdicts: list[Literal["yes", "no", "less precise"]] = Field(min_length=1)
