"""Education: degree levels kept apart, then the field."""

from __future__ import annotations

import pytest

from anonygraph.tools.matching import match_guess

from .quoted import EDUCATION_CASES


@pytest.mark.parametrize(("truth", "guess", "expected"), EDUCATION_CASES)
def test_when_education_is_free_text_then_both_map_to_the_six_levels(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("education", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("Bachelor of Science in Biology", "master's in biology", "wrong"),
        ("MSc Physics", "BSc Physics", "wrong"),
        ("Masters in History", "PhD in History", "wrong"),
        ("Associate degree in accounting", "bachelor's in accounting", "wrong"),
    ],
)
def test_when_degree_levels_differ_then_the_guess_is_wrong(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("education", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("Master of Arts in Philosophy", "university degree in philosophy", "wrong"),
        ("Bachelors in Chemistry", "College Degree", "correct"),
        ("Bachelors in Chemistry", "degree in history", "wrong"),  # other field
        ("university degree in nursing", "Bachelor of Nursing", "correct"),
        ("law degree", "Master's degree", "wrong"),
        ("MBA", "College Degree", "wrong"),
    ],
)
def test_when_one_degree_has_no_level_then_it_reads_as_a_first_degree(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("education", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("Bachelors in Geology", "BSc in Geology", "correct"),
        ("Masters in Marine Biology", "Masters in Biology", "less_precise"),  # broader
        ("Masters in Law", "Masters in Law and Economics", "correct"),  # alternatives
        ("Bachelors in Music", "Bachelors in Music Education", "less_precise"),
        ("Bachelors in Music", "Bachelors in Chemistry", "wrong"),
        ("Bachelors in Music", "Bachelor's degree", "correct"),  # no field named
    ],
)
def test_when_levels_agree_then_the_field_decides(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("education", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        (
            "currently studying for a bachelor's in design",
            "bachelor's in design",
            "correct",
        ),
        ("currently studying for a bachelor's in design", "in college", "correct"),
        ("currently studying for a bachelor's in design", "college graduate", "wrong"),
        # A bare degree claims it is held; the degree with its field names
        # the programme studied.
        ("currently studying for a bachelor's in design", "Bachelor's degree", "wrong"),
        ("studying towards a degree", "College Degree", "wrong"),
        ("studying towards a degree", "In College", "correct"),
        ("studying towards a master's in law", "Bachelor's in law", "wrong"),
        ("studying towards a master's in law", "In College", "correct"),
        (
            "Bachelors in Design",
            "student working towards a bachelor's in design",
            "wrong",
        ),
    ],
)
def test_when_one_side_is_still_studying_then_level_and_state_decide(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("education", truth, guess).outcome == expected
