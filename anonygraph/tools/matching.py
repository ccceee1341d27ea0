"""Score attacker guesses against ground-truth labels, without a judge model.

The thin scoring entry point over the attribute registry: each attribute's
own module (``anonygraph.attributes``) holds its parser and match rule; this
module drops unknown guesses, asks the rule, falls back to an optional
validator, and counts top-1 / top-3 accuracy.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from anonygraph.attributes import (
    ATTRIBUTES,
    Decision,
    Rule,
    canonical_attribute,
    is_unknown,
    normalize,
    paper_seal,
)
from anonygraph.attributes.base import strip_asides

Outcome = Literal["correct", "less_precise", "wrong", "skipped"]
"""Final verdict on one guess or one attribute."""

DecidedBy = Literal["rule", "validator", "fallback"]
"""Who settled a guess; ``fallback`` means no rule or validator could."""

Validator = Callable[[str, str, str], str]
"""Judge hook: ``(attribute, truth, guess) -> "yes" | "no" | "less precise"``."""


@dataclass(frozen=True)
class RuleSet:
    """Rules that replace the registry's, and what else counts as a guess."""

    rules: Mapping[str, Rule] = field(default_factory=dict)
    """Attribute -> rule; an attribute not named keeps the registry's rule."""
    answers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Attribute -> normalized placeholders that are guesses under these rules."""

    def rule(self, attribute: str) -> Rule | None:
        """Return the rule for ``attribute``: ours, else the registry's."""
        spec = ATTRIBUTES.get(attribute)
        return self.rules.get(attribute, spec.match if spec is not None else None)

    def is_guess(self, attribute: str, guess: str) -> bool:
        """Return True when ``guess`` names a value (is not a placeholder)."""
        if not is_unknown(guess):
            return True
        return normalize(strip_asides(guess)) in self.answers.get(attribute, ())


RULE_SETS: Mapping[str, RuleSet] = {
    "product": RuleSet(),
    "seal": RuleSet(paper_seal.RULES, paper_seal.ANSWERS),
}
"""Named rule sets; ``seal`` is SEAL's Appendix A.1 scoring (with D.4)."""


class GuessMatch(BaseModel):
    """The verdict on one guess."""

    model_config = ConfigDict(frozen=True)

    guess: str = Field(description="The guess as the attacker wrote it.")
    outcome: Outcome = Field(description="correct, less_precise, wrong or skipped.")
    reason: str = Field(description="Which rule decided, in words.")
    decided_by: DecidedBy = Field(
        default="rule", description="rule, validator, or fallback when neither could."
    )


NO_INFERENCE = "no inference"
NO_GUESS = "empty or unknown guesses"
ABSTAINED: frozenset[str] = frozenset({NO_INFERENCE, NO_GUESS})
"""Skip reasons where the attacker, not the label, gave nothing to judge: no
guess can be scored, but as an attack it failed (privacy counts it a miss)."""


class AttributeMatch(BaseModel):
    """The verdict on one attacker inference against one label."""

    model_config = ConfigDict(frozen=True)

    record_id: str = Field(default="", description="Record the label belongs to.")
    attribute: str = Field(description="Canonical attribute name.")
    truth: str = Field(description="Ground-truth label as text; empty if none.")
    guesses: list[GuessMatch] = Field(
        default_factory=list, description="Verdicts for the scored guesses, in order."
    )
    hardness: int | None = Field(default=None, description="Label hardness 1-5.")
    skipped_reason: str = Field(
        default="", description="Why the attribute was not scored; empty if scored."
    )

    @property
    def skipped(self) -> bool:
        """True when the attribute is left out of accuracy."""
        return bool(self.skipped_reason)

    @property
    def top1(self) -> Outcome:
        """Outcome of the first guess."""
        return self.guesses[0].outcome if self.guesses else "skipped"

    def best(self, k: int = 3) -> Outcome:
        """Best outcome among the first ``k`` guesses."""
        outcomes = {g.outcome for g in self.guesses[:k]}
        for outcome in ("correct", "less_precise", "wrong"):
            if outcome in outcomes:
                return outcome
        return "skipped"


