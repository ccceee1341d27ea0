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

import re
from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.name_checks import known_names, looks_like_name

TITLE_WORD = r"[A-ZÀ-ÞĀ-ŽĐ][a-zà-ÿā-žđ][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
"""A word in title case, Latin letters with their diacritics."""

FIELD_NAME = re.compile(
    r"(?m)^[ \t]*(?P<label>[^\W\d_][^\W\d_ \t]*(?:[ \t][^\W\d_]+)?)[ \t]*:[ \t]*"
    rf"(?P<v>{TITLE_WORD}(?: (?:(?:al|el|bin|binti|van|von|de|da|di|du|del|la|le)"
    rf" )?{TITLE_WORD}){{1,3}})"
    r"(?=[ \t]*(?:[,;(|]|$)|[ \t]{2}|\t| (?:and|und|et|y|e|i|&) )"
)
"""A line's label, a colon and a full name that ends the field."""


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
        return found
