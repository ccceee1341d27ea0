"""Keep cue spans on whole words and whole names, so no rewrite leaves a fragment.

A detector that matches characters can start or end inside a word the author
wrote: "m 17" inside "im 17" read as a sex-and-age tag, "o roughneck" inside
"26 y/o roughneck" read as a job. Replacing such a span cuts the word ("i n
just got", "26 y/tradesperson"). `on_whole_words` trims each span to the
whole words inside it; what the detector read was part of a word, so its
coarser form is not confirmed and the rest becomes its typed placeholder.
A rest with no word left, or a bare number for an attribute no number can
state (a sex, a job), is no cue.

A word here is a run of letters, digits, apostrophes and slashes ("y/o",
"I'm"); hyphens and other marks separate words ("London-based",
"twenty-six", "(27F)"), and a possessive ending after a span is its own
("Bendigo's").

A name ends before a preposition that joins two names (`split_at_joints`):
the tagger's "Athlone for Westport" is two names, and replacing it as one
would delete "for Westport".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from anonygraph.cues.cue import Cue
from anonygraph.cues.placeholders import unsure
from anonygraph.tools import kept_patterns

_WORD_CHARS = kept_patterns.compile(r"[\w'’/]")
_POSSESSIVE = kept_patterns.compile(r"(?:['’]s?|s['’])?$")
_NUMBER_ATTRIBUTES = frozenset({"age", "income_level"})
"""Attributes a bare number can state: an age ("17"), an amount ("90")."""


def _word_start(text: str, at: int) -> int:
    """Return where the word around offset ``at`` starts (``at`` if none runs on)."""
    while at > 0 and _WORD_CHARS.match(text[at - 1]):
        at -= 1
    return at


def _word_end(text: str, at: int) -> int:
    while at < len(text) and _WORD_CHARS.match(text[at]):
        at += 1
    return at


def _inside_word_at_start(text: str, start: int) -> bool:
    head = text[_word_start(text, start) : start]
    return any(ch.isalnum() for ch in head)


def _inside_word_at_end(text: str, end: int) -> bool:
    tail = text[end : _word_end(text, end)]
    return any(ch.isalnum() for ch in tail) and not _POSSESSIVE.fullmatch(tail)


def on_whole_words(text: str, cues: list[Cue]) -> list[Cue]:
    """Return the cues with each span trimmed to the whole words inside it.

    Args:
        text: The text the cues were found in.
        cues: Settled cues (`anonygraph.cues.placeholders.settle`).

    Returns:
        The cues whose spans start and end on word boundaries, unchanged;
        each cue cut inside a word, trimmed to its whole words and made its
        typed placeholder; none for a cue with no whole word of its kind.

    """
    out = []
    for cue in cues:
        start, end = cue.start, cue.end
        if cue.attribute == "income_level" and _inside_word_at_start(text, start):
            # "FJ$420", "WS$700" (read as "S$700"): the letters before the
            # sign are the currency's, so the amount takes them ("about
            # FJ[INCOME]" would keep half of it).
            start = _word_start(text, start)
            cue = replace(cue, start=start, quote=text[start:end])
            out.append(cue)
            continue
        if _inside_word_at_start(text, start):
            start = _word_end(text, start)
        if _inside_word_at_end(text, end):
            end = _word_start(text, end)
        if (start, end) == (cue.start, cue.end):
            out.append(cue)
            continue
        rest = text[start:end]
        start += len(rest) - len(rest.lstrip())
        end -= len(rest) - len(rest.rstrip())
        rest = text[start:end]
        if not any(ch.isalnum() for ch in rest):
            continue
        if rest.replace(",", "").replace(".", "").isdigit() and (
            cue.attribute not in _NUMBER_ATTRIBUTES
        ):
            continue  # "17" is no one's sex
        trimmed = replace(cue, start=start, end=end, quote=rest, exact=True)
        out.append(unsure(trimmed))
    return out


def split_at_joints(ents: Any) -> list[Any]:
    """Split entities at a preposition that joins two names.

    The tagger runs names together over a small word: "change at Athlone for
    Westport", "an engineer at Eskom in Witbank". A proper name holds no
    lower-case preposition but "of" ("Isle of Skye", "Bank of America"), so
    each side is a name of its own, and a replacement of one keeps the other
    and the word between.
    """
    parts = []
    for ent in ents:
        begin = ent.start
        for token in ent:
            if (
                token.i > begin
                and token.pos_ == "ADP"
                and token.is_stop
                and token.text.islower()
                and token.lower_ != "of"
            ):
                parts.append(type(ent)(ent.doc, begin, token.i, label=ent.label_))
                begin = token.i + 1
        if begin == ent.start:
            parts.append(ent)
        elif begin < ent.end:
            parts.append(type(ent)(ent.doc, begin, ent.end, label=ent.label_))
    return parts


def joined_names(ents: Any) -> list[Any]:
    """Join two organizations the parse makes one name over "and" or "&".

    "Causeway Coast and Glens Borough Council": the tagger gives two names,
    but the first one's head is in the second; the council is one body,
    not a company and a place.
    """
    parts: list[Any] = []
    for ent in ents:
        last = parts[-1] if parts else None
        if (
            last is not None
            and last.label_ == ent.label_ == "ORG"
            and ent.doc.text[last.end_char : ent.start_char] in (" and ", " & ")
            and ent.start <= last.root.head.i < ent.end
        ):
            parts[-1] = type(ent)(ent.doc, last.start, ent.end, label=ent.label_)
            continue
        parts.append(ent)
    return parts


def within_longer_names(doc: Any, cues: list[Cue]) -> list[Cue]:
    """Widen a place that is one part of a longer name over the whole name.

    "IIT Delhi", "MANIT Bhopal": a city after an acronym names a campus, and
    "at IIT India" would be false; "Much Wenlock": a town of the gazetteer
    ("Much", in Germany) before another name in one run is the first word
    of a place the gazetteer does not hold ("in [PLACE] Wenlock" would cut
    it). The whole name becomes its typed placeholder.

    Args:
        doc: The text's spaCy parse.
        cues: The cues found in it.

    """
    out = []
    text = doc.text
    for cue in cues:
        span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
        if span is not None and _abbreviation_dot(text, span, cue):
            # "M.Sc. Chemistry": the dot is the abbreviation's, not a full
            # stop; left behind it would end a sentence ("degree. Chemistry").
            cue = replace(cue, end=cue.end + 1, quote=text[cue.start : cue.end + 1])
        if span is not None and cue.kind == "organization":
            out.append(_whole_organization(doc, span, cue, cues))
            continue
        if span is None or not cue.attribute.endswith("country"):
            out.append(cue)
            continue
        before = doc[span.start - 1] if span.start > 0 else None
        after = doc[span.end] if span.end < len(doc) else None
        if (
            before is not None
            and before.text.isupper()
            and before.is_alpha
            and len(before.text) > 1
            and before.idx + len(before.text) + 1 == cue.start
            and before.head.i in range(span.start, span.end)
        ):
            cue = replace(cue, start=before.idx, kind="organization")
        elif before is not None and _joined_name_before(before, span, cues):
            # "Ateneo de Davao", "Universidad de Chile": a place after a
            # name's joining word is part of that name, the institution is
            # the unit ("Ateneo de the Philippines" would cut it).
            cue = replace(cue, start=doc[before.i - 1].idx, kind="organization")
        elif before is not None and _name_part_before(before, span, cue, cues):
            # "Interior Alaska", "the Go North East lot": a capitalised word
            # before the place, joined to the same noun, makes one longer
            # name ("Interior the US", "the Go lot" would cut it).
            cue = replace(cue, start=before.idx, kind="area")
        elif (
            after is not None
            and after.pos_ == "PROPN"
            and after.text[:1].isupper()
            and after.idx == cue.end + 1
            and span[-1].dep_ in ("compound", "amod", "nmod")
            and span[-1].head.i == after.i
            and not any(o.start <= after.idx < o.end for o in cues)
        ):
            cue = replace(cue, end=after.idx + len(after.text), kind="area")
        else:
            out.append(cue)
            continue
        quote = text[cue.start : cue.end]
        out.append(unsure(replace(cue, quote=quote, value=quote)))
    return out


_NAMED_PLACES = frozenset({"city", "state", "region", "country", "name_modifier"})
"""Cue kinds that are a place's own name (not a demonym, not "the area")."""

