"""Guesses the rules made on cue held-out 9 and 10, each with its counter-cases.

Each class is a way a rewrite said something the author did not write: a
generic noun guessed from a name ("for a company" for a person, "a hill" for
a college), a partner's name made a place, a span cut inside a word ("26
y/tradesperson"), words deleted outside a name ("change at [PLACE]."), and
greetings and towns the identifier pass typed as persons. The phrasings here
are our own, not the held-out texts'; each class keeps a counter-case where
the coarser form is confirmed and must still be written.
"""

from __future__ import annotations

import re

import pytest

from anonygraph.cues import detect_cues
from anonygraph.identifiers.detect import find_identifiers
from unit_tests.rules_rewrite import rewritten

CLASSES = {
    # A generic noun states only what a source confirms; else a placeholder.
    "noun guessed from a name": [
        ("Earning well, and the bride price for Lerato is nearly paid off.",
         "Earning well, and the bride price for [ORG] is nearly paid off."),
        ("I work as a pharmacist in a private hospital at Mangaluru.",
         "I work as a healthcare worker in a private hospital at [PLACE]."),
        ("My wedding is fixed for December, so I'm busy.",
         "My wedding is fixed for December, so I'm busy."),
        ("My sister works at Globex.", "My sister works at [ORG]."),
        ("I'm a staff nurse at KTPH.", "I'm a healthcare worker at [ORG]."),
        # An associate's degree is a college's: no word settles "university".
        ("Finished my associate's at Bunker Hill this spring.",
         "Finished my degree at [SCHOOL] this spring."),
        # The parse ties the name to the author's work: an employer, whose
        # kind (a firm, a hospital, a ministry) the name does not say.
        ("I've worked at Globex for six years.",
         "I've worked at [ORG] for six years."),
        ("I drove for Uber while I studied.",
         "I drove for [ORG] while I studied."),
        ("I work a shift at the market for Tesco.",
         "I work a shift at the market for [ORG]."),
        # Counter-case: the name's noun is a street the author lives on.
        ("I live on Swan Street.", "I live on a street."),
    ],
    # The object of "to" after a status word is a person, not a place; its
    # name goes as a person.
    "partner named after a status": [
        ("I'm a guard in Ballina, married to Declan these twelve years.",
         "I'm a guard in [PLACE], married to [PERSON] these twelve years."),
        ("Engaged to Tamsin since June, and I live in Leeds.",
         "Engaged to [PERSON] since June, and I live in [PLACE]."),
        ("Chelsea and [PERSON_2] are at the door.",
         "[PERSON] and [PERSON_2] are at the door."),
        # Counter-cases: places after "to" and "in" stay places.
        ("I moved to Tulsa after college.", "I moved to [PLACE] after college."),
        ("I live in Chelsea and work in Fulham.",
         "I live in [PLACE] and work in [PLACE]."),
        ("I moved to Hamilton, Ontario and Mum and Dad stayed in Leeds.",
         "I moved to Canada and Mum and Dad stayed in [PLACE]."),
    ],
    # A span cut inside a word is trimmed to whole words, typed placeholder.
    "span inside a word": [
        ("omg im 17 n just got a job", "omg im [AGE] n just got a job"),
        ("I'm a 26 y/o roughneck in Midland, TX.",
         "I'm a twenty-something [OCCUPATION] in the US."),
        # Counter-cases: whole-word spans keep their coarser forms.
        ("I'm 29yo and I work in Leeds.", "I'm in my twenties and I work in [PLACE]."),
        ("I'm 17 and just got a job.", "I'm in my teens and just got a job."),
    ],
    # A name the tagger ran on over a preposition is two names.
    "words outside the name": [
        ("Change at Athlone for Westport.", "Change at [PLACE] for Westport."),
        ("I teach at Brown University in Providence.",
         "I work at a university in [PLACE]."),
        ("I work at Eskom in Witbank.", "I work at [ORG] in [PLACE]."),
        # Counter-case: "of" belongs inside a name.
        ("We moved to the Isle of Skye last year.",
         "We moved to an island last year."),
    ],
    # A city after an acronym is the campus in an institution's name.
    "place inside a longer name": [
        ("I did my B.Tech at IIT Delhi.", "I did my degree at [ORG]."),
        ("I reside at present in Much Wenlock.", "I reside at present in [PLACE]."),
        # Counter-case: a place after a preposition is the place.
        ("I did my B.Tech in Delhi.", "I did my degree in [PLACE]."),
    ],
    # A word that opens a text or is kin stays; "an" before "my" is "and".
    "greeting, kin and dialect words": [
        ("Kia ora [PERSON_1]! I'm a teacher in Rotorua.",
         "Kia ora [PERSON_1]! I'm an educator in [PLACE]."),
        ("Still no husband, Mammy vex, and I live in Leeds.",
         "Still no husband, Mammy vex, and I live in [PLACE]."),
        ("Me an the wife got a flat in Leeds.",
         "Me an my partner got a flat in [PLACE]."),
        # Counter-case: a real article still agrees with its replacement.
        ("I'm an engineer in Leeds.", "I'm a professional in [PLACE]."),
    ],
    # A place the author's is not, or a name before "one", says which.
    "negated and pronoun places": [
        ("Born in Aurangabad, the one in Bihar, not the Maharashtra one.",
         "Born in [PLACE], the one in [PLACE], not the [PLACE] one."),
        ("I live in Portland, Maine, not Oregon.", "I live in the US, not [PLACE]."),
        ("Wellington (the windy one, not the Shropshire town).",
         "[PLACE] (the windy one, not the [PLACE] town)."),
        # Counter-case: a negated place that modifies nothing keeps its form.
        ("I live in Richmond, not the one in Virginia.",
         "I live in [PLACE], not the one in [PLACE]."),
    ],
    # "A widow of N years": how long, or her age, when N could be an age.
    "widowhood or age": [
        ("I am a widow of seventy-three years, and I live in Leeds.",
         "I am a [RELATIONSHIP] of seventy-three years, and I live in [PLACE]."),
        # Counter-case: a count no adult's age can be is how long.
        ("I'm a widower of six years and live in Leeds.",
         "I've been on my own for six years and live in [PLACE]."),
    ],
    # A place equated with a smaller place is no country.
    "place said to be a district": [
        ("My home district is Sylhet.", "My home district is [PLACE]."),
        ("Home is Halifax, Nova Scotia, Canada.", "Home is Canada."),
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(text, expected, id=f"{name}: {text}")
        for name, rows in CLASSES.items()
        for text, expected in rows
    ],
)
def test_when_a_rule_would_guess_from_a_name_then_it_writes_what_is_confirmed(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


WORD = re.compile(r"[\w'’/]")


@pytest.mark.parametrize(
    "text",
    [
        "omg im 17 n just got my first job at greggs lol",
        "Howdy, I'm a 26 y/o roughneck in Midland, TX, makin about 90k a year.",
        "im 22f from leeds, work at asda",
        "Born in '91 in Cork, I'm a chippie and a dad of 2.",
        "me an the wife got a wee flat in Lochee, I'm 29 noo",
    ],
)
def test_when_cues_are_found_then_every_span_starts_and_ends_on_a_word_edge(
    text: str,
) -> None:
    for cue in detect_cues(text):
        assert cue.start == 0 or not (
            WORD.match(text[cue.start - 1]) and text[cue.start - 1].isalnum()
        ), cue
        after = text[cue.end : cue.end + 2]
        assert not (after[:1].isalnum() and WORD.match(after[:1])), cue


def persons(text: str) -> list[str]:
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A greeting opening the text, said once, listed as no one's name.
        ("Howzit bru, Thabo here, born in Soweto.", ["Thabo"]),
        ("Howdy, I'm a welder from Midland.", []),
        ("Brah, I stay in Hilo now.", []),
        # A town of the gazetteer no one is named for.
        ("I born for Nnewi and I dey sell cloth.", []),
        # A kin word with its possessive.
        ("For Mum's birthday we ate out.", []),
        # Counter-cases: names a Faker locale lists, and cued names, stay.
        ("Declan, call me when you land.", ["Declan"]),
        ("Na me Chidi, I dey sell cloth.", ["Chidi"]),
    ],
)
def test_when_a_word_is_a_greeting_a_town_or_kin_then_it_is_no_person(
    text: str, expected: list[str]
) -> None:
    assert persons(text) == expected
