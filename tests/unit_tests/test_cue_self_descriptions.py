"""Cue classes of the fourth round: held-out 5's misses, as classes.

Workplaces that name the job, short self-descriptions, anniversaries, studies
said with the verb that finished them, partner words without "my", currency
codes after a figure, roles the author is only taken for; each with the
sentence that must come out and cases that are not the author's.
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues, generalize_text


def rewritten(text: str) -> str:
    return generalize_text(text, [c for c in detect_cues(text) if c.exact])


def found(text: str, attribute: str) -> list[str]:
    return [c.quote for c in detect_cues(text) if c.attribute == attribute]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Three years into my call centre job and I still dread Mondays.",
         "Three years into my job and I still dread Mondays."),
        ("I quit a factory job to retrain.", "I quit a job to retrain."),
        ("I've been working at a sawmill since school.",
         "I've been working at a business since school."),
        ("Did shifts at the supermarket for a year.",
         "Did shifts at work for a year."),
        ("These days I do bookkeeping for two dentists.",
         "These days I do [OCCUPATION] for two dentists."),
        ("I run a chip shop by the harbour.",
         "I work at a business by the harbour."),
        ("I manage a Dollar Tree off the highway.",
         "I work at a business off the highway."),
    ],
)  # fmt: skip
def test_when_a_workplace_names_the_authors_job_then_the_workplace_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My brother works at a sawmill up north.",  # his job
        "Mum has a factory job and loves it.",  # hers
        "We had lunch at a café near the station.",  # a visit, no work verb
        "My sister runs a chip shop in town.",  # hers
        "I met him at the supermarket.",  # a visit
    ],
)
def test_when_the_workplace_is_someone_elses_or_a_visit_then_none_is_found(
    text: str,
) -> None:
    assert found(text, "occupation") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Single again. 31, male, and learning to cook.",
         "On my own again. In my thirties, and learning to cook."),
        ("F/29 here, moving cities soon.", "Someone here, moving cities soon."),
        ("I'm a 38 y/o chap who took up rowing.",
         "I'm a thirty-something person who took up rowing."),
        ("Mom here, asking for a friend.", "Parent here, asking for a friend."),
    ],
)  # fmt: skip
def test_when_the_author_describes_themself_in_short_then_age_and_sex_go(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Man, what a week.",  # an exclamation
        "Scored 31, male lead in the play was great.",  # no tag
        "Take the 4/5 train.",  # a route
    ],
)
def test_when_no_one_is_described_then_no_sex_is_found(text: str) -> None:
    assert found(text, "sex") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We're off to Rome for our golden anniversary.",
         "We're off to [PLACE] for our anniversary."),
        ("My husband forgot our 10th wedding anniversary again.",
         "My partner forgot our wedding anniversary again."),
    ],
)  # fmt: skip
def test_when_an_anniversary_is_named_then_its_length_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


def test_when_the_anniversary_is_the_parents_then_it_stays() -> None:
    assert (
        found("We threw my parents' golden anniversary party.", "relationship_status")
        == []
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I never graduated high school, and I'm fine.",
         "I never finished my studies, and I'm fine."),
        ("Finally earned my diploma at night classes.",
         "Finally finished my studies at night classes."),
        ("I'd like to finish uni before moving abroad.",
         "I'd like to finish my studies before moving abroad."),
    ],
)  # fmt: skip
def test_when_studies_are_said_with_their_verb_then_the_level_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My daughter graduated high school yesterday.",
        "She finished college early and moved away.",
    ],
)
def test_when_someone_else_finished_studies_then_no_education_is_found(
    text: str,
) -> None:
    assert found(text, "education") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Long shifts again. Husband says I should quit.",
         "Long shifts again. My partner says I should quit."),
        ("I'm a widower of six years and still set two plates.",
         "I've been on my own for six years and still set two plates."),
        ("I'm 70 and retired from the docks last spring.",
         "I'm in my seventies and left the public sector last spring."),
        ("I drive a delivery van around town.", "I drive around town."),
        ("Sitting my Grade 12 exams in May.", "Sitting my school exams in May."),
    ],
)  # fmt: skip
def test_when_a_status_or_job_is_said_informally_then_it_reads_generalized(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Husbands and wives were invited.",  # a plural, no one's partner
        "The docks were busy when we visited.",  # no employer
    ],
)
def test_when_the_words_are_not_the_authors_status_or_job_then_none_is_found(
    text: str,
) -> None:
    assert found(text, "relationship_status") + found(text, "occupation") == []


def test_when_a_currency_code_follows_a_salary_then_it_goes_with_it() -> None:
    text = "I earn about $95k AUD in Perth."
    assert "AUD" not in rewritten(text)
    assert found("The ticket was $40 and the bus left at 9 AM.", "income_level") != []
    assert "AM" in rewritten("The ticket was $40 and the bus left at 9 AM.")


@pytest.mark.parametrize(
    "text",
    [
        "People keep asking if I'm the nurse.",
        "Someone mistook me for a paramedic.",
        "I'm not a lawyer, but I read the contract.",
    ],
)
def test_when_a_role_is_only_taken_for_the_authors_then_no_job_is_found(
    text: str,
) -> None:
    assert found(text, "occupation") == []


def test_when_the_author_holds_the_role_then_the_job_is_still_found() -> None:
    assert found("I'm a nurse in a busy ward.", "occupation") == ["nurse"]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("My granddaughter just started at Ohio State, so proud.", "Ohio State"),
        ("My son goes to Boston College now.", "Boston College"),
    ],
)
def test_when_the_school_is_a_relatives_then_it_stays(text: str, kept: str) -> None:
    assert kept in rewritten(text)


@pytest.mark.parametrize(
    "text",
    [
        "My daughter and I both work at Google.",  # the author's too
        "I study at Boston College and my son is at home.",  # the author's
    ],
)
def test_when_the_author_shares_the_place_then_it_is_still_found(text: str) -> None:
    assert "Google" not in rewritten(text) and "Boston College" not in rewritten(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I lecture on tax law two days a week.", "I work on tax law two days a week."),
        ("Lectures and lesson plans eat my evenings.",
         "Lectures and lesson plans eat my evenings."),  # the noun
        ("We run a tight ship at home.",
         "We run a tight ship at home."),  # no workplace
    ],
)  # fmt: skip
def test_when_a_job_word_is_a_noun_or_no_workplace_then_only_the_job_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