_DOTTED = kept_patterns.compile(r"(?:[A-Za-z]{1,3}\.)+[A-Za-z]{1,4}")
"""An abbreviation written with dots, short of its last one ("M.Sc", "B.Tech")."""


def _abbreviation_dot(text: str, span: Any, cue: Cue) -> bool:
    """Tell whether the dot after a dotted abbreviation is its own, not a full stop.

    "M.Sc. Chemistry from ...": the word after the dot names what the
    abbreviation is in (a noun); a new sentence opens on a pronoun, a
    determiner or an adverb ("M.Sc. Then I moved").
    """
    doc = span.doc
    if not _DOTTED.fullmatch(cue.quote) or text[cue.end : cue.end + 2] != ". ":
        return False
    following = [t for t in doc[span.end :] if t.idx > cue.end][:1]
    return bool(following) and following[0].pos_ in ("NOUN", "PROPN", "ADJ")


def _joined_name_before(joint: Any, span: Any, cues: list[Cue]) -> bool:
    """Tell a place joined by a lower-case word to a name before it, in one name.

    "Ateneo de Davao": "de" and "Ateneo" hang on the place in the parse, and
    "Ateneo" is a capitalised name no cue holds. English "of" is left out:
    "the Republic of Ireland" and "University of Toronto" have cues of their
    own.
    """
    if joint.i < 1 or not joint.text.islower() or joint.lower_ == "of":
        return False
    name = joint.doc[joint.i - 1]
    inside = range(span.start, span.end)
    return bool(
        joint.is_alpha
        and len(joint.text) <= 3
        and joint.head.i in inside
        and name.pos_ == "PROPN"
        and name.text[:1].isupper()
        and not name.is_sent_start  # "Né à Trois-Rivières": a verb, no name
        and name.head.i in inside
        and not any(c.start <= name.idx < c.end for c in cues)
    )


