"""Word tables and checks that tell a person's name from a word, a place or a label.

The person recognizers (`names`) and the span shaping around them
(`person_spans`, `detect`) ask these: which capitalized word is a place
after a locative, a kin word, a street, an organization, a label or a
quoted title's word, and which parse role no person takes.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from typing import Any

from anonygraph.tools import kept_patterns

HONORIFICS = (
    r"(?:(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Frau|Herr|Sr|Sra|Srta|Mme|Mlle|Dott|Dra|Mevr|Dhr)"
    r"\.?|M\.|Madame|Monsieur|Señora|Señor|Signora|Signor)"
)
"""Titles kept with the name they precede."""

PARTICLES = frozenset(
    "de da das do dos di del della van von der den ter ten la le du mac mc bin "
    "binti bint al el ibn ap y e zu wa".split()
)
"""Lowercase or short words inside a name ("Sanne de Wit", "Mac Giolla")."""

ORG_WORDS = frozenset(
    """inc corp corporation ltd llc llp plc gmbh ag sa bv co company team support
    service services department dept office clinic hospital bank group
    university college school council ministry agency foundation trust
    association club restaurant hotel cafe shop store studio lab labs lda
    klub inmobiliaria botschaft embassy ambassade embajada consulate konsulat
    kanzlei abogados avocats advocaten ejendomme forsikring apotek apotheek
    farmacia pharmacie a/s aps asa oy oyj srl sarl nv kft""".split()
)
"""Words that make a capitalized run an organization's name, not a person's."""

PLACE_AND_ROLE_WORDS = frozenset(
    """street road avenue house church chapel cathedral mosque temple
    museum museo musée museu gallery galleria mall plaza station
    airport market accounting engineering sp reception management
    committee secretariat staff administration desk parish lager""".split()
)
"""Words that make a capitalized run a place, a building, a subject or a
desk ("Java House", "St. Thomas Church", "BCom Accounting", "Reception"),
never a person's name."""

DETERMINERS = frozenset("the a an der die das il lo gli les".split())
"""Articles that open a description ("The Board"), never a name."""


def names_no_one(value: str) -> bool:
    """Tell a person find whose words say it is no one.

    A word of a place, a building, a subject, a desk or an organization
    ("Java House Kimathi Street", "Nordlift Sp", "Reception"), an article
    first ("The Board"), or a lowercase word first, particles aside, before a
    capitalized one ("la curatela scientifica dell'Università"; a chat's
    lowercase name is all lowercase).
    """
    words = [w.strip(".,").lower() for w in value.split()]
    if not words or words[0] in DETERMINERS:
        return True
    if any(w in PLACE_AND_ROLE_WORDS or w in ORG_WORDS for w in words):
        return True
    raw = [w for w in value.split() if w not in PARTICLES]
    # "la curatela scientifica dell'Università": a phrase, not a name.
    # "dell'Università": a capital after an elided article counts.
    return bool(raw) and raw[0].islower() and any(not w.islower() for w in raw)


LEGAL_FORMS = frozenset("inc corp ltd llc llp plc gmbh ag sa bv lda".split())
"""The organization words that are a company's legal form."""


@lru_cache(maxsize=1)
def not_names() -> frozenset[str]:
    """Return the words that follow a name cue without being a name."""
    return _words("data/not_names.txt")


def _words(path: str) -> frozenset[str]:
    """Read a word list of the package's data (``#`` starts a comment line)."""
    text = files("anonygraph.identifiers").joinpath(path).read_text("utf-8")
    return frozenset(
        w.lower()
        for line in text.splitlines()
        if not line.startswith("#")
        for w in line.split()
    )


NOT_NAME_TAGS = frozenset("VERB AUX ADV ADP PRON DET SCONJ CCONJ PART NUM".split())
"""Parts of speech a lowercase word after a name cue cannot have as a name
(an adjective may: the small model tags chat names so)."""


