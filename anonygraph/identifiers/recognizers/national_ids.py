"""National and tax ID numbers Presidio lacks, checked by their schemes' digits.

German Steuer-ID (ISO 7064 mod 11,10), Dutch BSN (11-proof), Spanish DNI and
NIE (control letter), Australian Medicare and TFN (weighted sums), Canadian
SIN (Luhn), French NIR (mod 97 key), Brazilian CPF (two check digits),
Singapore NRIC/FIN (check letter), Italian codice fiscale (its shape). A
scheme whose check is weak or absent needs its cue word before the number.
"""

from __future__ import annotations

import re

from presidio_analyzer import Pattern
from presidio_analyzer.predefined_recognizers import NhsRecognizer

from anonygraph.identifiers.recognizers.base import (
    CuedPatternRecognizer,
    digits,
    luhn_valid,
)
from anonygraph.identifiers.recognizers.lookalikes import (
    is_lookalike,
    names_a_thing,
)

SEP = r"[ .-]?"


class SteuerIdRecognizer(CuedPatternRecognizer):
    """German tax ID: 11 digits after its cue, ISO 7064 mod 11,10 check digit."""

    ENTITY = "NATIONAL_ID"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "steuer_id",
            r"\b(?:steuer-?id|steuer-?identifikationsnummer|steuerliche "
            r"identifikationsnummer|idnr|tax id|tin)\b\.?(?:\s*\([^()\n]{1,30}\))?"
            r"\s*[:#]?\s*"
            r"(?P<v>[1-9]\d(?:[ ]?\d){9})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the mod 11,10 digit."""
        number = digits(value)
        product = 10
        for d in number[:10]:
            total = (int(d) + product) % 10 or 10
            product = (total * 2) % 11
        return (11 - product) % 10 == int(number[10])


class BsnRecognizer(CuedPatternRecognizer):
    """Dutch citizen service number: 9 digits after its cue, 11-proof."""

    ENTITY = "NATIONAL_ID"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "bsn",
            r"\b(?:bsn|burgerservicenummer|sofi-?nummer)\b\.?\s*[:#=]?\s*"
            r"(?P<v>\d{4}[ .]?\d{2}[ .]?\d{3}|\d{3}[ .]?\d{3}[ .]?\d{3})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the 11-proof (weights 9..2 and -1)."""
        number = digits(value)
        weights = (9, 8, 7, 6, 5, 4, 3, 2, -1)
        return sum(int(d) * w for d, w in zip(number, weights, strict=True)) % 11 == 0


