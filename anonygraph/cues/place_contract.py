"""The contract's rules for places: what settles a place's coarser form.

Part of the contract of a rules replacement (`anonygraph.cues.contract`):
a concrete value only where the text itself settles it, else the typed
placeholder, or the span as written where it is someone else's.

Second places (`second_place`):
    Within one text, a place the rewrite would call "another part of" a
    country is a second place only when both are cities of different names,
    each settled as below (`second_place`): "Lafayette, Louisiana" after
    "Lafayette" is the same place, and Thrissur after Kerala may lie in it.
Countries (`countries_named`):
    Only a country the text names (the country, or a state or region of one
    country) settles which of several places of one name is meant; another
    city, however sure, does not ("Maya Angelou's St. Louis ... my room in
    Norwich" is no Norwich in the US). A city alone takes a country only
    where the gazetteer's reading is sure (`namesakes.sure_city`) and the
    text confirms it (`anonygraph.cues.country_evidence`), and
    "another part of" is said only between two cities settled so
    (`second_place`).
Someone else's places (`others_place`):
    A place in the clause of a named other person or pronoun ("born in St.
    Louis in 1928, she became ...", in a sentence with no word of the
    author's) or owned by one ("Maya Angelou's St. Louis") is that person's
    and stays as written.
Kinds of place (`kind_said`):
    A kind ("a mountain", "a river") comes from the name's head noun only:
    its last word ("Swan Street"), or a first word English puts before a
    name ("Mount Everest", "Isle of Skye"), never a word inside a town's or
    region's name ("Mountain Home"), and no more than the word says ("a
    tower", not "a famous tower"). A name the text qualifies by a place
    ("Mountain Home, Arkansas") or that qualifies one ("Basse, Upper River")
    is a town or a region, whatever its words: the typed placeholder.
Routes (`route_end`):
    A place one of two ends of a span ("between Shah Alam and KL Sentral")
    is a route's. In a sentence with no word of the author's it is no place
    of theirs; in one of the author's it takes the typed placeholder where
    the other end is no place the gazetteer holds (`unsure_route`): a route
    from a country to a station would not be what the author wrote.
Names before nouns (`modifies_noun`, `noun_right_after`, `apposed_kind_noun`):
    A place that modifies a noun ("with Miami rent") takes the typed
    placeholder: a country ("the US rent") or a second place of one
    ("another part of the US rent") would not read. A name before its own
    kind noun, apposed to a place ("born on Taveuni, Somosomo village"),
    goes with that noun as one place.
Workplaces (`works_at`):
    A named building or institution ("St Bernard's") is "work" only where
    its clause says the author works there; otherwise it is a place, and
    the typed placeholder ("born at [PLACE]").
"""

from __future__ import annotations

import re
from typing import Any

from anonygraph.cues import author_words
from anonygraph.cues.cue import Cue
from anonygraph.tools import kept_patterns

_WORD = kept_patterns.compile(r"[\w']+")

ENGLISH_SHARE = 0.2
"""The least share of English function words ("the", "to", "at") among a
text's lower-case words for its parse to say whose a clause is, and its lack
of an English first-person word to say anything: a third or more in English
prose, a quarter in a forecast's clipped lines, under a tenth in Swahili,
French or Tagalog."""


def in_english(tokens: Any) -> bool:
    """Tell whether a text or sentence is English enough for its parse to be read."""
    words = [t for t in tokens if t.is_alpha and t.text.islower()]  # names aside
    return bool(sum(t.is_stop for t in words) >= ENGLISH_SHARE * len(words))


WORK_CONTEXT = kept_patterns.compile(
    r"\b(?:work(?:s|ed|ing)?|job|shift|employer|boss|hired|joined|intern(?:ship)?|"
    r"apprentice\w*|paycheck|salary|colleagues?|office|manager|team)\b",
    re.IGNORECASE,
)
"""Words that say work in the clause before a name: the name is a workplace."""

