"""A date of birth the record's layout shows, without a birth word.

A record line that gives a person's name, ID number, e-mail or phone and,
right after it, a full calendar date whose year makes its subject 14 to 110
years old, holds that person's date of birth ("Lejla Hodžić, 14.03.1984", "CNI
114829375 (02/07/1979)"): the writer listed who the person is and when
they were born. Only punctuation and short marks ("F", "geb.") may stand
between: a verb or a noun between them ("was sworn in on", "admitted")
makes the date an event's, and it stays; so do log stamps, appointments
and deliveries, whose dates come with no one's name beside them.
"""

from __future__ import annotations

import re
from datetime import date

from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.recognizers.documents import DateOfBirthRecognizer
from anonygraph.tools import kept_patterns

YEAR = kept_patterns.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
"""A four-digit year: the cheap test that a text may hold a birth date."""

FULL_DATE = kept_patterns.compile(
    rf"(?<![\w/.-])(?:{DateOfBirthRecognizer.DATE})(?![\w/.-]\d|\d)", re.IGNORECASE
)
"""A full calendar date, in numbers or with a month's name."""

HOLDERS = frozenset({"PERSON", "NATIONAL_ID", "PASSPORT", "EMAIL", "PHONE"})
"""Kinds that say who a record line is about (a contact list's row too)."""

GAP = kept_patterns.compile(
    r"[^\S\n]*(?:[,;|(–—-][^\S\n]*|[^\W\d_]{1,3}(?![^\W\d_])\.?[^\S\n]*)*"
)
"""What may stand between a name or ID and its birth date: marks, short words."""

YOUNGEST, OLDEST = 14, 110
"""Ages a listed person's birth year may give (a newborn's needs a birth word)."""


def birth_dates_beside(text: str, found: list[Identifier]) -> list[Identifier]:
    """Return the full dates right after a person's name or ID, as dates of birth.

    Args:
        text: The text the identifiers were found in.
        found: The identifiers found so far (non-overlapping).

    Returns:
        New DATE_OF_BIRTH identifiers (none overlaps ``found``).

    """
    holders = [i for i in found if i.kind in HOLDERS]
    if not holders or not YEAR.search(text):
        return []
    this_year = date.today().year
    extra: list[Identifier] = []
    for match in FULL_DATE.finditer(text):
        start, end = match.span()
        years = YEAR.findall(match.group())
        if not years or not YOUNGEST <= this_year - int(years[-1]) <= OLDEST:
            continue
        if any(i.start < end and start < i.end for i in found):
            continue
        before = [i for i in holders if i.end <= start]
        if not before:
            continue
        nearest = max(before, key=lambda i: i.end)
        if GAP.fullmatch(text, nearest.end, start):
            extra.append(
                Identifier(
                    kind="DATE_OF_BIRTH",
                    start=start,
                    end=end,
                    text=match.group(),
                    score=0.6,
                    recognizer="birth_dates_beside",
                )
            )
    return extra
