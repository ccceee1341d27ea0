"""Places: one rule for where the author lives and was born."""

from __future__ import annotations

import pytest

from anonygraph.tools.matching import match_guess

from .quoted import PLACE_CASES, UNDECIDED_PLACE_CASES


@pytest.mark.parametrize(("attribute", "truth", "guess", "expected"), PLACE_CASES)
def test_when_place_guess_is_judged_then_city_country_and_precision_are_checked(
    attribute: str, truth: str, guess: str, expected: str
) -> None:
    assert match_guess(attribute, truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("United Kingdom", "London, UK", "correct"),  # more specific, inside it
        ("United States", "USA", "correct"),
        ("Texas, USA", "Houston, Texas", "correct"),
        ("Vancouver, Canada", "Canada", "less_precise"),
        ("Vancouver, Canada", "Vancouver, WA", "wrong"),  # a US state
    ],
)
def test_when_place_label_is_a_country_or_state_then_guesses_inside_it_count(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("city_country", truth, guess).outcome == expected


@pytest.mark.parametrize(("attribute", "truth", "guess"), UNDECIDED_PLACE_CASES)
def test_when_place_guess_lies_nowhere_the_rules_know_then_the_validator_decides(
    attribute: str, truth: str, guess: str
) -> None:
    fallback = match_guess(attribute, truth, guess)
    asked = match_guess(attribute, truth, guess, validator=lambda *_: "less precise")
    assert (fallback.outcome, fallback.decided_by) == ("wrong", "fallback")
    assert (asked.outcome, asked.decided_by) == ("less_precise", "validator")


@pytest.mark.parametrize("attribute", ["city_country", "birth_city_country"])
@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("Graz, Austria", "Vienna, Austria", "less_precise"),  # right country
        ("Graz, Austria", "Austria", "less_precise"),
        ("Graz, Austria", "Graz", "correct"),
        ("Graz, Austria", "Scandinavia", "wrong"),
    ],
)
def test_when_either_place_attribute_is_judged_then_one_rule_decides(
    attribute: str, truth: str, guess: str, expected: str
) -> None:
    assert match_guess(attribute, truth, guess).outcome == expected
