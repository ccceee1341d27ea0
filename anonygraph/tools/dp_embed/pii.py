"""DP-Embed's product PII scan: the package's identifier detector, as spans.

The product profile places the identifiers `anonygraph.identifiers` finds
(names, e-mails, phones, IDs, cards, IBANs, addresses, ...: its `KINDS`)
before the noised rewrite, each as a numbered placeholder of its kind
(``[PERSON_1]``; one value keeps one placeholder within a text). The paper
profile uses the paper's own rules instead (`pii_paper`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from anonygraph.identifiers.kinds import KINDS

Category = str
"""One of `CATEGORIES`: the identifier kinds."""

CATEGORIES: tuple[str, ...] = KINDS
"""Categories the product scan reports (the identifier kinds)."""

__all__ = [
    "CATEGORIES",
    "Category",
    "PiiSpan",
    "Placed",
    "list_rules",
    "parse_categories",
    "redact",
    "scan",
]


@dataclass(frozen=True)
class PiiSpan:
    """One detected PII span in a text."""

    category: Category
    """Category of the span (an identifier kind)."""
    start: int
    """Offset of the first character."""
    end: int
    """Offset one past the last character."""
    text: str
    """The matched text, ``text[start:end]`` of the scanned string."""
    placeholder: str
    """What the span is replaced with when redacted (``[EMAIL_1]``)."""
    rule: str
    """Name of the recognizer that found it."""


def list_rules() -> list[dict[str, str]]:
    """List the detector's recognizers as plain rows, for ``--list-rules``.

    Returns:
        One dict per recognizer and kind with ``name``, ``category``,
        ``placeholder`` and ``description``, sorted by category then name.

    """
    from anonygraph.identifiers.kinds import kind_of
    from anonygraph.identifiers.recognizers import all_recognizers

    rows = []
    for recognizer in all_recognizers():
        doc = (type(recognizer).__doc__ or "").strip().splitlines()
        for entity in recognizer.supported_entities:
            kind = kind_of(entity)
            if kind is None:
                continue
            rows.append(
                {
                    "name": type(recognizer).__name__,
                    "category": kind,
                    "placeholder": f"[{kind}_n]",
                    "description": doc[0] if doc else "",
                }
            )
    return sorted(rows, key=lambda row: (row["category"], row["name"]))


def parse_categories(names: Iterable[str]) -> frozenset[Category]:
    """Turn user-given category names into categories, case-insensitively.

    Accepts ``"email"``, ``"EMAIL"`` or ``"[EMAIL]"``.

    Raises:
        ValueError: For a name that is no category, listing the valid ones.

    """
    out: set[Category] = set()
    for raw in names:
        name = raw.strip().strip("[]").upper().replace("-", "_").replace(" ", "_")
        if name not in CATEGORIES:
            raise ValueError(
                f"unknown PII category {raw!r}; choose from {', '.join(CATEGORIES)}"
            )
        out.add(name)
    return frozenset(out)


def scan(
    text: str, *, keep: Iterable[str] = (), verbatim: Iterable[str] = ()
) -> list[PiiSpan]:
    """Find the identifiers in a text, each with its numbered placeholder.

    A typed placeholder already in the text (``[PERSON_1]``, written by the
    identifier pre-pass) and each of ``verbatim`` (its surrogates) is a span
    of its own that stays as it is: it must not go through the noised
    rewrite, which would lose it.

    Args:
        text: The text to scan.
        keep: Categories to leave in the text (the whitelist).
        verbatim: Strings the pre-pass wrote, kept as they are.

    Returns:
        Non-overlapping spans sorted by start offset.

    """
    from anonygraph.identifiers import PLACEHOLDER, IdentifierBook, find_identifiers

    kept = parse_categories(keep)
    book = IdentifierBook("placeholder")
    written = [
        (m.start(), m.end(), m.group(0).strip("[]").rsplit("_", 1)[0])
        for m in PLACEHOLDER.finditer(text)
    ]
    for value in sorted(set(verbatim), key=len, reverse=True):
        for m in re.finditer(re.escape(value), text):
            if all(m.end() <= s or m.start() >= e for s, e, _ in written):
                written.append((m.start(), m.end(), "IDENTIFIER"))
    spans = [
        PiiSpan(category=kind, start=start, end=end, text=text[start:end],
                placeholder=text[start:end], rule="pre-pass")
        for start, end, kind in written
    ]  # fmt: skip
    spans += [
        PiiSpan(
            category=ident.kind,
            start=ident.start,
            end=ident.end,
            text=ident.text,
            placeholder=book.replacement_for(ident.kind, ident.text),
            rule=ident.recognizer,
        )
        # Kept kinds are dropped after overlaps are resolved, so a kept span
        # is not re-claimed by another kind.
        for ident in find_identifiers(text)
        if ident.kind not in kept
        and all(ident.end <= s or ident.start >= e for s, e, _ in written)
    ]
    return sorted(spans, key=lambda span: span.start)


class Placed(Protocol):
    """A span with its replacement: a `PiiSpan` or a `PaperDetection`."""

    @property
    def start(self) -> int:
        """Offset of the first character."""

    @property
    def end(self) -> int:
        """Offset one past the last character."""

    @property
    def placeholder(self) -> str:
        """What the span is replaced with."""


def redact(text: str, spans: Iterable[Placed]) -> str:
    """Replace each span with its placeholder.

    Args:
        text: The text the spans were found in.
        spans: Non-overlapping spans, as returned by ``scan`` or
            ``pii_paper.scan_paper``.

    Returns:
        The text with every span replaced by its placeholder.

    """
    out: list[str] = []
    cursor = 0
    for span in sorted(spans, key=lambda s: s.start):
        out.append(text[cursor : span.start])
        out.append(span.placeholder)
        cursor = span.end
    out.append(text[cursor:])
    return "".join(out)
