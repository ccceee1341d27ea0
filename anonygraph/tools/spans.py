"""Quoted spans: find the words a model quotes in a text, and what replaced them."""

from __future__ import annotations

import difflib
import re

QUOTE_MARKS = "\"'`\u201c\u201d\u2018\u2019 \t\n"
"""Characters a model wraps around a quote; stripped before the lookup."""

TOKEN = re.compile(r"\w+|[^\w\s]")
"""Words and punctuation marks: the units the span diff aligns."""


def locate(quote: str, text: str) -> re.Match[str] | None:
    """Find the words of ``text`` that ``quote`` copies.

    Case and runs of whitespace may differ; everything else must match, and
    the match may not start or end inside a word ("he" is not in "the").
    """
    words = quote.strip(QUOTE_MARKS).split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    if words[0][0].isalnum():
        pattern = r"(?<!\w)" + pattern
    if words[-1][-1].isalnum():
        pattern += r"(?!\w)"
    return re.search(pattern, text, flags=re.IGNORECASE)


def find_span(quote: str, text: str) -> str | None:
    """Return the span of ``text`` that ``quote`` copies, as written there, or None."""
    found = locate(quote, text)
    return found.group(0) if found else None


def replacement(quote: str, before: str, after: str) -> str:
    """Return the part of ``after`` that took the place of ``quote`` in ``before``."""
    found = locate(quote, before)
    if found is None:
        return ""
    old = list(TOKEN.finditer(before))
    new = list(TOKEN.finditer(after))
    inside = [
        i
        for i, m in enumerate(old)
        if m.end() > found.start() and m.start() < found.end()
    ]
    lo, hi = inside[0], inside[-1] + 1
    matcher = difflib.SequenceMatcher(
        None, [m.group(0) for m in old], [m.group(0) for m in new], autojunk=False
    )
    picked: list[int] = []
    for tag, b1, b2, a1, a2 in matcher.get_opcodes():
        if b2 <= lo or b1 >= hi:
            continue
        if tag == "equal":
            picked += range(a1 + max(lo, b1) - b1, a1 + min(hi, b2) - b1)
        else:
            picked += range(a1, a2)
    if not picked:
        return ""
    return after[new[min(picked)].start() : new[max(picked)].end()]
