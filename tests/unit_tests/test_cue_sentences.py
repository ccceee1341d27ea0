"""Cue classes of the fifth round: sentences the rules broke or made false.

Read from held-out 6's outputs (tuning data since): a figure with a space
between its thousands, sums paid out read as pay, "a salary of" before a
figure. Each table holds phrasings of one class and what must come out; a
counter-case beside it holds what must stay.
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues, generalize_text


def rewritten(text: str) -> str:
    return generalize_text(text, detect_cues(text))


def found(text: str, attribute: str) -> list[str]:
    return [c.quote for c in detect_cues(text) if c.attribute == attribute]


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Took home R32 000 last month from the mine.", "R32 000"),
        ("I earn 45 000 kronor a month.", "45 000 kronor a month"),
        ("My salary is €1 250 000 a year.", "€1 250 000 a year"),
    ],
)  # fmt: skip
def test_when_thousands_are_spaced_then_the_whole_amount_is_read(
    text: str, quote: str
) -> None:
    assert found(text, "income_level") == [quote]
    assert not any(ch.isdigit() for ch in rewritten(text))


def test_when_spaced_figures_are_two_numbers_then_they_stay_apart() -> None:
    # "$5 1234": no group of three figures after the space, so no thousands.
    assert found("They paid me $5 1234 times over.", "income_level") == ["$5"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bringing home about $1,900 a month isn't much when rent is $1,200.",
         "Bringing home a modest wage isn't much when rent is four figures."),
        ("I earn $3,000 a month; rent in Brighton is $1,200.",
         # the city's rent; Brighton is in England and Australia both
         "I earn a decent salary; rent in [PLACE] is $1,200."),
        ("I earn $3,000 a month and the rent is $1,500.",
         "I earn a decent salary and the rent is four figures."),
        ("I make $4,000 a month but tuition costs $150.",
         "I make a decent salary but tuition costs three figures."),
    ],
)  # fmt: skip
def test_when_a_sum_is_paid_out_then_it_is_not_read_as_pay(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


def test_when_a_rent_is_high_in_its_band_then_the_band_stays() -> None:
    rent = "My rent is $3,400 a month."
    assert rewritten(rent) == "My rent is a few thousand a month."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("On a teacher's salary of $58k, a new car is off the table.",
         "On an educator's decent salary, a new car is off the table."),
        ("I retired on a state pension of 230 quid a week.",
         "I stopped working on a modest state pension."),
        ("My salary of $58k is fine.", "My decent salary is fine."),
        ("She offered a salary of $200k.", "She offered a very generous salary."),
    ],
)  # fmt: skip
def test_when_a_figure_follows_a_salary_of_then_the_salary_is_described(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My salary is $58k before bonuses.", "My salary is decent before bonuses."),
        ("Her pension was about $900 a month.", "Her pension was modest."),
    ],
)  # fmt: skip
def test_when_the_pay_is_said_to_be_a_figure_then_the_band_word_describes_it(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


def test_when_no_salary_of_comes_before_then_the_income_phrase_stays() -> None:
    assert rewritten("I make $58k a year.") == "I make a decent salary."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I now fix boilers for a living.", "I now work for a living."),
        ("We sell houses for a living.", "We work for a living."),
        ("He fixes boilers for a living.", "He works for a living."),
    ],
)  # fmt: skip
def test_when_a_plural_object_comes_before_for_a_living_then_verb_and_object_go(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She sings for a living.", "She works for a living."),
        ("I weld for a living.", "I work for a living."),
    ],
)  # fmt: skip
def test_when_the_word_before_for_a_living_is_the_verb_then_it_alone_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I started at Leeds last autumn.", "I started at [SCHOOL] last autumn."),
        ("I was accepted at Durham.", "I was accepted at [SCHOOL]."),
        ("Our daughter started at Oxford this year.",
         "Our daughter started at Oxford this year."),  # hers: it stays
    ],
)  # fmt: skip
def test_when_a_city_is_started_at_for_a_year_then_it_is_a_school(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


def test_when_a_trip_starts_at_a_city_then_it_stays_a_place() -> None:
    assert "university" not in rewritten("Our trip started at Lisbon and went south.")


@pytest.mark.parametrize(
    "text",
    [
        "I've been doing deliveries on a moped for Deliveroo since graduating.",
        "I drove for Uber while I studied.",
    ],
)
def test_when_a_name_follows_for_then_it_is_an_employer(text: str) -> None:
    # An employer whose kind the name does not say (`construction`).
    assert "for [ORG]" in rewritten(text)


def test_when_studies_come_right_before_the_name_then_it_is_a_school() -> None:
    assert rewritten("I studied law at Cardiff.") == "I studied law at [SCHOOL]."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A nurse from Manila working night shifts in Riyadh.",
         "A healthcare worker from [PLACE] working night shifts in [PLACE]."),
        ("I'm working nursing shifts in Leeds.", "I'm working shifts in [PLACE]."),
        ("Doing agency nursing shifts pays the bills.", "Doing shifts pays the bills."),
    ],
)  # fmt: skip
def test_when_a_verb_does_the_shifts_then_the_verb_stays(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


def test_when_a_field_names_the_shifts_then_it_goes() -> None:
    assert found("I pick up welding shifts at the yard.", "occupation") == [
        "welding shifts"
    ]
