"""Domain types every graph speaks: records, inferences, verdicts, policy, utility.

What a model is asked to emit (the answer schemas) is in `anonygraph.state.answers`;
types only one method uses live with that method's state.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from anonygraph.attributes import is_unknown

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
        return any(not is_unknown(g) for g in self.guesses)


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


class UtilityScore(BaseModel):
    """A judge's view of how much of the original an anonymized text keeps."""

    readability: int = Field(ge=1, le=10, description="1-10: understandable alone.")
    meaning: int = Field(ge=1, le=10, description="1-10: same core message.")
    hallucination: int = Field(
        ge=0, le=1, description="1 if no new ungrounded information, else 0."
    )
    rationale: str = Field(default="", description="Short reasons.")

    @property
    def util(self) -> float:
        """Combined utility, the mean of the normalized parts (RLAA eq. 9)."""
        return (self.readability / 10 + self.meaning / 10 + self.hallucination) / 3
