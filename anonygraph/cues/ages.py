"""Ages and birth years the author states about themself."""

from __future__ import annotations

import datetime as dt
import re

from anonygraph.cues.cue import Cue

DECADES = {
    1: "teens",
    2: "twenties",
    3: "thirties",
    4: "forties",
    5: "fifties",
    6: "sixties",
    7: "seventies",
    8: "eighties",
    9: "nineties",
}
DECADE_NUMBER = {word: n for n, word in DECADES.items()}
TENS = {
    2: "twenty",
    3: "thirty",
    4: "forty",
    5: "fifty",
    6: "sixty",
    7: "seventy",
    8: "eighty",
    9: "ninety",
}

_AFTER_AGE = (
    r"(?=\s*(?:$|[,.;:!?)\]]|and\b|now\b|but\b|so\b|myself\b|too\b|here\b|"
    r"with\b|and\b|living\b|who\b|if\b|in\b|from\b))"
)
I_AM_AGE = re.compile(
    r"\b(?:I'?m|I am|im|I was)\s+"
    r"(?:now\s+|only\s+|almost\s+|nearly\s+|just\s+|about\s+)?"
    r"(?P<span>(?P<age>\d{1,2})(?:\s*(?:years?|yrs?)[\s-]*old|\s*y/?o\b|\s*y\.o\.)?)"
    + _AFTER_AGE,
    re.IGNORECASE,
)
YEAR_OLD = re.compile(
    r"\b(?:I'?m|I am|im|as|being|I was)\s+an?\s+"
    r"(?P<span>(?P<age>\d{1,2})[\s-]*(?:years?|yrs?)[\s-]*old)\b",
    re.IGNORECASE,
)
TURNED = re.compile(
    r"\bI\s+(?:just\s+|recently\s+|finally\s+)?(?:turned|turn|am turning|'m turning)\s+"
    r"(?P<age>\d{2})\b",
    re.IGNORECASE,
)
AGE_OF = re.compile(r"\b(?:at|by) the age of (?P<age>\d{1,2})\b", re.IGNORECASE)
# "At 20 I thought ...": an age said in passing, followed by the speaker.
AT_AGE = re.compile(
    r"\b(?P<span>(?P<at>at)\s+(?P<age>[1-9]\d))\b(?=\s*,?\s*I(?:\b|'))",
    re.IGNORECASE,
)
TAG = re.compile(
    r"(?:(?<=\bI)|(?<=\bme)|(?<=\bI'm)|(?<=^))\s*(?P<span>[(\[]?\s*"
    r"(?:(?P<age>\d{2})\s?(?P<sex>[MFmf])|(?P<sex2>[MFmf])\s?(?P<age2>\d{2}))"
    r"\s*[)\]]?)(?![\w])",
    re.IGNORECASE,
)
BORN = re.compile(
    r"\bI\b[^.!?\n]{0,25}?\bborn\s+(?P<prep>(?:in|back in)\s+)?(?:the year\s+)?"
    r"(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
DECADE_PHRASE = re.compile(
    r"\b(?:in\s+)?my\s+(?P<part>early|mid|late)?[\s-]*"
    r"(?P<decade>teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|"
    r"nineties|[2-9]0'?s)\b",
    re.IGNORECASE,
)


def age_band(age: int) -> tuple[int, int]:
    """Return the early/mid/late third of the decade ``age`` falls in."""
    tens = age // 10 * 10
    unit = age % 10
    if unit <= 3:
        return tens, tens + 3
    if unit <= 6:
        return tens + 4, tens + 6
    return tens + 7, tens + 9


def decade_phrase(age: int) -> str:
    """Return "in my late twenties" for 27: the coarser form of an exact age."""
    if age < 13:
        return "a child"
    if age < 20:
        return "in my teens"
    part = "early" if age % 10 <= 3 else "mid" if age % 10 <= 6 else "late"
    return f"in my {part} {DECADES[min(age // 10, 9)]}"


def something(age: int) -> str:
    """Return the adjective form: 27 -> "twenty-something"."""
    return f"{TENS[age // 10]}-something" if 20 <= age < 100 else "young"


def _cue(
    text: str,
    start: int,
    end: int,
    age: int,
    kind: str,
    replacement: str,
    certainty: int = 5,
    exact: bool = True,
) -> Cue:
    return Cue(
        start,
        end,
        text[start:end],
        "age",
        kind,
        str(age),
        replacement,
        certainty,
        exact,
    )


def detect_ages(text: str, today: dt.date | None = None) -> list[Cue]:
    """Find the author's stated age, age tag, birth year or decade of life."""
    cues: list[Cue] = []
    for m in I_AM_AGE.finditer(text):
        age = int(m.group("age"))
        if 13 <= age <= 99:
            cues.append(
                _cue(
                    text, m.start("span"), m.end("span"), age, "age", decade_phrase(age)
                )
            )
    for m in YEAR_OLD.finditer(text):
        age = int(m.group("age"))
        if 13 <= age <= 99:
            cues.append(
                _cue(text, m.start("span"), m.end("span"), age, "age", something(age))
            )
    for m in TURNED.finditer(text):
        age = int(m.group("age"))
        cues.append(
            _cue(
                text,
                m.start("age"),
                m.end("age"),
                age,
                "age",
                something(age).replace("-something", "-something now"),
            )
        )
    for m in AT_AGE.finditer(text):
        cues.append(
            _cue(
                text,
                m.start("span"),
                m.end("span"),
                int(m.group("age")),
                "age",
                f"{m.group('at')} my age",
                4,
                True,
            )
        )
    for m in AGE_OF.finditer(text):
        age = int(m.group("age"))
        cues.append(
            _cue(
                text,
                m.start(),
                m.end(),
                age,
                "age_then",
                "at a young age" if age < 25 else "later in life",
                2,
                False,
            )
        )
    for m in TAG.finditer(text):
        age = int(m.group("age") or m.group("age2"))
        sex = (m.group("sex") or m.group("sex2")).upper()
        if not 13 <= age <= 99:
            continue
        start, end = m.start("span"), m.end("span")
        cues.append(_cue(text, start, end, age, "age_sex_tag", ""))
        cues.append(
            Cue(
                start,
                end,
                text[start:end],
                "sex",
                "age_sex_tag",
                "male" if sex == "M" else "female",
                "",
                5,
            )
        )
    year_now = (today or dt.date.today()).year
    for m in BORN.finditer(text):
        year = int(m.group("year"))
        if not 1900 <= year <= year_now:
            continue
        decade = f"the {year // 10 * 10}s"
        cues.append(
            Cue(
                m.start("year"),
                m.end("year"),
                m.group("year"),
                "age",
                "birth_year",
                str(year_now - year),
                decade if m.group("prep") else f"in {decade}",
                5,
                True,
            )
        )
    for m in DECADE_PHRASE.finditer(text):
        word = m.group("decade").lower().replace("'", "")
        tens = DECADE_NUMBER.get(word) or int(word[0])
        low, high = tens * 10, tens * 10 + 9
        if word == "teens":
            low, high = 13, 19
        part = (m.group("part") or "").lower()
        if part:
            low, high = {
                "early": (low, low + 3),
                "mid": (low + 4, low + 6),
                "late": (low + 7, high),
            }[part]
            phrase = m.group(0)
            replacement = re.sub(r"(early|mid|late)[\s-]*", "", phrase, flags=re.I)
            certainty = 3
        else:
            replacement = (
                "at my age"
                if m.group(0).lower().startswith("in")
                else ("this stage of life")
            )
            certainty = 2
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "age",
                "age_range",
                f"{low}-{high}",
                replacement,
                certainty,
                exact=False,
            )
        )
    return cues
