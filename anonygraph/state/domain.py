"""Domain types every graph speaks; LLM output is validated into these."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    create_model,
    field_validator,
    model_validator,
)

from anonygraph.state.attributes import ATTRIBUTES


def _bounded(limit: int, description: str, default: Any = ...) -> Any:
    # "maxLength" goes into the JSON schema only: it steers constrained decoders
    # (bounding a small model's rambling) but is not enforced when validating.
    return Field(
        default, description=description, json_schema_extra={"maxLength": limit}
    )


Validity = Literal["high", "medium", "low", "invalid"]
Action = Literal["generalize", "rephrase", "address"]


class Record(BaseModel):
    """One author's text to anonymize, with optional ground truth."""

    id: str = Field(description="Stable identifier of the record within its file.")
    text: str = Field(default="", description="The text, when it is one piece.")
    comments: list[str] = Field(
        default_factory=list, description="The author's comments, when a list."
    )
    labels: dict[str, Any] = Field(
        default_factory=dict, description="Ground-truth attribute values, if known."
    )
    meta: dict[str, Any] = Field(
        default_factory=dict, description="Anything else the input line carried."
    )

    @model_validator(mode="after")
    def _one_text(self) -> Record:
        if not self.text and self.comments:
            self.text = COMMENT_SEPARATOR.join(self.comments)
        return self


COMMENT_SEPARATOR = "\n\n"
"""How a list of comments is joined into one text and split back."""


class AttributeInference(BaseModel):
    """What an attacker believes about one attribute of the author."""

    attribute: str = Field(description="Attribute name, e.g. 'age'.")
    reasoning: str = Field(
        default="", description="Reasoning from clues in the text to the guesses."
    )
    guesses: list[str] = Field(
        default_factory=list,
        max_length=3,
        description="Up to three guesses, most likely first; empty if no clue.",
    )
    certainty: int = Field(
        default=1, ge=1, le=5, description="1 = pure guess ... 5 = stated outright."
    )

    @field_validator("guesses", mode="before")
    @classmethod
    def _clean_guesses(cls, guesses: Any) -> Any:
        # Lenient on shape, strict on meaning: a lone string is one guess, and
        # more than three keeps the three most likely.
        if isinstance(guesses, str):
            guesses = [guesses]
        if isinstance(guesses, list):
            guesses = [
                str(g).strip() for g in guesses if g is not None and str(g).strip()
            ]
            return guesses[:3]
        return guesses

    @property
    def is_leak(self) -> bool:
        """True when the attacker committed to a real guess."""
        return any(g.lower() not in UNKNOWN_GUESSES for g in self.guesses)


UNKNOWN_GUESSES = frozenset({"unknown", "none", "n/a", "na", "", "-", "not sure"})


class Inferences(BaseModel):
    """The attacker's answer: one inference per attribute it was asked about."""

    inferences: list[AttributeInference] = Field(
        description="One entry per attribute to infer."
    )


class LeakVerdict(BaseModel):
    """The arbitrator's judgement of one attacker inference."""

    attribute: str = Field(description="Attribute the attacker reasoned about.")
    validity: Validity = Field(
        description=(
            "high: stated or undeniable; medium: strong style or topic cue; "
            "low: vague stereotype; invalid: not supported by the text."
        )
    )
    evidence: list[str] = Field(
        default_factory=list,
        max_length=5,
        description="Exact phrases of the text the reasoning relies on.",
    )
    concept: str = Field(
        default="",
        description="For high or medium: the fact to neutralize, e.g. 'lives in "
        "Paris'.",
    )
    notes: str = Field(
        default="", max_length=400, description="Why this validity level was chosen."
    )


class Verdicts(BaseModel):
    """The arbitrator's answer: one verdict per inference it was shown."""

    verdicts: list[LeakVerdict] = Field(description="One entry per attribute.")


class PolicyItem(BaseModel):
    """One actionable instruction for the anonymizer."""

    attribute: str = Field(description="Attribute whose leak is to be removed.")
    action: Action = Field(
        description="generalize a specific detail, rephrase a stylistic cue, "
        "or address an inference (no arbitration)."
    )
    evidence: list[str] = Field(
        default_factory=list, description="Phrases of the text behind the leak."
    )
    concept: str = Field(default="", description="What the text gives away.")


class Rewrite(BaseModel):
    """The anonymizer's answer."""

    changes: str = _bounded(300, "One-sentence plan of the edits.", "")
    text: str = Field(description="The full anonymized text, nothing before or after.")


class UtilityScore(BaseModel):
    """A judge's view of how much of the original an anonymized text keeps."""

    readability: int = Field(ge=1, le=10, description="1-10: understandable alone.")
    meaning: int = Field(ge=1, le=10, description="1-10: same core message.")
    hallucination: int = Field(
        ge=0, le=1, description="1 if no new ungrounded information, else 0."
    )
    rationale: str = Field(default="", max_length=800, description="Short reasons.")

    @property
    def util(self) -> float:
        """Combined utility, the mean of the normalized parts (RLAA eq. 9)."""
        return (self.readability / 10 + self.meaning / 10 + self.hallucination) / 3


# Answer schemas: what a model is asked to emit. They are keyed by attribute,
# not lists, so schema-constrained decoding emits each attribute exactly once
# (a free list lets a small model repeat items until it runs out of tokens).


def _require_all(schema: dict[str, Any]) -> None:
    schema["required"] = list(schema.get("properties", {}))


class _Answer(BaseModel):
    # Every key is required in the schema a decoder follows, yet a key a model
    # leaves out validates to its default ("no clue", "no verdict").
    model_config = ConfigDict(json_schema_extra=_require_all)


class _Guess(BaseModel):
    reasoning: str = _bounded(400, "Clues quoted from the text and where they lead.")
    guesses: list[str] = Field(
        max_length=3, description="Up to three guesses, most likely first; [] if none."
    )
    # An enum, not a bounded integer: llama.cpp grammars ignore min/max.
    certainty: Literal[1, 2, 3, 4, 5] = Field(
        description="1 = wild guess ... 5 = stated."
    )

    _clean = field_validator("guesses", mode="before")(
        AttributeInference._clean_guesses.__func__  # type: ignore[attr-defined]
    )


def attack_answer_model(attributes: list[str]) -> type[BaseModel]:
    """Build the attacker's answer schema: one object per attribute to infer."""
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
    return create_model("AttackAnswer", __base__=_Answer, **fields)


def inferences_from_answer(answer: BaseModel) -> list[AttributeInference]:
    """Turn an attacker answer into one `AttributeInference` per attribute."""
    return [
        AttributeInference(attribute=name, **getattr(answer, name).model_dump())
        for name in type(answer).model_fields
    ]


class _Verdict(BaseModel):
    validity: Validity = Field(
        description="high: stated or undeniable; medium: strong style or topic cue; "
        "low: vague stereotype; invalid: not supported by the text."
    )
    evidence: list[str] = Field(
        max_length=3, description="Exact phrases of the text the reasoning relies on."
    )
    concept: str = _bounded(200, "For high or medium: the fact to neutralize.")
    notes: str = _bounded(200, "Why this validity level.")


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
