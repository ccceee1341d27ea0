"""Typed placeholders, and the checks that decide when a cue's coarser form is sure.

A detector finds a span by a pattern or a name list; what it says the span is
and what it would put in its place are a reading, not a fact. This module
settles each cue against the parse and the rest of the text (`settle`): a cue
whose reading is confirmed keeps its coarser form; one that is not confirmed
keeps its span but is replaced by a typed placeholder (`PLACEHOLDERS`), which
removes the cue without stating anything the author did not write; a span that
the parse shows is no cue at all (a house number, a person called Papa,
someone else's age) is dropped and stays as written.

What makes a cue sure:
    Ages: the number stands on its own in an age frame (not ``42 Elm Street``,
        ``No. 42``, ``room 27``), and an age at an event ("at 32") hangs on a
        verb whose subject is the author, or on a verb with no subject.
    Places: a city's name belongs to one country (the gazetteer holds no
        city, state or region of that name in any other) and is a sizeable
        city, or the text itself names that country or another place in it
        (and, either way, the text confirms the country:
        `anonygraph.cues.country_evidence`);
        a name the text sets in another country than the gazetteer's guess
        takes that country or the placeholder, and so does a name with an
        aside ("Perth (Scotland, not WA)", "Victoria, the Australian state").
        A name the parse reads as a person is no place.
    Amounts: the currency is written (see `anonygraph.cues.money`).
    Every replacement reads in its slot: after a determiner a phrase with its
        own article does not ("the Richmond area"), so the placeholder stands.
    What no source settles (a name used as a person, an age apposed to
        someone else, a school's kind, a text about no one) is decided in
        `anonygraph.cues.contract`, which this module and the detectors ask.

Spans that are already placeholders (``[PERSON_1]`` from the identifier step,
``[PLACE]``) are never cues.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from anonygraph.cues import author_words
from anonygraph.cues.ages import decade_phrase
from anonygraph.cues.contract import named_as_someone, others_age, used_as_person
from anonygraph.cues.cue import PLACE_KINDS, Cue
from anonygraph.cues.namesakes import (
    SURE_CITY_POPULATION,
    holders,
    namesake_countries,
    sure_city,
)
from anonygraph.cues.person_roles import known_name, person_by_role
from anonygraph.cues.place_contract import (
    apposed_kind_noun,
    countries_named,
    kind_said,
    modifies_noun,
    negated,
    noun_right_after,
    others_place,
    plain_name,
    unsure_route,
)
from anonygraph.cues.places import (
    LOCATIVE,
    NEARBY,
    display_country,
    fold,
    gazetteer,
)
from anonygraph.tools import kept_patterns

PLACEHOLDERS: dict[str, str] = {
    "city_country": "[PLACE]",
    "birth_city_country": "[PLACE]",
    "age": "[AGE]",
    "income_level": "[INCOME]",
    "education": "[SCHOOL]",
    "occupation": "[OCCUPATION]",
    "relationship_status": "[RELATIONSHIP]",
    "sex": "[PERSON]",
}
"""The typed placeholder of each attribute: what an unsure cue becomes."""

KIND_PLACEHOLDERS: dict[str, str] = {"organization": "[ORG]"}
"""Kinds whose placeholder is not their attribute's: an employer or school
whose name is not confirmed is an organization, not a job or a degree."""

BRACKETED = kept_patterns.compile(r"\[[A-Z][A-Z_]*(?:_\d+)?\]")
"""A placeholder already in the text: ``[PLACE]``, ``[PERSON_1]``, ``[ADDRESS_2]``."""

_AGE_NOUNS = frozenset({"year", "years", "yr", "yrs", "yo", "y", "o", "y/o", "y.o."})
"""What a number may count in an age ("32-year-old"); any other noun makes
it a house, room, bus or size number."""

_AUTHOR_SUBJECTS = frozenset({"i"})
_GROUP_SUBJECTS = frozenset({"we"})
_DETERMINER_BEFORE = kept_patterns.compile(
    r"\b(?:a|an|the|this|that|these|those|my|our|your|his|her|their)\s+$", re.I
)
_MODIFIER_FORM = "local"
"""A place's form before a noun ("a Zurich insurer" -> "a local insurer"), as
the detectors write it: a guess (the insurer may be local to nowhere the
author is), so the name goes and its noun stays ("an insurer")."""


def placeholder(attribute: str) -> str:
    """Return the typed placeholder of ``attribute`` (``[PLACE]`` for a city)."""
    return PLACEHOLDERS.get(attribute, "[DETAIL]")


def unsure(cue: Cue, start: int | None = None, text: str = "") -> Cue:
    """Return ``cue`` replaced by its typed placeholder, from ``start`` if given."""
    if start is not None and text:
        cue = replace(cue, start=start, quote=text[start : cue.end])
    typed = KIND_PLACEHOLDERS.get(cue.kind) or placeholder(cue.attribute)
    return replace(cue, replacement=typed, sure=False)


def settle(text: str, doc: Any, cues: list[Cue]) -> list[Cue]:
    """Keep the cues the text confirms, placeholder the unsure, drop the non-cues.

    Args:
        text: The text the cues were found in.
        doc: Its spaCy parse.
        cues: The detectors' cues.

    Returns:
        The cues to keep, each with a replacement that is true in its slot
        or its typed placeholder.

    """
    held = [(m.start(), m.end()) for m in BRACKETED.finditer(text)]
    cues = [c for c in cues if not any(c.start < e and s < c.end for s, e in held)]
    # A name the sentence uses as a person ("Dallas from HR") is no place,
    # so it confirms no country for the other places either.
    cues = [c for c in cues if not _person_named(doc, c)]
    context = countries_named(text, cues)
    qualified = _qualified_names(cues)
    out = []
    for cue in cues:
        settled: Cue | None = None if _someone_elses(doc, cue) else cue
        if settled is None:
            pass
        elif cue.attribute == "age" and cue.kind in ("age", "age_then"):
            number = _number_token(doc, cue)
            # "Councillor X, 54, said": the number is the subject's age.
            others = number is not None and others_age(doc, number)
            settled = None if others else _settle_age(text, doc, cue)
        elif cue.kind in PLACE_KINDS and cue.attribute.endswith("country"):
            settled = _settle_place(text, doc, cue, context, qualified)
            if (
                settled is not None
                and settled.kind == "landmark"
                and settled.sure
                and not kind_said(text, settled, cues)
            ):
                settled = unsure(settled)  # "Mountain Home, Arkansas": a town
        elif cue.attribute == "relationship_status" and negated(text, cue.start):
            # "not yet married but I have a boyfriend": "not spoken for"
            # would deny the boyfriend; what a negated status hides is unsaid.
            settled = unsure(cue)
        elif (cue.attribute == "relationship_status" and cue.kind == "status") or (
            cue.attribute == "sex" and cue.kind == "self_reference"
        ):
            # "a divorced father", "a female pilot": the word goes, the noun stays.
            settled = _status_before_noun(doc, cue)
        elif cue.kind == "salary" and _paid_by_author(doc, cue):
            settled = None  # "I paid 40k for my car": a price, not an income
        if settled is not None and _numbered_label(doc, settled):
            settled = None  # "at No. 42": a label with its number, no employer
        if settled is not None:
            out.append(_in_its_slot(text, settled, doc))
    return out


def _person_named(doc: Any, cue: Cue) -> bool:
    if cue.kind not in PLACE_KINDS or not cue.attribute.endswith("country"):
        return False
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None:
        return False
    if used_as_person(span):
        return True
    if named_as_someone(span) and not person_by_role(doc.text, span):
        return True  # "Phoenix dropped 14": someone, whom the identifiers judge
    # "Dallas from HR": where that person is from is theirs (a department).
    preposition = span.root.head
    if span.root.dep_ != "pobj" or preposition.lower_ != "from":
        return False
    person = preposition.head
    return used_as_person(doc[person.i : person.i + 1])


def _someone_elses(doc: Any, cue: Cue) -> bool:
    """Tell whether the cue's sentence is about a named person, not the author.

    "Queen Elizabeth died at 96 in Balmoral": its subject is a person the
    parser names, and no word in it is the author's, so its place and age
    are hers; a place in a clause of "she" or owned by a name is that
    person's too (`place_contract.others_place`).
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None:
        return False
    if (
        cue.kind in PLACE_KINDS
        and cue.attribute.endswith("country")
        and others_place(span)
    ):
        return True  # "born in St. Louis in 1928, she became ...": hers
    sentence = span.sent
    if any(t.lower_ in author_words.ANY for t in sentence):
        return False
    # A person entity that is the cue itself ("Fellow Canucks") is no one else.
    people = [
        e
        for e in doc.ents
        if e.label_ == "PERSON" and (e.end <= span.start or span.end <= e.start)
    ]
    return any(
        t.dep_ in ("nsubj", "nsubjpass")
        and t.head.dep_ == "ROOT"
        and any(e.start <= t.i < e.end for e in people)
        for t in sentence
    )