def noun_at(nlp_artifacts: Any, start: int) -> bool:
    """Tell whether the parse reads the word at ``start`` as a noun or a name."""
    for token in getattr(nlp_artifacts, "tokens", None) or []:
        if token.idx == start:
            return token.pos_ not in NOT_NAME_TAGS
    return True  # no parse to ask: keep the cue's word


def state_at(nlp_artifacts: Any, start: int) -> bool:
    """Tell an adjective the parse reads as what the subject is ("I'm Dutch").

    The small model reads an unknown lowercase word after "im" as an
    adjective too ("im priya"): a lowercase one counts as a state only with
    words of its own ("terrified of flying", "so rich").
    """
    for token in getattr(nlp_artifacts, "tokens", None) or []:
        if token.idx == start:
            if token.ent_type_ == "NORP":
                return True  # a nationality or a group: "I'm Irish"
            if token.text.islower() and _adjective_form(token.text):
                return True  # "i'm impressed", "im exhausted": a state
            if token.pos_ != "ADJ" or token.dep_ not in ("acomp", "conj"):
                return False
            if token.text.islower() and token.text not in known_names():
                return True  # "I am single": read as a state, and no one's name
            return token.text[:1].isupper() or any(
                c.dep_ in ("prep", "advmod", "xcomp", "ccomp", "npadvmod")
                for c in token.children
            )
    return False


ADJECTIVE_ENDINGS = ("ed", "ing", "ful", "ous", "ive", "able", "ible", "less")
"""Endings of English participles and adjectives ("impressed", "hopeless")."""


def _adjective_form(word: str) -> bool:
    """Tell a word shaped as an adjective that no one is named ("impressed")."""
    from anonygraph.cues.places import fold

    return word.endswith(ADJECTIVE_ENDINGS) and fold(word) not in known_names()


LOCATIVES = frozenset("from to at into via".split())
"""Prepositions after which a gazetteer name is a place, not a person."""

PLACE_ONLY = frozenset(
    "in near round around outta outside inside across throughout within".split()
)
"""Prepositions of place that take no person after them ("in Mont Kiara").

"to", "at" and "from" take persons too ("talk to Tom", "a note from Ana"):
after them only a name the gazetteer knows is a place."""


def place_after_locative(text: str, start: int, value: str) -> bool:
    """Tell a place name right after a preposition of place.

    The capitalized run the find stands in counts ("Much Wenlock" for a
    find of "Wenlock"); a possessive after it ("in Ana's car") is a person's.
    """
    from anonygraph.cues.places import fold, gazetteer

    run = re.search(r"(?:[A-ZÀ-Þ][\w'’-]*[ \t]+){0,2}$", text[:start])
    run_start = run.start() if run else start
    if re.match(r"['’]s\b", text[start + len(value) :]):
        return False
    before = re.search(r"([A-Za-z]+)[ \t]+$", text[:run_start])
    if not before:
        return False
    word = before.group(1).lower()
    whole = text[run_start : start + len(value)]
    if word == "on" and " " not in whole.strip():
        # "born on Hatteras", "a week on Rathlin": one word after "on" that
        # no Faker locale lists as a name is an island or a street, no one.
        return fold(value) not in known_names()
    return word in PLACE_ONLY or (
        word in LOCATIVES and (fold(value) in gazetteer() or fold(whole) in gazetteer())
    )


@lru_cache(maxsize=1)
def relation_words() -> frozenset[str]:
    """Return the cue detectors' words for kin and partners ("hubby", "mammy")."""
    from anonygraph.cues.lexicon import table

    kin = [row[0] for row in table("gender.tsv") if row[2] != "person"]
    partners = [row[0] for row in table("relationships.tsv")]
    # gender.tsv's "person" rows ("guy", "lady") are no relation, and "Guy"
    # is a given name.
    return frozenset(w.lower() for w in kin + partners if " " not in w)


