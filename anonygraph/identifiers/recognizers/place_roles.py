"""A capitalized word the sentence puts where a place, an event or a firm stands.

spaCy's small English model reads an unknown capitalized word in first-person
prose as a person ("papa was with Amul dairy", "wedding after Navratri",
"nurses at Noble's", "I'm a Peel man"). Word lists of towns and festivals do
not carry over to the next text; the sentence's shape does. A find counts as
no one's when:

- it is the object of a preposition of time ("after", "before", "during",
  "until", "since") and no one is given that name;
- it is where a motion goes or comes from ("off to Tenby", "moved to
  Dawson", "leave for Swanage"), where someone was born or raised, or where
  a person, a degree or a job comes from or is done ("a girl from Harris",
  "a BCom from Dalhousie", "nurses at Noble's", "works for Aldi");
- it follows "at" and no one is given it, unless the verb is one aimed at a
  person ("smiled at Kunal"), or it is a possessive standing alone after
  "at" or "in" ("at Noble's in Douglas");
- a head noun of a place, a body or an event follows it ("Amul dairy",
  "the Kimberley region", "Gore way"), a kind of person with an article
  before it ("a Peel man");
- its own words say so: a geographic head noun ("Helena Island", "Marsh
  Harbour"), a saint's name opening it ("St Austell"), "-based"
  ("Kitwe-based"), or a country's name no one is given ("Canada").

A person cue keeps the model's reading: a name someone is given (Faker's
given names, not its surnames) where the rule asks for one, and a title, a
relation word or a subject's verb, which put a word other than the
preposition right before the name or the name outside a preposition's object.
"""

from __future__ import annotations

import re
from typing import Any

TIME_PREPOSITIONS = frozenset("after before during until till since".split())
"""Prepositions of time: their object is a day, a season, an event."""

MOTION_PREPOSITIONS = frozenset("to into towards toward for from".split())
"""Prepositions whose object is where a motion goes or comes from."""

MOTION_WORDS = frozenset(
    """go goes going went gone come comes coming came move moves moving moved
    off head heads heading headed travel travels travelling traveling
    travelled traveled fly flies flying flew drive drives driving drove sail
    sails sailed ride rode return returns returning returned relocate
    relocated relocating emigrate emigrated emigrating leave leaves leaving
    bound back down up over away trip trips flight flights journey holiday
    holidays vacation ferry posted transferred deployed""".split()
)
"""Words (every inflection: the pipeline runs without its lemmatizer) that
make a preposition's object a destination or an origin."""

BIRTH_WORDS = frozenset("born raised bred reared grew".split())
"""Words after which "at", "in" or "from" names where someone was born."""

ORIGIN_WORDS = frozenset(
    """girl girls boy boys man men woman women lad lads lass lasses guy guys
    fella fellas bloke lady gent family folks people native natives kid kids
    originally hail hails hailed""".split()
)
"""A person or a word of origin before "from": its object is a place."""

STUDY_AND_WORK = frozenset(
    """degree degrees bcom bsc ba ma msc mba phd diploma certificate
    graduated graduate graduating studied study studies studying
    qualified work works worked working employed job nurse nurses nursed
    nursing teach teaches taught teaching intern interned volunteer
    volunteers apprentice""".split()
)
"""A degree, a course or a job: "at", "from" or "for" after it names a school
or a workplace."""

AIMED_AT_PERSON = frozenset(
    """look looks looked looking stare stared staring smile smiled smiling
    laugh laughed laughing shout shouted shouting yell yelled wave waved
    waving glance glanced point pointed angry mad cross annoyed furious""".split()
)
"""Verbs and states whose "at" aims at someone ("smiled at Kunal")."""

PLACE_HEADS = frozenset(
    """region area side way district county province state town city village
    valley island isle coast bay harbour harbor river lake beach hill
    mountain road street quay pier estate parish dairy factory mill plant
    farm mine works brewery bakery firm company shop store market hospital
    clinic school college university academy church chapel temple mosque
    station airport hotel pub club team branch depot office festival
    carnival parade fair season celebrations""".split()
)
"""Head nouns that make the capitalized word before them a place's, a
body's or an event's name ("Amul dairy", "the Kimberley region")."""

PERSON_KINDS = frozenset("man woman lad lass boy girl fella bloke native".split())
"""Kinds of person: "a Peel man" says where he is from (an article before)."""

GEOGRAPHIC_WORDS = frozenset(
    "island isle harbour harbor bay beach cay creek lake river valley".split()
)
"""Words that end a place's own name ("Helena Island", "Marsh Harbour")."""

SAINT = re.compile(r"(?:St\.?|Saint)[ \t]+")
POSSESSIVE = re.compile(r"['’]s\b")


