"""Payment card numbers in every common grouping, Luhn-checked.

Presidio's card recognizer needs a word boundary on both sides and knows
fewer issuer prefixes; this one also reads a number glued to a word by an
underscore (``statement_4960…csv``), the Mastercard 2-series and the
groupings issuers print: 4-4-4-4(-3), Amex 4-6-5, Diners 4-6-4, or one run.
A number with a reference cue before it (order, invoice, tracking) is a
look-alike and stays.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import (
    CuedPatternRecognizer,
    digits,
    luhn_valid,
)
from anonygraph.identifiers.recognizers.lookalikes import is_lookalike

ISSUER = re.compile(
    r"4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|3[068]|35|6|50|5[6-9]|9792|220[0-4]"
)
"""Issuer prefixes: Visa, Mastercard (both ranges), Amex, Diners, JCB,
Discover/UnionPay/Maestro, Dankort and Maestro's 50 and 56-59, Troy, Mir."""


ACCOUNT_BEFORE = re.compile(
    r"(?i)\b(?:a/c|acct|account|konto|conta|cuenta|compte|rekening|iban)\b"
    r"[^\n\d]{0,15}$"
)
"""An account's label right before a number: its bank account, whatever its digits."""


class CardRecognizer(CuedPatternRecognizer):
    """A Luhn-valid card number of an issuer's length and grouping."""

    ENTITY = "CARD"
    PATTERNS = (
        (
            "card_groups",
            r"(?<![\d.,/-])(?P<v>\d{4}(?P<sep>[ -])\d{4}(?P=sep)\d{4}(?P=sep)\d{4}"
            r"(?:(?P=sep)\d{3})?)(?![\d.,/-]?\d)",
            0.85,
        ),
        (
            "card_amex_diners",
            r"(?<![\d.,/-])(?P<v>\d{4}(?P<sep>[ -])\d{6}(?P=sep)\d{4,5})"
            r"(?![\d.,/-]?\d)",
            0.85,
        ),
        ("card_run", r"(?<![\d.,/-])(?P<v>\d{13,19})(?!\d)", 0.85),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the issuer prefix, the length, the Luhn digit, no reference cue."""
        number = digits(value)
        return (
            13 <= len(number) <= 19
            and ISSUER.match(number) is not None
            and luhn_valid(number)
            and not is_lookalike(text, start, end, dotted=False)
            and not ACCOUNT_BEFORE.search(text[max(0, start - 30) : start])
        )
