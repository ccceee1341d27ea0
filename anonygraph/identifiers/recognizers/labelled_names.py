"""A full name as the value of a form field, whatever language the label is in.

"Sponsor: Rashid Al Mazrouei", "Tužilac: Dragan Petrović, preko …",
"Borrowers: DeShawn Whitaker and …": a line that opens with a label and a
colon, then two to four words in title case (or in capitals, the first a
given name: "Name: MARTA OLIVARES PUIG") that end the field (a comma, a
bracket, a run of spaces, "and", the line's end). The label's language is
not read, so the value must look like a person's name on its own: its first
word is a given name or surname some Faker locale lists, no word is an
organization's or a label's, and the label names no school, group, product
or place (`not_persons.PLACE_AND_BODY_LABELS`).
"""

from __future__ import annotations

from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.name_checks import known_names, looks_like_name
from anonygraph.tools import kept_patterns

PARTICLE = "al|el|bin|binti|van|von|de|da|di|du|del|la|le|dos|das"
"""Lowercase particles inside a name."""

TITLE_WORD = r"[A-ZÀ-ÞĀ-ŽĐƏ][a-zà-ÿā-žđə][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
"""A word in title case, Latin letters with their diacritics ("Məmmədova")."""

FIELD_NAME = kept_patterns.compile(
    r"(?m)^[ \t]*(?P<label>[^\W\d_][^\W\d_ \t]*(?:[ \t][^\W\d_]+)?)[ \t]*:[ \t]*"
    rf"(?P<v>{TITLE_WORD}(?: (?:(?:{PARTICLE}) )?{TITLE_WORD}){{1,3}})"
    r"(?=[ \t]*(?:[,;(|،]|$)|[ \t]{2}|\t| (?:and|und|et|y|e|i|&) )"
)
"""A line's label, a colon and a full name that ends the field."""

CAPS_WORD = r"[A-ZÀ-ÞĀ-ŽĐƏ]{2,}(?:[-'’][A-ZÀ-ÞĀ-ŽĐƏ]{2,})*"
"""A word in capitals, Latin letters with their diacritics ("ÉLODIE")."""

CAPS_FIELD_NAME = kept_patterns.compile(
    r"(?m)^[ \t]*(?P<label>[^\W\d_][^\W\d_ \t]*(?:[ \t][^\W\d_]+)?)[ \t]*:[ \t]*"
    rf"(?P<v>{CAPS_WORD}(?: (?:DE |DEL |DA |VAN )?{CAPS_WORD}){{1,3}})"
    r"(?=[ \t]*(?:[,;(|·]|$)|[ \t]{2}|\t)"
)
"""A line's label, a colon and a full name in capitals that ends the field
("Name: MARTA OLIVARES PUIG · DNI …", as a pass or an ID prints it)."""

SCRIPT_FIELD_NAME = kept_patterns.compile(
    r"(?m)^[ \t]*(?P<label>[^\W\d_][^\W\d_ \t]*(?:[ \t][^\W\d_]+)?)[ \t]*:[ \t]*"
    r"(?P<v>[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
    r"(?: [^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*){1,3})"
    r"(?=[ \t]*[,;(،])(?P<rest>[^\n]*)"
)
"""A line's label, a colon and two to four words of any script that end the
field at a comma or a bracket, then the rest of the line."""

NICKNAMED = kept_patterns.compile(
    rf"(?<![\w'’-])(?P<v>{TITLE_WORD}(?: {TITLE_WORD})? [\"“«][ \u00a0]?"
    r"(?P<nick>[^\W\d_]+(?: [^\W\d_]+)?)[ \u00a0]?[\"”»]"
    rf"(?: {TITLE_WORD}){{1,2}})(?![\w'’-])"
)
"""A name with a nickname in quotes between its words ('Anselmo "Tico" Fortes',
"Jean-Marc « Ti Marc » Payet"): the nickname says a person."""

ID_ON_LINE = kept_patterns.compile(r"\d(?:[ ]?\d){6,}")
"""Seven digits or more (spaces between groups): a person's ID or phone."""


NAME_CELL = kept_patterns.compile(
    rf"{TITLE_WORD}(?: (?:[\"“][^\W\d_]{{1,15}}[\"”] |(?:{PARTICLE}) )?"
    rf"{TITLE_WORD}){{1,3}}"
)
"""A table cell that is a full name (a nickname in quotes may stand inside)."""

CONTACT_CELL = kept_patterns.compile(r"@|\d[\d ()+-]{5,}\d")
"""A cell of a person's row: an e-mail, a phone or an ID number."""