class AccuracyRow(BaseModel):
    """Top-1 and top-3 accuracy of one group of attribute matches."""

    group: str = Field(description="'all', an attribute name, or 'hardness=N'.")
    total: int = Field(description="Attribute matches in the group, skipped included.")
    scored: int = Field(description="Matches that were not skipped.")
    top1_correct: int = Field(description="Scored matches whose first guess is right.")
    top3_correct: int = Field(description="Scored matches with a right guess in 3.")
    top1_less_precise: int = Field(description="First guess less precise.")
    top3_less_precise: int = Field(
        description="No right guess in 3, but at least one less precise."
    )
    undecided_top1: int = Field(
        description="First guess settled by fallback: no rule or validator decided."
    )
    undecided_top3: int = Field(
        description="No right guess in 3 and one of them settled by fallback, so a "
        "validator could still raise top-3."
    )
    skipped: dict[str, int] = Field(
        default_factory=dict, description="Count of skipped matches per reason."
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def top1(self) -> float | None:
        """Top-1 accuracy over scored matches, None when nothing was scored."""
        return self.top1_correct / self.scored if self.scored else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def top3(self) -> float | None:
        """Top-3 accuracy over scored matches, None when nothing was scored."""
        return self.top3_correct / self.scored if self.scored else None


class AccuracyReport(BaseModel):
    """Accuracy overall, per attribute and per hardness."""

    overall: AccuracyRow = Field(description="All matches together.")
    per_attribute: dict[str, AccuracyRow] = Field(description="Keyed by attribute.")
    per_hardness: dict[int, AccuracyRow] = Field(
        description="Keyed by hardness; matches without hardness are left out."
    )

    def rows(self) -> list[AccuracyRow]:
        """Return every row, overall first, for a table."""
        return [
            self.overall,
            *self.per_attribute.values(),
            *(self.per_hardness[h] for h in sorted(self.per_hardness)),
        ]

    def to_table(self) -> str:
        """Render the report as a Markdown table."""
        lines = [
            "| group | scored | top-1 | top-3 | less precise (1/3) "
            "| undecided (1/3) | skipped |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in self.rows():
            skipped = ", ".join(f"{k}: {v}" for k, v in sorted(row.skipped.items()))
            lines.append(
                f"| {row.group} | {row.scored} | {_fmt(row.top1)} | {_fmt(row.top3)} "
                f"| {row.top1_less_precise}/{row.top3_less_precise} "
                f"| {row.undecided_top1}/{row.undecided_top3} | {skipped or '-'} |"
            )
        return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


# --------------------------------------------------------------------------
# Public matching API
# --------------------------------------------------------------------------

_VERDICTS: dict[str, Outcome] = {
    "yes": "correct",
    "no": "wrong",
    "less precise": "less_precise",
    "less_precise": "less_precise",
}


def match_guess(
    attribute: str,
    truth: Any,
    guess: str,
    *,
    validator: Validator | None = None,
    undecided_as: Outcome = "wrong",
    rules: RuleSet | None = None,
) -> GuessMatch:
    """Judge one guess against the ground truth by rules.

    Args:
        attribute: Attribute name; data set aliases (``pobp``, ``income``) work.
        truth: The label; numbers are read as text.
        guess: One attacker guess.
        validator: Optional judge asked only when no rule decides.
        undecided_as: Outcome recorded when neither rules nor validator decide.
        rules: Rules that replace the registry's for the attributes they name
            (a paper protocol's, ``RULE_SETS``); None: the registry's.

    Returns:
        The verdict with the reason and who decided it.

    """
    attribute = canonical_attribute(attribute)
    truth_text = "" if truth is None else str(truth).strip()
    if not truth_text or is_unknown(truth_text):
        return GuessMatch(guess=guess, outcome="skipped", reason="no label")
    rule_set = rules or RULE_SETS["product"]
    if not rule_set.is_guess(attribute, guess):
        return GuessMatch(
            guess=guess, outcome="skipped", reason="empty or unknown guess"
        )
    rule = rule_set.rule(attribute)
    if rule is None:
        decision, reason = _match_free_text(truth_text, guess)
    else:
        decision, reason = rule(truth_text, guess)
    if decision != "undecided":
        return GuessMatch(guess=guess, outcome=decision, reason=reason)
    if validator is not None:
        try:
            reply = validator(attribute, truth_text, guess)
        except Exception as error:  # noqa: BLE001 - a failing judge must not stop scoring
            reason = f"{reason}; validator failed: {error}"
        else:
            verdict = _VERDICTS.get(normalize(str(reply)).replace("_", " "))
            if verdict is not None:
                return GuessMatch(
                    guess=guess,
                    outcome=verdict,
                    reason=f"validator said {reply!r} ({reason})",
                    decided_by="validator",
                )
            reason = f"{reason}; validator reply {reply!r} not understood"
    return GuessMatch(
        guess=guess,
        outcome=undecided_as,
        reason=f"undecided: {reason}",
        decided_by="fallback",
    )


def _match_free_text(truth: str, guess: str) -> tuple[Decision, str]:
    """Compare attributes without a rule of their own by normalized text."""
    t, g = normalize(truth), normalize(guess)
    if t == g or SequenceMatcher(None, t, g).ratio() >= 0.9:
        return "correct", "same text"
    return "undecided", "no rule for this attribute"


def match_inference(
    attribute: str,
    truth: Any,
    guesses: Sequence[str] | None,
    *,
    record_id: str = "",
    hardness: int | None = None,
    k: int = 3,
    validator: Validator | None = None,
    undecided_as: Outcome = "wrong",
    rules: RuleSet | None = None,
) -> AttributeMatch:
    """Judge an attacker's ranked guesses for one attribute.

    Empty and "unknown" guesses are dropped first, so the top-1 guess is the
    first real one. The attribute is skipped, with the reason, when there is
    no label, no real guess, or a label outside the attribute's option set.

    Args:
        attribute: Attribute name or data set alias.
        truth: Ground-truth label, None when missing.
        guesses: The attacker's guesses, most likely first; None if it gave none.
        record_id: Record the label belongs to, carried into the result.
        hardness: Label hardness 1-5, if the data has it.
        k: How many guesses to judge.
        validator: Optional judge for what the rules cannot decide.
        undecided_as: Outcome for guesses neither rules nor validator decide.
        rules: Rules replacing the registry's (see ``match_guess``).

    Returns:
        The per-guess verdicts, or the reason the attribute was skipped.

    """
    attribute = canonical_attribute(attribute)
    truth_text = "" if truth is None else str(truth).strip()
    base: dict[str, Any] = {
        "record_id": record_id,
        "attribute": attribute,
        "truth": truth_text,
        "hardness": hardness,
    }
    if not truth_text or is_unknown(truth_text):
        return AttributeMatch(**base, skipped_reason="no label")
    if guesses is None:
        return AttributeMatch(**base, skipped_reason=NO_INFERENCE)
    rule_set = rules or RULE_SETS["product"]
    real = [g.strip() for g in guesses if rule_set.is_guess(attribute, g)][:k]
    if not real:
        return AttributeMatch(**base, skipped_reason=NO_GUESS)
    matches = [
        match_guess(
            attribute,
            truth_text,
            g,
            validator=validator,
            undecided_as=undecided_as,
            rules=rules,
        )
        for g in real
    ]
    label_problem = next((m.reason for m in matches if m.outcome == "skipped"), "")
    if label_problem:
        return AttributeMatch(**base, skipped_reason=label_problem)
    return AttributeMatch(**base, guesses=matches)


def accuracy(matches: Iterable[AttributeMatch], group: str = "all") -> AccuracyRow:
    """Count top-1 and top-3 outcomes of a group of attribute matches.

    Args:
        matches: Attribute matches of one group.
        group: Name of the group, shown in reports.

    Returns:
        Counts and accuracies; skipped matches are counted by reason only.

    """
    counts: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    for match in matches:
        counts["total"] += 1
        if match.skipped:
            skipped[_skip_key(match.skipped_reason)] += 1
            continue
        counts["scored"] += 1
        counts["top1_correct"] += match.top1 == "correct"
        counts["top1_less_precise"] += match.top1 == "less_precise"
        best = match.best(3)
        counts["top3_correct"] += best == "correct"
        counts["top3_less_precise"] += best == "less_precise"
        fallbacks = [g.decided_by == "fallback" for g in match.guesses[:3]]
        counts["undecided_top1"] += fallbacks[0]
        counts["undecided_top3"] += best != "correct" and any(fallbacks)
    return AccuracyRow(
        group=group,
        total=counts["total"],
        scored=counts["scored"],
        top1_correct=counts["top1_correct"],
        top3_correct=counts["top3_correct"],
        top1_less_precise=counts["top1_less_precise"],
        top3_less_precise=counts["top3_less_precise"],
        undecided_top1=counts["undecided_top1"],
        undecided_top3=counts["undecided_top3"],
        skipped=dict(skipped),
    )


def _skip_key(reason: str) -> str:
    """Group skip reasons that embed the label into one key."""
    if "outside the option set" in reason:
        return "label outside the option set"
    if reason.startswith("label "):
        return "unreadable label"
    return reason


def accuracy_report(matches: Iterable[AttributeMatch]) -> AccuracyReport:
    """Aggregate accuracy overall, per attribute and per hardness.

    Args:
        matches: Every attribute match of an evaluation.

    Returns:
        The report; attributes and hardness levels appear in sorted order.

    """
    items = list(matches)
    by_attribute: dict[str, list[AttributeMatch]] = defaultdict(list)
    by_hardness: dict[int, list[AttributeMatch]] = defaultdict(list)
    for match in items:
        by_attribute[match.attribute].append(match)
        if match.hardness is not None:
            by_hardness[match.hardness].append(match)
    return AccuracyReport(
        overall=accuracy(items),
        per_attribute={a: accuracy(by_attribute[a], a) for a in sorted(by_attribute)},
        per_hardness={
            h: accuracy(by_hardness[h], f"hardness={h}") for h in sorted(by_hardness)
        },
    )