def _name_part_before(before: Any, span: Any, cue: Cue, cues: list[Cue]) -> bool:
    """Tell whether the word before a place is a capitalised part of the same name."""
    root = span.root
    return bool(
        cue.kind in _NAMED_PLACES
        and not before.is_sent_start  # a sentence's first word may be any word
        and before.pos_ == "PROPN"
        and before.dep_ == "compound"
        and before.text[:1].isupper()
        and before.is_alpha
        and before.idx + len(before.text) + 1 == cue.start
        and (
            before.head.i in range(span.start, span.end) or before.head.i == root.head.i
        )
        and not any(o.start <= before.idx < o.end for o in cues if o is not cue)
    )


def _whole_organization(doc: Any, span: Any, cue: Cue, cues: list[Cue]) -> Cue:
    """Widen an employer or school over the capitalised noun its name runs into.

    "Little Kathmandu Kitchen": the tagger stopped at "Kitchen", and "a company
    Kitchen" would not read; the whole name becomes the typed placeholder.
    """
    if span.end >= len(doc):
        return cue
    after = doc[span.end]
    if (
        after.pos_ in ("NOUN", "PROPN")
        and after.text[:1].isupper()
        and after.is_alpha
        and after.idx == cue.end + 1
        and span[-1].dep_ == "compound"
        and span[-1].head.i == after.i
        and not any(o.start <= after.idx < o.end for o in cues)
    ):
        end = after.idx + len(after.text)
        quote = doc.text[cue.start : end]
        return unsure(replace(cue, end=end, quote=quote, value=quote))
    return cue


def apart(text: str, cues: list[Cue]) -> list[Cue]:
    """Trim a cue that starts inside another's span to begin after it.

    "a 24 y.o. crane operator": the age ends in "y.o." and the parse's job
    title starts on it; the longer span alone would win and leave "a 24
    operator". Each keeps its own words: "y.o." is the age's, "crane
    operator" the job's.
    """
    out = list(cues)
    for first in cues:
        for index, later in enumerate(out):
            if not first.start < later.start < first.end < later.end:
                continue
            start = first.end
            while start < later.end and text[start].isspace():
                start += 1
            out[index] = replace(later, start=start, quote=text[start : later.end])
    return [c for c in out if c.quote.strip()]
