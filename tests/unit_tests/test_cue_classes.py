"""Cue classes of the fifth round: closed word classes and structural frames.

Each table holds phrasings of one class written for these tests (none taken
from the cue splits in tests/data), with the sentence that must come out,
and beside it the counter-cases the class must leave alone: another
person's partner, job, age or retirement, a temperature, a hobby, books
that are books.
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues, generalize_text


def rewritten(text: str) -> str:
    return generalize_text(text, detect_cues(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hubby and I are saving for a caravan.",
         "My partner and I are saving for a caravan."),
        ("The missus won't let me buy another guitar.",
         "My partner won't let me buy another guitar."),
        ("My better half does all the cooking.", "My partner does all the cooking."),
        ("My significant other hates the cold.", "My partner hates the cold."),
        ("My DH works away a lot.", "My partner works away a lot."),
        ("We tied the knot in a tiny registry office.",
         "We settled down in a tiny registry office."),
        ("Got hitched last spring after ten years together.",
         "Settled down last spring after ten years together."),
        ("Our honeymoon was a week of rain.", "Our trip was a week of rain."),
        ("I've been a widow for six years now.",
         "I've been on my own for six years now."),
        ("Being divorced has its perks.", "Being on my own has its perks."),
        ("I'm going through a divorce and the flat is too quiet.",
         "I'm going through a breakup and the flat is too quiet."),
        ("Ever since my husband died the evenings are long.",
         "Ever since I lost someone close the evenings are long."),
        ("We marked our ruby anniversary with a meal out.",
         "We marked our anniversary with a meal out."),
        ("Thirty years married and she still laughs at my jokes.",
         "Many years spoken for and she still laughs at my jokes."),
    ],
)  # fmt: skip
def test_when_a_partner_or_a_marriage_is_named_then_the_status_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My best mate's wife is lovely.",  # a friend's wife
        "The husband of my neighbour fixed our fence.",  # the neighbour's
        "My ex-colleague rang me.",  # "ex-" before another noun
        "My brother is going through a divorce.",  # his status
        "Getting hitched tightens freedom, moves aren't yours anymore.",  # anyone
        "Singles in formal wear trying to get hitched.",  # theirs
    ],
)
def test_when_the_partner_or_status_is_someone_elses_then_it_stays(
    text: str,
) -> None:
    assert rewritten(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got my HNC in mechanical engineering through day release.",
         "I got my qualification in mechanical engineering through day release."),
        ("I'm doing a BTEC in sport at the local college.",
         "I'm doing a course in sport at the local college."),
        ("Passed my Highers last year and now I'm off to uni.",
         "Passed my exams last year and now I'm off to uni."),
        ("I sat my Leaving Cert in the summer.", "I sat my exams in the summer."),
        ("I finished my HSC and took a gap year.",
         "I finished my exams and took a gap year."),
        ("I have an associate's in nursing.", "I have a degree in nursing."),
        ("I left school at sixteen and never looked back.",
         "I left education in my teens and never looked back."),
        ("I never finished high school but I read a lot.",
         "I never studied much but I read a lot."),
        ("I hold two degrees and still can't find work.",
         "I hold some qualifications and still can't find work."),
        ("I did my master's in public health at Makerere.",
         "I did my degree in public health at [SCHOOL]."),
    ],
)  # fmt: skip
def test_when_a_qualification_or_school_leaving_is_named_then_its_level_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My son left school last year.",  # his schooling
        "My daughter is in sixth form.",  # hers
    ],
)
def test_when_the_schooling_is_someone_elses_then_it_stays(text: str) -> None:
    assert rewritten(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm knocking on 50 and my back knows it.",
         "I'm knocking on my fifties and my back knows it."),
        ("Reached 60 this year and bought a campervan.",
         "Reached my sixties this year and bought a campervan."),
        ("Having recently turned 33, I finally learned to drive.",
         "Having recently had a birthday, I finally learned to drive."),
        ("I'm on the wrong side of forty now.", "I'm in my forties now."),
        ("I'm 45-ish and still figuring things out.",
         "I'm forty-something and still figuring things out."),
        ("Forty-odd years on this earth and I still can't whistle.",
         "Forty-something years on this earth and I still can't whistle."),
        ("I'm 30 next month.", "I'm twenty-something."),
        ("Hi all, M 45, looking for hiking buddies.",
         "Hi all, looking for hiking buddies."),
        ("As a 27 F in a new city, how do people make friends?",
         "As a person in a new city, how do people make friends?"),
        ("I was 19 when I moved out, and that was twenty years ago.",
         "I was in my teens when I moved out, and that was many years ago."),
        ("I was in Grade 8 when the Beijing Olympics happened.",
         "I was in school when [AGE] happened."),
    ],
)  # fmt: skip
def test_when_an_age_is_framed_by_a_verb_a_hedge_or_a_tag_then_it_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My mum turned 80 on Sunday.",  # her age
        "It was 18 F overnight so the pipes froze.",  # a temperature
        "My wife (F35) and I are moving.",  # the partner's tag
        "The team hit 40 points in the second half.",  # a score
        "Hitting 30 sparks those settle-down vibes.",  # anyone's thirties
        "Right when you hit 30 everyone asks about mortgages.",  # "you"
    ],
)
def test_when_the_number_is_no_age_of_the_author_then_it_stays(text: str) -> None:
    assert not [c for c in detect_cues(text) if c.attribute == "age"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I keep the books for a couple of local charities.",
         "I work for a couple of local charities."),
        ("I pull pints at a pub in the evenings.", "I work at a pub in the evenings."),
        ("I write firmware for a medical device company.",
         "I work for a medical device company."),
        ("I answer phones for a law firm three days a week.",
         "I work for a law firm three days a week."),
        ("Been waiting tables at a steakhouse for a year.",
         "Been working at a steakhouse for a year."),
        ("I stack shelves at a supermarket overnight.",
         "I work at a supermarket overnight."),
        ("I bartend at a hotel on weekends.", "I work at a hotel on weekends."),
        ("Spent my twenties pulling pints in a pub.",
         "Spent this stage of life working in a pub."),
        ("I was a retired sparky by then.", "I was a former tradesperson by then."),
        ("I work as a live-in carer.", "I work as a care worker."),
    ],
)  # fmt: skip
def test_when_the_author_does_a_job_as_a_verb_or_a_title_then_it_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I read the books for my book club every month.",  # books that are books
        "I do the books for fun.",  # a hobby
        "My husband drives a taxi for a firm in town.",  # his job
        "She waits tables at a diner.",  # hers
        "I met my wife at a bar in town.",  # a person, not a task
        "I studied law at a college in town.",  # studies
        "Did shifts at the supermarket for a year.",  # already just "work"
        "I catch myself judging packaging at the supermarket.",  # a visit
        "More ladies delivering mail than ever before.",  # the ladies' job
    ],
)
def test_when_the_verb_is_no_job_of_the_author_then_no_job_is_found(
    text: str,
) -> None:
    assert not [c for c in detect_cues(text) if c.kind == "job_verb"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a retired nurse and I love gardening.",
         "I'm a former healthcare worker and I love gardening."),
        ("I've been retired for three years.",
         "I've been out of the workforce for three years."),
        ("I took early retirement at 58.", "I stopped working early in my fifties."),
        ("In retirement I've taken up painting.",
         "These days I've taken up painting."),
        ("Retired to the coast after thirty years in insurance.",
         "Moved to the coast after thirty years in insurance."),
    ],
)  # fmt: skip
def test_when_the_author_is_retired_then_retirement_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My retired neighbour walks his dog at six.",
        "Dad retired last year and drives Mum mad.",
        "Retirement planning hits different than early-career savings.",
        "Wait till you see retired nonnas cooking.",
        "Some traditions should just retire already.",
    ],
)
def test_when_someone_else_is_retired_then_it_stays(text: str) -> None:
    assert not [c for c in detect_cues(text) if c.kind == "retired"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm on benefits and can't afford a car.",
         "I'm [INCOME] and can't afford a car."),
        ("I'm on minimum wage at a warehouse.", "I'm on a low wage at a warehouse."),
        ("Paid below minimum wage as a cleaner, I still send money home.",
         "Paid very little as a service worker, I still send money home."),
        ("I'm earning six figures now.", "I'm earning good money now."),
        ("I'm on the living wage and it barely covers rent.",
         "I'm on a modest wage and it barely covers rent."),
        ("It's a minimum-wage job but the people are nice.",
         "It's a low-wage job but the people are nice."),
    ],
)  # fmt: skip
def test_when_an_income_is_named_in_words_then_its_band_replaces_it(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


def test_when_someone_else_is_on_benefits_then_it_stays() -> None:
    assert rewritten("My sister is on benefits.") == "My sister is on benefits."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We moved to the town of Gympie last year.",
         "We moved to the town last year."),
        ("I'm in the IT department at a hospital.",
         "I'm in the department at a hospital."),
        ("As a Geordie I can't stand the cold either.",
         "As a European I can't stand the cold either."),
        ("I'm a lass from the valleys.", "I'm a person from the valleys."),
        ("Granny here, asking for advice on tablets.",
         "Grandparent here, asking for advice on tablets."),
        ("Grandad of four and still playing five-a-side.",
         "Grandparent of four and still playing five-a-side."),
        ("Just a Kiwi bloke trying to buy a house.",
         "Just an Oceanian bloke trying to buy a house."),
        ("Aussie expat in Dubai here.",
         "Oceanian expat in [PLACE] here."),
        ("I grew up near the North York Moors.", "I grew up near the moors."),
    ],
)  # fmt: skip
def test_when_a_place_demonym_or_workplace_unit_names_the_author_then_it_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Our local fire department is great.",  # not where the author works
        "I met a Texan on holiday.",  # someone else
        "A man walked past the window.",  # "man" of someone else
        "Any man would be lucky to have her.",  # "man" in general
    ],
)
def test_when_the_word_is_not_said_of_the_author_then_it_stays(text: str) -> None:
    assert rewritten(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A job's family phrase is true of every job in its group: a postman,
        # a courier and a dispatcher distribute; a librarian is no educator;
        # a referee is no creative worker.
        ("Retired postman, still up at five every day.",
         "Former logistics worker, still up at five every day."),
        ("As a retired librarian I read a lot.",
         "As a former library, archive or museum worker I read a lot."),
        ("I'm a part-time referee on weekends.",
         "I'm a part-time performer or sports worker on weekends."),
        # Counter-cases: a clerk stays an office worker, a teacher an educator.
        ("Retired bookkeeper, still up at five every day.",
         "Former office worker, still up at five every day."),
        ("I'm a maths teacher on weekdays.", "I'm an educator on weekdays."),
    ],
)  # fmt: skip
def test_when_a_job_is_generalized_then_its_family_is_true_of_it(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An age reached ahead ("N this year") is N or N-1 today: a band is
        # written only where it holds both, else the placeholder.
        ("I'm 40 this year and still dancing.", "I'm [AGE] and still dancing."),
        ("I'm 47 this year and still dancing.",
         "I'm forty-something and still dancing."),
        # A nationality's continent adjective is true of every country in it.
        ("I'm a Samoan guy who loves rugby.",
         "I'm an Oceanian person who loves rugby."),
    ],
)  # fmt: skip
def test_when_a_band_or_region_replaces_a_fact_then_it_holds_every_reading(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
