"""The identifier pre-pass of a record and the check of its final text."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from typing import Any

from anonygraph.identifiers.detect import find_identifiers
from anonygraph.identifiers.replacement import IdentifierBook, parse_mode

LEAK_PREFIX = "identifier:"
"""A leak naming a kind of direct identifier left in a final text."""


def run_seed(seed: int, run_key: str) -> int:
    """Return the surrogates' seed: the given one, else one drawn from the run.

    Without a run (a one-off call) the seed is random: a fixed one would give
    a value the same fake everywhere, and anyone could test a guess against it.
    """
    if seed:
        return seed
    key = run_key.encode() if run_key else os.urandom(16)
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def replace_identifiers(
    text: str, mode: str, *, seed: int = 0, keep_mapping: bool = False
) -> dict[str, Any]:
    """Replace a record's direct identifiers; return the state update.

    The update's ``source`` is the text every model step reads; ``identifiers``
    counts the spans per kind; ``replacements`` lists what was written;
    ``identifier_mapping`` holds the originals only when ``keep_mapping``.
    """
    book = IdentifierBook(parse_mode(mode), seed)
    source = book.replace(text)
    update: dict[str, Any] = {
        "current": source,
        "source": source,
        # With keep nothing was replaced: the final check lists what is left.
        "identifiers": dict(sorted(book.counts.items())) if mode != "keep" else {},
        "replacements": sorted(book.replacements()) if mode != "keep" else [],
    }
    if keep_mapping and mode != "keep":
        update["identifier_mapping"] = book.mapping()
    return update


def identifier_leaks(text: str, replacements: Iterable[str] = ()) -> list[str]:
    """Name each kind of direct identifier still in ``text`` as a leak.

    A placeholder or surrogate the pre-pass wrote is not a leak.
    """
    ours = set(replacements)
    kinds = {i.kind for i in find_identifiers(text) if i.text not in ours}
    return sorted(f"{LEAK_PREFIX}{kind}" for kind in kinds)
