"""A capitalized word whose role in the parse is a thing's, not a person's.

Each row is an invented sentence and one word in it: a maker before a part,
a feast before a season's noun, the object of "in", a feast joined to
another in a place's slot, a town after a word of birth, a region set after
a town by a comma. Each class has a counter-case that puts a person in the
nearest shape (a name before a kin word, "believed in" someone, a name
joined to a person's object, a subject after a place) and keeps the name.
"""

from __future__ import annotations

import pytest

from anonygraph.cues.engine import default_engine
from anonygraph.identifiers.recognizers.prose_roles import no_one_by_role

ROLES = [
    # A modifier of a common noun that is no kind of person.
    (
        "For sale: a road bike with a 9-speed Campagnolo cassette, barely used.",
        "Campagnolo",
        True,
    ),
    ("Lohri time we all go out to the village.", "Lohri", True),
    ("Last night we had dinner with Jessica aunty and her kids.", "Jessica", False),
    ("My cousin Dev's wife cooked for all of us.", "Dev", False),
    ("We went by Jessica place after church.", "Jessica", False),
    # The object of "in": a place, a season or a thing.
    ("In Kvirikoba we roast a lamb and the whole village eats.", "Kvirikoba", True),
    ("Every year in Mariamoba we bake bread for the neighbours.", "Mariamoba", True),
    ("I always believed in Jennifer when nobody else did.", "Jennifer", False),
    ("We slept in Maria's room that night.", "Maria", False),
    # Joined to an object that stands where a place or an event does.
    ("For Genna and Buhe we go back home to my parents.", "Buhe", True),
    ("We waved at Kevin and Jessica across the street.", "Jessica", False),
    # The direct object of a word of birth.
    ("Born down Canvey, my mum says, at the old clinic.", "Canvey", True),
    # Set off by a comma after a town a preposition of place holds.
    (
        "I reach back home in Roseau, Dominica after twelve years away.",
        "Dominica",
        True,
    ),
    ("Raised in Leeds, Jessica now teaches in York.", "Jessica", False),
]


@pytest.mark.parametrize(("text", "word", "no_one"), ROLES)
def test_when_the_parse_gives_a_word_a_things_role_then_it_is_no_person(
    text: str, word: str, no_one: bool
) -> None:
    doc = default_engine()(text)
    assert no_one_by_role(doc, text, text.index(word)) is no_one