LANDMARK_NOUNS: dict[str, str] = {
    "island": "an island",
    "isle": "an island",
    "islands": "the islands",
    "mount": "a mountain",
    "mountain": "a mountain",
    "mountains": "the mountains",
    "lake": "a lake",
    "river": "a river",
    "park": "a park",
    "bridge": "a bridge",
    "tower": "a tower",
    "square": "a square",
    "street": "a street",
    "road": "a road",
    "path": "a path",
    "station": "the station",
    "market": "a market",
    "cathedral": "a cathedral",
    "church": "a church",
    "museum": "a museum",
    "palace": "a palace",
    "castle": "a castle",
    "beach": "a beach",
    "bay": "a bay",
    "hospital": "the hospital",
    "district": "a district",
    "valley": "a valley",
    "coast": "the coast",
    "highlands": "the highlands",
    "forest": "a forest",
    "canyon": "a canyon",
    "hill": "a hill",
    "hills": "the hills",
    "peak": "a peak",
    "falls": "a waterfall",
    "gardens": "a garden",
    "pier": "a pier",
    "harbour": "a harbour",
    "harbor": "a harbor",
    "lighthouse": "a lighthouse",
    "cliffs": "the cliffs",
    "dales": "the countryside",
    "moors": "the moors",
    "wolds": "the countryside",
    "downs": "the countryside",
    "fens": "the countryside",
    "broads": "the countryside",
    "glens": "the glens",
}
"""A landmark's last word -> what it becomes: the kind of place, not its name,
and no more than the word says ("a tower", not "a famous tower")."""


def plain_name(quote: str) -> str:
    """Return a place's name less its possessive and a leading "of", "in", "the"."""
    name = re.sub(r"(?:'s|’s)$", "", quote.strip())
    return re.sub(r"^(?:of|in|the)\s+", "", name, flags=re.I)


def negated(text: str, start: int) -> bool:
    """Tell whether the phrase a span stands in says "not" before it.

    A place ("not the one in Virginia") or a status ("not yet married").
    """
    phrase = re.split(r"[,;:.!?()\n]", text[:start])[-1]
    return re.search(r"\bnot\b|n't\b", phrase, re.IGNORECASE) is not None


def countries_named(text: str, cues: list[Cue]) -> set[str]:
    """Return the countries the text names: a country, or a state or region of one.

    A city settles no other city's country, however sure it is: "born in St.
    Louis ... my room in Norwich" names no country, and Norwich's namesake
    in the US is no more meant than the one in England. A place the text
    negates ("not the one in Virginia", "not WA") names where the author's
    place is not.
    """
    from anonygraph.cues.places import fold, gazetteer

    named = set()
    for cue in cues:
        if not cue.attribute.endswith("country") or negated(text, cue.start):
            continue
        place = gazetteer().get(fold(plain_name(cue.quote)))
        if place is None:
            parts = [p.strip() for p in cue.quote.split(",")]
            place = gazetteer().get(fold(parts[-1])) if len(parts) > 1 else None
        if place is not None and place.kind in _NAMING_KINDS and place.country:
            named.add(place.country)
    return named


_NAMING_KINDS = frozenset({"country", "state", "region"})
"""Gazetteer kinds that name one country: the country, a state or a region of it."""


def others_place(span: Any) -> bool:
    """Tell whether a place is someone else's: owned by, or said of, another person.

    "Maya Angelou's St. Louis": a named person owns it. "born in St. Louis in
    1928, she became ...": the nearest clause with a subject, up the parse,
    is said of a third person, in a sentence with no word of the author's.
    """
    if any(
        c.dep_ == "poss" and named_person(c) and not span.start <= c.i < span.end
        for c in span.root.children
    ):
        return True  # "Arthur's Seat" is a name of its own, owned by no one
    if any(t.lower_ in author_words.ANY for t in span.sent) or not in_english(
        span.sent
    ):
        return False  # "Niko 26, nadrive Uber hapa Nairobi": no parse to read
    token = span.root
    for _ in range(12):  # a clause's subject is a few heads up at most
        subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
        if token.pos_ in ("VERB", "AUX") and subjects:
            subject = subjects[0]
            if span.start <= subject.i < span.end:
                return False  # "Toronto gets cold": the place is the subject
            # A name the tagger calls a person but parses as a common noun
            # ("Niko 26, nadrive Uber hapa Nairobi") is a misread word.
            named = named_person(subject) and (
                subject.pos_ != "NOUN" or subject.text.startswith("PERSON_")
            )
            return named or _third_person(subject)
        if token.head.i == token.i:
            return False
        token = token.head
    return False


