"""Numbers written in words or digits: "thirty-two", "sixteen", "65th", "fortieth"."""

from __future__ import annotations

import re

UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINAL_UNITS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth "
    "eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth "
    "eighteenth nineteenth"
).split()
ORDINAL_TENS = (
    "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth"
).split()

_UNIT = "|".join(sorted(UNITS[1:], key=len, reverse=True))
_TEN = "|".join(TENS)
_ORD_UNIT = "|".join(sorted(ORDINAL_UNITS[1:], key=len, reverse=True))
_ORD_TEN = "|".join(ORDINAL_TENS)

CARDINAL = rf"(?:\d{{1,3}}|(?:{_TEN})(?:[\s-](?:{'|'.join(UNITS[1:10])}))?|(?:{_UNIT}))"
"""A cardinal from 1 to 999 in digits, or 1 to 99 in words (regex source)."""

ORDINAL = (
    rf"(?:\d{{1,3}}(?:st|nd|rd|th)|(?:{_TEN})[\s-](?:{_ORD_UNIT})"
    rf"|(?:{_ORD_TEN})|(?:{_ORD_UNIT}))"
)
"""An ordinal: 65th, twenty-first, fortieth, sixteenth (regex source)."""


def number_value(word: str) -> int | None:
    """Return the value of a cardinal or ordinal in digits or words, else None."""
    plain = word.strip().lower()
    digits = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", plain)
    if digits:
        return int(digits.group(1))
    parts = re.split(r"[\s-]+", plain)
    total = 0
    for part in parts:
        if part in TENS:
            total += 20 + 10 * TENS.index(part)
        elif part in ORDINAL_TENS:
            total += 20 + 10 * ORDINAL_TENS.index(part)
        elif part in UNITS:
            total += UNITS.index(part)
        elif part in ORDINAL_UNITS:
            total += ORDINAL_UNITS.index(part)
        else:
            return None
    return total
