"""Values of a person's form lines whose label no rule knows, typed by shape.

A form about a person ("Name: …", then a line per field) labels each value
in the form's own language; the label tables cover the languages seen so
far, and the next form's "Doglan senesi:" or "Salgysy:" is new. The value's
shape and the record's layout still tell what many values are, whatever
the label says:

- a full calendar date, the first one in the lines under a person's name
  or ID, with no time of day beside it and a year at least one year back,
  is that person's date of birth; a label that names an event (issued,
  expires, visit) makes it the event's;
- parts split by commas, one holding a house or plot number, another a
  capitalized place, with no unit, price, date or organization in them,
  make an address;
- one code of letters and digits (six to twenty, five digits or more)
  that is no date, price, version or reference, under a person's name,
  is that person's ID number;
- an address may also close a field after the person's name and other
  finds ("Subscriber: <name>, contract …, <street> 23, <quarter>, Goma");
- a line of words without a colon that leads to an adult's birth year
  ("Nata a Ivano-Frankivsk il 12/10/1987") is read as a birth date too.

Only values on lines at most a few lines below a person's name or ID are
read (the person's own block); a label that names a thing ("Order no."),
an organization's seat ("Office:") or an event keeps its value.
"""

from __future__ import annotations

import re
from datetime import date

from anonygraph.identifiers.birth_dates import EVENT
from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.org_contacts import LEGAL_FORM, ORG_HEADS, org_label
from anonygraph.identifiers.recognizers.lookalikes import (
    UNIT_AFTER,
    is_lookalike,
    names_a_thing,
)
from anonygraph.tools import kept_patterns

HOLDERS = frozenset({"PERSON", "NATIONAL_ID", "PASSPORT"})
"""Kinds that say whom the lines under them are about (a phone or an e-mail
may be a desk's: the references beside it would be taken)."""

FIELD = kept_patterns.compile(
    r"(?m)(?:^|(?<=[·|;\t]))[ \t]*(?P<label>[^\W\d_](?:[^\W\d_]|[ .'’/()-]){0,39}?)"
    r"(?:[ \t]*(?P<colon>[:：])[ \t]*|[ \t]+(?=\d))(?P<value>[^\n·|;\t]*[^\s·|;.])"
)
"""A field of a form line: a label of letters (no digits), a colon, a value
up to the line's end or the next field's separator. Without a colon, the
label's words run up to the first digit ("Nata a Ivano-Frankivsk il …")."""

CODE_PART = kept_patterns.compile(r"(?=[\w/-]*\d{4})(?=[\w/-]*[^\W\d_])[\w/-]{5,}")
"""A reference or account code in a part of a line ("contract KF-GOM-00871")."""

ADULT = 14
"""Years back a date without a colon's label must lie to be a birth date."""

BELOW = 6
"""Lines under a person's name or ID that may still hold their fields."""

BIRTH_BELOW = 4
"""Lines under a person's name or ID where a bare date is their birth's."""

MONTH_WORD = r"[^\W\d_]{3,12}\.?"
"""A month's name in any language: one word between a day and a year."""

DATE_VALUE = kept_patterns.compile(
    r"(?:(?P<iso>(?:19|20)\d\d)[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})"
    r"|(?P<a>\d{1,2})\.?[ \t]?[-/.][ \t]?(?P<b>\d{1,2})\.?[ \t]?[-/.]?[ \t]?"
    r"(?P<y>(?:19|20)\d\d)"
    rf"|\d{{1,2}}(?:st|nd|rd|th|er|º|-?(?:nji|inji|чи|го|ci|cı|nci|ncı))?\.?"
    rf"(?:[ \t]+(?:de|of|del)\b)?[ \t-]+{MONTH_WORD}(?:[ \t]+(?:de|of|del)\b)?"
    r",?[ \t-]+(?P<wy>(?:19|20)\d\d)"
    rf"|{MONTH_WORD}[ \t]+\d{{1,2}}(?:st|nd|rd|th)?,?[ \t]+(?P<my>(?:19|20)\d\d)"
    r"|(?P<ay>(?:19|20)\d\d)[ \t]*(?:年|\.)[ \t]*\d{1,2}[ \t]*(?:月|\.)[ \t]*\d{1,2}"
    r"[ \t]*(?:日|\.)?)"
    r"(?![\w/.-]?\d)"
)
"""A full calendar date at the start of a value: numbers in any order, or a
day, a month's name in any language and a year."""

CLOCK = kept_patterns.compile(r"(?<!\d)\d{1,2}[:h]\d\d(?!\d)|\b[AaPp]\.?[Mm]\.?(?!\w)")
"""A time of day: the date beside it is a log's or an appointment's."""