def named_person(token: Any) -> bool:
    """Tell a token of a person's name: the tagger's, or the identifiers' mark."""
    return bool(token.ent_type_ == "PERSON" or token.text.startswith("PERSON_"))


def _third_person(token: Any) -> bool:
    """Tell "she", "he" or "they": a pronoun of someone other than the author."""
    person = token.morph.get("Person")
    return bool(
        token.pos_ == "PRON" and person and person[0] == "3" and token.lower_ != "it"
    )


PREFIX_KINDS = frozenset({"mount", "mt", "lake", "loch", "isle", "river"})
"""Kinds English writes before a name ("Mount Everest", "Lake Como", "River
Thames"): there the first word is the name's head noun. Any other kind word
first is a modifier of the name's head ("Mountain Home" is a home)."""


_IN_BEFORE = kept_patterns.compile(r"(?i)\bin\s+$")
NOT_ENTERED = frozenset(
    "bridge falls springs heights point rock tower gate crossing ford".split()
)
"""Landmarks one stands on, by or under, not in: after "in" they name a town."""


def kind_said(text: str, cue: Cue, cues: list[Cue]) -> bool:
    """Tell whether a landmark's kind ("a mountain", "a river") is what its name says.

    A name after "in" with no article, headed by what no one is in ("in
    Breaux Bridge"), is a town. Otherwise the kind is the name's head noun:
    its last word ("Swan Street"), a first word that English puts before a
    name (`PREFIX_KINDS`), or the first of "X of Y" ("Isle of Skye"). A
    name qualified by a place after a comma ("Mountain Home, Arkansas") or
    qualifying one ("Basse, Upper River", "Goroka, Eastern Highlands") is a
    town or a region, whatever its words.
    """
    words = [w for w in _WORD.findall(cue.quote.lower()) if w != "the"]
    if not words:
        return False
    first = words[0] in PREFIX_KINDS or (
        len(words) > 2 and words[1] == "of" and words[0] in LANDMARK_NOUNS
    )
    head = words[-1] in LANDMARK_NOUNS or (len(words) > 1 and first)
    if not head:
        return False
    if (
        words[-1] in NOT_ENTERED
        and not cue.quote.lower().startswith("the ")
        and _IN_BEFORE.search(text, 0, cue.start)
    ):
        # "my house right there in Breaux Bridge": one lives in a town named
        # for a bridge, not in a bridge (but swims in a lake).
        return False
    return len(words) < 2 or not _beside_place(text, cue, cues)


def _beside_place(text: str, cue: Cue, cues: list[Cue]) -> bool:
    """Tell a name set beside another place by a comma, either side."""
    for other in cues:
        if other is cue or not other.attribute.endswith("country"):
            continue
        if other.start >= cue.end and _COMMA.fullmatch(text, cue.end, other.start):
            return True
        if other.end <= cue.start and _COMMA.fullmatch(text, other.end, cue.start):
            return True
    return False


def route_end(token: Any) -> list[str]:
    """Return the other ends of a span "between" places a name ends; [] if none."""
    first = token
    while first.dep_ == "conj" and first.head.i != first.i:
        first = first.head
    if first.dep_ != "pobj" or first.head.lower_ != "between":
        return []
    ends = [first, *(c for c in first.children if c.dep_ == "conj")]
    return [
        " ".join(
            t.text
            for t in end.subtree
            if t is end or t.dep_ not in ("cc", "conj", "punct")
        )
        for end in ends
        if end.i != token.i
    ]


