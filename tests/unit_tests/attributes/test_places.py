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


@pytest.mark.parametrize(
    ("truth", "guess", "expected", "reason"),
    [
        # Another city of the right country: less precise, as people judge it,
        # also when the guess names no country (the gazetteer knows it).
        ("Lyon, France", "Toulouse, France", "less_precise", "another place in"),
        ("Lyon, France", "Toulouse", "less_precise", "another place in"),
        ("Lyon, France", "Geneva", "wrong", "country"),
        # A state, region or continent that holds the city: less precise.
        ("Houston, USA", "Texas", "less_precise", "same state"),
        ("Chicago, USA", "the Midwest", "less_precise", "spans 'illinois'"),
        ("Seattle, USA", "the Pacific Northwest", "less_precise", "spans"),
        ("Porto, Portugal", "Iberia", "less_precise", "holds 'portugal'"),
        ("Porto, Portugal", "Europe", "less_precise", "holds 'portugal'"),
        ("Porto, Portugal", "South America", "wrong", "does not hold"),
        # A state of the right country that does not hold the city.
        ("Houston, USA", "Ohio", "less_precise", "right country"),
        # A town of the state names the guess's city: Albany is not NYC.
        ("New York, USA", "Albany, New York", "less_precise", "another place"),
        ("New York, USA", "New York, NY", "correct", "same place"),
        # A state label: a city inside it is right, one outside less precise.
        ("Texas, USA", "Austin", "correct", "in 'texas'"),
        ("Texas, USA", "Denver, USA", "less_precise", "right country"),
        ("Ontario, Canada", "Toronto", "correct", "in 'ontario'"),
    ],
)
def test_when_place_guess_misses_the_city_then_the_right_country_is_less_precise(
    truth: str, guess: str, expected: str, reason: str
) -> None:
    match = match_guess("city_country", truth, guess)
    assert (match.outcome, match.decided_by) == (expected, "rule")
    assert reason in match.reason
