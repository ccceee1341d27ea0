"""PII scanner rules: the category of each detector, its pattern and its validator.

Checksums (Luhn, IBAN mod-97), ranges and context cues reject look-alikes;
`anonygraph.tools.dp_embed.pii` runs the rules over a text.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

Category = Literal[
    "EMAIL",
    "PHONE",
    "URL",
    "IP",
    "CARD",
    "IBAN",
    "NATIONAL_ID",
    "DATE",
    "ADDRESS",
    "NAME",
]
CATEGORIES: tuple[Category, ...] = get_args(Category)
PLACEHOLDERS: dict[Category, str] = {c: f"[{c}]" for c in CATEGORIES}
"""The text each category is replaced with."""

Checker = Callable[[str, re.Match[str]], tuple[int, int] | None]
"""Accepts a raw match and returns the final span, or None to reject it."""


@dataclass(frozen=True)
class Rule:
    """One detector: a pattern, an optional validator, and its category."""

    name: str
    """Stable identifier, e.g. ``"card_luhn"``."""
    category: Category
    """Category the matched span is reported under."""
    pattern: re.Pattern[str]
    """Candidate pattern; ``group`` selects the span when a cue surrounds it."""
    description: str
    """One line for ``--list-rules``."""
    priority: int = 0
    """Specificity: breaks ties between overlapping spans of equal length."""
    group: int = 0
    """Regex group that is the PII span (cue words outside it stay)."""
    check: Checker | None = None
    """Validator that can reject or trim the span (checksums, ranges)."""

    @property
    def placeholder(self) -> str:
        """Return the placeholder this rule's spans are replaced with."""
        return PLACEHOLDERS[self.category]


# --- validators -------------------------------------------------------------


def luhn_valid(digits: str) -> bool:
    """Return True if a digit string passes the Luhn (mod-10) checksum."""
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16,
    "BG": 22, "BH": 22, "BR": 29, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
    "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
    "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27,
    "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31,
    "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25,
    "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24,
    "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}  # fmt: skip
"""Registered IBAN length per country code (ISO 13616 registry)."""


def iban_valid(iban: str) -> bool:
    """Return True if a compact IBAN has its country's length and mod-97 == 1."""
    iban = iban.upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    expected = IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def digits_only(s: str) -> str:
    """Drop every character but the digits (separators in card numbers, IBANs)."""
    return re.sub(r"\D", "", s)


def match_span(m: re.Match[str], group: int = 0) -> tuple[int, int]:
    """Return the offsets of a match (or of its ``group``: the span inside a cue)."""
    return m.start(group), m.end(group)


_VERSION_CUE = re.compile(
    r"(?i)(?:\bv(?:er(?:sion)?)?\.?|\brelease|\bbuild|\bversion|\bupdate)\s*$"
)


def _preceded_by_version_cue(text: str, start: int) -> bool:
    return bool(_VERSION_CUE.search(text[max(0, start - 16) : start]))