def street_word(value: str) -> bool:
    """Tell a span whose later word names a street ("Caddesi", "-gade")."""
    from anonygraph.identifiers.recognizers.addresses import STREET_ENDINGS

    return any(
        re.fullmatch(rf"(?i:[^\W\d_]*(?:{STREET_ENDINGS}))", w)
        for w in value.split()[1:]
    )


QUOTED = re.compile(
    r"(?<!\w)(?:'(?P<a>[^'\n]{1,80}?)'|\"(?P<b>[^\"\n]{1,80}?)\"|"
    r"[‘“](?P<c>[^’”\n]{1,80}?)[’”])(?!\w)"
)
"""A quoted stretch on one line: a title of a work, or a quoted value."""


def in_quoted_title(text: str, start: int, end: int) -> bool:
    """Tell a name that is one part of a quoted title ('Gödel, Escher, Bach').

    A quoted stretch holding the name and other words is a work's title; a
    quoted name alone (``target="Femke Jansen"``) is still a name.
    """
    while end > start and text[end - 1] in "'’":
        end -= 1  # the widening above took a closing quote as an apostrophe
    for m in QUOTED.finditer(text):
        group = next(g for g in ("a", "b", "c") if m.group(g) is not None)
        q_start, q_end = m.span(group)
        if q_start <= start and end <= q_end:
            return bool(text[q_start:start].strip() or text[end:q_end].strip())
    return False


PLACE_LABELS = frozenset("GPE LOC FAC ORG NORP".split())
"""Entity labels of a head word that makes its modifier part of a place's name."""


def token_starting_at(doc: Any, start: int) -> Any:
    """Return the parse's token that starts at character ``start``, or None."""
    span = doc.char_span(start, start + 1, alignment_mode="expand")
    if span is None or not len(span) or span[0].idx != start:
        return None
    return span[0]


def not_a_name_role(doc: Any, start: int) -> bool:
    """Tell a single word whose role in the parse is no person's.

    A determiner before it ("a Brummie", "the Geordie": a kind of person,
    not one), an interjection, or a modifier of a word outside the name
    that is a place or organization ("Perth Amboy") or a lowercase unknown
    word ("Wah lau").
    """
    token = token_starting_at(doc, start)
    if token is None:
        return False
    if token.pos_ == "INTJ" or any(c.dep_ == "det" for c in token.lefts):
        return True
    head = token.head
    return bool(
        token.dep_ == "compound"
        and head.i > token.i
        and (
            head.ent_type_ in PLACE_LABELS
            or (head.text.islower() and head.pos_ in {"PROPN", "X", "INTJ"})
        )
    )


def imperative(doc: Any, start: int) -> bool:
    """Tell a sentence-initial word followed by a preposition ("Bake at 180°C")."""
    token = token_starting_at(doc, start)
    if token is None:
        return False
    following = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return bool(
        token.is_sent_start
        and following is not None
        and following.pos_ in {"ADP", "DET", "NUM", "PRON", "PART"}
    )


ENGLISH_SHARE = 0.25
"""Share of English stop words below which a text is read as not English."""


def english_share(doc: Any) -> float:
    """Return the share of a parse's words that are English stop words."""
    from spacy.attrs import IS_ALPHA, IS_STOP

    # Read as arrays: a walk over the tokens builds an object per token.
    flags = doc.to_array([IS_ALPHA, IS_STOP])
    words = int(flags[:, 0].sum()) if len(doc) else 0
    stops = int((flags[:, 0] & flags[:, 1]).sum()) if len(doc) else 0
    return stops / words if words else 1.0


@lru_cache(maxsize=1)
def _foreign_stop_words() -> frozenset[str]:
    # Our own short list: importing spaCy's French stop words alone builds
    # its tokenizer exceptions (seconds).
    return _words("data/foreign_stop_words.txt") - PARTICLES


def foreign_stop_word(value: str) -> bool:
    """Tell whether a span holds a German, Romance or Dutch stop word."""
    return any(w.lower() in _foreign_stop_words() for w in value.split())