YOUNGEST, OLDEST = 1, 110
"""Years back a birth date of a listed person may lie."""

HOUSE_NUMBER = kept_patterns.compile(
    r"(?<![\w.,/-])(?!(?:19|20)\d\d(?!\w))\d{1,5}[A-Za-z]?(?:[/-]\d{1,4}[A-Za-z]?)?"
    r"(?![\w.,/-]?\d)"
)
"""A house, plot, flat or street number ("118", "7/22", "12B"); a year is none."""

NOT_ADDRESS = kept_patterns.compile(
    r"[@:#()$£€¥₹%\"”″]|www\.|\d[.,]\d\d(?!\d)|\d,\d{3}(?!\d)|\d'\d|"
    r"(?<![\w'’-])(?:x|kg|mg|ml|km|kr|yrs?|y/o)(?!\w)|\d(?:[ -]?\d){6}"
)
"""Marks of an e-mail, a link, another field, a bracket's remark, a price,
a percentage, a quantity, an age, a height or a phone number (seven digits
in a run)."""

POSTCODE_END = kept_patterns.compile(
    r"(?<![\w-])(?:[A-Z]{1,3}-?)?\d{4,6}(?![\w-])|(?<![\w-])[A-Z]{2}-\d{3}(?![\w-])"
)
"""A postcode in an address's last part ("13381", "AZ1122", "LV-1009")."""