def placed_by_structure(doc: Any, text: str, start: int, end: int) -> bool:
    """Tell a model's PERSON find that the sentence shows to be no one.

    Args:
        doc: The spaCy parse of ``text``.
        text: The whole text.
        start: Where the find starts.
        end: Where the find ends.

    Returns:
        True when the find's shape or place in its sentence is a place's,
        an event's or a firm's (see the module docstring).

    """
    from anonygraph.cues.places import country_of, fold
    from anonygraph.identifiers.recognizers.name_checks import (
        given_names,
        token_starting_at,
    )

    value = text[start:end]
    words = value.split()
    if words[-1].lower().strip(".,") in GEOGRAPHIC_WORDS or value.endswith("-based"):
        return True
    saint = SAINT.match(value) or _saint_before(text, start)
    if saint:
        return True
    bare = POSSESSIVE.sub("", value)
    if len(words) > 1:
        return False
    given = fold(bare) in given_names()
    if country_of(bare) is not None and not given:
        return True
    if _in_place_apposition(text, start, end, bare):
        return True
    token = token_starting_at(doc, start)
    if token is None:
        return False
    possessive = POSSESSIVE.match(text, start + len(bare)) is not None
    if not possessive and _before_place_head(token):
        return True
    return object_of_place(token, text, start, given=given, possessive=possessive)


APPOSED_PLACE = re.compile(r",[ \t]+(?:in|near|on)[ \t]+[A-ZÀ-Þ]")
"""A place after a find, set off as where it lies ("Kimberley, in South …")."""

PLACE_BEFORE = re.compile(r"([A-ZÀ-Þ][^\W\d_]+),[ \t]+$")
"""The place a find follows, a comma between ("Brampton, Canada")."""


def _in_place_apposition(text: str, start: int, end: int, bare: str) -> bool:
    """Tell a gazetteer name set beside another place by a comma.

    "Kimberley, in South Africa's Northern Cape"; "Tasman Maritime Gallery,
    Hobart": the name the gazetteer holds, with where it lies after it, or
    right after a town no one is given or a place's head noun.
    """
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.recognizers.name_checks import (
        PLACE_AND_ROLE_WORDS,
        given_names,
    )

    if fold(bare) not in gazetteer():
        return False
    if APPOSED_PLACE.match(text, end):
        return True
    before = PLACE_BEFORE.search(text[:start])
    if not before:
        return False
    word = before.group(1)
    if word.lower() in PLACE_AND_ROLE_WORDS | PLACE_HEADS:
        return True
    return fold(word) in gazetteer() and fold(word) not in given_names()


def _saint_before(text: str, start: int) -> bool:
    """Tell a find right after "St" that opens its run ("from St Austell").

    "Andre St. Clair": after a capitalized word "St." is inside a surname.
    """
    before = re.search(r"(?:^|([^\W\d_]+)[ \t]+)(?:St\.?|Saint)[ \t]+$", text[:start])
    return bool(before) and not (before.group(1) or "")[:1].isupper()  # type: ignore[union-attr]


def _before_place_head(token: Any) -> bool:
    """Tell a word a place's, a body's or an event's head noun follows."""
    doc = token.doc
    if token.i + 1 >= len(doc):
        return False
    head = doc[token.i + 1]
    word = head.text.lower()
    if not head.text.islower() or head.pos_ not in ("NOUN", "PROPN"):
        return False
    if word in PERSON_KINDS:
        # "a Peel man": an article or a possessive before the pair.
        return token.i > 0 and doc[token.i - 1].dep_ in ("det", "poss")
    return word in PLACE_HEADS


def object_of_place(
    token: Any, text: str, start: int, *, given: bool, possessive: bool
) -> bool:
    """Tell a preposition's object that the preposition and its head place."""
    doc = token.doc
    if token.i == 0 or token.dep_ != "pobj":
        return False
    preposition = doc[token.i - 1]
    word = preposition.text.lower()
    if preposition.pos_ not in ("ADP", "SCONJ") and word not in TIME_PREPOSITIONS:
        return False
    heads = {preposition.head.text.lower()}
    if preposition.i > 0:
        heads.add(doc[preposition.i - 1].text.lower())
    if word in TIME_PREPOSITIONS:
        return not given
    if word in MOTION_PREPOSITIONS and heads & MOTION_WORDS:
        return True
    if word in ("from", "at", "in") and heads & (BIRTH_WORDS | STUDY_AND_WORK):
        return True
    if word == "from" and heads & ORIGIN_WORDS:
        return True
    if word == "for" and heads & STUDY_AND_WORK:
        return not given
    if word == "at" and not heads & AIMED_AT_PERSON:
        return not given
    if word in ("at", "in") and possessive and not given:
        # "at Noble's in Douglas": the possessive stands for a place alone.
        return not re.match(r"['’]s[ \t]+[a-z]", text[start + len(token.text) :])
    return False
