"""What every match of a pattern must hold, so a text without it is not scanned.

Most cued patterns cannot match most texts: a passport's cue words, a
street's type words, a scheme's ten digits in a row are absent from a
typical text, yet a scan tries the pattern at every character (a leading
lookbehind or a case-insensitive word list defeats the regex engine's own
first-character skip). `could_match` answers from the pattern's parse tree,
read once per pattern, and two facts of the text, read once per text:

- strings one of which every match contains, compared case-folded the way
  the regex engine folds (its simple lowercase and its extra case pairs
  such as "ſ"/"s"), so a text that holds none of them has no match;
- the longest run of digits every match contains, against the text's
  longest run of decimal digits.

Both are necessary conditions only: where the tree holds something this
reading does not follow (a back-reference, a conditional group), it claims
nothing and the pattern is scanned as before. A skipped scan would have
found nothing, so results are the same.
"""

from __future__ import annotations

import _sre
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from re import _casefix, _parser  # type: ignore[attr-defined]
from re._constants import (
    ASSERT,
    ASSERT_NOT,
    AT,
    ATOMIC_GROUP,
    BRANCH,
    CATEGORY,
    CATEGORY_DIGIT,
    IN,
    LITERAL,
    MAX_REPEAT,
    MIN_REPEAT,
    POSSESSIVE_REPEAT,
    RANGE,
    SUBPATTERN,
)
from typing import Any

MOST_STRINGS = 256
"""The most strings one alternative set holds (more: the set is not kept)."""


def _canonical_cases() -> dict[int, int]:
    """Map each lowercase letter the regex engine pairs with others to one of them."""
    canon: dict[int, int] = {}
    for low, others in _casefix._EXTRA_CASES.items():
        group = {low, *others}
        for member in list(group):
            group |= set(_casefix._EXTRA_CASES.get(member, ()))
        for member in group:
            canon[member] = min(group)
    return canon


_CANON = _canonical_cases()
_FOLDED: dict[str, str] = {}


def fold_char(char: str) -> str:
    """Return the character every case variant the regex engine equates shares."""
    folded = _FOLDED.get(char)
    if folded is None:
        low = _sre.unicode_tolower(ord(char))
        folded = _FOLDED[char] = chr(_CANON.get(low, low))
    return folded


@dataclass(frozen=True)
class Facts:
    """What `could_match` reads of a text: its folded form, its longest digit run."""

    folded: str
    digit_run: int


_DIGITS = re.compile(r"\d+")


@lru_cache(maxsize=8)
def facts(text: str) -> Facts:
    """Read a text's facts once (every recognizer asks of the same text)."""
    table = {ord(c): fold_char(c) for c in set(text) if fold_char(c) != c}
    return Facts(
        folded=text.translate(table),
        digit_run=max((len(m) for m in _DIGITS.findall(text)), default=0),
    )


@dataclass(frozen=True)
class Needs:
    """A pattern's necessary conditions: one of ``strings``, ``digits`` in a row."""

    strings: frozenset[str] | None
    digits: int

    def met_by(self, found: Facts) -> bool:
        """Tell whether a text with these facts may hold a match."""
        if found.digit_run < self.digits:
            return False
        return self.strings is None or any(map(found.folded.__contains__, self.strings))


@dataclass(frozen=True)
class _Node:
    """What a piece of a pattern's tree matches.

    ``exact``: the folded strings it matches, when they are few (else None);
    ``needs``: strings one of which each of its matches contains (or None);
    ``digits``: when it matches digits only, the fewest it matches (else None);
    ``run``: digits in a row each of its matches contains.
    """

    exact: frozenset[str] | None
    needs: frozenset[str] | None
    digits: int | None
    run: int


_UNKNOWN = _Node(None, None, None, 0)
_EMPTY = _Node(frozenset({""}), None, 0, 0)


_READ: dict[int, tuple[re.Pattern[str], Needs]] = {}
"""Each pattern's needs by its id (a pattern's own hash reads its whole code);
the pattern is kept with them, so its id is not reused."""


def needs_of(pattern: re.Pattern[str]) -> Needs:
    """Read a compiled pattern's necessary conditions (once per pattern)."""
    known = _READ.get(id(pattern))
    if known is not None:
        return known[1]
    tree = _parser.parse(pattern.pattern, pattern.flags)
    node = _sequence(list(tree.data))
    strings = _better(node.needs, _usable(node.exact))
    if strings is not None:
        # A string that holds another of the set adds nothing to "one of".
        strings = frozenset(
            s for s in strings if not any(o != s and o in s for o in strings)
        )
    needs = Needs(strings=strings, digits=node.run)
    _READ[id(pattern)] = (pattern, needs)
    return needs


def could_match(pattern: re.Pattern[str], text: str) -> bool:
    """Tell whether ``pattern`` may match in ``text`` (False: it cannot)."""
    return needs_of(pattern).met_by(facts(text))