NAME_MODIFIER = "name_modifier"
"""The kind of a name that modifies a noun and goes without a replacement."""

STATUS_MODIFIER = "status_modifier"
"""The kind of a status word that modifies a noun ("a divorced father"): it
goes, and the noun stays ("a father")."""


def _status_before_noun(doc: Any, cue: Cue) -> Cue:
    """Drop a status word that modifies a noun rather than replace it.

    "a divorced father" -> "a father": the coarser forms of a status ("on my
    own", "spoken for") stand after a verb, not before a noun ("an on my own
    parent"), and without the word the phrase stays true.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or span.end >= len(doc):
        return cue
    last = span[-1]
    if cue.attribute == "relationship_status" and any(
        c.dep_ == "prep" and c.lower_ == "to" and c.idx > cue.end for c in last.children
    ):
        # "Engaged since June to Shannon": the word keeps its "to", which
        # "spoken for" cannot take ("Spoken for since June to ..."); only
        # the status word itself goes ("I have been [RELATIONSHIP] ... to").
        return unsure(cue, last.idx, doc.text)
    noun = last.head
    # "a female bush pilot": the noun may have other modifiers before it.
    between = doc[span.end : noun.i]
    if (
        last.dep_ in ("amod", "compound")
        and noun.i >= span.end
        and noun.pos_ in ("NOUN", "PROPN")
        and all(
            (t.head.i == noun.i or t.head in between) and not t.is_punct
            for t in between
        )
    ):
        return replace(cue, kind=STATUS_MODIFIER, replacement="")
    return cue


def _paid_by_author(doc: Any, cue: Cue) -> bool:
    """Tell whether the author pays the amount out ("We paid about 300k for it").

    "pay" reads both ways: the author as its active subject, with no one paid
    to ("They paid me 40k", "I pay myself 60k"), gives the money away.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None:
        return False
    verb = span.root
    while verb.head.i != verb.i and verb.pos_ not in ("VERB", "AUX"):
        verb = verb.head
    if verb.lower_ not in ("pay", "pays", "paid", "paying"):  # no lemmatizer here
        return False
    subjects = [c.lower_ for c in verb.children if c.dep_ == "nsubj"]
    paid_to = [c for c in verb.children if c.dep_ == "dative" and c.pos_ == "PRON"]
    return bool(subjects) and subjects[0] in ("i", "we") and not paid_to


