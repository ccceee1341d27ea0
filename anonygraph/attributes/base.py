"""What every attribute shares: the spec type, verdicts, text cleaning, unknowns."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Decision = Literal["correct", "less_precise", "wrong", "skipped", "undecided"]
"""What a rule returns; ``undecided`` goes to the validator, if any."""

Rule = Callable[[str, str], tuple[Decision, str]]
"""A match rule: ``(truth, guess) -> (decision, reason in words)``."""


@dataclass(frozen=True)
class AttributeSpec:
    """One attribute an attacker may infer about an author, all in one place."""

    name: str
    """Key used in prompts, state and labels."""

    description: str
    """What the attribute means, shown to the models."""

    options: tuple[str, ...] = field(default=())
    """Closed set of allowed values; empty when the value is free text."""

    aliases: tuple[str, ...] = field(default=())
    """Names data sets and older prompts use for it (``pobp``, ``gender``)."""

    parse: Callable[[str], object] | None = field(default=None, compare=False)
    """Reads a label or guess into the value the rule compares; None if free text."""

    match: Rule | None = field(default=None, compare=False)
    """Judges a guess against the truth; None means compare as plain text."""


def normalize(text: str) -> str:
    """Lowercase, strip accents and punctuation, and collapse spaces.

    Args:
        text: Any label or guess.

    Returns:
        The text as plain lowercase ASCII words separated by single spaces.

    """
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(c for c in decomposed if not unicodedata.combining(c))
    ascii_text = ascii_text.lower().replace("&", " and ")
    return " ".join(re.sub(r"[^a-z0-9$€£]+", " ", ascii_text).split())


def strip_asides(text: str) -> str:
    """Drop parenthesized remarks, which often name other places or reasons."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"\([^()]*\)?", " ", text)
    return text.strip().rstrip(".;").strip()


# What "unknown" means, for the anonymization loop (is a guess a leak?) and
# the evaluator (is a guess scored?) alike: a guess that names no value.
# "unclear", "cannot tell" and the like commit to nothing, so they are no
# leak and are not scored; an empty text or a bare aside is the same.
UNKNOWN_GUESSES = frozenset(
    {
        "",
        "unknown",
        "none",
        "n a",
        "na",
        "not sure",
        "unsure",
        "not specified",
        "unspecified",
        "no guess",
        "unclear",
        "cannot tell",
        "can t tell",
        "cannot determine",
        "cannot be determined",
        "undetermined",
        "not enough info",
        "not enough information",
        "insufficient information",
        "prefer not to say",
        "rather not say",
    }
)
"""Normalized placeholders that name no value."""


def is_unknown(guess: object) -> bool:
    """Return True for an empty guess or a placeholder such as 'unknown'.

    The one test of "did the attacker commit to a value" that both the
    anonymization loop and the evaluator use. Parenthesized remarks are
    dropped first, so "(no other guess needed)" is empty too.

    Args:
        guess: A guess or label; None and non-text values are read as text.

    Returns:
        True when nothing but a placeholder is left.

    """
    if guess is None:
        return True
    return normalize(strip_asides(str(guess))) in UNKNOWN_GUESSES
