"""A capitalized word the sentence puts where a place, an event or a firm stands.

Each row is an invented first-person sentence and one word in it: a town, a
festival, a firm or a school that the sentence's shape places (a
preposition of time, a motion's goal, a head noun after it, a possessive
after "at") is no person; the counter-cases put a person in the same shape
with a cue of their own (a title, a relation word, a given name, a subject's
verb) and keep the name.
"""

from __future__ import annotations

import pytest

from anonygraph.cues.engine import default_engine
from anonygraph.identifiers import find_identifiers
from anonygraph.identifiers.recognizers.place_roles import placed_by_structure


def persons(text: str) -> list[str]:
    """Return the text of every PERSON found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


PLACED = [
    # A preposition of time: an event, unless someone is given the name.
    ("We moved house right after Ugadi, my papa found a flat.", "Ugadi", False),
    ("The shop shuts during Matariki and my hours drop.", "Matariki", False),
    ("We left right after Dennis got home from the night shift.", "Dennis", True),
    # Where a motion goes: a place, whatever name it is.
    ("Me and the missus are off to Porthgain for a week, bliss.", "Porthgain", False),
    ("My ex moved to Carrowbeg last spring so that is that.", "Carrowbeg", False),
    ("Our Year 4 leave for Tollymore on Friday at nine.", "Tollymore", False),
    ("Got engaged last March to Rutuja, she is finishing her CA.", "Rutuja", True),
    ("Married thirty years to Darlene, she runs the church hall.", "Darlene", True),
    # Where a person comes from, where a degree or a job is from.
    ("Seeing a lad from Barra these two years, not engaged yet.", "Barra", False),
    ("I hold a BSc from Wolfhampton and a diploma too.", "Wolfhampton", False),
    ("My mum nurses at Kilbride's and my dad is retired.", "Kilbride", False),
    ("I was born at Fenwick's in Douglas like the rest of us.", "Fenwick", False),
    ("My sister works for Brindlecorp, she is 31 and single.", "Brindlecorp", False),
    ("I stay at Tom's most weekends since the divorce.", "Tom", True),
    # "at" without a given name; a verb aimed at someone keeps it.
    ("See you all at Hogmanay, the whole street comes out!", "Hogmanay", False),
    ("I study law at Glenvarloch and work weekends.", "Glenvarloch", False),
    ("My brother just laughed at Mr Okafor when he fell.", "Okafor", True),
    # A head noun after it: a place, a body or an event.
    ("Papa was with Kaveri dairy then, now he is retired.", "Kaveri", False),
    ("I'm a Ramsey man, sixty years of age, born and bred.", "Ramsey", False),
    ("We live out Otautau way, the sheep capital, ya know.", "Otautau", False),
    ("My son Travis is nineteen and wants to work offshore.", "Travis", True),
    ("Our boy Colt is 23 and in the Army at Fort Hood.", "Colt", True),
    # The name's own words: a geographic head noun, a saint, "-based".
    ("I grew up in Glenmore Harbour and still fish there.", "Glenmore Harbour", False),
    ("Elderly woman here, I live on St. Agnes Island now.", "Agnes Island", False),
    ("Tregony 1, St Mawgan 3, a great result for the lads.", "Mawgan", False),
    ("Chanda here, 31, a Ndola-based electrician on the mines.", "Ndola-based", False),
]


@pytest.mark.parametrize(("text", "span", "person"), PLACED)
def test_when_the_sentence_places_a_word_then_it_is_no_person(
    text: str, span: str, person: bool
) -> None:
    found = persons(text)
    assert any(span in f for f in found) is person, found


APPOSED = [
    # A gazetteer name beside another place, a comma between.
    ("My brother lives in Brampton, Canada.", "Canada", False),
    ("Our show runs at the Harbour Gallery, Hobart, until March.", "Hobart", False),
    (
        "Kimberley, in South Africa's Northern Cape, grew round a mine.",
        "Kimberley",
        False,
    ),
    # A person named like a place, set beside no place.
    ("My flatmate Georgia is 31 and a vet.", "Georgia", True),
    ("Thanks, Jordan.", "Jordan", True),
]


@pytest.mark.parametrize(("text", "span", "person"), APPOSED)
def test_when_a_place_name_stands_beside_a_place_then_it_is_no_person(
    text: str, span: str, person: bool
) -> None:
    found = persons(text)
    assert any(span in f for f in found) is person, found


def test_when_st_follows_a_given_name_then_it_is_part_of_a_surname() -> None:
    text = "Our lawyer is Andre St. Clair, he was kind."
    doc = default_engine()(text)
    start = text.index("Clair")
    assert not placed_by_structure(doc, text, start, start + len("Clair"))