def _numbered_label(doc: Any, cue: Cue) -> bool:
    """Tell whether a number right after the span counts it ("No. 42", "Route 66")."""
    if cue.attribute == "age" or cue.attribute == "income_level":
        return False
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or span.end >= len(doc):
        return False
    after = doc[span.end]
    return bool(after.like_num and after.dep_ == "nummod" and after.head in span)


def _number_token(doc: Any, cue: Cue) -> Any:
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    numbers = [t for t in span or () if t.like_num]
    return numbers[-1] if numbers else None


def _settle_age(text: str, doc: Any, cue: Cue) -> Cue | None:
    number = _number_token(doc, cue)
    if number is None or not cue.exact:
        return cue
    # "42 Elm Street", "No. 42", "room 27": the number counts or names a
    # thing; only years count an age ("32-year-old").
    end = number.idx + len(number.text)
    head = number.head
    between = text[end : head.idx] if head.i > number.i else text[head.idx : number.idx]
    if (
        number.dep_ == "nummod"
        # "No. 42", "room 27" label a thing in any frame; a noun after the
        # number counts it only where an event's "at" leads ("at 42 Elm
        # Street"); a stated age may run on ("74 next birthday").
        and (head.i < number.i or cue.kind == "age_then")
        and not cue.start <= head.idx < cue.end  # "Aged 27": the frame's own word
        and head.lower_ not in _AGE_NOUNS
        and text[end : end + 1] != "-"  # "45-ish": the number's own suffix
        and not re.search(r"[,;:()]", between)  # "31, male": a list, no label
    ):
        return None
    following = doc[number.i + 1] if number.i + 1 < len(doc) else None
    if (
        following is not None
        and cue.kind == "age_then"
        and following.pos_ in ("NOUN", "PROPN")
        and following.idx == number.idx + len(number.text) + 1
        and following.lower_ not in _AGE_NOUNS
        and following.dep_ != "nsubj"
    ):
        return None
    if not cue.quote.lower().startswith("at "):
        return cue
    # An age at an event: whose it is, the verb's subject says.
    subject = _subject_of(doc, number)
    if subject is None or subject.lower_ in _AUTHOR_SUBJECTS:
        phrase = decade_phrase(int(cue.value)) if cue.value.isdigit() else ""
        if phrase.startswith("in my "):
            return replace(cue, replacement=phrase, sure=True)
        return unsure(cue, number.idx, text)
    if subject.lower_ in _GROUP_SUBJECTS:
        return unsure(cue, number.idx, text)
    return None  # "Mandela was sworn in at 75", "my mum retired at 60"


