"""A concrete value only where the text settles it (`anonygraph.cues.place_contract`).

Three guesses made the false sentences of the held-out rounds: a place's
country taken from another city of the text, a kind read from a word inside
a town's name, and a job family from a title that was not the author's job.
Each rule has its counter-case, where the text does settle the value, so a
rule that stops replacing everything cannot pass. The texts are our own,
written for the classes.
"""

from __future__ import annotations

import pytest

from anonygraph.cues.engine import default_engine
from anonygraph.cues.place_contract import others_place
from unit_tests.rules_rewrite import rewritten


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A sure city settles no other city's country: Richmond is in four.
        ("Spent a year in Chicago, then moved to Richmond.",
         "Spent a year in [PLACE], then moved to [PLACE]."),
        # Counter-case: a state the text names settles it, and two settled
        # cities of one country are two parts of it.
        ("Spent a year in Chicago, then moved to Richmond, Virginia.",
         "Spent a year in the US, then moved to another part of the US."),
        ("Spent a year in Chicago, then moved to Denver.",
         "Spent a year in the US, then moved to another part of the US."),
    ],
)  # fmt: skip
def test_when_only_a_city_is_named_then_it_settles_no_other_citys_country(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The clause of "she", in a sentence with no word of the author's.
        ("Just finished a biography of Nina Simone: born in Chicago in 1933, "
         "she trained as a pianist. I read it on the bus home to Leeds.",
         "Just finished a biography of Nina Simone: born in Chicago in 1933, "
         "she trained as a pianist. I read it on the bus home to [PLACE]."),
        # The identifier pass's person is someone named, however tagged.
        ("Book club notes: we read a novel. [PERSON_1] was born in Chicago in "
         "1933 and wrote it at 30.",
         "Book club notes: we read a novel. [PERSON_1] was born in Chicago in "
         "1933 and wrote it at 30."),
        # Counter-case: the same clause of the author's.
        ("Born in Chicago in 1983, I trained as a pianist.",
         "Born in [PLACE] in the 1980s, I trained as a pianist."),
    ],
)  # fmt: skip
def test_when_a_place_is_in_someone_elses_clause_then_it_stays_theirs(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "theirs"),
    [
        ("Loved the chapter on Toni Morrison's Cleveland.", True),
        ("Loved the chapter on my Cleveland.", False),
        ("I grew up in Cleveland.", False),
    ],
)
def test_when_a_named_person_owns_a_place_then_it_is_theirs(
    text: str, theirs: bool
) -> None:
    doc = default_engine()(text)
    start = text.index("Cleveland")
    span = doc.char_span(start, start + len("Cleveland"))
    assert others_place(span) is theirs


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A kind word that is no head noun, or a name beside another place:
        # a town or a region, whatever its words.
        ("I live just past Mountain Home these days.",
         "I live just past [PLACE] these days."),
        ("I was born in Basse, Upper River.",
         "I was born in [PLACE], [PLACE]."),
        # A possessive name of its own says no kind at all.
        ("We live on top of Arthur's Seat, nearly.",
         "We live on top of [PLACE], nearly."),
        # Counter-case: the kind is the name's head noun, and no more than it
        # says ("a path", not "a riverside path").
        ("We hiked up Mount Kenya last year and I swam in Lake Victoria.",
         "We hiked up a mountain last year and I swam in a lake."),
        ("I run along the Taff Trail Path every morning.",
         "I run along a path every morning."),
    ],
)  # fmt: skip
def test_when_a_kind_word_is_inside_a_towns_name_then_no_kind_is_said(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A named building the author was born at is no workplace.
        ("I was born at St Cuthbert's in 1990.",
         "I was born at [PLACE] in the 1990s."),
        # Counter-case: the clause says the author works there.
        ("I work nights at St Cuthbert's.", "I work nights at work."),
    ],
)  # fmt: skip
def test_when_a_named_building_is_not_said_to_be_work_then_it_is_a_place(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A title apposed to someone named, or said of a named subject, is theirs.
        ("Coach Harris, 58, a retired electrician, ran the session. I'm 41.",
         "Coach Harris, 58, a retired electrician, ran the session. "
         "I'm in my forties."),
        ("Okafor is a carpenter and fisherman from Onitsha.",
         "Okafor is a carpenter and fisherman from Onitsha."),
        # Counter-case: the same titles said of the author.
        ("I'm a carpenter and fisherman.", "I'm a tradesperson and outdoor worker."),
    ],
)  # fmt: skip
def test_when_a_title_is_someone_elses_then_it_stays(text: str, expected: str) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Apposed to the author's description with a place after it, the word
        # may say where the author lives: its family would be a guess.
        ("I am a 50-year-old man, resident in Kingstown.",
         "I am a fifty-something person, [OCCUPATION] in [PLACE]."),
        # Counter-case: a work verb's "as" states the job.
        ("I work as a resident at the children's hospital.",
         "I work as a healthcare worker at the children's hospital."),
    ],
)  # fmt: skip
def test_when_a_place_gives_a_title_a_residence_reading_then_it_is_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A route's ends in a notice about no one are no place of the author's.
        ("Trains between Shah Alam and KL Sentral are suspended this weekend; "
         "buses run every 15 minutes.",
         "Trains between Shah Alam and KL Sentral are suspended this weekend; "
         "buses run every 15 minutes."),
        # The author's route to a station: a country beside it would not read.
        ("I commute between Shah Alam and KL Sentral every day.",
         "I commute between [PLACE] and KL Sentral every day."),
        # Counter-case: two places of a kind, each settled.
        ("I split my time between Leeds and Nairobi.",
         "I split my time between [PLACE] and [PLACE]."),
    ],
)  # fmt: skip
def test_when_a_place_ends_a_route_then_its_country_stands_only_beside_a_place(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # No band of a teen's years reads in the frame: the number's placeholder.
        ("I am fifteen years of age and I live with my parents.",
         "I am [AGE] years of age and I live with my parents."),
        # Counter-case: an adult's decade reads in it.
        ("I am thirty-one years of age and I live with my parents.",
         "I am thirty-something years of age and I live with my parents."),
    ],
)  # fmt: skip
def test_when_no_band_of_an_age_reads_in_its_frame_then_it_is_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
