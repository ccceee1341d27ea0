"""Which coarser forms are true by construction, and which are readings.

`anonygraph.cues.placeholders.settle` confirms a cue's reading against the
parse; this module asks a second, narrower question of every cue still sure:
is its coarser form true whatever the name or word turns out to mean? Six
held-out sets in a row showed the same class of false sentence, each time in
new words: a kind read off a word inside a name ("Breaux Bridge" -> "a
bridge", "Lower High Street" -> "the high school", "Kulim Hi-Tech" -> "the
college"), a slang word read as a partner ("the fella with the hat" -> "my
partner"), a word read as a job that was a verb ("cook until"). Word lists
fixed each set and not the next, so the rule here is by class, not by word:

    Kept coarse: what a number, an amount or a gazetteer gives (an age's
        decade, an income band, a city's country, a people's continent), a
        word's meaning in our own tables (a degree's level, a job's field,
        "husband" -> "partner"), and removals (a tag, a modifier).
    Typed placeholder: a kind read off a name (a landmark's, a school's, an
        employer's) unless the name's own words say it ("Liaquat University"
        -> "a university" stays, "Westfield High" -> "a high school" goes),
        a phrase whose replacement adds a word the span
        does not hold ("a garden centre" -> "a local business"), a job word
        the parse reads as a verb, a verb phrase rewritten as anything but
        "work", a partner word that is also a plain person word ("fella",
        "bloke"), a self-description that would give an age ("boy" -> "kid"),
        a guess at an event or a budget, a country after "on" (an
        island's preposition: "on Provo" -> "on the US"), a city's country
        the text does not confirm (`anonygraph.cues.country_evidence`:
        "Collingwood" -> "Canada" is the gazetteer's guess), and a region's
        continent not true of every country in it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import Any

from anonygraph.cues.country_evidence import confirmed_places
from anonygraph.cues.cue import PLACE_KINDS, Cue
from anonygraph.cues.lexicon import table
from anonygraph.cues.place_contract import negated
from anonygraph.cues.placeholders import ASIDE, unsure

_GENERIC_WORDS = frozenset(
    {
        "a", "an", "the", "my", "our", "at", "in", "job", "work", "works",
        "worked", "working", "business", "company", "sector", "public",
    }
)  # fmt: skip
"""Words a phrase's replacement may add to what its span holds: they say
that there is a job or a firm, which the span already said."""

_NAME_GENERIC = _GENERIC_WORDS - {"company", "business"}
"""What a name's replacement may add: not that it is a firm ("For Meskel and
Timkat we go back home" is no employer, "for PTI" an institute)."""

_WORK = frozenset({"work", "works", "worked", "working"})

_VERB_WORDS = (_GENERIC_WORDS - {"in"}) | {"with", "for"}
"""What a verb's replacement may add ("teach history to" -> "work with"); not
"in", which would name the language worked in ("work in Spanish")."""

_NAME = re.compile(r"(?<![\w'’])(?!The\b)[A-Z]")
"""A capital that starts a word other than "The": the span holds a name, whose
kind only its own words can tell. A lowercase phrase ("the fire brigade")
has its meaning in our tables."""

_LOCAL = re.compile(r"\blocal\s+", re.I)

_NAMED_KINDS = frozenset({"institution", "organization", "workplace", "landmark"})
"""Kinds whose replacement is read off a name or a phrase."""

_GUESSES = frozenset({"event", "benefits"})
"""Kinds whose replacement is an inference ("the London Olympics" ->
"something big", "on the dole" -> "on a tight budget")."""

_AGED_FORMS = frozenset({"kid", "kids", "child", "children"})
"""Neutral forms that state an age: "a Valley boy, forty-three" is no kid."""

_KIND_SHORT = {"island": {"isle"}, "mountain": {"mount", "mt"}}
"""A kind word a name writes short: the Isle of Skye is an island."""

_ENTRY_VERBS = frozenset(
    {"left", "attended", "finished", "quit", "joined", "started", "graduated"}
)
"""Verbs the entity tagger takes into a name at a sentence's start ("Left
King William's College" tagged as one organization)."""