def _subject_of(doc: Any, number: Any) -> Any:
    """Return the subject of the verb an age hangs on; None for a fragment.

    The parse's verb decides ("Shift starts at 6, I'm 44": the shift's
    time); only where that verb has no subject does the word right after
    the number stand for it ("at 32 I should settle down").
    """
    head = number
    while head.head.i != head.i and head.pos_ not in ("VERB", "AUX"):
        head = head.head
    while True:
        subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            return subjects[0]
        # "Married at 29, divorced at 35": a verb joined to another shares
        # its subject.
        if head.dep_ in ("conj", "advcl", "xcomp") and head.head.i != head.i:
            head = head.head
            continue
        break
    after = [t for t in doc[number.i + 1 : number.i + 3] if not t.is_punct][:1]
    if after and after[0].dep_ in ("nsubj", "nsubjpass"):
        return after[0]  # "At 20, she ...": the parse left the age loose
    return None


def _in_superlative(doc: Any, cue: Cue) -> bool:
    """Tell whether a place bounds a superlative ("the best suburb in Melbourne").

    A coarser place widens the claim ("the best suburb in Australia"), which
    the author did not make; the placeholder keeps it as wide as written.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None:
        return False
    preposition = span.root.head
    if span.root.dep_ != "pobj" or preposition.lower_ not in ("in", "of", "on"):
        return False
    noun = preposition.head
    return any(
        c.tag_ in ("JJS", "RBS") or any(g.tag_ == "RBS" for g in c.children)
        for c in noun.children
    )


def _part_of(doc: Any, cue: Cue) -> bool:
    """Tell whether a city is named as what a part, a side or a role is of.

    "the Eastside of Tacoma", "the centre of Leeds", "just north of Boston",
    "the mayor of Leeds": said of the city, and "the centre of the UK" or
    "north of the US" would be false.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or span.root.dep_ != "pobj":
        return False
    preposition = span.root.head
    # "trucking out of Omaha": where from, which its country says as well.
    return bool(preposition.lower_ == "of" and preposition.head.lower_ != "out")


QUALIFIER = kept_patterns.compile(r",\s*|\s+in\s+")
"""What stands between a name and the place that says which one it is:
"Hamilton, Ontario", "Richmond in Melbourne"."""


