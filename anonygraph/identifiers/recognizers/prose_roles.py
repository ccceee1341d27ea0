"""Roles in prose that a capitalized word takes only when it names no one.

spaCy's small English model reads an unknown capitalized word in informal
prose as a person: a feast ("in Giorgoba and Mtskhetoba we cook"), a part's
maker ("a Shimano hub"), a season ("Naadam time we go"), a town ("born down
Southend"). The parse still says which role the word plays, and a few roles
are a thing's, never a person's. A single word counts as no one when:

- it modifies the common noun right after it, that noun is no kind of
  person ("Shimano hub", "Naadam time"; not "Sharma uncle", "Ava girl") and
  no one is given the word (where the possessive ending is dropped, "my son
  Kevin birthday" names Kevin);
- it is joined by "and" or "or" to a preposition's object and that object
  stands where a place or an event stands, for the conjunct shares the role
  ("for Meskel and Timkat we go back home");
- it is the object of "in" and not a possessive ("in Giorgoba we cook", not
  "in Maria's room"), for "in" puts a place, a time or a thing, while a person
  after it is held only by a verb of trust ("confided in Maria");
- it is the direct object of a word of birth ("born down Southend");
- it is set off by a comma right after a place a preposition of place holds,
  as where that place lies ("home in Scarborough, Tobago"), and the parse
  does not make it a subject.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

TRUST_WORDS = frozenset(
    """confide confides confided confiding believe believes believed
    believing trust trusts trusted trusting faith interest interested
    invest invested investing""".split()
)
"""Words whose "in" may hold a person ("believed in Ana"): the pipeline runs
without its lemmatizer, so every inflection is listed."""


def no_one_by_role(doc: Any, text: str, start: int) -> bool:
    """Tell a single-word PERSON find whose role in the parse is a thing's.

    Args:
        doc: The spaCy parse of ``text``.
        text: The whole text.
        start: Where the find starts.

    Returns:
        True when the word modifies a noun of no person, shares a place's
        role by coordination, is the object of "in" or of a word of birth
        (see the module docstring).

    """
    from anonygraph.identifiers.recognizers.name_checks import token_starting_at

    token = token_starting_at(doc, start)
    if token is None or _possessive(token):
        return False
    if _modifies_thing(token):
        return True
    if token.dep_ == "dobj" and token.head.lower_ in _birth_words():
        return True
    if _object_of_in(token) or _after_placed_place(token):
        return True
    return _conjunct_of_place(token, text)


def _possessive(token: Any) -> bool:
    """Tell a word followed by a possessive ending ("Maria's")."""
    doc = token.doc
    return token.i + 1 < len(doc) and bool(doc[token.i + 1].tag_ == "POS")


def _modifies_thing(token: Any) -> bool:
    """Tell a word no one is given that modifies a common noun of no person."""
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        given_names,
        model_words,
    )

    doc = token.doc
    if token.dep_ != "compound" or token.i + 1 >= len(doc):
        return False
    head = doc[token.i + 1]
    if head.i != token.head.i or head.pos_ != "NOUN" or not head.text.islower():
        return False
    word = head.text
    if word not in model_words() or word in _person_nouns():
        return False
    return fold(token.text) not in given_names()


def _object_of_in(token: Any) -> bool:
    """Tell the object of "in" that no verb of trust holds."""
    doc = token.doc
    if token.dep_ != "pobj" or token.i == 0:
        return False
    preposition = doc[token.i - 1]
    if preposition.lower_ != "in" or preposition.i != token.head.i:
        return False
    return preposition.head.lower_ not in TRUST_WORDS


PLACE_PREPOSITIONS = frozenset("in at near from to into".split())
"""Prepositions whose object, set before a comma, may be a place's name."""


def _after_placed_place(token: Any) -> bool:
    """Tell a word set off by a comma after a place's name a preposition holds."""
    doc = token.doc
    if token.dep_ not in ("appos", "npadvmod") or token.i < 3:
        return False
    comma, place, preposition = doc[token.i - 1], doc[token.i - 2], doc[token.i - 3]
    return (
        comma.text == ","
        and place.pos_ == "PROPN"
        and place.dep_ == "pobj"
        and place.ent_type_ != "PERSON"
        and preposition.lower_ in PLACE_PREPOSITIONS
        and preposition.i == place.head.i
    )


def _conjunct_of_place(token: Any, text: str) -> bool:
    """Tell a conjunct of a preposition's object that stands where a place does."""
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import given_names
    from anonygraph.identifiers.recognizers.place_roles import object_of_place

    if token.dep_ != "conj":
        return False
    first = token.head
    while first.dep_ == "conj":
        first = first.head
    if first.dep_ != "pobj" or first.pos_ != "PROPN" or _possessive(first):
        return False
    if _object_of_in(first):
        return True
    given = fold(first.text) in given_names()
    return object_of_place(first, text, first.idx, given=given, possessive=False)


def _birth_words() -> frozenset[str]:
    from anonygraph.identifiers.recognizers.place_roles import BIRTH_WORDS

    return BIRTH_WORDS


@lru_cache(maxsize=1)
def _person_nouns() -> frozenset[str]:
    """Return nouns of kinds of person, kin and titles ("girl", "uncle", "sir")."""
    from anonygraph.cues.lexicon import table
    from anonygraph.identifiers.recognizers.name_checks import (
        relation_words,
        titles,
    )
    from anonygraph.identifiers.recognizers.place_roles import ORIGIN_WORDS

    kinds = {row[0].lower() for row in table("gender.tsv")}
    return frozenset(kinds | relation_words() | titles() | ORIGIN_WORDS)