def _check_ipv4(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    octets = m.group(0).split(".")
    if any(int(o) > 255 for o in octets):
        return None
    if _preceded_by_version_cue(text, m.start()):
        return None
    return match_span(m)


def _check_ipv6(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    candidate = m.group(0)
    if not re.search(r"[0-9A-Fa-f]", candidate):
        return None
    try:
        ipaddress.IPv6Address(candidate.split("%", 1)[0])
    except ValueError:
        return None
    return match_span(m)


def _check_card(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    digits = digits_only(m.group(0))
    if len(set(digits)) == 1 or not luhn_valid(digits):
        return None
    return match_span(m)


def _check_iban(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    # The pattern may run on into a following upper-case word ("... 00 BANK");
    # cut the candidate to the registered length, or try shorter prefixes.
    raw = m.group(0)
    positions = [i for i, ch in enumerate(raw) if ch.isalnum()]
    compact = "".join(raw[i] for i in positions)
    known = IBAN_LENGTHS.get(compact[:2].upper())
    lengths = [known] if known else list(range(len(compact), 14, -1))
    for n in lengths:
        if n <= len(compact) and iban_valid(compact[:n]):
            return m.start(), m.start() + positions[n - 1] + 1
    return None


def _check_phone(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    raw = m.group(0)
    digits = digits_only(raw)
    if not 7 <= len(digits) <= 15:
        return None
    structured = raw.startswith("+") or "(" in raw or re.search(r"\d[ .-]\d", raw)
    if not structured:
        # A bare digit run is only a phone number when a cue says so.
        if not _PHONE_CUE.search(text[max(0, m.start() - 24) : m.start()]):
            return None
    if re.fullmatch(r"(?:19|20)\d\d\s?[-–]\s?(?:19|20)\d\d", raw):
        return None  # a year range such as 1990-2005
    if re.fullmatch(r"\d{4}[-./]\d{2}[-./]\d{2}", raw):
        return None  # an ISO date; the DATE rule judges it
    if _preceded_by_version_cue(text, m.start()):
        return None
    return match_span(m)


_PHONE_CUE = re.compile(
    r"(?i)\b(?:call|phone|tel|telephone|mobile|cell|fax|whatsapp|text|sms|"
    r"ring|dial|number|no)\b[.:#]?\s*(?:me\s+)?(?:at|on)?\s*:?\s*$"
)


def _valid_day_month(day: int, month: int) -> bool:
    return 1 <= day <= 31 and 1 <= month <= 12


def _check_numeric_date(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    sep = m.group(1)
    first, second, year = m.group(0).split(sep)
    if len(year) == 4 and not 1000 <= int(year) <= 2199:
        return None
    if sep == "." and len(year) == 2:
        return None  # "3.12.10" is far more often a version than a date
    a, b = int(first), int(second)
    if not (_valid_day_month(a, b) or _valid_day_month(b, a)):
        return None
    if _preceded_by_version_cue(text, m.start()):
        return None
    return match_span(m)


def _check_iso_date(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    _year, month, day = (int(x) for x in re.split(r"[-/.]", m.group(0)))
    return match_span(m) if _valid_day_month(day, month) else None


def _check_id_with_digit(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    return match_span(m, 1) if re.search(r"\d", m.group(1)) else None


def _check_sin(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    return match_span(m) if luhn_valid(digits_only(m.group(0))) else None


_NOT_NAMES = frozenset(
    "Us Me Him Her Them Support Team Sales Service Services Customer Customers "
    "Admin Office Help Desk Department The Our Your My This That Today Tomorrow "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday Everyone All Info "
    "Hr It Legal Security Management Reception Staff Please World There Folks "
    "Guys Sir Madam Friends Mom Mum Dad".split()
)


def _check_name(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    # Drop trailing words that are not names ("Contact Jane Today" -> "Jane").
    start, end = match_span(m, 1)
    words = list(re.finditer(r"\S+", text[start:end]))
    while words and words[-1].group(0).rstrip(".,") in _NOT_NAMES:
        words.pop()
    if not words or words[0].group(0).rstrip(".,") in _NOT_NAMES:
        return None
    return start, start + words[-1].end()


def _check_titled_name(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    # The honorific stays inside the span: "Mrs." alone reveals sex.
    trimmed = _check_name(text, m)
    return (m.start(), trimmed[1]) if trimmed else None


# --- patterns ---------------------------------------------------------------

_UP = "A-ZÀ-ÖØ-Þ"
_LOW = "a-zß-öø-ÿ"
# One name word: "Anna", "O'Brien", "McDonald", "Smith-Jones", "Émile".
_NAME_WORD = (
    rf"(?:[{_UP}]['’])?[{_UP}][{_LOW}]+(?:[{_UP}][{_LOW}]+)?"
    rf"(?:[-'’][{_UP}]?[{_LOW}]+)*"
)
_NAME = rf"(?:[A-Z]\.\s?)?{_NAME_WORD}(?:\s+(?:[A-Z]\.\s?)?{_NAME_WORD}){{0,2}}"
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|"
    r"Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
_YEAR = r"(?:1[0-9]|2[01])\d\d"
_STREET_TYPE = (
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|"
    r"Place|Pl|Way|Terrace|Ter|Parkway|Pkwy|Highway|Hwy|Square|Sq|Crescent|"
    r"Close|Circle|Cir|Trail|Row|Mews|Gardens|Hill)"
)
_UNIT = r"(?:,?\s+(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl)\.?\s*#?\s*\w+)?"


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


RULES: tuple[Rule, ...] = (
    Rule(
        name="email",
        category="EMAIL",
        pattern=_rx(
            r"(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]*[A-Za-z0-9_%+-])?"
            r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b"
        ),
        description="E-mail address: local@domain.tld",
        priority=80,
    ),
    Rule(
        name="url",
        category="URL",
        pattern=_rx(r"\b(?:(?:https?|ftp)://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}]"),
        description="URL with a scheme (http, https, ftp) or starting with www.",
        priority=70,
    ),
    Rule(
        name="ipv4",
        category="IP",
        pattern=_rx(r"(?<![\w.+-])(?:\d{1,3}\.){3}\d{1,3}(?![\w+-]|\.\d)"),
        description=(
            "IPv4 address, octets <= 255; not after 'v'/'version' and not "
            "followed by '-suffix' or a fifth part (version numbers)"
        ),
        priority=60,
        check=_check_ipv4,
    ),
    Rule(
        name="ipv6",
        category="IP",
        pattern=_rx(
            r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}"
            r"(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?:%\w+)?(?![\w:])"
        ),
        description="IPv6 address (full or '::'-compressed), parsed by ipaddress",
        priority=60,
        check=_check_ipv6,
    ),
    Rule(
        name="card_luhn",
        category="CARD",
        pattern=_rx(r"(?<![\w.,-])\d(?:[ -]?\d){12,18}(?![\w-]|[.,]\d)"),
        description="Payment card number, 13-19 digits, Luhn checksum valid",
        priority=90,
        check=_check_card,
    ),
    Rule(
        name="iban",
        category="IBAN",
        pattern=_rx(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b"),
        description="IBAN, registered length per country, mod-97 checksum valid",
        priority=95,
        check=_check_iban,
    ),
    Rule(
        name="us_ssn",
        category="NATIONAL_ID",
        pattern=_rx(
            r"(?<![\w-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}"
            r"(?![\w-])"
        ),
        description="US Social Security number, AAA-GG-SSSS with valid areas",
        priority=85,
    ),
    Rule(
        name="uk_nino",
        category="NATIONAL_ID",
        pattern=_rx(
            r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
            r" ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"
        ),
        description="UK National Insurance number, e.g. AB 12 34 56 C",
        priority=85,
    ),
    Rule(
        name="ca_sin",
        category="NATIONAL_ID",
        pattern=_rx(r"(?<![\w-])\d{3}([- ])\d{3}\1\d{3}(?![\w-])"),
        description="Canadian Social Insurance number, NNN-NNN-NNN, Luhn valid",
        priority=84,
        check=_check_sin,
    ),
    Rule(
        name="id_with_cue",
        category="NATIONAL_ID",
        pattern=_rx(
            r"\b(?i:passport|driver'?s\s+licen[cs]e|licen[cs]e|national\s+id|"
            r"id\s+card|identity\s+card|personalausweis|dni|nie|aadhaar|"
            r"tax\s+id|tin|ssn|nino|sin)"
            r"(?:\s+(?i:no\.?|number|num\.?|#))?\s*[:#]?\s*"
            r"([A-Z0-9](?:[A-Z0-9 -]{4,18}[A-Z0-9]))(?![\w-])"
        ),
        description="ID number after a cue word (passport, licence, tax ID, ...)",
        priority=83,
        group=1,
        check=_check_id_with_digit,
    ),
    Rule(
        name="phone",
        category="PHONE",
        pattern=_rx(
            r"(?<![\w.+-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?"
            r"\d{2,4}(?:[ .-]?\d{2,4}){1,4}(?![\w-]|[.,]\d)"
        ),
        description=(
            "Phone number, 7-15 digits, with +country, (area) or separators; "
            "a bare digit run only after a cue such as 'call' or 'tel'"
        ),
        priority=50,
        check=_check_phone,
    ),
    Rule(
        name="date_iso",
        category="DATE",
        pattern=_rx(rf"(?<![\w.-]){_YEAR}([-/.])\d{{1,2}}\1\d{{1,2}}(?![\w-]|\.\d)"),
        description="ISO-style date YYYY-MM-DD (also / or . separated)",
        priority=75,
        check=_check_iso_date,
    ),
    Rule(
        name="date_numeric",
        category="DATE",
        pattern=_rx(
            r"(?<![\w.-])\d{1,2}([/.-])\d{1,2}\1(?:\d{4}|\d{2})(?![\w-]|[./-]\d)"
        ),
        description="Numeric date DD/MM/YYYY or MM/DD/YY (/, . or - separated)",
        priority=74,
        check=_check_numeric_date,
    ),
    Rule(
        name="date_text",
        category="DATE",
        pattern=_rx(
            rf"\b(?:{_DAY}\s+(?:of\s+)?{_MONTH}\.?(?:,?\s+{_YEAR})?"
            rf"|{_MONTH}\.?\s+{_DAY}(?:,?\s+{_YEAR})?"
            rf"|{_MONTH}\.?\s+{_YEAR})\b"
        ),
        description="Written date: 12 March 2021, March 12th, 2021, March 2021",
        priority=73,
    ),
    Rule(
        name="street_address",
        category="ADDRESS",
        pattern=_rx(
            rf"\b\d{{1,6}}[A-Za-z]?\s+(?:[A-Z][\w'’-]*\.?\s+){{1,4}}"
            rf"{_STREET_TYPE}\b\.?{_UNIT}"
        ),
        description="Street address: number, street name, street type (221B Baker St)",
        priority=65,
    ),
    Rule(
        name="street_address_eu",
        category="ADDRESS",
        pattern=_rx(
            r"\b[A-ZÄÖÜ][a-zäöüß]+(?:straße|strasse|str\.|weg|gasse|platz|allee|"
            r"ring|damm|ufer)\s+\d{1,4}[a-z]?\b"
            r"|\b(?:rue|avenue|boulevard|via|calle|avenida|plaza|piazza)\s+"
            r"(?:(?:de|du|des|la|le|del|della|di)\s+)*[A-Z][\w'’-]+"
            r"(?:\s+[A-Z][\w'’-]+)*,?\s+\d{1,4}[a-z]?\b"
            r"|\b\d{1,4}[a-z]?,?\s+(?:rue|avenue|boulevard|via|calle|avenida)\s+"
            r"(?:(?:de|du|des|la|le|del|della|di)\s+)*[A-Z][\w'’-]+"
            r"(?:\s+[A-Z][\w'’-]+)*"
        ),
        description="Continental street address: Hauptstraße 12, 10 rue de Rivoli",
        priority=64,
    ),
    Rule(
        name="po_box",
        category="ADDRESS",
        pattern=_rx(r"(?i:\bP\.?\s?O\.?\s*Box|\bPost\s+Office\s+Box)\s+\d{1,7}\b"),
        description="Post-office box: PO Box 1234",
        priority=66,
    ),
    Rule(
        name="uk_postcode",
        category="ADDRESS",
        pattern=_rx(r"\b(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?) ?\d[ABD-HJLNP-UW-Z]{2}\b"),
        description="UK postcode: SW1A 1AA",
        priority=62,
    ),
    Rule(
        name="name_title",
        category="NAME",
        pattern=_rx(
            r"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lady|Lord|Madam|Mme|Mlle|"
            rf"Herr|Frau|Sr|Sra)\.?\s+({_NAME})"
        ),
        description="Name after an honorific (Mr., Mrs., Dr., Prof., ...)",
        priority=40,
        check=_check_titled_name,
    ),
    Rule(
        name="name_cue",
        category="NAME",
        pattern=_rx(
            r"(?:(?i:\bmy\s+name\s+is|\bname\s*:|\bcalled|\bnamed|\bcontact|"
            r"\bask\s+for|\bsigned|\bsincerely|\bregards|\bdear|\bhi|\bhello|"
            r"\bspeak\s+(?:to|with)|\bthanks|\bcheers)"
            r"),?\s+"
            rf"({_NAME})"
        ),
        description=(
            "Name after a cue: 'my name is', 'contact', 'Dear', 'Regards,', "
            "'ask for', ... (the cue itself stays)"
        ),
        priority=35,
        group=1,
        check=_check_name,
    ),
)
"""Every detector, in no particular order; overlaps are resolved in ``scan``."""
