"""A person's row: the number and the place beside a person, typed by position.

A roster, a voucher list or the minutes of a society give each person a
line: the name, then where they live, their number and their phone, with
no label or with a label in the record's own language ("PIN", "NPI",
"NINA"). Where the line is a person's (it holds their name, birth date or
ID), its layout says what a value is:

- a short acronym in capitals right before an ID-shaped number ("NPI
  1048375520", "SS no. 101 274"), or a number alone right after the name
  ("Worrell, 130822-0418", a table's next cell "| NJ8T4K2R |"), is the
  person's ID number; a label that names a thing, a business's or an
  object's acronym, a date, a sum, a year or a unit after keeps it;
- comma parts right after a find ("…, Lot 4 Reliance, Essequibo Coast —"),
  up to a dash, a bracket, the line's end or the phone, are the person's
  address when one part holds a house or plot number, a street's or a
  settlement's word, or when "of" leads to a town the gazetteer lists
  ("of Fairview North, Manzini"); the last part (the town or region)
  stays, as a place. An organization's or a role's words ("Teacher,
  Nairobi", "Form 7, King George VI NSS") make no address.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.identifier import Identifier
from anonygraph.tools import kept_patterns

OWNERS = frozenset({"PERSON", "DATE_OF_BIRTH", "NATIONAL_ID", "PASSPORT"})
"""Kinds that make a line a person's record."""

ACRONYM_ID = kept_patterns.compile(
    r"(?<![\w.-])(?P<label>[A-Z]{2,5})(?=[ \t:#])(?P<word>[ \t]*(?:no|nr|n[°º]|#)\.?)?"
    r"[ \t]*(?P<colon>[:#])?[ \t]*"
    r"(?P<v>(?=[A-Z0-9]*\d)[0-9][0-9A-Z]*(?:[ -][0-9]+)*(?<=\d)[A-Z]?|"
    r"(?=(?:[A-Z-]*\d){3})(?=(?:[0-9-]*[A-Z]){2})[A-Z0-9]{3,}(?:-[A-Z0-9]{3,})*)"
    r"(?![\w-]|[.,/]\w)"
)
"""An acronym in capitals, maybe a number word or a colon, then a number or
a code of capitals and digits ("NINA 10185073412008M", "SS no. 101 274")."""

AFTER_PERSON = kept_patterns.compile(
    r"[ \t]*(?:,|\(|\||[—–])[ \t]*(?:e\.g\.[ \t]*)?"
    r"(?P<v>\d{2,}(?:[-/]\d{2,}){1,3}|\d{8,}|"
    r"(?=(?:[A-Z-]*\d){3})(?=(?:[0-9-]*[A-Z]){2})[A-Z0-9]{3,}(?:-[A-Z0-9]{3,})*)"
    r"(?=[ \t]*(?:[,;|)—–]|$))",
    re.M,
)
"""A number or a code as the next field after a person's name (digits in
spaced groups are a phone's, left to the phone rules)."""

PHONE_VALUE = r"(?P<v>\+?\d{2,4}(?:[ -]\d{2,4}){1,4})(?![\w-]|[.,/]\d)"
"""A number in groups, seven to twelve digits: a phone's shape."""

PHONE_AFTER = kept_patterns.compile(
    r"[ \t]*(?:,|\()[ \t]*" + PHONE_VALUE + r"(?=[ \t]*(?:[,;|).—–]|$))", re.M
)
"""A phone's number as the field right after a person's name ("…, 991 58 03.")."""

CELL_CODE = kept_patterns.compile(
    r"(?=(?:[A-Z]*\d){3})(?=(?:\d*[A-Z]){2})[A-Z0-9]{6,16}"
)
"""A code of capitals and digits, three digits and two letters at least
("NJ8T4K2R"), in a person's row where no label calls it a thing's."""

PIN_DIGITS = 10
"""Digits a "PIN" holds when it is a personal identification number (a card's
or a phone's PIN is four to six)."""

SEPARATOR = kept_patterns.compile(
    r"[ \t]*(?:[,(]|[—–]|-(?=[ \t]))[ \t]*(?P<of>(?:of|from)[ \t]+)?"
)
"""What leads from a find to the next field of its row; "of" says where from."""