def _qualified_names(cues: list[Cue]) -> dict[str, Cue]:
    """Return folded city name -> its cue where the text says which place it is.

    "Richmond born, Richmond raised: that's Richmond in Melbourne": every
    Richmond of the text is the one the qualified mention names.
    """
    named = {}
    for cue in cues:
        parts = QUALIFIER.split(cue.quote, maxsplit=1)
        if cue.kind == "city" and len(parts) > 1:
            named[fold(parts[0].strip())] = cue
    return named


def _settle_place(
    text: str, doc: Any, cue: Cue, context: set[str], qualified: dict[str, Cue]
) -> Cue | None:
    before = text[: cue.start].split()
    locative = bool(before) and before[-1].lower() in LOCATIVE
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is not None and person_by_role(text, span):
        # "married to Declan", "Chelsea and [PERSON_2]": a person's name,
        # which goes as a person, never as a place.
        return replace(cue, kind="person", replacement="[PERSON]", sure=False)
    sizes = holders().get(fold(plain_name(cue.quote)), {})
    big = max(sizes.values(), default=0) >= SURE_CITY_POPULATION
    if span is not None and not locative and not big:
        # "Papa says", "Georgia came over": a person, unless the name is a
        # big city's ("Hobart traffic"), which the parser may misread.
        people = [e for e in doc.ents if e.label_ == "PERSON"]
        # A town no one is named for, where a place stands ("born for
        # Nnewi", "district is Sylhet"), is the town the tagger misread.
        town = bool(sizes) and not known_name(plain_name(cue.quote))
        if any(e.start <= span.start and span.end <= e.end for e in people) and not (
            town and span.root.dep_ in ("pobj", "attr")
        ):
            return None
    if cue.kind == "area" and re.search(r"(?:'s|’s)$", cue.quote):
        # "South Africa's coast": the name itself is in the gazetteer, and
        # its own cue speaks for it.
        if gazetteer().get(fold(plain_name(cue.quote))) is not None:
            return None
    if cue.replacement == _MODIFIER_FORM:
        noun = apposed_kind_noun(doc, span.end) if span is not None else None
        if noun is not None:  # "on Taveuni, Somosomo village": one place
            end = noun.idx + len(noun.text)
            return unsure(replace(cue, end=end, quote=text[cue.start : end]))
        return replace(cue, kind=NAME_MODIFIER, replacement="")
    if _in_superlative(doc, cue) or (span is not None and unsure_route(span.root)):
        return unsure(cue)  # "between Shah Alam and KL Sentral": a route's end
    if cue.kind != "city" or not cue.exact:
        return cue
    if _part_of(doc, cue) or (before and before[-1] == "on"):
        # "a kitchen position on Provo": one is on an island or a street,
        # in a city; the city of that name is not what the text says.
        return unsure(cue)
    if " in " in cue.quote and "," not in cue.quote:
        # "Richmond in Melbourne": a part of the city the text names, so in
        # that city's country whether or not the gazetteer holds the part.
        return cue
    if "," in cue.quote:
        # "Hamilton, Ontario": the text says which, if a place of that name
        # is in the qualifier's country ("Savannah, Georgia" is no Georgian
        # city: the US state, which the name table ranks below the country).
        sizes = holders().get(fold(cue.quote.split(",")[0].strip()), {})
        named = {display_country(c) for c in sizes}
        return cue if not sizes or cue.replacement in named else unsure(cue)
    if span is not None and span.root.dep_ == "attr":
        # "My home district is Sylhet": what the name is equated with is
        # no country ("is Bangladesh").
        return unsure(cue)
    name = plain_name(cue.quote)
    said = qualified.get(fold(name))
    if said is not None:
        # The same name said elsewhere in the text with the place it is in.
        which = _settle_place(text, doc, said, context, {})
        if which is not None and which.sure and which.replacement:
            return replace(cue, value=which.value, replacement=which.replacement)
        return unsure(cue)
    if _aside_against(text, cue.end):
        return unsure(cue)  # "Rabat, not the Moroccan one": which is unsaid
    if cue.replacement == "a city" and before and before[-1].lower() in NEARBY:
        # "a village outside Cork": its country would say "abroad"; "a city"
        # is true of every namesake the gazetteer holds, if one is sizeable
        # and the name's first reading is a city, not a state or region.
        place = gazetteer().get(fold(name))
        city = place is not None and place.kind == "city"
        big_enough = max(sizes.values(), default=0) >= SURE_CITY_POPULATION
        return cue if city and big_enough else unsure(cue)
    sure = sure_city(name)
    stated = [c for c in namesake_countries(name) | set(sizes) if c in context]
    if len(stated) == 1:
        chosen = stated[0]  # "Richmond, close to Melbourne": the Australian one
    elif stated:
        return unsure(cue)  # the text names two countries that hold the name
    elif sure:
        chosen = sure  # a big city of one country; the author may have moved
    else:
        return unsure(cue)
    if cue.replacement == "a city" and chosen not in context:
        return unsure(cue)  # a name several countries share, none confirmed
    return replace(cue, replacement=display_country(chosen))


