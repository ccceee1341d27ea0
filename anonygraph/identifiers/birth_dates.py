"""A date of birth the record's layout shows, in words no rule knows.

A record line that gives a person's name, ID number, e-mail or phone and,
right after it, a full calendar date whose year makes its subject 14 to 110
years old, holds that person's date of birth ("Lejla Hodžić, 14.03.1984", "CNI
114829375 (02/07/1979)"): the writer listed who the person is and when
they were born. Only punctuation and short marks ("F", "geb.") may stand
between: a verb or a noun between them ("was sworn in on", "admitted")
makes the date an event's, and it stays; so do log stamps, appointments
and deliveries, whose dates come with no one's name beside them. A clause
of the person's sentence may stand between (", nato a Verona il", ",
føddur") in any language, unless a word of it names an event ("married",
"issued", "since").
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

CLAUSE = kept_patterns.compile(r"\)?,[^\n.!?;:\d()]{3,40}?[ \t]")
"""A clause between a person's name or ID and a date in their sentence
(", nato a Verona il ", ", føddur "): no sentence end, number or bracket."""

EVENT = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:issue[ds]?|issuing|expir\w*|expiry|valid\w*|until|"
    r"since|from|visit\w*|admi(?:tted|ssion)|discharg\w*|appointment|report\w*|"
    r"booking|booked|arriv\w*|depart\w*|deliver\w*|payment|paid|due|sign\w*|"
    r"registr\w*|regist\w*|effective|start\w*|end|ends|hearing|incident|"
    r"accident|death|died|deceased|dece\w*|submitted|received|filed|created|"
    r"updated|modified|printed|exam\w*|test|sampl\w*|collected|order\w*|"
    r"invoice|hired|joined|employed|married|marriage|divorc\w*|graduat\w*|"
    r"enrol\w*|moved|bought|sold|ausgestellt|ausstellung\w*|gültig\w*|"
    r"ablauf\w*|termin|eingang|seit|verheiratet|gestorben|délivr\w*|valable|"
    r"échéance|rendez-vous|depuis|mari[ée]e?|d[ée]c[ée]d[ée]e?|emisi[óo]n|"
    r"expedici[óo]n|vencimiento|caducidad|v[áa]lid[oa]|cita|desde|casad[oa]|"
    r"fallecid[oa]|emiss[ãa]o|validade|vencimento|rilascio|scadenza|dal|"
    r"sposat[oa]|mort[oa]|afgifte|geldig\w*|vervaldatum|sinds|"
    r"выдач\w*|выдан\w*|действ\w*|срок\w*|wydan\w*|ważn\w*|"
    r"date|datum|fecha|data|dato|tarih|sana|tarehe|ngày)(?![^\W\d_])"
)
"""Words that make a date an event's (issued, expires, a visit, a wedding),
in the languages whose labels we list; a label that only says "date" names
the form's own date."""


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
        gap = CLAUSE.fullmatch(text, nearest.end, start)
        if GAP.fullmatch(text, nearest.end, start) or (
            gap is not None
            and not EVENT.search(gap.group())
            and not any(nearest.end <= i.start < start for i in found)
        ):
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