RUN_END = kept_patterns.compile(r"[—–|·;()\n]|[ \t]-[ \t]|\.(?:[ \t]|$)")
"""What ends a row's field: a dash, a bar, a bracket, the line or a sentence."""

HOUSE_MARK = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:lot|plot|no\.?|n[°º]|#|house|block|stand|erf|porte|"
    r"section|km)[ \t]*\d{1,5}[A-Za-z]?(?!\d)"
)
"""A house's, plot's or door's number with its marker ("Lot 4", "n° 7")."""

WORD_NUMBER = kept_patterns.compile(
    r"(?<![\w'’-])(?P<w>[^\W\d_][^\W\d_'’-]*)[ \t]+\d{1,4}[A-Za-z]?(?![\w.,/-]?\d)"
)
"""A name and its number ("Kobito 2", "rue 133")."""

PART_WORD = (
    r"(?:(?:[#]|n[°º])?[ \t]*\d{1,5}[A-Za-z]?|"
    r"[A-ZÀ-ÞĀ-Ž][^\W\d_]*(?:['’-][^\W\d_]+)*\.?|[a-zà-ÿ]{1,12}|[IVX]{1,4})"
)
"""A word of an address's part: a number, a name, a small word, a numeral."""

PLACE_PART = kept_patterns.compile(rf"{PART_WORD}(?:[ \t]+{PART_WORD}){{0,4}}")
"""One part of an address line: up to five words and numbers."""

PHONE_WORDS = r"cell|tel|t[ée]l|phone|mobile|mob|tlm|telm|gsm"
"""A phone's word in a person's line ("cell", "tél", "tlm")."""

CONTACT_WORD = kept_patterns.compile(
    rf"(?i)(?:{PHONE_WORDS}|ph|e-?mail|whatsapp|contact)\b"
)
"""A contact's word opening the field after an address ("cell 7811 2046")."""

CONTACT_PHONE = kept_patterns.compile(
    rf"(?i)(?<![^\W\d_])(?:{PHONE_WORDS})\.?[ \t]*[:.]?[ \t]*" + PHONE_VALUE
)
"""A phone's number after its word in a person's line ("tel. 7290-481")."""


def person_rows(text: str, found: list[Identifier]) -> list[Identifier]:
    """Return the IDs and addresses a person's row holds without a known label.

    Args:
        text: The text the identifiers were found in.
        found: The identifiers found so far (non-overlapping).

    Returns:
        New identifiers, none overlapping ``found`` or each other.

    """
    lines = sorted(
        {
            (text.rfind("\n", 0, i.start) + 1, _line_end(text, i.start))
            for i in found
            if i.kind in OWNERS
        }
    )
    if not lines:
        return []
    extra: list[Identifier] = []
    for start, end in lines:
        in_line = [i for i in found if start <= i.start < end]
        extra += _ids(text, start, end, in_line + extra)
    extra += _same_column(text, found + extra, extra)
    taken = found + extra
    for start, end in lines:
        in_line = sorted(
            (i for i in taken if start <= i.start < end), key=lambda i: i.start
        )
        for ident in in_line:
            span = _address_after(text, ident.end, end, in_line)
            if span is not None and not _overlaps(span, taken + extra):
                extra.append(_ident("ADDRESS", text, *span))
    return extra


def _same_column(
    text: str, found: list[Identifier], ids: list[Identifier]
) -> list[Identifier]:
    """Return the codes in a table's column where other rows hold a person's ID.

    A row whose name no rule read (a nickname in quotes inside it) still has
    its ID in the column where the other persons' rows have theirs.
    """
    columns: set[tuple[int, int]] = set()
    for ident in ids:
        start = text.rfind("\n", 0, ident.start) + 1
        cells = text[start : _line_end(text, start)].split("|")
        if len(cells) >= 3:
            columns.add((len(cells), text[start : ident.start].count("|")))
    extra: list[Identifier] = []
    if not columns:
        return extra
    start = 0
    for line in text.split("\n"):
        cells = line.split("|")
        offset = start
        for at, cell in enumerate(cells):
            value = cell.strip()
            if (len(cells), at) in columns and value:
                span_start = offset + cell.index(value)
                span = (span_start, span_start + len(value))
                if (
                    ID_CELL.fullmatch(value)
                    and not _overlaps(span, found + extra)
                    and _id_value(text, *span, label="")
                ):
                    extra.append(_ident("NATIONAL_ID", text, *span))
            offset += len(cell) + 1
        start += len(line) + 1
    return extra


