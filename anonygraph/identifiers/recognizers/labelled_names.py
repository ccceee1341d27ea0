"""A full name as the value of a form field, whatever language the label is in.

"Sponsor: Rashid Al Mazrouei", "Tužilac: Dragan Petrović, preko …",
"Borrowers: DeShawn Whitaker and …": a line that opens with a label and a
colon, then two to four words in title case that end the field (a comma, a
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

TITLE_WORD = r"[A-ZÀ-ÞĀ-ŽĐ][a-zà-ÿā-žđ][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
"""A word in title case, Latin letters with their diacritics."""

FIELD_NAME = kept_patterns.compile(
    r"(?m)^[ \t]*(?P<label>[^\W\d_][^\W\d_ \t]*(?:[ \t][^\W\d_]+)?)[ \t]*:[ \t]*"
    rf"(?P<v>{TITLE_WORD}(?: (?:(?:{PARTICLE}) )?{TITLE_WORD}){{1,3}})"
    r"(?=[ \t]*(?:[,;(|]|$)|[ \t]{2}|\t| (?:and|und|et|y|e|i|&) )"
)
"""A line's label, a colon and a full name that ends the field."""


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
        found += [self.result(*span, 0.8, "row_name") for span in _row_names(text)]
        return found


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