def is_label(text: str, start: int, end: int) -> bool:
    """Tell a form label ("Naam:", "Placa do veículo:") at a line's start."""
    line_start = text.rfind("\n", 0, start) + 1
    rest = text[end : text.find("\n", end) if "\n" in text[end:] else len(text)]
    return not text[line_start:start].strip() and ":" in rest[:20]


MARK = r"(?!\d)[\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]"
"""A letter or vowel sign of a Brahmic script (Devanagari to Sinhala, Thai,
Lao, Burmese, Khmer): the signs are no word characters to ``re``."""

LETTER = rf"(?:[^\W\d_]|{MARK})"
"""A letter of any script, with the Brahmic scripts' signs."""


def looks_like_name(value: str) -> bool:
    """Reject spans with digits, symbols, all capitals or a stop word only."""
    if re.search(r"[\d@/#_=<>\[\]{}|\\]", value) or "\n" in value:
        return False
    if value.islower():
        return False  # chat names come from the cue recognizer
    words = value.split()
    if words[0].islower() and words[0] not in PARTICLES:
        return False  # "naman ng GCash mo": a phrase around a brand, no name
    if all(w.lower() in not_names() for w in words):
        return False
    if any(w.strip(".,").lower() in ORG_WORDS for w in words):
        return False
    # An initial ("Sri K. Raman") is a capital and its stop, no code.
    return not any(w.isupper() and len(w.rstrip(".")) > 1 for w in words)


