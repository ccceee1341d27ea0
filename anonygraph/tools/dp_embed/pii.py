"""Regex PII scanner: checksum-validated detectors and category placeholders.

The detectors are in `pii_rules`; this module runs them over a text and
replaces what they find.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from anonygraph.tools.dp_embed.pii_rules import (
    CATEGORIES,
    PLACEHOLDERS,
    RULES,
    Category,
    Rule,
    match_span,
)

__all__ = [
    "CATEGORIES",
    "PLACEHOLDERS",
    "RULES",
    "Category",
    "PiiSpan",
    "Placed",
    "Rule",
    "list_rules",
    "parse_categories",
    "redact",
    "scan",
]


@dataclass(frozen=True)
class PiiSpan:
    """One detected PII span in a text."""

    category: Category
    """Category of the span."""
    start: int
    """Offset of the first character."""
    end: int
    """Offset one past the last character."""
    text: str
    """The matched text, ``text[start:end]`` of the scanned string."""
    placeholder: str
    """What the span is replaced with when redacted."""
    rule: str
    """Name of the rule that found it."""


# --- public functions -------------------------------------------------------


def list_rules(rules: Iterable[Rule] = RULES) -> list[dict[str, str]]:
    """List the detectors as plain rows, for ``--list-rules``.

    Returns:
        One dict per rule with ``name``, ``category``, ``placeholder`` and
        ``description``, sorted by category then name.

    """
    rows = [
        {
            "name": r.name,
            "category": r.category,
            "placeholder": r.placeholder,
            "description": r.description,
        }
        for r in rules
    ]
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
    text: str,
    *,
    keep: Iterable[str] = (),
    rules: Iterable[Rule] = RULES,
) -> list[PiiSpan]:
    """Find PII spans in a text.

    Every rule proposes candidates; overlapping candidates are resolved so the
    longest span wins, and among equally long ones the more specific rule
    (higher priority, e.g. a checksum-validated card over a phone number).

    Args:
        text: The text to scan.
        keep: Categories to leave in the text (the whitelist); they are
            dropped after overlaps are resolved, so a kept span is not
            re-claimed by a weaker rule.
        rules: Detectors to run; defaults to all of ``RULES``.

    Returns:
        Non-overlapping spans sorted by start offset.

    """
    kept = parse_categories(keep)
    candidates: list[tuple[int, int, Rule]] = []
    for rule in rules:
        for m in rule.pattern.finditer(text):
            bounds = rule.check(text, m) if rule.check else match_span(m, rule.group)
            if bounds and bounds[1] > bounds[0]:
                candidates.append((bounds[0], bounds[1], rule))
    candidates.sort(key=lambda c: (-(c[1] - c[0]), -c[2].priority, c[0]))
    chosen: list[tuple[int, int, Rule]] = []
    for start, end, rule in candidates:
        if all(end <= s or start >= e for s, e, _ in chosen):
            chosen.append((start, end, rule))
    chosen.sort(key=lambda c: c[0])
    return [
        PiiSpan(
            category=rule.category,
            start=start,
            end=end,
            text=text[start:end],
            placeholder=rule.placeholder,
            rule=rule.name,
        )
        for start, end, rule in chosen
        if rule.category not in kept
    ]


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
