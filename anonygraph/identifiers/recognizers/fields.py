"""Identifiers a field's label names: table columns and ``key=value`` pairs.

A table pasted from a spreadsheet or an export (a header row, then rows
with as many cells, split by tabs, semicolons, commas or bars) says in its
header what each column holds ("dob", "nhs_no", "邮编"); a log or form
state says it in its key (``postinumero="00530"``, ``name=박지우``). The
label decides the kind, whatever the value looks like: a Swiss postcode
is four bare digits, a Chinese name has no capital. The labels are one
closed table, in the languages of the forms we read.
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.tools import kept_patterns

LABELS: tuple[tuple[str, str], ...] = (
    (
        "PERSON",
        r"(?:full|first|last|given|family|customer|patient|member|contact|"
        r"recipient|client|holder)?_?names?|surname|recipient|收件人|收货人|"
        r"姓名|名前|氏名|이름|성명|navn|nimi|namn|nombre(?:_completo)?|nome|nom|"
        r"naam|imię(?:_i_nazwisko)?|nachname|vorname|apellidos?|cognome",
    ),
    (
        "DATE_OF_BIRTH",
        r"dob|d\.o\.b\.?|birth_?date|date_?of_?birth|birthday|born|"
        r"geburtsdatum|f[øo]dselsdato|født|f[öo]delsedatum|syntymäaika|"
        r"fecha_(?:de_)?nacimiento|f_nac|data_(?:de_)?nascimento|"
        r"data_di_nascita|date_de_naissance|geboortedatum|data_urodzenia|"
        r"出生日期|生年月日|생년월일|doğum_tarihi|tgl_lahir|tanggal_lahir",
    ),
    (
        "NATIONAL_ID",
        r"ssn|sin|nino|ni_?(?:no|number)|nhs(?:_?(?:no|number|num))?|ahv(?:_?nr)?|"
        r"avs|hetu|cpr(?:_?nr)?|personnummer|f[øo]dselsnummer|pesel|bsn|nif|"
        r"nie|dni|curp|cpf|rut|cuil|cuit|nik|cccd|cmnd|amka|tckn|tc_kimlik|"
        r"rrn|身份证(?:号码?)?|national_?id|id_?(?:no|number)|tax_?id|tin|aadhaar|"
        r"nric|emirates_id|sv_?nr|svnr|insz|rijksregisternummer|rfc|nss|nif_?nie|"
        r"dni_?nie",
    ),
    (
        "POSTCODE",
        r"zip(?:_?code)?|post_?code|postal_?code|plz|post_?n(?:umme)?r|"
        r"postinumero|cp|c[óo]digo_postal|cep|cap|邮编|邮政编码|郵便番号|우편번호|"
        r"pin_?code|kod_pocztowy|psč|irányítószám|posta_kodu",
    ),
    (
        "PHONE",
        r"phone(?:_?(?:no|number))?|tel(?:ephone)?|mobile|mobil|cell|handy|"
        r"手机(?:号)?|电话|電話|전화(?:번호)?|휴대폰|telefon|tel[ée]fono|telefone|"
        r"telemóvel|puhelin|gsm",
    ),
    ("EMAIL", r"e-?mail|correo|邮箱"),
    (
        "ADDRESS",
        r"(?:street_?|home_?|postal_?)?addr(?:ess)?|street|地址|住所|주소|adresse|"
        r"direcci[óo]n|endereço|morada|indirizzo|adres|osoite|bopæl|anschrift|"
        r"stra(?:ß|ss)e",
    ),
    (
        "MEDICAL_RECORD",
        r"mrn|(?:clinic|hospital|patient|chart|case_?file)_?(?:no|number|id)|hn|"
        r"uhid|nhi",
    ),
    (
        "PASSPORT",
        r"passport(?:_?(?:no|number))?|pp_?no|reisepass|passeport|pasaporte|护照(?:号)?",
    ),
    (
        "LICENSE_PLATE",
        r"car_?reg|reg_?(?:no|plate)|(?:licen[cs]e|number|vehicle)_?plate|plate|"
        r"kenteken|kennzeichen|placa|patente|matr[íi]cula|vehicle_?reg",
    ),
    (
        "BANK_ACCOUNT",
        r"(?:bank_?)?account(?:_?(?:no|number))?|acct(?:_?no)?|konto(?:nummer)?|"
        r"cbu|cuenta|conta|rekeningnummer|clabe|iban|ccc",
    ),
)
"""Field labels -> our kinds (a label is lowercased, spaces and dashes as ``_``)."""

_LABEL_KINDS = [(kind, kept_patterns.compile(rf"(?:{rx})")) for kind, rx in LABELS]

NUMBER_KINDS = frozenset(
    "DATE_OF_BIRTH NATIONAL_ID POSTCODE PHONE MEDICAL_RECORD PASSPORT LICENSE_PLATE "
    "BANK_ACCOUNT".split()
)
"""Kinds whose value holds a digit."""


def label_kind(label: str) -> str | None:
    """Return the kind a field's label names, or None.

    Args:
        label: A column header or a key ("Birth date", "nhs_no", "身份证(清关)").

    Returns:
        One of our kinds, or None when the label names none.

    """
    key = re.sub(r"[(（][^()（）]*[)）]", "", label).strip(" \t\"'*:").lower()
    key = re.sub(r"[\s-]+", "_", key)
    for kind, pattern in _LABEL_KINDS:
        if pattern.fullmatch(key):
            return kind
    return None


def fits(kind: str, value: str) -> bool:
    """Tell whether a field's value can be of ``kind`` (a number holds digits)."""
    if not value or len(value) > 80:
        return False
    count = sum(c.isdigit() for c in value)
    has_digit = count > 0
    if kind in NUMBER_KINDS:
        # "cp=3", "cell=5", "sin=0.5": a short number is a setting, whatever
        # its key's letters could also name.
        return count >= MIN_DIGITS.get(kind, 1)
    if kind == "PERSON":
        # "name=api-gateway" names a service: a person's name in Latin letters
        # is in title case, and no name holds a path's or a key's marks.
        words = value.split()
        return (
            not has_digit
            and not re.search(r"[_./@:=<>]", value)
            and 0 < len(words) <= 6
            and (not value.isascii() or all(w[:1].isupper() for w in words))
        )
    if kind == "EMAIL":
        return "@" in value
    return any(c.isalnum() for c in value)


