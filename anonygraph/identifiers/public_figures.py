"""A famous person discussed as a topic: the maker of a work the text talks about.

A recipe "inspired by Maggie Beer's version", "the Noa Kirel show", a
"keynote by Greta Thunberg": the name stands for a public figure's work, not
for someone the text is from, to or about in private. Three shapes say so,
whatever the genre:

- the name's possessive before a work noun ("Maggie Beer's version");
- the name right before a work noun it modifies ("the Noa Kirel show");
- a work noun and "by" or "of" (or "de", "da", "von", "di") before the
  name ("keynote by Greta Thunberg", "the novels of Kunzang Choden"), or a
  work noun as the line's label ("Keynote: Guido van Rossum");
- a public feat said of the name soon after it ("swears Machel Montano
  wins again", "Eliud Kipchoge would finish a marathon"), when no
  possessive, title, kin or role word introduces it and no word of it
  stands elsewhere in the text.

Only the model's full names that no cue introduced count, and only in a
sentence with no other identifier: a name beside a phone, an e-mail or an
address, or after "Dear" or "Name:", is a private person's and goes.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.identifier import Identifier
from anonygraph.tools import kept_patterns

SPACY = "FilteredSpacyRecognizer"

WORK_NOUNS = (
    r"versions?|recipes?|cookbooks?|books?|novels?|songs?|albums?|singles?|"
    r"tracks?|films?|movies?|shows?|concerts?|tours?|gigs?|paintings?|"
    r"portraits?|sculptures?|works?|poems?|speech(?:es)?|lectures?|talks?|"
    r"keynotes?|documentar(?:y|ies)|biograph(?:y|ies)|memoirs?|podcasts?|"
    r"exhibitions?|retrospectives?|plays?|operas?|symphon(?:y|ies)|theor(?:y|ies)|"
    r"essays?|columns?|videos?|fans?|"
    r"opere|obras|werke|œuvres|oeuvres|canciones|libros?|libri|peliculas|películas"
)
"""Nouns of a public figure's work or feat ("version", "show", "keynote")."""

POSSESSIVE_WORK = kept_patterns.compile(
    rf"['’]s?[ \t]+(?:[a-z]+[ \t]+)?(?i:{WORK_NOUNS})\b"
)
"""The name's possessive before a work noun, one word between at most."""

MODIFIED_WORK = kept_patterns.compile(rf"[ \t]+(?:{WORK_NOUNS})\b")
"""A lowercase work noun right after the name ("the Noa Kirel show")."""

DETERMINER_BEFORE = kept_patterns.compile(r"(?i:\b(?:the|a|an|this|that)[ \t]+)$")
"""An article before the name: it modifies the noun after it ("the … show")."""

WORK_BY = kept_patterns.compile(
    rf"(?i:\b(?:{WORK_NOUNS}))[ \t]+(?:by|of|de|da|di|del|von|van)[ \t]+"
    r"(?:[^\W\d_][\w'’-]*,?[ \t]+){0,5}$"
)
"""A work noun and "by" or "of" before the name, other makers' names between
("the novels of Kunzang Choden")."""

FEAT_AFTER = kept_patterns.compile(
    r"(?i)^[^.!?\n]{0,40}?(?<![^\W\d_])(?:wins|won|winning|scor(?:es|ed|ing)|"
    r"centur(?:y|ies)|marathons?|hat-?tricks?|trophy|medals?|championships?|"
    r"grand slam|olympics?|world cup|innings|knockouts?|title fights?|"
    r"road march|gold)(?![^\W\d_])"
)
"""A public feat said of the name soon after it in its sentence ("swears
Machel Montano wins again", "Virat Kohli ka century dekha?", "Eliud Kipchoge
would finish a marathon")."""

PRIVATE_BEFORE = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:my|our|your|his|her|their|mr|mrs|ms|dr|friend|"
    r"neighbou?r|driver|colleague|boss|manager|teacher|coach|landlord|tenant|"
    r"client|customer|patient|student|partner|technician|agent|referee|witness)"
    r"\.?[ \t]+$"
)
"""A possessive, a title or a role noun right before the name: someone the
writer knows ("my cousin", "driver Chhay Sreyleak"), not a public figure."""

WORK_LABEL = kept_patterns.compile(rf"(?:^|\n)[ \t]*(?i:{WORK_NOUNS})[ \t]*:[ \t]*$")
"""A line's label that is a work noun ("Keynote: Guido van Rossum")."""

SENTENCE = kept_patterns.compile(r"[.!?][ \t]+|\n")
"""Where a sentence ends."""


def drop_public_figures(text: str, found: list[Identifier]) -> list[Identifier]:
    """Drop the model's names that stand for a public figure's work.

    Args:
        text: The text the identifiers were found in.
        found: Non-overlapping identifiers sorted by start.

    Returns:
        ``found`` without those PERSON finds.

    """
    others = [i for i in found if i.kind != "PERSON"]
    return [i for i in found if not _topic(text, i, others)]


def _topic(text: str, ident: Identifier, others: list[Identifier]) -> bool:
    """Tell an uncued full name that names a public figure's work."""
    if ident.kind != "PERSON" or ident.recognizer != SPACY:
        return False
    name = re.sub(r"['’]s?$", "", ident.text)
    if len(name.split()) < 2:
        return False
    start, end = _sentence(text, ident.start, ident.end)
    if any(start <= o.start < end for o in others):
        return False
    name_end = ident.start + len(name)
    return bool(
        POSSESSIVE_WORK.match(text, name_end)
        or (
            MODIFIED_WORK.match(text, name_end)
            and DETERMINER_BEFORE.search(text, start, ident.start)
        )
        or WORK_BY.search(text, start, ident.start)
        or WORK_LABEL.search(text, max(0, start - 1), ident.start)
        or (_feat(text, ident, name_end, end) and _once(text, name))
    )


def _feat(text: str, ident: Identifier, name_end: int, end: int) -> bool:
    """Tell a public feat said of a name no private word introduces."""
    from anonygraph.identifiers.recognizers.name_checks import relation_words

    before = text[max(0, ident.start - 30) : ident.start]
    last = re.search(r"([^\W\d_]+)[ \t]+$", before)
    return bool(
        FEAT_AFTER.match(text[name_end:end])
        and not PRIVATE_BEFORE.search(before)
        and not (last and last.group(1).lower() in relation_words())
    )


def _once(text: str, name: str) -> bool:
    """Tell a name the text gives once, with no word of it said elsewhere."""
    return all(
        len(re.findall(rf"(?<![\w]){re.escape(word)}(?![\w])", text)) == 1
        for word in name.split()
    )


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """Return the span of the sentence that holds ``start``..``end``."""
    begin = 0
    for m in SENTENCE.finditer(text, 0, start):
        begin = m.end()
    stop = SENTENCE.search(text, end)
    return begin, stop.start() if stop else len(text)
