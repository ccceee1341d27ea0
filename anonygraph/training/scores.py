"""Rank SEAL trajectory states and pick the index pairs the data sets are made of.

A trajectory is a list of states s_i = (x_i, P_i, U_i). Privacy is scored
p(s) = (-|P|, -mean certainty of P) over the attributes actually guessed, and
compared lexicographically; utility u(s) is the mean of readability/10,
meaning/10 and the no-hallucination flag. Scores are exact fractions, so two
states that tie on paper also tie here.

One deviation from the paper's sets, in the product's data only: a pair
whose two texts are the same up to white space is left out, since it would
teach copying (D_anon) or prefer a text to itself (D_pref); the paper states
no such filter (4.1, 4.2), so its profile keeps them (``keep_identical``).
Table 3's "Conf." ablation scores privacy without the certainty
(``confidence=False``: p(s) = (-|P|, 0)).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from anonygraph.state.seal import TrajectoryStep
from anonygraph.tools.seal.feedback import leaks

PrivacyScore = tuple[int, Fraction]


def privacy_score(step: TrajectoryStep, confidence: bool = True) -> PrivacyScore:
    """Return p(s) = (-|P|, -mean certainty); higher is more private.

    ``confidence=False``: (-|P|, 0), the count of inferred attributes alone
    (SEAL Table 3 without "Conf.").
    """
    guessed = leaks(step.inferences)
    if not guessed or not confidence:
        return (-len(guessed), Fraction(0))
    return (-len(guessed), -Fraction(sum(i.certainty for i in guessed), len(guessed)))


def utility_score(step: TrajectoryStep) -> Fraction:
    """Return u(s): the mean of readability/10, meaning/10 and no-hallucination."""
    u = step.utility
    parts = (
        Fraction(u.readability.score, 10),
        Fraction(u.meaning.score, 10),
        Fraction(u.hallucination.score),
    )
    return sum(parts, Fraction(0)) / len(parts)


def better(a: TrajectoryStep, b: TrajectoryStep, confidence: bool = True) -> bool:
    """Say whether ``a`` beats ``b``: strictly more private, at least as useful."""
    return privacy_score(a, confidence) > privacy_score(
        b, confidence
    ) and utility_score(a) >= utility_score(b)


def same_text(a: str, b: str) -> bool:
    """Compare two texts ignoring differences in white space."""
    return a.split() == b.split()


def anonymization_pairs(
    steps: Sequence[TrajectoryStep],
    *,
    confidence: bool = True,
    keep_identical: bool = False,
) -> list[tuple[int, int]]:
    """Return D_anon's index pairs (i, j): i < j and s_j better than s_i."""
    return [
        (i, j)
        for i in range(len(steps))
        for j in range(i + 1, len(steps))
        if better(steps[j], steps[i], confidence)
        and (keep_identical or not same_text(steps[i].text, steps[j].text))
    ]


def preference_triples(
    steps: Sequence[TrajectoryStep],
    *,
    confidence: bool = True,
    keep_identical: bool = False,
) -> list[tuple[int, int, int]]:
    """Return D_pref's index triples (i, w, l): i < w, l and s_w better than s_l."""
    return [
        (i, w, l)
        for i in range(len(steps))
        for w in range(i + 1, len(steps))
        for l in range(i + 1, len(steps))  # noqa: E741 - the paper's name
        if better(steps[w], steps[l], confidence)
        and (keep_identical or not same_text(steps[w].text, steps[l].text))
    ]
