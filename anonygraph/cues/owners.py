"""Whose fact a cue states, read from the parse: the author's or someone else's.

"My nan goes to bingo in Blackpool", "My uncle, a retired welder, lives in
Nebraska", "His group recorded in Kingston": the place, the job and the age
belong to the clause's subject, a person who is not the author. Such a span
is no cue of the author, and rewriting it would change a fact the author
stated about someone else. A clause with the author as (one of) its subjects,
or with no subject at all ("Born in Leeds"), stays the author's. A relative
clause's "who" is the noun it hangs on ("his daughter, who trained in Lyon"),
a subject named by a job owns what is apposed to it ("our guide, a student
from Tartu"), and a place stayed in for a length shorter than a year ("spent
a summer in Salzburg") is a visit, no home.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from anonygraph.cues import author_words
from anonygraph.cues.ages import RELATIVE_SUBJECT
from anonygraph.cues.cue import Cue
from anonygraph.cues.lexicon import table
from anonygraph.cues.occupations import subject_of, token_at
from anonygraph.cues.place_contract import route_end
from anonygraph.tools import kept_patterns

OWNED_ATTRIBUTES = frozenset(
    {"city_country", "birth_city_country", "occupation", "age", "education"}
)
"""Attributes a clause states of its subject (a relationship word names the
author's partner even in "my wife is a nurse", so it is left out)."""
EMPLOYER_KINDS = frozenset({"organization", "employer"})
"""A relative's employer may still pin the family's city: it stays a cue."""
OTHER_PRONOUNS = frozenset({"he", "she", "they", "him", "her", "them", "his", "their"})
RELATIVE_TAGS = frozenset({"WP", "WDT"})
"""A relative clause's "who" or "that": its subject is the noun it hangs on."""
CLAUSE_HEADS = frozenset({"VERB", "AUX"})
PERSON_MARK = kept_patterns.compile(r"PERSON_\d+")
"""The inside of the identifier pass's ``[PERSON_n]``, as the parse splits it."""


@lru_cache(maxsize=1)
def _partner_words() -> frozenset[str]:
    """Return the partner words of the cue vocabulary ("husband", "missus")."""
    return frozenset(row[0].lower() for row in table("relationships.tsv"))


def others_facts(doc: Any, cues: list[Cue]) -> list[Cue]:
    """Return the cues whose clause has a person other than the author as subject."""
    return [
        c
        for c in cues
        if c.attribute in OWNED_ATTRIBUTES
        and not (c.attribute == "occupation" and c.kind in EMPLOYER_KINDS)
        and _other_owns(doc, c)
    ]


PLACE_ATTRIBUTES = frozenset({"city_country", "birth_city_country"})


def no_places(doc: Any, cues: list[Cue]) -> list[Cue]:
    """Return the place cues the parse shows name no place anyone is in.

    Names joined as the subject of a verb ("Brooklyn and Sydney took first
    place") are people or teams, and the end of a route in a sentence that
    is not the author's ("Cowes to Southampton: first sailing", "services
    between Shah Alam and KL Sentral": `place_contract.route_end`) a
    timetable's: they say
    nowhere the author is. (A name with a number, "Room 104" or "Station 12",
    may be the author's workplace, and a firm named like a place, "Jersey
    Street Heating", reads in the parse as "Corner Brook" does: both stay
    placeholders.)
    """
    return [
        c for c in cues
        if c.attribute in PLACE_ATTRIBUTES
        and (_no_place(doc, c) or (c.attribute == "city_country" and _visit(doc, c)))
    ]  # fmt: skip


LENGTH_ARTICLES = frozenset({"a", "an", "the"})
BE_FORMS = frozenset("be been being is was were am are 's 'm 're".split())
SHORT_SPANS = frozenset(
    "night day week weekend fortnight month summer winter spring autumn fall "
    "holiday holidays break evening afternoon morning hour".split()
)
"""Units of time shorter than a year: a stay that long is a visit, not a home."""


def _visit(doc: Any, cue: Cue) -> bool:
    """Tell a place its clause says someone only spent a short time in.

    "Stayed two nights at the inn in Napier", "spent a summer in Salzburg":
    the verb's object or measure is a span of time shorter than a year, so
    the place is a visit, and no home of the author's ("spent ten years in
    Leeds", "been in Leeds a month now" may be).
    """
    head = token_at(doc, cue.start)
    for _ in range(8):
        if head is None or head.pos_ in CLAUSE_HEADS or head.head.i == head.i:
            break
        head = head.head
    # The pipeline has no lemmatizer: the forms are read as written.
    if head is None or head.pos_ not in CLAUSE_HEADS or head.lower_ in BE_FORMS:
        return False
    return any(
        c.dep_ in ("dobj", "npadvmod")
        and (c.lower_ in SHORT_SPANS or c.lower_.removesuffix("s") in SHORT_SPANS)
        # A length ("two nights", "a summer"), not a time that is now or
        # then ("these days I do payroll in Stockport", "from home that day").
        and any(
            g.dep_ == "nummod" or (g.dep_ == "det" and g.lower_ in LENGTH_ARTICLES)
            for g in c.children
        )
        for c in head.children
    )


def _no_place(doc: Any, cue: Cue) -> bool:
    first, last = token_at(doc, cue.start), token_at(doc, cue.end - 1)
    if first is None or last is None:
        return False
    before = doc[first.i - 1] if first.i > 0 else None
    if (
        before is not None
        and before.lower_ == "to"
        and before.head.pos_ == "PROPN"
        and not any(
            t.lower_ in author_words.PERSONS or t.lower_ == "my" for t in first.sent
        )
    ):
        return True  # "Cowes to Southampton: first sailing 06:15": a route
    if route_end(last) and not any(t.lower_ in author_words.ANY for t in first.sent):
        return True  # "LRT services between Shah Alam and KL Sentral": a route
    head = last
    while head.dep_ == "conj" and head.head is not head:
        head = head.head
    if before is not None and before.pos_ == "ADP":
        return False  # "in Perth, Western Australia has": a place, however parsed
    names = [head, *(c for c in head.children if c.dep_ == "conj")]
    joined = len(names) > 1 and all(t.pos_ == "PROPN" for t in names)
    return (
        joined  # a lone name may be a place the sentence is about
        and head.dep_ in ("nsubj", "nsubjpass")
        and head.head.pos_ == "VERB"
        and head.head.tag_ != "VBN"  # "Richmond born, Richmond raised"
        and last.pos_ == "PROPN"
        and last.ent_type_ != "NORP"  # "Half Nigerian": a demonym
    )


def _other_owns(doc: Any, cue: Cue) -> bool:
    token = token_at(doc, cue.start)
    if token is None:
        return False
    if _names_other(token, cue):
        return True  # "uncle Lincoln": a relative's name, no place
    current = token
    for _ in range(10):
        if any(
            c.dep_ == "poss" and c.lower_ in author_words.POSSESSIVES
            for c in current.children
        ):
            return False  # "our 10th anniversary": the author's as well
        if current.dep_ == "appos" and (
            _other_person(current.head, cue) or _someone_by_title(current.head)
        ):
            return True  # "my uncle, a retired welder": an apposition of him
        if current.pos_ in CLAUSE_HEADS or current.head is current:
            break
        current = current.head
    if current.pos_ not in CLAUSE_HEADS and current.dep_ != "ROOT":
        return False  # "studies" may be tagged a noun and still head the clause
    subject = subject_of(current)
    if subject is None and current.dep_ == "acl":
        subject = current.head  # "His group, ..., recorded in": the noun it tells of
    if (
        subject is not None
        and subject.tag_ in RELATIVE_TAGS
        and current.dep_ == "relcl"
    ):
        subject = current.head  # "his daughter, who trained in Lyon": the daughter
    if subject is None or subject.i == token.i:
        return False
    if _includes_author(subject) or _author_in_clause(current):
        return False
    if _other_person(subject, cue) or _names_other(subject, cue):
        return True
    # "His group recorded in Kingston", "my nan's bus": a thing of someone else's.
    return any(
        c.dep_ == "poss" and (_other_person(c, cue) or c.lower_ in OTHER_PRONOUNS)
        for c in subject.children
    )


def _someone_by_title(noun: Any) -> bool:
    """Tell a noun that names a person by their job, in a clause not the author's.

    "Our waiter, a student from Bratislava, was charming", "the owner, a
    retired seaman": a subject or object with its determiner or owner, whose
    word is a job title, is someone the author speaks of; what is apposed to
    it is theirs. A fragment's head ("Nurse, mum of two, from Leeds") or a
    complement of the author ("I'm a nurse, a mum from Leeds") is the author.
    """
    return bool(
        noun.pos_ == "NOUN"
        and noun.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj")
        and any(c.dep_ in ("det", "poss") for c in noun.children)
        and noun.lower_ in _title_heads()
    )


@lru_cache(maxsize=1)
def _title_heads() -> frozenset[str]:
    """Return the last words of the job titles: the nouns that name a worker.

    "driver" heads "bus driver", "guide" heads "tour guide".
    """
    from anonygraph.cues.occupations import titles

    return frozenset(title.rpartition(" ")[2] for title in titles())


def _names_other(token: Any, cue: Cue) -> bool:
    """Tell whether a name is headed by a kin word ("my uncle Lincoln")."""
    return any(
        c.dep_ in ("compound", "appos")
        and (
            (c.pos_ == "NOUN" and _other_person(c, cue))
            # "Cousin Denver": the kin word capitalised, tagged a name.
            or (c.pos_ == "PROPN" and RELATIVE_SUBJECT.fullmatch(f"my {c.lower_}"))
        )
        for c in token.children
    )


def _author_in_clause(head: Any) -> bool:
    """Tell whether the author is an object of the clause ("booked me a trip")."""
    objects = [c for c in head.children if c.dep_ in ("dative", "dobj", "prep")]
    objects += [g for c in objects if c.dep_ == "prep" for g in c.children]
    return any(t.lower_ in author_words.PERSONS for t in objects)


def _includes_author(subject: Any) -> bool:
    """Tell whether the subject is, or is joined with, the author ("my wife and I")."""
    return any(
        t.lower_ in author_words.PERSONS for t in subject.subtree if t.dep_ != "poss"
    )


def _other_person(token: Any, cue: Cue) -> bool:
    """Tell whether a token names a person who is not the author (nor a partner).

    A partner shares the author's home, so where a partner lives or works
    still says where the author does; "he" or "she" may be that partner, so a
    pronoun makes a job no one else's, only a place or an age.
    """
    from anonygraph.cues.person_roles import kin_words  # it imports the detectors
    from anonygraph.cues.places import fold, gazetteer

    lower = token.lower_
    if lower in author_words.PERSONS or lower.removesuffix("'s") in _partner_words():
        return False
    if any(c.text == "/" for c in token.children):
        return False  # "she/her": the author's pronouns, no one else
    return (
        (lower in OTHER_PRONOUNS and cue.attribute != "occupation")
        or (
            token.pos_ in ("NOUN", "PROPN")
            and (
                lower.removesuffix("'s") in kin_words()
                or RELATIVE_SUBJECT.match(f"my {lower}") is not None
            )
            # "my nan", "his wife", "uncle Lincoln": someone's relative; "a
            # Kiwi bloke" may be the author.
            and (
                any(c.dep_ == "poss" for c in token.children)
                or (token.dep_ == "compound" and token.head.pos_ == "PROPN")
            )
        )
        # A name is someone else's unless its clause is the author's
        # ("Myself Karthikeyan, 30 yrs, from Salem" introduces the author).
        # A name spaCy calls a person but the gazetteer holds ("the Perth in
        # the name") is not settled as one.
        or (
            token.ent_type_ == "PERSON"
            and token.pos_ == "PROPN"
            and not any(t.lower_ in author_words.PERSONS for t in _clause_of(token))
            and fold(token.text) not in gazetteer()
        )
        # "Uncle [PERSON_1] is a plumber in Leeds": the identifier pass's
        # person after a kin word, in a clause not the author's ("My cousin
        # [PERSON_1] moved to X, so I helped": the author is in the next one).
        or (
            PERSON_MARK.fullmatch(token.text) is not None
            and _kin_before(token)
            and not any(t.lower_ in author_words.PERSONS for t in _clause_of(token))
        )
    )


def _kin_before(token: Any) -> bool:
    """Tell whether a kin word stands right before a ``[PERSON_n]`` mark."""
    at = token.i - 1
    if at >= 0 and token.doc[at].text == "[":
        at -= 1
    return (
        at >= 0 and RELATIVE_SUBJECT.fullmatch(f"my {token.doc[at].lower_}") is not None
    )


def _clause_of(token: Any) -> list[Any]:
    """Return the words of ``token``'s clause, without the clauses joined to it.

    "My cousin moved to Leeds, so I spent the weekend there": the author is
    the subject of the second clause, not of the first.
    """
    head = token
    while head.pos_ not in CLAUSE_HEADS and head.head.i != head.i:
        head = head.head
    joined = [
        c for c in head.children
        if c.dep_ in ("conj", "advcl", "ccomp", "parataxis")
        and any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
    ]  # fmt: skip
    skipped = {t.i for c in joined for t in c.subtree}
    return [t for t in head.subtree if t.i not in skipped]