MIN_DIGITS = {
    "PHONE": 7,
    "NATIONAL_ID": 5,
    "BANK_ACCOUNT": 6,
    "MEDICAL_RECORD": 4,
    "PASSPORT": 5,
    "DATE_OF_BIRTH": 4,
    "POSTCODE": 3,
    "LICENSE_PLATE": 1,
}
"""The fewest digits a value of each number kind holds."""

DELIMITERS = ("\t", ";", "|", ",")

KEY_VALUE = kept_patterns.compile(
    r"(?<![\w.-])(?P<key>[^\W\d][\w.-]{0,24})[ \t]*=[ \t]*"
    r"(?:\"(?P<q>[^\"\n]{1,80})\"|'(?P<s>[^'\n]{1,80})'|(?P<b>[^\s\"',;&|]{1,80}))"
)
"""A ``key=value`` pair of a log line or form state, the value quoted or bare."""

JSON_PAIR = kept_patterns.compile(
    r"\"(?P<key>[^\W\d][\w.-]{0,24})\"[ \t]*:[ \t]*"
    r"(?:\"(?P<q>[^\"\n]{1,80})\"|(?P<b>\d[\d.-]{0,30})(?![\w.]))"
)
"""A ``"key": "value"`` pair of a JSON payload, the value a string or a number."""

IBAN_SHAPE = kept_patterns.compile(r"[A-Z]{2}\d{2}[ ]?[A-Z0-9]")
"""An IBAN's opening: a country code and two check digits."""


