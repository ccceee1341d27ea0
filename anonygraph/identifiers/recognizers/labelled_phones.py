"""A phone's number after a phone's label, where no numbering plan reads it.

The phone rules check a number against its country's plan; a number of a
country whose plan the library lacks or reads strictly ("Tél. : 70 41 28 93",
"Mobil: +299 54 81 27") fails that check, yet the field's label says what it
is. A label of a phone (in the languages of the forms we read), maybe a
remark in brackets ("Tél. (Orange Money) :"), a colon, then six to thirteen
digits in groups: the number is a phone's. A fax's, an extension's or a
short code's label names no phone of a person; an organization's line is
told apart later, as for every phone (`org_contacts`).
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer, digits
from anonygraph.identifiers.recognizers.lookalikes import is_lookalike


class LabelledPhoneRecognizer(CuedPatternRecognizer):
    """Six to thirteen digits in groups after a phone's label and a colon."""

    ENTITY = "PHONE"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "labelled_phone",
            r"(?<![^\W_])(?:phone|tel(?:ephone)?|t[ée]l[ée]?(?:phone)?|mobile?|"
            r"mobil|cell(?:ular)?|handy|gsm|tlm|telm|telefon[eo]?|tel[ée]fono|"
            r"telem[óo]vel|puhelin|whatsapp)\.?"
            r"(?:[ \t]*\([^()\n]{1,30}\))?[ \t]*[:：][ \t]*"
            r"(?P<v>\+?\d{1,4}(?:[ .-]?\d{2,4}){1,5})(?![\w-]|[.,/]\d)",
            0.6,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require six to thirteen digits and no reference's or date's shape."""
        return 6 <= len(digits(value)) <= 13 and not is_lookalike(
            text, start, end, dotted=False
        )