PLACE_NAME = kept_patterns.compile(r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*")
"""One word of a place's name ("N'Djamena", "Dar")."""

CODE = kept_patterns.compile(
    r"(?=(?:[^\d\n]*\d){5})[A-Z0-9](?:[A-Z0-9]|[ ./-](?=[A-Z0-9])){4,23}"
)
"""One code of capitals and digits (spaced, dotted or hyphenated groups)."""

DATE_SHAPE = kept_patterns.compile(
    r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|(?:19|20)\d\d[./-]?(?:0\d|1[0-2])[./-]?[0-3]\d"
)
"""A date written in numbers inside a code's shape."""


def form_values(
    text: str, found: list[Identifier], *, today: date | None = None
) -> list[Identifier]:
    """Return the addresses, IDs and birth dates of a person's unlabelled fields.

    Args:
        text: The text the identifiers were found in.
        found: The identifiers found so far (non-overlapping).
        today: The date ages are counted to (default: today).

    Returns:
        New identifiers, none overlapping ``found`` or each other.

    """
    holders = [i for i in found if i.kind in HOLDERS]
    if not holders:
        return []
    starts = _line_starts(text)
    holder_lines = {_line_of(starts, i.start) for i in holders}
    person_lines = {_line_of(starts, i.start) for i in holders if i.kind == "PERSON"}
    birth_lines = {
        _line_of(starts, i.start) for i in found if i.kind == "DATE_OF_BIRTH"
    }
    this_year = (today or date.today()).year
    extra: list[Identifier] = []
    for m in FIELD.finditer(text):
        start, end = m.span("value")
        line = _line_of(starts, start)
        above = [line - n for n in range(BELOW + 1) if line - n in holder_lines]
        if not above:
            continue
        colon = m.group("colon") is not None
        inside = [i.end for i in found + extra if i.start < end and start < i.end]
        if inside and colon:
            # "Subscriber: <name>, contract …, <street> 23, <quarter>, Goma":
            # the address closes the line after the finds.
            tail = _address_tail(text, m, max(inside))
            if tail is not None:
                extra.append(_ident("ADDRESS", text, *tail))
            continue
        if inside:
            continue
        label, value = m.group("label"), m.group("value")
        if (
            line - above[0] <= BIRTH_BELOW
            and _birth_date(value, label, this_year, colon=colon)
            and not any(_anchor(line, person_lines) <= b <= line for b in birth_lines)
        ):
            birth_lines.add(line)
            end = start + DATE_VALUE.match(value).end()  # type: ignore[union-attr]
            extra.append(_ident("DATE_OF_BIRTH", text, start, end))
        elif colon and _address(value, m):
            extra.append(_ident("ADDRESS", text, start, end))
        elif colon and _code(text, m):
            extra.append(_ident("NATIONAL_ID", text, start, end))
    return extra


def _ident(kind: str, text: str, start: int, end: int) -> Identifier:
    """Return the find of ``text[start:end]`` as ``kind``."""
    return Identifier(kind, start, end, text[start:end], 0.55, "form_values")


def _address_tail(text: str, m: re.Match[str], after: int) -> tuple[int, int] | None:
    """Return the span of the address that closes a field after its finds."""
    end = m.end("value")
    for comma in re.finditer(",", text[after:end]):
        start = after + comma.end()
        start += len(text[start:end]) - len(text[start:end].lstrip())
        part_end = text.find(",", start, end)
        if CODE_PART.search(text[start : part_end if part_end >= 0 else end]):
            continue  # "contract KF-GOM-00871, …": a code opens no address
        if _address(text[start:end], m):
            return start, end
    return None


def _anchor(line: int, person_lines: set[int]) -> int:
    """Return the line where the person whose field ``line`` holds is named.

    A person has one birth date: a second date in their lines (a baptism,
    an issue date) is an event's. Without a name above, the lines a person's
    fields span are the ones counted back.
    """
    return max(
        (p for p in person_lines if line - BELOW <= p <= line), default=line - BELOW
    )


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _line_of(starts: list[int], at: int) -> int:
    """Return the index of the line holding offset ``at``."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= at:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _birth_date(value: str, label: str, this_year: int, *, colon: bool) -> bool:
    """Tell a value that opens with a past full date and names no event.

    Without a colon the label's words lead to the date in a line of its
    own ("Nata a Ivano-Frankivsk il 12/10/1987"): only an adult's birth
    year is read so, with nothing but a place after it.
    """
    m = DATE_VALUE.match(value)
    if m is None or CLOCK.search(value) or EVENT.search(label):
        return False
    if not colon and (
        len(label.split()) > 6
        or not re.fullmatch(r"(?:,[^\d]*|[ \t]+\([^\d]*\))?", value[m.end() :])
    ):
        return False
    year = next(int(y) for g in ("iso", "y", "wy", "my", "ay") if (y := m.group(g)))
    if m.group("a") and not (
        int(m.group("a")) <= 31
        and int(m.group("b")) <= 31
        and min(int(m.group("a")), int(m.group("b"))) <= 12
    ):
        return False
    return (YOUNGEST if colon else ADULT) <= this_year - year <= OLDEST


def _address(value: str, m: re.Match[str]) -> bool:
    """Tell a field's value shaped like a home's address: numbered, named parts."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) < 2 or len(value) > 140 or NOT_ADDRESS.search(value):
        return False
    if CLOCK.search(value) or DATE_VALUE.search(value) or LEGAL_FORM.search(value):
        return False
    if _org(m) or ORG_HEADS.search(value):
        return False
    if any(len(p.split()) > 6 or not p for p in parts):
        return False  # a list of phrases, not the parts of an address
    if not any(
        not UNIT_AFTER.match(value[h.end() : h.end() + 12])
        for h in HOUSE_NUMBER.finditer(value)
    ):
        return False
    return bool(POSTCODE_END.search(parts[-1])) or any(_place(p) for p in parts)


def _place(part: str) -> bool:
    """Tell a part of an address that names a known town, region or country."""
    from anonygraph.cues.places import fold, gazetteer

    words = PLACE_NAME.findall(part)
    places = gazetteer()
    for size in (3, 2, 1):
        for at in range(len(words) - size + 1):
            name = " ".join(words[at : at + size])
            if not name[0].islower() and fold(name) in places:
                return True
    return False


def _org(m: re.Match[str]) -> bool:
    """Tell a field whose label names an organization's seat or desk."""
    return org_label(m.group(0).lstrip()) or bool(ORG_HEADS.search(m.group("label")))


def _code(text: str, m: re.Match[str]) -> bool:
    """Tell a value that is one personal code, not a date, price or reference."""
    value = m.group("value")
    if CODE.fullmatch(value) is None or "." in value:
        return False  # a version, or a dotted log or file reference
    if not 6 <= sum(c.isalnum() for c in value) <= 20 or DATE_SHAPE.search(value):
        return False
    groups = re.split(r"[ /-]", value)
    if len(groups) >= 4 and max(sum(c.isdigit() for c in g) for g in groups) < 4:
        return False  # a phone number's or a reference's short groups
    if re.search(r"(?<![\dA-Z])[A-Z]{3,}$", value):
        return False  # "75 000 FCFA": an amount and its currency
    if sum(bool(re.fullmatch(r"[A-Z]{2,}", g)) for g in groups) >= 2:
        return False  # "MCC/HSG/…": an office's and a file's letters
    label = m.group("label")
    if names_a_thing(label) or EVENT.search(label) or _org(m):
        return False
    return not is_lookalike(text, m.start("value"), m.end("value"))