@lru_cache(maxsize=1)
def known_names() -> frozenset[str]:
    """Return the given names and surnames of every Faker locale, folded.

    Faker (MIT, a dependency for surrogates) lists names people carry in
    some 80 locales. A word outside all of them is not thereby no name (it
    misses many), so callers ask this only beside another signal that the
    word is something else: a town of the gazetteer, a greeting's place.
    """
    return _faker_names(
        "first_names", "first_names_male", "first_names_female",
        "first_names_nonbinary", "last_names",
    )  # fmt: skip


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Return the given names of every Faker locale, folded (no surnames).

    A word the sentence puts where a place stands ("after Navratri") keeps
    its reading as a person's only when someone is given it: surnames
    ("Noble", "Gore") are towns' and firms' names as often.
    """
    return _faker_names(
        "first_names", "first_names_male", "first_names_female",
        "first_names_nonbinary",
    )  # fmt: skip


def _faker_names(*attributes: str) -> frozenset[str]:
    """Return the names some Faker locale lists under ``attributes``, folded."""
    import importlib
    import pkgutil

    import faker.providers.person as people

    from anonygraph.cues.places import fold

    found: set[str] = set()
    for module in pkgutil.iter_modules(people.__path__):
        locale = importlib.import_module(f"{people.__name__}.{module.name}")
        provider = getattr(locale, "Provider", None)
        for attribute in attributes:
            listed = getattr(provider, "__dict__", {}).get(attribute)
            if isinstance(listed, (dict, list, tuple, set, frozenset)):
                found.update(fold(n) for n in listed if isinstance(n, str))
    return frozenset(found)


@lru_cache(maxsize=1)
def model_words() -> frozenset[str]:
    """Return the lowercase words of the pinned spaCy pipeline's vocabulary.

    The strings the pipeline was shipped with (its ``vocab/strings.json``),
    read from the package, not from the live vocabulary, which grows with
    every text parsed. A lowercase word there is one the model met in its
    training text: "salary", "landlord", "soy".
    """
    import importlib
    import json
    from pathlib import Path

    from anonygraph.cues.engine import MODEL_PACKAGE

    package = Path(importlib.import_module(MODEL_PACKAGE).__file__ or "").parent
    words: set[str] = set()
    for path in package.glob("*/vocab/strings.json"):
        strings = json.loads(path.read_text("utf-8"))
        words.update(w for w in strings if w.isalpha() and w.islower())
    return frozenset(words)


def common_word_opening(doc: Any, start: int, value: str) -> bool:
    """Tell one word that opens its sentence and is a word, not a name.

    "Salary will be credited", "Landlord is Deshawn Pruitt": capitalized
    only because it opens its sentence or line, a lowercase word of the
    model's vocabulary, and no given name or surname some Faker locale
    lists ("Will", "Rose", "Hope" keep the model's reading).
    """
    from anonygraph.cues.places import fold

    if " " in value or value.lower() not in model_words():
        return False
    if fold(value) in known_names():
        return False
    token = token_starting_at(doc, start)
    if token is None:
        return False
    line_start = token.doc.text.rfind("\n", 0, start) + 1
    return bool(token.is_sent_start or not token.doc.text[line_start:start].strip())


def uncased_unknown(value: str) -> bool:
    """Tell a run in a script without capitals whose first word no one carries.

    Arabic, Hebrew or Thai letters are neither upper nor lower case: a
    capital cannot tell a name there, and a first word that no Faker locale
    lists as a given name or surname opens a phrase ("محادثة دعم": a
    support chat). Georgian letters count as lowercase to Unicode and are
    written without capitals, so they count as caseless too.
    """
    from anonygraph.cues.places import fold

    first = value.split()[0] if value.split() else ""
    letter = next((c for c in first if c.isalpha()), "")
    caseless = bool(letter) and (
        letter.upper() == letter.lower() or "\u10d0" <= letter <= "\u10ff"
    )
    return caseless and fold(first) not in known_names()


def common_words_only(value: str) -> bool:
    """Tell a run of words that no one carries, or a particle and one word.

    "Algebraic Expressions" (a chapter's title): each word lowercase in the
    pinned model's vocabulary and no given name or surname some Faker
    locale lists. "de Comunicación" (of Communication): a particle opening
    the run, one word after it.
    """
    from anonygraph.cues.places import fold

    words = value.split()
    if len(words) == 2 and words[0] in PARTICLES:
        return True
    return len(words) >= 2 and all(
        w.lower() in model_words() and fold(w) not in known_names() for w in words
    )


@lru_cache(maxsize=1)
def titles() -> frozenset[str]:
    """Return the titles written before a name, lowercased, without a stop.

    Faker's person prefixes of every locale ("Dr", "Frau", "Sra", "Bwana")
    and the honorifics the cue recognizer keeps with a name ("Mme").
    """
    listed = _faker_names(
        "prefixes", "prefixes_male", "prefixes_female", "prefixes_nonbinary"
    )
    found = {t.rstrip(".") for t in listed if " " not in t}
    found |= {w.lower() for w in re.findall(r"[^\W\d_]+", HONORIFICS)}
    return frozenset(found)


def title_word_length(value: str) -> int:
    """Return the length of a listed title and its space opening a longer name.

    "Mme SANOU Mariam": the title goes with no name list's word; a value
    of two words keeps its first ("Don Carlos" may be a given name).
    """
    words = value.split()
    if len(words) < 3 or words[0].rstrip(".").lower() not in titles():
        return 0
    return len(value) - len(value[len(words[0]) :].lstrip())


_LOWER_I = kept_patterns.compile(
    r"(?<![\w'’])i(?:'m|’m|'ve|'d|'ll|m(?=[ \t]+[a-z]))?(?![\w'’])"
)
"""A lowercase "i"; bare "im" only before a lowercase word ("im tired"): German
writes "im" (in dem) before a capitalized noun ("im Monat")."""
_SENTENCE_START = kept_patterns.compile(r"(?:^|[.!?]\s+|\n\s*)([^\W\d_])")


def capitalizing_writer(text: str) -> bool:
    """Tell a text whose writer capitalizes: "I" and most sentence starts.

    Chat that writes "i" or opens its sentences in lowercase may write a
    name in lowercase too ("hey its maria"); a text that does neither would
    not.
    """
    if _LOWER_I.search(text):
        return False
    starts = [m.group(1) for m in _SENTENCE_START.finditer(text)]
    return bool(starts) and sum(c.isupper() for c in starts) * 2 > len(starts)
