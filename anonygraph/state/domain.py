"""Domain types every graph speaks; LLM output is validated into these."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    create_model,
    field_validator,
    model_validator,
)

from anonygraph.attributes import ATTRIBUTES, is_unknown


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
    rationale: str = Field(default="", description="Short reasons.")

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


class ValidatorAnswer(BaseModel):
    """The validator's decision on one guess the rules could not settle."""

    verdict: Literal["yes", "no", "less precise"] = Field(
        description="yes: same thing; less precise: right but coarser; no: wrong."
    )


# IntentAnony: pragmatic intents, evidence chains and exposure budgets.

IntentCode = Literal["I1", "I2", "I3", "I4", "I5"]
Level = Literal["L0", "L1", "L2", "L3", "BAN"]
SpanAction = Literal["keep", "generalize", "remove"]

INTENT_NAMES: dict[str, str] = {
    "I1": "self-expression",
    "I2": "social interaction",
    "I3": "professional showcase",
    "I4": "information sharing",
    "I5": "sensitive disclosure",
}
"""The pragmatic intents IntentAnony recognizes, by code."""

LEVELS: tuple[str, ...] = ("L0", "L1", "L2", "L3", "BAN")
"""Exposure levels, least to most restrictive: L0 keeps, BAN suppresses."""

INTENT_WEIGHTS: tuple[float, ...] = tuple(i / 10 for i in range(11))
"""The weights a constrained decoder may emit: a 0.1 grid over [0, 1]."""


class Intent(BaseModel):
    """One pragmatic intent of a text, with how prominent it is."""

    code: IntentCode = Field(description="I1 ... I5.")
    name: str = Field(description="Readable name, e.g. 'self-expression'.")
    weight: float = Field(ge=0, le=1, description="Prominence in [0, 1]; 0: absent.")


class EvidenceStep(BaseModel):
    """One link of an evidence chain: a verbatim quote and what it gives away."""

    step: str = Field(default="", description="What this step of inference does.")
    quote: str = Field(description="Words of the text, verbatim.")
    explanation: str = Field(
        default="", description="Why the quote reveals the attribute."
    )
    intent: IntentCode | Literal["none"] = Field(
        default="none", description="The recognized intent the quote serves, if any."
    )
    intent_relevant: bool = Field(
        default=False,
        description="Set in code: the quote serves an intent above the threshold.",
    )
    action: SpanAction = Field(
        default="keep",
        description="Set in code from the budget: keep, generalize, "
        "or remove the quote.",
    )


class EvidenceChain(BaseModel):
    """How the text supports inferring one attribute, step by step."""

    attribute: str = Field(description="Attribute the chain supports.")
    steps: list[EvidenceStep] = Field(
        default_factory=list, description="Ordered steps whose quotes are in the text."
    )
    dropped: list[str] = Field(
        default_factory=list,
        description="Quotes the model gave that are not in the text (discarded).",
    )


class ExposureBudget(BaseModel):
    """How much one attribute may still be inferable from the anonymized text."""

    attribute: str = Field(description="Attribute the budget is for.")
    level: Level = Field(description="Effective level: the strictest over intents.")
    max_certainty: int = Field(
        ge=1, le=5, description="Highest attacker certainty the level tolerates."
    )
    source: Literal["table", "privacy_level", "no_intent"] = Field(
        description="table: eq. 6 over the counted intents; privacy_level: the "
        "run's override; no_intent: no intent passed the threshold."
    )
    by_intent: dict[str, Level] = Field(
        default_factory=dict, description="G(scene, intent, attribute) per intent."
    )
    defaulted: list[str] = Field(
        default_factory=list,
        description="Intents whose table entry was missing (default level used).",
    )


class ExposureTable(BaseModel):
    """The governance function G(scene, intent, attribute) -> level, as data."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(default="", description="Free notes for readers.")
    fallback_scene: str = Field(
        default="general",
        description="Scene consulted when the recognized one has no entry.",
    )
    scenes: dict[str, dict[IntentCode, dict[str, Level]]] = Field(
        description="scene -> intent -> attribute -> level."
    )

    @model_validator(mode="after")
    def _known_names(self) -> ExposureTable:
        # Imported here: attributes.py must not depend on the domain module.
        from anonygraph.attributes import resolve_attributes

        for by_intent in self.scenes.values():
            for intent, levels in by_intent.items():
                by_intent[intent] = {
                    resolve_attributes([name])[0]: level
                    for name, level in levels.items()
                }
        if self.fallback_scene not in self.scenes:
            raise ValueError(
                f"fallback scene {self.fallback_scene!r} is not among the "
                f"scenes {sorted(self.scenes)}"
            )
        return self

    def lookup(self, scene: str, intent: str, attribute: str) -> str | None:
        """Return G(scene, intent, attribute), trying the fallback scene second."""
        for name in (scene, self.fallback_scene):
            level = self.scenes.get(name, {}).get(intent, {}).get(attribute)  # type: ignore[call-overload]
            if level is not None:
                return str(level)
        return None


class SpanEdit(BaseModel):
    """What one rewrite did to one evidence span."""

    quote: str = Field(description="The span as it stood in the text rewritten.")
    attributes: list[str] = Field(description="Attributes whose chains hold it.")
    action: SpanAction = Field(description="What the plan asked for.")
    intent_relevant: bool = Field(description="The span serves a counted intent.")
    outcome: Literal["kept", "changed"] = Field(
        description="kept: still there verbatim; changed: edited or removed."
    )
    replaced_by: str | None = Field(
        default=None, description="What the span became ('' if deleted); None if kept."
    )

    @property
    def violates_plan(self) -> bool:
        """True when the rewrite did the opposite of what the plan asked."""
        return (self.action == "keep") == (self.outcome == "changed")


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


# AURA: adaptive privacy scope, mask template, reconstruction candidates.

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


class _Finding(_Answer):
    attribute: str = _bounded(
        40, "Attribute name, or a short snake_case label of your own.", ""
    )
    kind: QuasiKind = Field(default="other", description="What kind of clue it is.")
    description: str = _bounded(120, "What the clue reveals about the author.", "")
    quote: Phrase = Field(default="", description="Exact words of the text.")


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