ASIDE = kept_patterns.compile(
    r"\s*(?:\(([^)]*)\)|[,–—-]\s*((?:not|the|our|my|that|this|a|an)\b[^.!?;\n]*))",
    re.IGNORECASE,
)
"""A name's aside: a bracket right after it, or a phrase set off by a comma or
a dash that opens as a noun phrase or a negation ("Victoria, the Australian
state"; "Rabat, not the Moroccan one")."""


def _aside_against(text: str, end: int) -> bool:
    """Tell whether an aside right after a city's name speaks of that city.

    What the aside says was written of the city, not of its country: "Rabat,
    not the Moroccan one" and "Perth (Scotland, not WA)" set the name apart
    from a namesake the rewrite's country could be, "Victoria, the Australian
    state" says which Victoria, and "Toulouse, the pink city" would call the
    country a city. Any such aside keeps the name's placeholder.
    """
    return ASIDE.match(text, end) is not None


def _in_its_slot(text: str, cue: Cue, doc: Any) -> Cue:
    """Fall back to the placeholder where the coarser phrase would not read."""
    replacement = cue.replacement
    if cue.kind in PLACE_KINDS and (
        re.match(r"\s+ones?\b", text[cue.end :])
        or (negated(text, cue.start) and modifies_noun(doc, cue))
    ):
        # "not the Maharashtra one", "not the Shropshire town": a name before
        # a noun says which; "not India one" or "not the UK town" would not
        # read, and "the" stays the phrase's.
        the = 4 if cue.quote.lower().startswith("the ") else 0
        return unsure(cue, cue.start + the, text)
    if (
        cue.kind in PLACE_KINDS
        and cue.sure
        and replacement
        and replacement != _MODIFIER_FORM
        and (modifies_noun(doc, cue) or noun_right_after(doc, cue))
    ):
        # "with Miami rent": a country before the noun ("the US rent") or a
        # second place of it ("another part of the US rent") would not read.
        return unsure(cue)
    if (
        replacement
        and cue.sure
        and re.match(r"(?:a|an|the)\s", replacement, re.I)
        and _DETERMINER_BEFORE.search(text[: cue.start])
    ):
        return unsure(cue)  # "the Richmond area" -> "the [PLACE] area"
    owner = re.search(r"(?:'s|’s)$", cue.quote) or re.match(r"['’]s\b", text[cue.end :])
    if cue.kind in PLACE_KINDS - {"country"} and owner and cue.sure and replacement:
        # "Brooklyn's flat", "Sydney's beaches": the country's ("the US's
        # flat") is another owner, and the name may be a person's.
        cue = unsure(cue)
        replacement = cue.replacement
    if (
        cue.kind in PLACE_KINDS
        and re.search(r"(?:'s|’s)$", cue.quote)
        and replacement
        and not re.search(r"(?:'s|’s)$", replacement)
    ):
        return replace(cue, replacement=replacement + cue.quote[-2:])
    return cue