def unsure_route(token: Any) -> bool:
    """Tell a route's end whose other end no country would stand beside.

    "between Shah Alam and KL Sentral" would become "between Malaysia and
    KL Sentral", a route from a country to a station; "between London and
    Paris" becomes "between the UK and France", two of a kind.
    """
    from anonygraph.cues.places import fold, gazetteer

    return any(gazetteer().get(fold(end)) is None for end in route_end(token))


_COMMA = kept_patterns.compile(r",\s*")
_CLAUSE_BREAK = kept_patterns.compile(r"[,;:.!?()\n]|\band\b", re.IGNORECASE)


def works_at(text: str, start: int) -> bool:
    """Tell whether the clause before a named building says the author works there.

    "I work nights at St Mungo's", "my shift at St Mary's": a work word in
    the same clause, in a text of the author's. "born at St Bernard's" and
    "resident in St. George's" say where the author was born or lives.
    """
    clause = _CLAUSE_BREAK.split(text[max(0, start - 80) : start])[-1]
    return WORK_CONTEXT.search(clause) is not None


def second_place(first: Cue, later: Cue) -> str:
    """Say how a later place relates to an earlier one that has the same country.

    Returns:
        ``"same"`` where both name one place ("Lafayette" and "Lafayette,
        Louisiana"): the later takes the same replacement; ``"other"`` where
        both are cities of different names, each settled (a sure city or one
        the text names the country of): "another part of" the country is
        true; ``"unsure"`` otherwise (a state and a city, which may lie in it:
        "Kerala ... from Thrissur"): the later takes its placeholder.
    """
    from anonygraph.cues.places import fold

    def base(cue: Cue) -> str:
        return fold(re.split(r",|\s+in\s+", cue.quote)[0].strip().removeprefix("the "))

    if base(first) == base(later):
        return "same"
    if 0 <= later.start - first.end <= 2:
        # "Karşıyaka, İzmir": a district and its city side by side are one
        # place; "another part of Turkey" would part them.
        return "unsure"
    if first.kind == "city" and later.kind == "city" and first.sure and later.sure:
        return "other"
    return "unsure"


def apposed_kind_noun(doc: Any, end: int) -> Any:
    """Return the kind noun after a name that, apposed to a place, makes one place.

    "born on Taveuni, Somosomo village": "village" follows the name and is
    apposed to a name a preposition puts in place; the name and its noun go
    together ("[PLACE], village" would leave the noun alone). None where
    the token at ``end`` is no such noun.

    Args:
        doc: The text's spaCy parse.
        end: The index of the token right after the name.

    """
    if end >= len(doc):
        return None
    noun, place = doc[end], doc[end].head
    if (
        noun.pos_ == "NOUN"
        and noun.dep_ == "appos"
        and place.pos_ == "PROPN"
        and place.dep_ == "pobj"
        and place.i < end
    ):
        return noun
    return None


def modifies_noun(doc: Any, cue: Cue) -> bool:
    """Tell a name that modifies the common noun right after it ("Shropshire town")."""
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or span.end >= len(doc):
        return False
    noun = doc[span.end]
    return bool(noun.pos_ == "NOUN" and span[-1].head.i == noun.i)


def noun_right_after(doc: Any, cue: Cue) -> bool:
    """Tell a name a common noun follows with no word between ("Miami rent").

    Where the parse misreads the phrase ("with Miami rent pero bueno"), the
    noun right after still shows the name is its modifier; a time ("in
    Leeds today") or a participle the tagger took for a noun ("from Manila
    working night shifts") is no such noun.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or span.end >= len(doc):
        return False
    noun = doc[span.end]
    return bool(
        noun.pos_ == "NOUN"
        and noun.idx == cue.end + 1
        and noun.text.islower()
        and noun.ent_type_ not in ("DATE", "TIME")
        and not noun.lower_.endswith("ing")  # "Manila working nights": a verb
    )