class FieldRecognizer(CuedPatternRecognizer):
    """Identifiers in labelled table columns and ``key=value`` pairs."""

    ENTITY = "FIELD"
    SCORE = 0.9

    def __init__(self) -> None:
        """Report every kind a label names."""
        super().__init__()
        self.supported_entities = sorted({kind for kind, _ in LABELS})

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return the labelled values of tables and ``key=value`` pairs."""
        found = [*self._tables(text), *self._pairs(text), *_birth_dates_in_rows(text)]
        return [self._result(kind, start, end) for kind, start, end in found]

    def _result(self, kind: str, start: int, end: int) -> RecognizerResult:
        result = self.result(start, end, self.SCORE, "field_label")
        result.entity_type = kind
        return result

    def _pairs(self, text: str) -> list[tuple[str, int, int]]:
        found = []
        pairs = [*KEY_VALUE.finditer(text), *JSON_PAIR.finditer(text)]
        for m in pairs:
            kind = label_kind(m.group("key"))
            group = next(g for g in ("q", "s", "b") if m.groupdict().get(g) is not None)
            value = m.group(group).strip()
            if kind and fits(kind, value):
                start = m.start(group) + m.group(group).index(value)
                found.append((_iban_or(kind, value), start, start + len(value)))
        return found

    def _tables(self, text: str) -> list[tuple[str, int, int]]:
        """Find the cells of labelled columns under a header row."""
        lines = _lines(text)
        found: list[tuple[str, int, int]] = []
        i = 0
        while i < len(lines):
            offset, line = lines[i]
            delimiter = _delimiter(line)
            if delimiter is None:
                i += 1
                continue
            header = line.split(delimiter)
            kinds = [label_kind(cell) for cell in header]
            if sum(k is not None for k in kinds) < 2:
                i += 1
                continue  # one labelled column ("name;price"): no table of people
            i += 1
            while i < len(lines) and len(lines[i][1].split(delimiter)) == len(header):
                offset, line = lines[i]
                found += _cells(kinds, line, offset, delimiter)
                i += 1
        return found


def _lines(text: str) -> list[tuple[int, str]]:
    """Return each line with its offset."""
    out, offset = [], 0
    for line in text.split("\n"):
        out.append((offset, line))
        offset += len(line) + 1
    return out


def _delimiter(line: str) -> str | None:
    """Return the delimiter of a header row of three cells or more, or None."""
    for delimiter in DELIMITERS:
        cells = line.split(delimiter)
        if len(cells) >= 3 and all(0 < len(c.strip()) <= 30 for c in cells):
            return delimiter
    return None


def _cells(
    kinds: list[str | None], line: str, offset: int, delimiter: str
) -> list[tuple[str, int, int]]:
    """Return the labelled cells of one row whose values fit their kinds."""
    found = []
    start = offset
    for kind, cell in zip(kinds, line.split(delimiter), strict=True):
        value = cell.strip().strip("\"'")
        if kind and fits(kind, value):
            begin = start + cell.index(value)
            found.append((_iban_or(kind, value), begin, begin + len(value)))
        start += len(cell) + len(delimiter)
    return found


def _iban_or(kind: str, value: str) -> str:
    """Type an account column's IBAN as one ("iban" labels national numbers too)."""
    return "IBAN" if kind == "BANK_ACCOUNT" and IBAN_SHAPE.match(value) else kind


BIRTH_YEAR_DATE = kept_patterns.compile(
    r"(?:\d{1,2}[./-]\d{1,2}[./-](?:19\d\d|20[01]\d)|(?:19\d\d|20[01]\d)-\d\d-\d\d)"
)
"""A full date whose year a living adult or child was born in (1900-2019)."""

NAME_CELL = kept_patterns.compile(
    r"[A-ZÀ-Þ][^\W\d_]+(?:[ \t]+(?:[A-ZÀ-Þ\"][^\W\d_\"]*|d[aeo]s?)){1,5}"
)
"""A cell holding a person's full name in title case ("Ana Beatriz Souza Lima")."""


def _birth_dates_in_rows(text: str) -> list[tuple[str, int, int]]:
    """Find the birth dates of a table of people pasted without its header.

    Rows of four cells or more split by the same delimiter, two rows or
    more in a row: a row with a full name in one cell and exactly one full
    date of a birth year in another holds that person's date of birth (an
    order or event table's dates are recent or come two to a row).
    """
    lines = _lines(text)
    found: list[tuple[str, int, int]] = []
    for delimiter in ("|", ";", "\t"):
        rows = [
            (offset, line.split(delimiter))
            for offset, line in lines
            if line.count(delimiter) >= 3
        ]
        if len(rows) < 2:
            continue
        for offset, cells in rows:
            dates = [
                i for i, c in enumerate(cells) if BIRTH_YEAR_DATE.fullmatch(c.strip())
            ]
            named = any(NAME_CELL.fullmatch(c.strip()) for c in cells)
            if len(dates) != 1 or not named:
                continue
            start = offset + sum(len(c) + len(delimiter) for c in cells[: dates[0]])
            cell = cells[dates[0]]
            begin = start + cell.index(cell.strip())
            found.append(("DATE_OF_BIRTH", begin, begin + len(cell.strip())))
    return found
