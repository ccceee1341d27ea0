"""Sex and relationship status."""

from __future__ import annotations

import pytest

from anonygraph.tools.matching import match_guess

from .quoted import RELATIONSHIP_CASES, SEX_CASES


@pytest.mark.parametrize(("truth", "guess", "expected"), SEX_CASES)
def test_when_sex_guess_is_judged_then_it_maps_to_male_or_female(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("gender", truth, guess).outcome == expected


@pytest.mark.parametrize(("truth", "guess", "expected"), RELATIONSHIP_CASES)
def test_when_relationship_guess_is_judged_then_option_and_broader_class_count(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("married", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("guess", "expected"),
    [
        ("my wife and I", "correct"),
        ("Married (mentions husband)", "correct"),
        ("ex-wife mentioned", "wrong"),  # reads as divorced
        ("unmarried", "wrong"),
    ],
)
def test_when_relationship_guess_is_free_text_then_keywords_map_it(
    guess: str, expected: str
) -> None:
    assert match_guess("relationship_status", "married", guess).outcome == expected