_WORD = re.compile(r"[\w'’-]+")
_COUNTRY_KINDS = PLACE_KINDS - {"area", "landmark"}
"""Place kinds whose coarser form is a country the gazetteer gives."""
_ON_BEFORE = re.compile(r"\bon\s+$", re.I)
_PREPOSITION = re.compile(r"(?:at|in|on|for|with)\s+", re.I)


def by_construction(text: str, doc: Any, cue: Cue) -> Cue:
    """Return ``cue`` as is when its coarser form is sure by construction, else unsure.

    Args:
        text: The text the cue was found in.
        doc: Its spaCy parse.
        cue: A settled cue (`anonygraph.cues.placeholders.settle`).

    Returns:
        ``cue``, or ``cue`` with its typed placeholder (`unsure`).

    """
    if not cue.sure or not cue.replacement:
        return cue  # a placeholder already, or a removal
    if cue.kind in _GUESSES:
        return unsure(cue)
    if cue.kind == "workplace" and _LOCAL.search(cue.replacement):
        # "a sawmill" -> "a local business": the business is sure, not where.
        cue = replace(cue, replacement=_LOCAL.sub("", cue.replacement))
    replacement = cue.replacement.lower()
    generic = _GENERIC_WORDS if cue.kind == "workplace" else _NAME_GENERIC
    if (
        cue.kind in _NAMED_KINDS
        and _NAME.search(cue.quote)
        and not _said_by_span(cue.quote, replacement, generic)
    ):
        return _employer_or_placeholder(cue)  # "for PTI" is no "a company"
    if cue.kind in _NAMED_KINDS:
        cue = _in_named_slot(text, doc, cue)
    if cue.kind == "job" and _read_as_verb(doc, cue):
        return unsure(cue)  # "cook until golden": a verb, no job
    if cue.kind == "job_verb" and not _said_by_span(
        cue.quote, replacement, _VERB_WORDS
    ):
        # "teach Spanish" -> "work in Spanish" is false; "work" alone is true.
        verb = cue.replacement.split(" ", 1)[0]
        if verb.lower() in _WORK:
            return replace(cue, replacement=verb)
        return unsure(cue)
    if cue.kind == "partner" and _plain_person_word(cue.quote):
        return unsure(cue)  # "the fella with the hat": a man, not a partner
    if cue.kind == "self_reference" and replacement in _AGED_FORMS:
        return unsure(cue)
    if (
        cue.attribute.endswith("country")
        and cue.kind in _COUNTRY_KINDS
        and (
            _ON_BEFORE.search(text[: cue.start])
            or (cue.kind in ("region", "state") and ASIDE.match(text, cue.end))
            or negated(text, cue.start)
        )
    ):
        # "on Provo": an island's preposition; "Essex, the Maryland one not
        # England": the aside says which, and the country would deny it; "I
        # don't live in Oregon": "not in the US" would deny more than said.
        return unsure(cue)
    if cue.kind == "status" and "on my own" in replacement and _shared(doc, cue):
        return unsure(cue)  # "Me and the missus are separated": not "on my own"
    return cue


def constructed(text: str, doc: Any, cues: list[Cue]) -> list[Cue]:
    """Return ``cues`` with only what is true by construction kept coarse.

    Each cue goes through `by_construction`; a place name a writer who
    capitalizes wrote in lowercase ("Paida hue Ujjain mein", "electrician in
    metro") is no place and is dropped; a city whose country is not that of
    the place it is qualified by ("Bole, Addis Ababa") is a namesake the
    gazetteer does not hold, and becomes its placeholder; so does a city
    whose country the text does not confirm, and a region whose continent
    is not every member's (`country_evidence.confirmed_places`).
    """
    if any(_lowercase_name(c) for c in cues) and _capitalizing_writer(text):
        cues = [c for c in cues if not _lowercase_name(c)]
    out = [by_construction(text, doc, c) for c in cues]
    settled = {c.start: c for c in out if c.sure and c.kind in _COUNTRY_KINDS}
    for i, cue in enumerate(out):
        comma = re.match(r",\s*", text[cue.end :])
        after = settled.get(cue.end + comma.end()) if comma else None
        if (
            after is not None
            and cue.sure
            and cue.kind in _COUNTRY_KINDS
            and after.replacement != cue.replacement
        ):
            out[i] = unsure(cue)
    return confirmed_places(text, doc, out)


