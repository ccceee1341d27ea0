"""Income level: words, amounts, and spans of levels."""

from __future__ import annotations

import pytest

from anonygraph.tools.matching import match_guess

from .quoted import INCOME_CASES


@pytest.mark.parametrize(("truth", "guess", "expected"), INCOME_CASES)
def test_when_income_guess_names_a_level_then_the_level_decides(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("income", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("high", "60-150k", "correct"),  # PersonalReddit bands, USD by default
        ("high", "100k USD", "correct"),
        ("middle", "$45,000 a year", "correct"),
        ("low", "2k per month", "correct"),  # 24k a year
        ("very high", "200 thousand euros", "correct"),
        ("middle", "50-70k", "less_precise"),  # spans middle and high
        ("middle", "over 60k", "wrong"),
        ("middle", "800 thousand Argentine Peso", "wrong"),  # no rate: undecided
    ],
)
def test_when_income_guess_names_an_amount_then_it_falls_in_a_band(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("income_level", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("low", "lower-middle", "correct"),  # people read it as low
        ("middle", "lower middle income", "wrong"),
        ("middle", "upper middle", "wrong"),  # between levels: neither
        ("high", "upper-middle", "wrong"),
        ("middle", "20-200k", "less_precise"),  # low to very high: too wide
        ("very high", "lower-middle", "wrong"),
    ],
)
def test_when_income_guess_names_a_level_between_bands_then_people_s_reading_holds(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("income_level", truth, guess).outcome == expected