ID_CELL = kept_patterns.compile(r"[A-Z0-9]+(?:-[A-Z0-9]+)*")
"""A table cell of one code (no words, no spaced groups)."""


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _overlaps(span: tuple[int, int], found: list[Identifier]) -> bool:
    return any(i.start < span[1] and span[0] < i.end for i in found)


def _ident(kind: str, text: str, start: int, end: int) -> Identifier:
    return Identifier(kind, start, end, text[start:end], 0.55, "person_rows")


def _ids(
    text: str, start: int, end: int, in_line: list[Identifier]
) -> list[Identifier]:
    """Return the ID numbers of one person's line (see the module's docstring)."""
    from anonygraph.identifiers.recognizers.base import digits
    from anonygraph.identifiers.recognizers.id_fields import (
        CHECKED,
        NOT_PERSONS_CODES,
        YEAR_PART,
    )

    extra: list[Identifier] = []
    for m in ACRONYM_ID.finditer(text, start, end):
        value = m.group("v")
        label = m.group("label")
        count = len(digits(value))
        labelled = m.group("word") or m.group("colon")
        # Bare, a register's or a reference's number is short ("GMC
        # 7204519") or an account's groups ("BIBD 00-016-01-004417-2").
        need = 6 if labelled else 8
        if not labelled and len(re.split(r"[ -]", value)) > 2:
            continue
        if re.search(
            r"(?<![\w.-])[A-Z]{2,}[ \t]+$", text[max(start, m.start() - 12) : m.start()]
        ):
            continue  # "PADI AOW 0907K44182": a body's and its course's codes
        if label == "PIN":
            need = PIN_DIGITS
        elif label in NOT_PERSONS_CODES or CHECKED.fullmatch(label):
            continue  # an object's number, or a scheme whose check decides
        if (count < need and not value.isalnum()) or YEAR_PART.search(value):
            continue
        if count < need and not re.search(r"[A-Z]", value):
            continue
        span = m.span("v")
        if _id_value(text, *span, label=text[max(start, m.start() - 30) : span[0]]):
            extra.append(_ident("NATIONAL_ID", text, *span))
    for ident in in_line:
        if ident.kind != "PERSON":
            continue
        after = AFTER_PERSON.match(text, ident.end, end)
        if after is None:
            continue
        value = after.group("v")
        if len(digits(value)) < 3 or YEAR_PART.search(value):
            continue  # "(1948-2026)": the person's years
        if not re.search(r"[A-Z]", value) and len(digits(value)) < 7:
            continue
        span = after.span("v")
        if _id_value(text, *span, label=""):
            extra.append(_ident("NATIONAL_ID", text, *span))
    extra += _phones(text, start, end, in_line)
    return [i for i in extra if not _overlaps((i.start, i.end), in_line)]


def _phones(
    text: str, start: int, end: int, in_line: list[Identifier]
) -> list[Identifier]:
    """Return the phone numbers a person's line gives after the name or a phone word.

    The phone rules check a number against its country's plan; a short
    local number of a small country ("7290-481") may fail that check, yet
    its place in the person's row says what it is.
    """
    from anonygraph.identifiers.recognizers.base import digits
    from anonygraph.identifiers.recognizers.id_fields import YEAR_PART
    from anonygraph.identifiers.recognizers.lookalikes import is_lookalike

    found = [m for m in CONTACT_PHONE.finditer(text, start, end)]
    found += [
        m
        for i in in_line
        if i.kind == "PERSON" and (m := PHONE_AFTER.match(text, i.end, end))
    ]
    phones: list[Identifier] = []
    for m in found:
        span = m.span("v")
        if (
            7 <= len(digits(m.group("v"))) <= 12
            and not YEAR_PART.search(m.group("v"))  # "(1931-2019)": years
            and not is_lookalike(text, *span, dotted=False)
        ):
            phones.append(_ident("PHONE", text, *span))
    return phones