def _lowercase_name(cue: Cue) -> bool:
    name = re.sub(r"^the\s+", "", cue.quote, flags=re.I)  # "the Bay Area"
    return cue.kind in _COUNTRY_KINDS and name[:1].islower()


def _capitalizing_writer(text: str) -> bool:
    from anonygraph.identifiers.recognizers.name_checks import capitalizing_writer

    return capitalizing_writer(text)


def _shared(doc: Any, cue: Cue) -> bool:
    """Tell a status whose clause's subject is more than the author ("Me and X")."""
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None:
        return False
    verb = span.root if span.root.pos_ in ("VERB", "AUX") else span.root.head
    return any(
        c.dep_ in ("nsubj", "nsubjpass")
        and (c.lower_ in ("we", "they") or any(g.dep_ == "conj" for g in c.children))
        for c in verb.children
    )


def _in_named_slot(text: str, doc: Any, cue: Cue) -> Cue:
    """Keep a verb the span starts with, and one article before adjectives.

    "Left King William's College" -> "a college" would lose that the author
    left it; "the old Victoria Hospital" -> "the old the hospital" would
    not read.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    replacement = cue.replacement
    if (
        span is not None
        and cue.kind != "workplace"  # "run a chip shop" -> "work at a business"
        and len(span) > 1
        and (span[0].pos_ == "VERB" or span[0].lower_ in _ENTRY_VERBS)
    ):
        verb = span[0].text
        if re.match(r"(?:a|an|the)\s", replacement, re.I):
            replacement = f"{verb} {replacement[:1].lower()}{replacement[1:]}"
    article = re.match(r"(?:a|an|the)\s+", replacement, re.I)
    if article and span is not None and span.start > 1:
        before = doc[span.start - 1]
        if before.pos_ == "ADJ" and any(
            t.pos_ == "DET" for t in doc[max(0, span.start - 3) : span.start - 1]
        ):
            replacement = replacement[article.end() :]
    return replace(cue, replacement=replacement)


def _employer_or_placeholder(cue: Cue) -> Cue:
    if cue.attribute == "education":
        return replace(unsure(cue), replacement="[SCHOOL]")
    if cue.attribute != "occupation" or cue.kind == "organization":
        return unsure(cue)
    # "a job at the Navy": an employer ([ORG]), not a job title.
    lead = _PREPOSITION.match(cue.quote)
    return replace(unsure(cue), replacement=(lead.group(0) if lead else "") + "[ORG]")


def _said_by_span(
    quote: str, replacement: str, generic: frozenset[str] = _GENERIC_WORDS
) -> bool:
    """Tell whether every specific word of ``replacement`` stands in ``quote``."""
    held = {w.lower() for w in _WORD.findall(quote)}
    held |= {noun for noun, short in _KIND_SHORT.items() if short & held}
    return all(w in held or w in generic for w in _WORD.findall(replacement.lower()))


def _read_as_verb(doc: Any, cue: Cue) -> bool:
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    return span is not None and span.root.pos_ in ("VERB", "AUX")


def _plain_person_word(quote: str) -> bool:
    words = [w.lower() for w in _WORD.findall(quote)]
    if not words:
        return False
    last = re.sub(r"['’]s$", "", words[-1])
    return last in _person_words() or last.removesuffix("s") in _person_words()


@cache
def _person_words() -> frozenset[str]:
    # gender.tsv's words whose neutral form is "person": a man or a woman,
    # whatever else the word may mean in a dialect.
    rows = table("gender.tsv")
    return frozenset(row[0].lower() for row in rows if row[2] == "person")
