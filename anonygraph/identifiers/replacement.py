"""Replace identifiers: typed numbered placeholders, seeded surrogates, or keep.

An `IdentifierBook` holds one record's (or one conversation's) replacements:
the same value gets the same replacement in every text it replaces, so
``[PERSON_1]`` stays the same person across a record's comments or a
conversation's turns, and `restore` maps replacements back. Its state is
plain data (`to_state` / `from_state`) for checkpoints.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal

from anonygraph.identifiers.detect import (
    PLACEHOLDER,
    _non_overlapping,
    find_identifiers,
    name_mentions,
)
from anonygraph.identifiers.identifier import Identifier

Mode = Literal["placeholder", "surrogate", "keep"]
MODES: tuple[Mode, ...] = ("placeholder", "surrogate", "keep")
"""``placeholder``: ``[EMAIL_1]``; ``surrogate``: a realistic fake of the same
kind; ``keep``: leave identifiers in place (they are still found and counted)."""

_DIGIT_KINDS = {"PHONE", "NUMBER", "CARD", "BANK_ACCOUNT"}


def parse_mode(value: str) -> Mode:
    """Check a user-given mode.

    Raises:
        ValueError: For a value that is no mode, listing the valid ones.

    """
    if value not in MODES:
        raise ValueError(
            f"unknown identifier mode {value!r}; choose from {', '.join(MODES)}"
        )
    return value


def value_key(kind: str, value: str) -> str:
    """Return the form under which two writings of one value are the same."""
    if kind in _DIGIT_KINDS:
        return re.sub(r"\D", "", value)
    if kind in {"IBAN", "NATIONAL_ID", "PASSPORT", "LICENSE_PLATE", "MEDICAL_RECORD"}:
        return re.sub(r"[^0-9A-Za-z]", "", value).upper()
    return " ".join(value.casefold().split())


class IdentifierBook:
    """The replacements of one record or conversation."""

    def __init__(self, mode: Mode = "placeholder", seed: int = 0) -> None:
        """Replace by ``mode``; surrogates are drawn from ``seed`` and the value."""
        self.mode: Mode = parse_mode(mode)
        self.seed = seed
        self.entries: list[dict[str, str]] = []
        """One per distinct value: kind, key, original, replacement."""
        self.counts: Counter[str] = Counter()
        """Spans replaced (or, with ``keep``, found) per kind."""

    # --- state --------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """Return the book as plain data (it holds the original values)."""
        return {
            "mode": self.mode,
            "seed": self.seed,
            "entries": [dict(e) for e in self.entries],
            "counts": dict(self.counts),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> IdentifierBook:
        """Rebuild a book from `to_state`'s data."""
        book = cls(state.get("mode", "placeholder"), int(state.get("seed", 0)))
        book.entries = [dict(e) for e in state.get("entries", [])]
        book.counts = Counter(state.get("counts", {}))
        return book

    # --- replacing ----------------------------------------------------------

    def replacement_for(self, kind: str, value: str) -> str:
        """Return the replacement of one value, making it on first sight."""
        entry = self._entry(kind, value)
        if entry is None:
            number = 1 + sum(e["kind"] == kind for e in self.entries)
            entry = {
                "kind": kind,
                "key": value_key(kind, value),
                "original": value,
                "replacement": self._make(kind, value, number),
            }
            self.entries.append(entry)
        return entry["replacement"]

    def replace(
        self, text: str, identifiers: Iterable[Identifier] | None = None
    ) -> str:
        """Replace the identifiers of ``text`` (found now when not given)."""
        found = list(find_identifiers(text) if identifiers is None else identifiers)
        if identifiers is None:
            # A person named in an earlier text of the record ("Priya Raman")
            # is the same person when a later one says "Priya".
            known = [e["original"] for e in self.entries if e["kind"] == "PERSON"]
            taken = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
            found = _non_overlapping(found + name_mentions(text, known, taken))
        out: list[str] = []
        cursor = 0
        for ident in sorted(found, key=lambda i: i.start):
            self.counts[ident.kind] += 1
            replacement = self.replacement_for(ident.kind, ident.text)
            out.append(text[cursor : ident.start])
            out.append(ident.text if self.mode == "keep" else replacement)
            cursor = ident.end
        out.append(text[cursor:])
        return "".join(out)

    def restore(self, text: str) -> str:
        """Put the original values back in place of this book's replacements."""
        if self.mode == "keep" or not self.entries:
            return text
        by_length = sorted(self.entries, key=lambda e: -len(e["replacement"]))
        pattern = re.compile("|".join(re.escape(e["replacement"]) for e in by_length))
        originals = {e["replacement"]: e["original"] for e in self.entries}
        return pattern.sub(lambda m: originals[m.group(0)], text)

    def replacements(self) -> set[str]:
        """Return every replacement this book wrote (to tell them from leaks)."""
        return {e["replacement"] for e in self.entries}

    def mapping(self) -> list[dict[str, str]]:
        """Return kind, replacement and original of each value (for --keep-mapping)."""
        return [
            {k: e[k] for k in ("kind", "replacement", "original")} for e in self.entries
        ]

    # --- internals ----------------------------------------------------------

    def _entry(self, kind: str, value: str) -> dict[str, str] | None:
        key = value_key(kind, value)
        for entry in self.entries:
            if entry["kind"] == kind and entry["key"] == key:
                return entry
        if kind == "PERSON":
            return _same_person(self.entries, key)
        return None

    def _make(self, kind: str, value: str, number: int) -> str:
        if self.mode != "surrogate":
            return f"[{kind}_{number}]"
        from anonygraph.identifiers.surrogates import surrogate

        digest = hashlib.sha256(f"{self.seed}|{kind}|{value_key(kind, value)}".encode())
        rng = random.Random(int.from_bytes(digest.digest()[:8], "big"))
        taken = self.replacements()
        fake = surrogate(kind, value, rng)
        while fake in taken or fake == value:  # two values never share a fake
            fake = surrogate(kind, value, rng)
        return fake


def _same_person(entries: list[dict[str, str]], key: str) -> dict[str, str] | None:
    """Return the one person whose name's words include, or are in, ``key``'s."""
    words = set(key.split())
    matches = [
        e
        for e in entries
        if e["kind"] == "PERSON"
        and (words <= set(e["key"].split()) or set(e["key"].split()) <= words)
    ]
    return matches[0] if len(matches) == 1 else None
