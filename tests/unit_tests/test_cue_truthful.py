"""The rules rewrite says nothing the author did not write (issue 34).

Each row is a text and the rules anonymizer's rewrite of it with every
attribute in the policy: an exactly true coarser form, a typed placeholder
where the coarser form would be a guess, or the text unchanged where what
looks like a cue is none of the author's (a house number, a person called
Papa, a head of state's age).
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues
from anonygraph.cues.placeholders import BRACKETED, PLACEHOLDERS
from unit_tests.rules_rewrite import rewritten

UNCHANGED = [
    # The issue's own: a head of state's age is no cue of the author's.
    "Nelson Mandela was sworn in at 75 as president of South Africa.",
    "Angela Merkel became chancellor at 51 and led Germany for sixteen years.",
    "Obama was elected at 47 and served two terms.",
    "Queen Elizabeth died at 96 in Balmoral.",
    "Elon Musk moved to Austin last year.",
    "He was 45 when he passed.",
    "At 40 my dad bought a farm.",
    # Numbers that count rooms, buses, sizes, houses, scores, minutes.
    "My room is 27 and bus 33 takes me there; I wear size 38 shoes.",
    "Took bus 33 at 9 to work.",
    "Elm Street 42 is where I grew up.",
    "I live at No. 42, by the station.",
    "Kids are at 12 Oak Avenue today.",
    "Flat 4B, 27 Albert Road is where we live now.",
    "Our team lost 3-1 at 90 minutes, gutted.",
    "I'm 6 ft 2 and wear size 11.",
    "The score was 27 to 30 at half time.",
    "Preheat the oven to 180 degrees, bake 25 minutes, serves 4.",
    "Mix 2 cups flour with 3 eggs and bake at 180 for 25 minutes.",
    # Names that are places elsewhere: people here.
    "Jordan and Georgia came over for dinner last night.",
    # Someone else's age.
    "My mum retired at 60.",
    "My brother got married at 31.",
    # Placeholders from the identifier step are not cues.
    "[PERSON_1], 34, lives at [ADDRESS_1].",
    "I make 25 an hour.",
]


@pytest.mark.parametrize("text", UNCHANGED)
def test_when_a_text_has_no_cue_of_the_author_then_it_comes_back_unchanged(
    text: str,
) -> None:
    assert rewritten(text) == text


REWRITES = [
    # Issue 34's examples.
    ("I live at 42 Elm Street, Springfield.", "I live at 42 Elm Street, [PLACE]."),
    (
        "Papa says at 32 I should settle down.",
        "Papa says in my thirties I should settle down.",
    ),
    (
        "We are renting in Collingwood, just outside Melbourne.",
        "We are renting in [PLACE], just outside a city.",
    ),
    (
        "I got an offer of 9 LPA from a startup.",
        "I got an offer of [INCOME] from a startup.",
    ),
    (
        "I live in Johannesburg and want to move to South Africa's coast someday.",
        "I live in South Africa and want to move to South Africa's coast someday.",
    ),
    # Ages in frames the parse confirms; the decade is true at that age.
    ("At 32 I finally moved out.", "In my thirties I finally moved out."),
    ("I'm 41, living at 16 Hill Road.", "I'm in my forties, living at 16 Hill Road."),
    (
        "Room 27 at the dorm is mine and I'm 19.",
        "Room 27 at the dorm is mine and I'm in my teens.",
    ),
    (
        "I'm 32 and live in Perth, Western Australia.",
        "I'm in my thirties and live in Australia.",
    ),
    # "we" at an age: the author's partner may be another age.
    ("We got married at 30.", "We settled down at [AGE]."),
    ("We met at 19 and married at 24.", "We met at [AGE] and married at [AGE]."),
    (
        "Got a 30 percent raise at 28, best year of my life.",
        "Got a 30 percent raise in my twenties, best year of my life.",
    ),
    # Places: a small or shared name needs the text to say its country.
    ("We are renting in Collingwood.", "We are renting in [PLACE]."),
    ("Grew up in Hamilton.", "Grew up in [PLACE]."),
    ("Grew up in Hamilton, Ontario.", "Grew up in Canada."),
    ("Moved to Victoria last year.", "Moved to [PLACE] last year."),
    # Leeds is sure, and settles no other city's country: Halifax is in two.
    ("I moved from Halifax to Leeds.", "I moved from [PLACE] to [PLACE]."),
    (
        "We moved to Richmond last year, close to the city of Melbourne.",
        "We moved to [PLACE] last year, close to the city.",
    ),
    ("I work in Perth, Scotland.", "I work in the UK."),
    # A qualifier the name is not in: the state, not the country, of Georgia.
    (
        "Georgia and I went to Savannah, Georgia for a week.",
        "Georgia and I went to [PLACE] for a week.",
    ),
    (
        "My CTC is 18 LPA and I stay in Whitefield, Bangalore.",
        "My CTC is [INCOME] and I stay in [PLACE], Bangalore.",
    ),
    # Paris, Texas: a name two countries hold is the placeholder.
    ("Going to visit Paris in June.", "Going to visit [PLACE] in June."),
    (
        "My dad says I should take the 2 crore flat in Pune.",
        "My dad says I should take the 2 crore flat in [PLACE].",
    ),
    # A person is no place; the place beside them still goes.
    (
        "Yesterday Papa said I should move to Perth.",
        "Yesterday Papa said I should move to [PLACE].",
    ),
    ("I met Georgia at a party in Calgary.", "I met Georgia at a party in [PLACE]."),
    # Money: no written currency, no band.
    ("I earn 40k a year.", "I earn [INCOME] a year."),
    ("I earn 2 crore a year.", "I earn [INCOME] a year."),
    ("My salary is 12 lakh per annum.", "My salary is [INCOME] per annum."),
    ("I make about 60k.", "I make about [INCOME]."),
    (
        "Mate, I'm on 60 grand a year and still skint.",
        "Mate, I'm on [INCOME] a year and still skint.",
    ),
    ("I earn 3 lakh a month in Mumbai.", "I earn [INCOME] a month in [PLACE]."),
    (
        "I got a job at a startup paying 40k.",
        "I got a job at a startup paying [INCOME].",
    ),
    # With its currency written, the band stays.
    ("I make ₹12 lakh a year.", "I make a decent salary."),
    # Placeholders already there stay as they are.
    (
        "[PERSON_1] told me to meet at [ADDRESS_1] in [PLACE] when I turn 30.",
        "[PERSON_1] told me to meet at [ADDRESS_1] in [PLACE] when I have a birthday.",
    ),
    ("I live in [PLACE] and I'm 29.", "I live in [PLACE] and I'm in my twenties."),
]


@pytest.mark.parametrize(("text", "expected"), REWRITES)
def test_when_a_cue_is_rewritten_then_it_is_true_or_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON_1] moved to [ADDRESS_1] in [PLACE] at [AGE].",
        "I told [PERSON_2] about [ORGANIZATION_1] and [PLACE].",
    ],
)
def test_when_the_text_holds_placeholders_then_no_cue_touches_them(text: str) -> None:
    held = [(m.start(), m.end()) for m in BRACKETED.finditer(text)]
    for cue in detect_cues(text):
        assert not any(cue.start < e and s < cue.end for s, e in held), cue


def test_when_a_replacement_is_a_placeholder_then_the_cue_is_not_sure() -> None:
    cues = detect_cues("We are renting in Collingwood.") + detect_cues(
        "I earn 40k a year."
    )
    unsure = {c.quote: c for c in cues if not c.sure}
    assert unsure["Collingwood"].replacement == PLACEHOLDERS["city_country"]
    assert unsure["40k"].replacement == PLACEHOLDERS["income_level"]
    assert all(c.replacement not in PLACEHOLDERS.values() for c in cues if c.sure)


# Each class of guess the rules once made, with phrasings of our own: the
# guess becomes a true coarser form, its typed placeholder, or nothing, and a
# counter-case the class must still generalize.
GUESS_CLASSES = {
    # A name the gazetteer does not hold: where it is stays unsaid.
    "unknown place": [
        ("I've lived in the Valley since college.",
         "I've lived in [PLACE] since college."),
        ("We rent a flat in Ballsbridge.", "We rent a flat in [PLACE]."),
        ("My husband works offshore in the North Sea.",
         "My partner works offshore in [PLACE]."),
    ],
    "landmark with a name of its own": [
        ("We moved to the Isle of Mull last spring.",
         "We moved to an island last spring."),
        ("I live on Vancouver Island and commute.",
         "I live on an island and commute."),
    ],
    # A place name before a noun: "local" would guess where the author is.
    "name before a noun": [
        ("We're a Gujarati household and I cook every night.",
         "We're a household and I cook every night."),
        ("I work for a Zurich insurer.", "I work for an insurer."),
    ],
    # A city that a part, a role or a superlative belongs to.
    "part of a city": [
        ("I grew up on the Eastside of Tacoma.",
         "I grew up on the Eastside of [PLACE]."),
        ("I live in the centre of Leeds.", "I live in the centre of [PLACE]."),
        ("My wife and I live just north of Boston.",
         "My partner and I live just north of [PLACE]."),
        ("It's the cheapest suburb in Brisbane, which is why I live there.",
         "It's the cheapest suburb in [PLACE], which is why I live there."),
        ("I live in Toronto.", "I live in [PLACE]."),
        ("I live in Toronto, it's the biggest city in Canada.",
         "I live in Canada, it's the biggest city in Canada."),
    ],
    # A status word before a noun goes; after a verb it has its coarser form.
    "status before a noun": [
        ("As a divorced engineer I know the drill.",
         "As a professional I know the drill."),
        ("I'm divorced now.", "I'm on my own now."),
    ],
    # Teaching with its object before it: "work" takes none, "work with" does.
    "verb with its object before it": [
        ("The kids I teach are wild.", "The kids I work with are wild."),
        ("The module I taught last year got good reviews.",
         "The module I worked with last year got good reviews."),
        ("The school where I teach is small.", "The school where I work is small."),
        ("Been teaching the kids I love for twenty years.",
         "Been working with the kids I love for twenty years."),
    ],
    # A number after "at" is an age only where the verb it hangs on is the author's.
    "number without an age frame": [
        ("Breakfast is at 7, I'm 33 and starving.",
         "Breakfast is at 7, I'm in my thirties and starving."),
        ("Kickoff is at 15, I'm 38 and still playing.",
         "Kickoff is at 15, I'm in my thirties and still playing."),
        ("At 18, I moved out.", "In my teens, I moved out."),
    ],
    # The text says which of several places of a name it means.
    "place the text sets elsewhere": [
        ("We live in Richmond, and yes, Richmond in London, not the one in Virginia.",
         "We live in [PLACE], and yes, [PLACE] in [PLACE], not the one in [PLACE]."),
    ],
    # A degree names the school after it, of no kind it says; doing a degree
    # is no job.
    "studies read as work": [
        ("Completed my LLB at Strathmore last year.",
         "Completed my degree at [SCHOOL] last year."),
        ("Did my MSc at Strathclyde last year.",
         "Did my degree at [SCHOOL] last year."),
    ],
    # A name after "at" with nothing saying school or work is no company:
    # a body the tagger names is some organization, any other name a place.
    "name after at": [
        ("Just made sergeant, stationed at Wittering, and the drinks were on me.",
         "Just made sergeant, stationed at [PLACE], and the drinks were on me."),
        ("Sat my finals at Keele last week.", "Sat my finals at [ORG] last week."),
        ("I've worked at Globex for six years.",
         "I've worked at [ORG] for six years."),
        ("I write code for Globex these days.", "I work for [ORG] these days."),
    ],
    # An amount the author pays out is a price, not an income.
    "price read as income": [
        ("I paid 40k for my car last year.", "I paid 40k for my car last year."),
        ("They paid me 40k last year.", "They paid me [INCOME] last year."),
        ("I pay myself 60k a year from the business.",
         "I pay myself [INCOME] a year from the business."),
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(text, expected, id=f"{name}: {text}")
        for name, rows in GUESS_CLASSES.items()
        for text, expected in rows
    ],
)
def test_when_a_rule_would_guess_then_it_writes_the_sure_form_or_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
