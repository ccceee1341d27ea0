"""Word-level diff of an original and an anonymized text, for review pages."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Literal

Op = Literal["equal", "delete", "insert"]
"""What happened to a piece of text: kept, removed from the original, added."""

# White space rides on the word before it: a separate " " token would be the
# most frequent token of every text and make the matcher quadratic.
_TOKENS = re.compile(r"\s+|\w+\s*|[^\w\s]\s*")


def tokens(text: str) -> list[str]:
    """Split a text into words and punctuation marks, each with its trailing space.

    Joining the tokens gives the text back unchanged.
    """
    return _TOKENS.findall(text)


def word_diff(before: str, after: str) -> list[tuple[Op, str]]:
    """Diff two texts word by word.

    Returns:
        ``(op, text)`` pieces in reading order; the ``equal`` and ``delete``
        pieces join to ``before``, the ``equal`` and ``insert`` pieces to
        ``after``. A replaced stretch is a delete followed by an insert.
    """
    old, new = tokens(before), tokens(after)
    # autojunk would treat frequent words ("the", spaces) as junk in long texts
    # and report them as changed.
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    pieces: list[tuple[Op, str]] = []

    def add(op: Op, words: list[str]) -> None:
        text = "".join(words)
        if not text:
            return
        if pieces and pieces[-1][0] == op:
            pieces[-1] = (op, pieces[-1][1] + text)
        else:
            pieces.append((op, text))

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            add("equal", old[i1:i2])
        elif tag == "replace":
            # "Calgary " -> "a city ": mark the words, keep the shared space.
            gone, added = "".join(old[i1:i2]), "".join(new[j1:j2])
            space = _shared_trailing_space(gone, added)
            cut = len(space)
            add("delete", [gone[: len(gone) - cut]])
            add("insert", [added[: len(added) - cut]])
            add("equal", [space])
        else:
            add("delete", old[i1:i2])
            add("insert", new[j1:j2])
    return pieces


def _shared_trailing_space(a: str, b: str) -> str:
    space_a, space_b = a[len(a.rstrip()) :], b[len(b.rstrip()) :]
    shared = 0
    while (
        shared < min(len(space_a), len(space_b))
        and space_a[-1 - shared] == space_b[-1 - shared]
    ):
        shared += 1
    return space_a[len(space_a) - shared :]


def changed_words(pieces: list[tuple[Op, str]]) -> tuple[int, int]:
    """Count the words removed and inserted in a diff (white space not counted)."""
    removed = sum(len(t.split()) for op, t in pieces if op == "delete")
    inserted = sum(len(t.split()) for op, t in pieces if op == "insert")
    return removed, inserted


def render_terminal(pieces: list[tuple[Op, str]], color: bool = False) -> str:
    """Render a diff inline for a terminal: ``[-removed-]`` and ``{+inserted+}``.

    With ``color``, removed words are red and inserted green as well.
    """
    out = []
    for op, text in pieces:
        if op == "equal":
            out.append(text)
        elif op == "delete":
            out.append(f"\x1b[31m[-{text}-]\x1b[0m" if color else f"[-{text}-]")
        else:
            out.append(f"\x1b[32m{{+{text}+}}\x1b[0m" if color else f"{{+{text}+}}")
    return "".join(out)