class LabelledNameRecognizer(CuedPatternRecognizer):
    """A person's full name as the value of a labelled field, in any language."""

    ENTITY = "PERSON"

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return the field values that look like a person's full name."""
        from anonygraph.cues.places import fold, gazetteer
        from anonygraph.identifiers.not_persons import PLACE_AND_BODY_LABELS

        found = []
        for m in FIELD_NAME.finditer(text):
            value = m.group("v")
            if PLACE_AND_BODY_LABELS.match(m.group("label").strip()):
                continue
            if (
                not looks_like_name(value)
                or fold(value.split()[0]) not in known_names()
                or gazetteer().get(fold(value)) is not None  # "To: Santa Monica"
            ):
                continue
            # Below spaCy's 0.85: where the model read the span too, its own
            # checks (a topic, a famous name) decide; this adds what it missed.
            found.append(self.result(*m.span("v"), 0.8, "field_name"))
        found += [
            self.result(*m.span("v"), 0.9, "nicknamed")
            for m in NICKNAMED.finditer(text)
            if _nicknamed(m.group("v"), m.group("nick"))
        ]
        found += [
            self.result(*m.span("v"), 0.8, "caps_name")
            for m in CAPS_FIELD_NAME.finditer(text)
            if _caps_name(m.group("label"), m.group("v"))
        ]
        found += [
            self.result(*span, 0.8, "script_name") for span in _script_names(text)
        ]
        found += [self.result(*span, 0.8, "row_name") for span in _row_names(text)]
        return found


def _nicknamed(value: str, nick: str) -> bool:
    """Tell a run around a quoted word whose outer words are a name's.

    'Operation "Desert" Storm', 'The "Big" Apple': an outer word that is a
    word of the model's vocabulary and no listed name, or an organization's
    word, makes it a title or a phrase.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        ORG_WORDS,
        known_names,
        model_words,
    )

    outer = value.replace(nick, " ").split()
    return not any(
        w.strip('"“”«»').lower() in ORG_WORDS
        or (w.lower() in model_words() and fold(w) not in known_names())
        for w in outer
        if w.strip('"“”«»')
    )


def _caps_name(label: str, value: str) -> bool:
    """Tell a field's value in capitals that opens with a given name.

    A heading or a code in capitals ("Status: ON HOLD", "Plan: GOLD PLUS")
    opens with no given name a Faker locale lists, or names a firm.
    """
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.not_persons import PLACE_AND_BODY_LABELS
    from anonygraph.identifiers.recognizers.name_checks import ORG_WORDS, given_names

    words = value.split()
    return (
        not PLACE_AND_BODY_LABELS.match(label.strip())
        and fold(words[0]) in given_names()
        and not any(w.lower() in ORG_WORDS for w in words)
        and gazetteer().get(fold(value)) is None
    )


def _script_names(text: str) -> list[tuple[int, int]]:
    """Return the field values written in another script that name the line's person.

    "Οδηγός Α: Ανδρέας Χαραλάμπους, ΑΔΤ 0981734", "Нөхөр: Энхбаярын
    Төмөрбаатар (утас 8808 2741)", "العميل: فاطمة عبدالله العنزي، الرقم
    المدني 291051203628": the value is in a script outside the Latin one,
    each word capitalized where the script has case, and the rest of its line
    holds an ID or a phone (seven digits or more) that is that person's. A
    place ("Баянзүрх дүүрэг, 26-р хороо") has a lowercase word or no number.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.not_persons import PLACE_AND_BODY_LABELS
    from anonygraph.identifiers.org_contacts import ORG_HEADS

    found = []
    for m in SCRIPT_FIELD_NAME.finditer(text):
        value = m.group("v")
        words = value.split()
        if (
            PLACE_AND_BODY_LABELS.match(m.group("label").strip())
            or not ID_ON_LINE.search(m.group("rest"))
            or any(c.isalpha() and ord(c) <= 0x24F for c in value)
            or any(_lowercase(w) or ORG_HEADS.match(w) for w in words)
            # A script without case ("إذا كان فيه استرداد") shows no name by
            # its capitals: its first word must be one some Faker locale lists.
            or (not _cased(words[0]) and fold(words[0]) not in known_names())
        ):
            continue
        found.append(m.span("v"))
    return found


def _lowercase(word: str) -> bool:
    """Tell a word that opens lowercase in a script written with capitals.

    Georgian's letters are lowercase to Unicode, but its names are written
    in them without capitals ("ნინო ბერიძე").
    """
    return word[0].islower() and not "\u10d0" <= word[0] <= "\u10ff"


def _cased(word: str) -> bool:
    """Tell a word whose script writes names with a capital (Greek, Cyrillic)."""
    return word[0].isupper()


def _row_names(text: str) -> list[tuple[int, int]]:
    """Return the cells of table rows that hold a full name beside a contact.

    "#5 | Felipe "Lipe" Castro | pendente | lipe@…": a row of three cells
    or more split by bars, semicolons or tabs, one cell a full name whose
    first word some Faker locale lists, another an e-mail, phone or ID.
    """
    from anonygraph.cues.places import fold

    found = []
    offset = 0
    for line in text.split("\n"):
        for delimiter in ("|", ";", "\t"):
            cells = line.split(delimiter)
            if len(cells) < 3 or not any(CONTACT_CELL.search(c) for c in cells):
                continue
            start = offset
            for cell in cells:
                value = cell.strip()
                if (
                    NAME_CELL.fullmatch(value)
                    and looks_like_name(value)
                    and fold(value.split()[0]) in known_names()
                ):
                    begin = start + cell.index(value)
                    found.append((begin, begin + len(value)))
                start += len(cell) + len(delimiter)
            break
        offset += len(line) + 1
    return found
