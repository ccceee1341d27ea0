"""Payment card numbers in every common grouping, Luhn-checked; IBANs of any country.

Presidio's card recognizer needs a word boundary on both sides and knows
fewer issuer prefixes; this one also reads a number glued to a word by an
underscore (``statement_4960…csv``), the Mastercard 2-series and the
groupings issuers print: 4-4-4-4(-3), Amex 4-6-5, Diners 4-6-4, or one run.
A number with a reference cue before it (order, invoice, tracking) is a
look-alike and stays.

Presidio's IBAN recognizer knows the countries of its own table; a
country outside it ("CI41CI11…", "LB34…", "MZ70…") writes its IBAN the
same way: two capitals, two check digits, 11 to 30 letters and digits, the
whole passing mod 97, which a code made by chance passes once in 97. An
account its clause gives to an institution ("depósito na conta da
Administração MZ70…", "to the council's account") is that institution's
public account and stays.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.org_contacts import ORG_HEADS
from anonygraph.identifiers.recognizers.base import (
    CuedPatternRecognizer,
    digits,
    iban_valid,
    luhn_valid,
)
from anonygraph.identifiers.recognizers.lookalikes import is_lookalike
from anonygraph.tools import kept_patterns

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


INSTITUTION_ACCOUNT = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:account|conta|cuenta|compte|konto|rekening|conto)"
    r"[ \t]+(?:of[ \t]+the|d[aoe]s?|del|de[ \t]+la|de[ \t]+l['’]|der|van[ \t]+de|"
    r"della?)"
    r"[ \t]+(?P<owner>[^\W\d_]+)"
)
"""An account named for its owner with an article ("conta da Administração")."""

PUBLIC_BODIES = kept_patterns.compile(
    r"(?i)administra|governo|gobierno|government|gouvernement|tesour|tesorer|"
    r"treasury|tr[ée]sor|c[âa]mara|municip|finan[cz]|fazenda|hacienda|"
    r"cooperativ|associa|asociaci|fundaç|fundaci|fondation|foundation|paróquia|"
    r"parroquia|parish|church|igreja|iglesia|[ée]glise"
)
"""Stems of public bodies and societies that take payments into their account."""


class AnyIbanRecognizer(CuedPatternRecognizer):
    """An IBAN of any country, in one run or in groups of four, by mod 97."""

    ENTITY = "IBAN"
    PATTERNS = (
        (
            "iban_any",
            r"(?<![\w/.-])(?P<v>[A-Z]{2}\d\d(?:[A-Z0-9]{11,30}|"
            r"(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?))(?![\w-])",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check mod 97, an account's digits (eight or more), no reference cue."""
        clause_start = max(text.rfind(c, 0, start) for c in ".;\n") + 1
        owners = INSTITUTION_ACCOUNT.finditer(text, clause_start, start)
        owner = [m.group("owner") for m in owners]
        return (
            len(digits(value)) >= 8
            and iban_valid(value)
            and not is_lookalike(text, start, end, dotted=False)
            and not any(ORG_HEADS.match(o) or PUBLIC_BODIES.match(o) for o in owner)
        )