class Screen:
    """Patterns asked of many windows of one text: those that may match it.

    The answer for the last text asked is kept (one entry, replaced whole, so
    threads that share a screen never read half of one).
    """

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        """Keep the patterns, in their order."""
        self.patterns = tuple(patterns)
        self._last: tuple[str, tuple[re.Pattern[str], ...]] | None = None

    def live(self, text: str) -> tuple[re.Pattern[str], ...]:
        """Return the patterns that may match in ``text``, in their order."""
        last = self._last
        if last is None or last[0] != text:
            found = facts(text)
            last = (text, tuple(p for p in self.patterns if needs_of(p).met_by(found)))
            self._last = last
        return last[1]


def _usable(strings: frozenset[str] | None) -> frozenset[str] | None:
    """Keep a set only where it requires something (no empty string)."""
    return strings if strings and "" not in strings else None


def _better(
    a: frozenset[str] | None, b: frozenset[str] | None
) -> frozenset[str] | None:
    """Return the more telling of two requirements (its shortest string longer)."""
    if a is None or b is None:
        return a or b
    return a if min(map(len, a)) >= min(map(len, b)) else b


def _sequence(items: list[tuple[Any, Any]]) -> _Node:
    """Combine the nodes of a concatenation."""
    nodes = [_node(op, av) for op, av in items]
    run: frozenset[str] = frozenset({""})
    whole = True
    best: frozenset[str] | None = None
    digits: int | None = 0
    streak = longest = 0
    for node in nodes:
        best = _better(best, node.needs)
        if node.exact is not None and len(run) * len(node.exact) <= MOST_STRINGS:
            run = frozenset(a + b for a in run for b in node.exact)
        else:
            best = _better(best, _usable(run))
            whole = False
            small = node.exact is not None and len(node.exact) <= MOST_STRINGS
            run = node.exact if small and node.exact is not None else frozenset({""})
        if node.digits is not None:
            streak += node.digits
        else:
            longest = max(longest, streak, node.run)
            streak = 0
        digits = None if digits is None or node.digits is None else digits + node.digits
    best = _better(best, _usable(run))
    return _Node(run if whole else None, best, digits, max(longest, streak))


def _branch(alternatives: list[Any]) -> _Node:
    """Combine the alternatives of ``a|b``: what each holds, one of them."""
    nodes = [_sequence(list(a)) for a in alternatives]
    exact: frozenset[str] | None = frozenset()
    needs: frozenset[str] | None = frozenset()
    for node in nodes:
        exact = None if exact is None or node.exact is None else exact | node.exact
        own = _better(node.needs, _usable(node.exact))
        needs = None if needs is None or own is None else needs | own
    if exact is not None and len(exact) > MOST_STRINGS:
        exact = None
    if needs is not None and len(needs) > MOST_STRINGS:
        needs = None
    counts = [n.digits for n in nodes]
    digits = None if None in counts else min(c for c in counts if c is not None)
    return _Node(exact, needs, digits, min(n.run for n in nodes))


def _repeat(low: int, high: int, body: _Node) -> _Node:
    """Read ``x{low,high}`` from what one ``x`` holds."""
    digits = None if body.digits is None else body.digits * low
    if low == 0:
        exact = None
        if high == 1 and body.exact is not None:
            exact = body.exact | {""}
        return _Node(exact, None, digits, 0)
    exact = body.exact if low == high == 1 else None
    needs = _better(body.needs, _usable(body.exact))
    run = digits if digits is not None else body.run
    return _Node(exact, needs, digits, run)


def _charset(items: list[tuple[Any, Any]]) -> _Node:
    """Read ``[...]``: a few literal characters, or digits only."""
    if all(op is LITERAL for op, _ in items) and len(items) <= MOST_STRINGS:
        chars = [chr(av) for _, av in items]
        digits = 1 if all(c.isdecimal() for c in chars) else None
        return _Node(frozenset(map(fold_char, chars)), None, digits, digits or 0)
    if all(_digit_item(op, av) for op, av in items):
        return _Node(None, None, 1, 1)
    return _UNKNOWN


def _digit_item(op: Any, av: Any) -> bool:
    """Tell a charset item that holds decimal digits only."""
    if op is CATEGORY:
        return bool(av is CATEGORY_DIGIT)
    if op is LITERAL:
        return chr(av).isdecimal()
    if op is RANGE:
        low, high = av
        return high - low < 64 and all(chr(c).isdecimal() for c in range(low, high + 1))
    return False


def _node(op: Any, av: Any) -> _Node:
    """Read one item of a pattern's tree."""
    if op is LITERAL:
        char = chr(av)
        digit = 1 if char.isdecimal() else None
        return _Node(frozenset({fold_char(char)}), None, digit, digit or 0)
    if op is IN:
        return _charset(list(av))
    if op in (AT, ASSERT, ASSERT_NOT):
        return _EMPTY  # zero width: consumes nothing, breaks no run
    if op is SUBPATTERN:
        return _sequence(list(av[-1]))
    if op is ATOMIC_GROUP:
        return _sequence(list(av))
    if op is BRANCH:
        return _branch(av[1])
    if op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
        low, high, body = av
        return _repeat(low, high, _sequence(list(body)))
    return _UNKNOWN