class DniRecognizer(CuedPatternRecognizer):
    """Spanish DNI (8 digits) and NIE (X/Y/Z and 7 digits) with their control letter."""

    ENTITY = "NATIONAL_ID"
    LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
    PATTERNS = (
        ("dni", r"\b(?P<v>\d{8}[- ]?[A-Z])\b", 0.75),
        ("nie", r"\b(?P<v>[XYZ][- ]?\d{7}[- ]?[A-Z])\b", 0.8),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the control letter (mod 23 of the number)."""
        compact = re.sub(r"[- ]", "", value)
        head = compact[:-1].replace("X", "0").replace("Y", "1").replace("Z", "2")
        return self.LETTERS[int(head) % 23] == compact[-1]


class MedicareAuRecognizer(CuedPatternRecognizer):
    """Australian Medicare card number after its cue, with its check digit."""

    ENTITY = "NATIONAL_ID"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "medicare_au",
            r"\bmedicare\b(?:\s+(?:card|no\.?|number))?"
            r"(?:\s*\([^()\n]{1,40}\))?\s*[:#]?\s*"  # "Medicare (proof of residency):"
            r"(?P<v>[2-6]\d{3} ?\d{5} ?\d(?:\s*/\s*\d|\s*-\s*\d| \d)?)(?!\d)",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check digit 9 against the weighted sum of the first eight."""
        number = digits(value)
        weights = (1, 3, 7, 9, 1, 3, 7, 9)
        return sum(
            int(d) * w for d, w in zip(number[:8], weights, strict=True)
        ) % 10 == int(number[8])


class TfnRecognizer(CuedPatternRecognizer):
    """Australian tax file number after its cue: weighted sum mod 11."""

    ENTITY = "NATIONAL_ID"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "tfn",
            r"\b(?:tfn|tax file number)\b[^\d\n]{0,30}?(?P<v>\d{3} ?\d{3} ?\d{2,3})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the weighted sum (mod 11)."""
        number = digits(value)
        weights = (
            (1, 4, 3, 7, 5, 8, 6, 9, 10)
            if len(number) == 9
            else (10, 7, 8, 4, 6, 3, 5, 1)
        )
        return sum(int(d) * w for d, w in zip(number, weights, strict=True)) % 11 == 0


class SinRecognizer(CuedPatternRecognizer):
    """Canadian social insurance number after its cue, Luhn-checked."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (
        (
            "ca_sin",
            r"\b(?:SIN|[Ss]ocial [Ii]nsurance [Nn]umber|NAS)\b"
            # "SIN (for income verification only):", a remark of any length
            r"(?:\s*\([^()\n]{1,80}\))?"
            r"(?:,?\s+(?:it's|it is|is|was))?\s*[:#]?\s*"
            r"(?P<v>\d{3}[ -]?\d{3}[ -]?\d{3})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the Luhn digit."""
        return luhn_valid(digits(value))


class NirRecognizer(CuedPatternRecognizer):
    """French social security number (NIR) with its mod 97 key."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (
        (
            "fr_nir",
            # An overseas department has three digits and its commune two
            # ("974 11"); the mainland's two and three.
            r"\b(?P<v>[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?"
            r"(?:(?:\d{2}|2[AB]) ?\d{3}|9[78]\d ?\d{2}) ?\d{3} ?\d{2})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the key: 97 minus the first 13 digits mod 97."""
        compact = value.replace(" ", "")
        body = compact[:13].replace("2A", "19").replace("2B", "18")
        return 97 - int(body) % 97 == int(compact[13:])


class CpfRecognizer(CuedPatternRecognizer):
    """Brazilian CPF: 11 digits (formatted, or bare after its cue), two check digits."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (
        ("cpf", r"\b(?P<v>\d{3}\.\d{3}\.\d{3}-\d{2})\b", 0.85),
        ("cpf_cued", r"\bCPF\b\s*[:#]?\s*(?P<v>\d{11})\b", 0.85),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check both mod 11 digits."""
        number = [int(d) for d in digits(value)]
        if len(set(number)) == 1:
            return False
        for size in (9, 10):
            total = sum(
                d * w
                for d, w in zip(number[:size], range(size + 1, 1, -1), strict=True)
            )
            if (total * 10 % 11) % 10 != number[size]:
                return False
        return True


class NricRecognizer(CuedPatternRecognizer):
    """Singapore NRIC and FIN: a prefix letter, 7 digits, a check letter."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (("sg_nric", r"\b(?P<v>[STFGM]\d{7}[A-Z])\b", 0.85),)
    WEIGHTS = (2, 7, 6, 5, 4, 3, 2)
    CHECKS = {"ST": "JZIHGFEDCBA", "FG": "XWUTRQPNMLK", "M": "KLJNPQRTUWX"}

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the letter for the prefix's series."""
        total = sum(int(d) * w for d, w in zip(value[1:8], self.WEIGHTS, strict=True))
        if value[0] in "TG":
            total += 4
        elif value[0] == "M":
            total += 3
        for prefixes, letters in self.CHECKS.items():
            if value[0] in prefixes:
                offset = 10 - total % 11 if value[0] == "M" else total % 11
                return letters[offset % 11] == value[8]
        return False


class CodiceFiscaleRecognizer(CuedPatternRecognizer):
    """Italian codice fiscale: its 16-character shape (name, birth date, town)."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (
        (
            "it_fiscal_code",
            r"\b(?P<v>[A-Z]{6}\d{2}[A-EHLMPR-T][0-7]\d[A-Z]\d{3}[A-Z])\b",
            0.85,
        ),
    )


class PanRecognizer(CuedPatternRecognizer):
    """Indian PAN: five letters (the fourth: holder type), four digits, a letter.

    Presidio's own PAN pattern backtracks for seconds on a long run of
    capitals; this one is linear.
    """

    ENTITY = "NATIONAL_ID"
    PATTERNS = (("in_pan", r"\b(?P<v>[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z])\b", 0.85),)


class ContextNhsRecognizer(NhsRecognizer):
    """Presidio's NHS number (mod 11 check), counted only with its context words.

    One ten-digit number in eleven passes the check by chance (a US phone
    number such as 800-222-1222 does); the base score is lowered so that only
    a context word ("NHS") lifts it over the detector's threshold.
    """

    BASE_SCORE = 0.3

    def __init__(self) -> None:
        """Take Presidio's patterns and context words, with the lower score."""
        super().__init__(
            patterns=[
                Pattern(p.name, p.regex, self.BASE_SCORE)
                for p in NhsRecognizer.PATTERNS
            ]
        )

    # Presidio's own signature is Optional[bool]; its NHS subclass narrowed it.
    def validate_result(self, pattern_text: str) -> bool | None:  # type: ignore[override]
        """Reject a failed check; on a passed one keep the base score.

        Presidio raises a passed check to the top score, which would need no
        context word at all.
        """
        return None if super().validate_result(pattern_text) else False


class CuedSsnRecognizer(CuedPatternRecognizer):
    """A US social security number right after "SSN" or "social security".

    Presidio's recognizer also drops the well-known sample numbers
    (123-45-6789); after its cue word a number is the writer's SSN whatever
    its digits, so only the structure is checked (no 000, 666 or 9xx area,
    no 00 group, no 0000 serial).
    """

    ENTITY = "NATIONAL_ID"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "us_ssn_cued",
            r"\b(?:ssn|social security(?: number| no\.?| #)?)\b"
            r"(?:\s+(?:is|was|#|no\.?))?"
            r"\s*[:#]?\s*(?P<v>\d{3}(?P<sep>[- ]?)\d{2}(?P=sep)\d{4})\b",
            0.9,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the area, group and serial numbers' structure."""
        number = digits(value)
        area, group, serial = number[:3], number[3:5], number[5:]
        return (
            area not in ("000", "666")
            and not area.startswith("9")
            and group != "00"
            and serial != "0000"
        )


class LabelledIdRecognizer(CuedPatternRecognizer):
    """A number a form field's label names as a person's ID, of any scheme.

    A scheme we do not check ("PESEL: …", "ID number: …", "personnummer:
    …") still says what its number is: a field whose label is a short
    acronym closed by a colon, or holds a word of identity, tax, social or
    insurance, followed by 8 to 14 digits (grouped or not) and nothing
    more of a code.
    """

    ENTITY = "NATIONAL_ID"
    PATTERNS = (
        (
            "labelled_id",
            r"(?:(?<![\w.-])[A-Z]{2,5}[ \t]*:|"
            r"(?i:\b(?:id|identity|identification|national|personal|social|"
            r"security|tax|insurance|citizen|resident)\b[^\n:|;]{0,30}?:|"
            r"(?i:(?:person|personal|identitäts|identiteits|sozialversicherungs|"
            r"versicherten|steuer|burgerservice|f[øo]dsels|f[öo]delse)nummer|"
            r"id number|id no\.?)[ \t]*:?))[ \t]*"
            r"(?P<v>\d(?:[ -]?\d){7,13})(?![\w/-]|[.,]\d)",
            0.6,
        ),
    )

    CHECKED = re.compile(
        r"(?i)\b(?:bsn|ssn|sin|tfn|nir|insee|cpf|nric|fin|pan|dni|nie|nhs|nino|"
        r"steuer-?id|idnr|medicare|aadhaar|codice fiscale|iban|bsb|abn|acn|"
        r"f[øo]dselsnummer|hetu|ahv|avs|cpr|amka|rrn|cuil|cuit|rut|ird|nss|svnr|"
        r"sv-nr|rijksregisternr|emirates id|nif|pesel|cnp|dui)\b"
    )
    """Labels of the schemes we check by their digits: their verdict stands."""

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Leave a number of a scheme we check to that scheme's recognizer."""
        line_start = text.rfind("\n", 0, start) + 1
        # The field's own label: what follows the last separator before it.
        label = re.split(
            r"[,;|]|[ \t]{2,}", text[max(line_start, start - 40) : start].rstrip()
        )[-1]
        if is_lookalike(text, start, end, dotted=False) or names_a_thing(label):
            return False  # "Order ID: 48213977", "Staff ID: 48213977"
        return not self.CHECKED.search(text[max(line_start, start - 40) : start])


class PpsnRecognizer(CuedPatternRecognizer):
    """Irish PPS number: seven digits and a check letter (mod 23), maybe W or A."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (("ie_ppsn", r"\b(?P<v>\d{7}[A-W][AHWTX]?)\b", 0.7),)

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the letter: digits weighted 8 to 2, the second letter 9."""
        total = sum(int(d) * w for d, w in zip(value[:7], range(8, 1, -1), strict=True))
        if len(value) == 9 and value[8] != "W":
            total += (ord(value[8]) - 64) * 9
        return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == value[7]


class CurpRecognizer(CuedPatternRecognizer):
    """Mexican CURP: name letters, birth date, sex, state, consonants, digit."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = (
        (
            "mx_curp",
            r"\b(?P<v>[A-Z][AEIOUX][A-Z]{2}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
            r"[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d)\b",
            0.85,
        ),
    )