def _id_value(text: str, start: int, end: int, *, label: str) -> bool:
    """Tell a value that is no date, sum, year, unit or thing's number."""
    from anonygraph.identifiers.recognizers.id_fields import _id_shaped
    from anonygraph.identifiers.recognizers.lookalikes import (
        UNIT_AFTER,
        is_lookalike,
        names_a_thing,
    )

    value = text[start:end]
    shaped = (
        _id_shaped(value, mixed=True)
        or _id_shaped(value.replace("-", " "))
        or CELL_CODE.fullmatch(value.replace("-", "")) is not None
    )
    return (
        shaped
        and not names_a_thing(label)
        and not UNIT_AFTER.match(text, end)
        and not is_lookalike(text, start, end, dotted=False)
    )


def _address_after(
    text: str, at: int, line_end: int, in_line: list[Identifier]
) -> tuple[int, int] | None:
    """Return the span of the address parts right after a find, or None."""
    sep = SEPARATOR.match(text, at, line_end)
    if sep is None or sep.end() == at:
        return None
    start = sep.end()
    stop = RUN_END.search(text, start, line_end)
    run_end = stop.start() if stop else line_end
    parts: list[tuple[int, int]] = []
    offset = start
    closed = True
    for piece in text[start:run_end].split(","):
        lead = len(piece) - len(piece.lstrip())
        body = piece.strip()
        part = (offset + lead, offset + lead + len(body))
        offset += len(piece) + 1
        # The field after the address: the phone's word or another find.
        if not body or CONTACT_WORD.match(body) or _overlaps(part, in_line):
            break
        if not (PLACE_PART.fullmatch(body) and _place_words(body)):
            closed = False
            break
        parts.append(part)
    if not closed or len(parts) < 2:
        return None
    bodies = [text[s:e] for s, e in parts]
    if not _placed(bodies, of=sep.group("of") is not None):
        return None
    return parts[0][0], parts[-2][1]


def _place_words(part: str) -> bool:
    """Tell a part whose words may name a place: no firm, role, acronym or unit."""
    from anonygraph.identifiers.org_contacts import LEGAL_FORM, ORG_HEADS
    from anonygraph.identifiers.recognizers.name_checks import ORG_WORDS

    words = re.findall(r"[^\W\d_][^\W\d_'’.-]*", part)
    if not words or not (
        part[0].isupper() or part[0].isdigit() or HOUSE_MARK.search(part)
    ):
        if not (words and (WORD_NUMBER.search(part) or _settlement(part))):
            return False
    if ORG_HEADS.search(part) or LEGAL_FORM.search(part):
        return False
    if any(w.lower() in ORG_WORDS for w in words):
        return False
    # An acronym in capitals is a firm's, a school's or an office's.
    return not any(
        len(w) > 1 and w.isupper() and not re.fullmatch(r"[IVX]+", w) for w in words
    )


def _settlement(part: str) -> bool:
    from anonygraph.identifiers.recognizers.addresses import SETTLEMENT

    return bool(SETTLEMENT.search(part))


def _placed(parts: list[str], *, of: bool) -> bool:
    """Tell address parts by a number, a street's or settlement's word, or "of"."""
    from anonygraph.identifiers.recognizers.addresses import (
        LEADING_TYPES,
        STREET_TYPES,
        _known_place,
    )
    from anonygraph.identifiers.recognizers.name_checks import model_words

    street = kept_patterns.compile(
        rf"(?i)(?<![^\W\d_])(?:{STREET_TYPES}|{LEADING_TYPES})(?![^\W\d_])"
    )
    for part in parts[:-1]:
        if HOUSE_MARK.search(part) or street.search(part) or _settlement(part):
            return True
        number = WORD_NUMBER.search(part)
        if number and number.group("w").lower() not in model_words():
            return True  # "Kobito 2": a named place's number ("Form 7" is none)
    return of and _known_place(parts[-1]) and not _known_place(parts[0])
