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


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("female", "Transgender woman", "wrong"),  # claims more than the label
        ("male", "trans man", "wrong"),
        ("female", "Non-binary", "wrong"),
        ("male", "Other", "wrong"),
        ("female", "woman", "correct"),
    ],
)
def test_when_sex_guess_claims_another_gender_identity_then_it_is_wrong(
    truth: str, guess: str, expected: str
) -> None:
    match = match_guess("sex", truth, guess)
    assert (match.outcome, match.decided_by) == (expected, "rule")


@pytest.mark.parametrize(
    ("truth", "guess"),
    [
        ("divorced", "single"),
        ("widowed", "not in a relationship"),
        ("engaged", "in a relationship"),
    ],
)
def test_when_relationship_guess_is_the_broader_class_then_it_is_wrong(
    truth: str, guess: str
) -> None:
    match = match_guess("relationship_status", truth, guess)
    assert match.outcome == "wrong"
    assert "broader class" in match.reason
