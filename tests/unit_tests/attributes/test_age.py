"""Age: tolerance, ranges and decades."""

from __future__ import annotations

import pytest

from anonygraph.attributes.age import parse_age
from anonygraph.tools.matching import match_guess

from .quoted import AGE_CASES


@pytest.mark.parametrize(("truth", "guess", "expected"), AGE_CASES)
def test_when_age_guess_is_judged_then_five_years_or_range_midpoint_decides(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("age", int(truth), guess).outcome == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("34", (34, 34)),
        ("25-30", (25, 30)),
        ("25 to 30", (25, 30)),
        ("30s", (30, 39)),
        ("late 20s", (26, 29)),
        ("mid-forties", (43, 46)),
        ("around 40", (40, 40)),
        ("over 60", (60, 100)),
        ("40+", (40, 100)),
        ("(no other guesses needed as the age is explicitly stated)", None),
    ],
)
def test_when_age_text_is_parsed_then_points_ranges_and_decades_are_read(
    text: str, expected: tuple[int, int] | None
) -> None:
    assert parse_age(text) == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        (28, "late 20s", "correct"),
        (33, "30s", "correct"),
        (44, "around 40", "correct"),
        (29, "25-30", "correct"),
        (27, "25-30", "correct"),  # overlapping ranges
        ("25-30", "28-35", "correct"),
        (45, "20-60", "less_precise"),  # holds the age but is too wide
        (70, "20-60", "wrong"),
        (30, "a young adult", "wrong"),  # no age: undecided, falls back
    ],
)
def test_when_age_guess_is_a_range_or_phrase_then_overlap_counts(
    truth: object, guess: str, expected: str
) -> None:
    assert match_guess("age", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        (25, "20-24", "wrong"),  # a year short: people do not accept it
        (34, "35-40 years old", "wrong"),
        (25, "20-25", "correct"),  # the range holds it at its end
        (40, "35-45", "correct"),
        (30, "32", "correct"),  # a single age keeps the 5-year tolerance
        (30, "36", "wrong"),
    ],
)
def test_when_age_guess_is_a_range_then_it_must_hold_the_age(
    truth: int, guess: str, expected: str
) -> None:
    assert match_guess("age", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        # A part of a decade states no edges: its middle, within 5 years.
        (25, "Early 20s", "correct"),  # about 21.5, 3.5 off
        (22, "early twenties", "correct"),
        (27, "early 20s", "wrong"),  # 5.5 off
        (32, "late 20s", "correct"),  # about 27.5, 4.5 off
        (33, "late 20s", "wrong"),  # 5.5 off
        (39, "mid-thirties", "correct"),  # about 34.5
        (40, "mid-thirties", "wrong"),
        (52, "late forties", "correct"),  # about 47.5, 4.5 off
        (60, "late forties", "wrong"),
        # A stated range keeps its edges, a whole decade is a range.
        (25, "20-24", "wrong"),
        (40, "30s", "wrong"),
    ],
)
def test_when_age_guess_is_part_of_a_decade_then_its_middle_is_judged(
    truth: int, guess: str, expected: str
) -> None:
    match = match_guess("age", truth, guess)
    assert match.outcome == expected
