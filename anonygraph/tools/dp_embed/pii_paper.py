"""The DP-Embed paper's PII rule set: its categories, tags and confidences.

DP-Embed-Invert (research note, Section 3) redacts with a vendored regex
sanitizer whose categories, placeholders and confidences are listed in
tests/data/papers/dp_embed.json. The rules below are our own patterns for
those categories; a run selects them with the paper profile. They differ
from `RULES` on purpose: broader (ages, relationship words, place mentions
after a preposition, organizations, any two capitalized words as a name),
the paper's tags (``[PERSON]``, ``[LOCATION]``, ``[AGE]``, ...) and the
sanitizer's overlap order (earlier span first, then longer, then surer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

Confidence = Literal["high", "medium", "low"]
CONFIDENCE_RANK: dict[Confidence, int] = {"high": 3, "medium": 2, "low": 1}
"""Ties between overlapping detections that start together and are as long."""


def digits_only(s: str) -> str:
    """Drop every character but the digits (separators in card numbers)."""
    return re.sub(r"\D", "", s)


def luhn_valid(digits: str) -> bool:
    """Return True if a digit string passes the Luhn (mod-10) checksum."""
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


@dataclass(frozen=True)
class PaperRule:
    """One rule of the paper's sanitizer: a pattern, its category and its tag."""

    category: str
    """The sanitizer's category string, e.g. ``"full person name"``."""
    placeholder: str
    """The tag the span is replaced with, e.g. ``"[PERSON]"``."""
    confidence: Confidence
    """high, medium or low, as the sanitizer rates the rule."""
    pattern: re.Pattern[str]
    """The pattern; ``group`` selects the span."""
    group: int = 0
    """Regex group that is the span."""
    keep: Callable[[str], bool] | None = None
    """Filter on the matched text: False drops the detection."""


@dataclass(frozen=True)
class PaperDetection:
    """One span the paper's rule set found."""

    category: str
    """Category of the rule that found it."""
    placeholder: str
    """Its tag."""
    confidence: Confidence
    """The rule's confidence."""
    start: int
    """Offset of the first character."""
    end: int
    """Offset one past the last character."""
    text: str
    """``text[start:end]`` of the scanned string."""


_PLACE_PAIRS = frozenset(
    (
        ("New", "York"), ("New", "Delhi"), ("New", "Jersey"), ("Los", "Angeles"),
        ("San", "Francisco"), ("San", "Diego"), ("Las", "Vegas"), ("Hong", "Kong"),
        ("United", "States"), ("South", "Korea"), ("North", "Carolina"),
        ("South", "Carolina"),
    )
)  # fmt: skip
"""Two capitalized words that name a place, not a person."""

_GENERIC_PAIRS = frozenset(
    (
        ("Privacy", "Policy"), ("Terms", "Conditions"), ("Customer", "Service"),
        ("Order", "Status"), ("Account", "Number"),
    )
)  # fmt: skip
"""Two capitalized words that are a common phrase, not a person."""

_NOT_A_FIRST_NAME = frozenset(
    "The This That These Those Please Privacy Policy Meet Review Street Road "
    "Avenue Beer Oxford London".split()
)
_NOT_A_PLACE_START = frozenset(
    "Contact Please Review Meet Call Email Text Message Ship".split()
)
_NOT_A_PLACE_PAIRS = frozenset(
    (("Contact", "Dr"), ("Privacy", "Policy"), ("Customer", "Service"),
     ("Order", "Status"))
)  # fmt: skip


def _first_two(text: str) -> tuple[str, ...]:
    return tuple(text.split()[:2])


def _keep_full_name(text: str) -> bool:
    pair = _first_two(text)
    return pair not in _PLACE_PAIRS and pair not in _GENERIC_PAIRS


def _keep_first_name(text: str) -> bool:
    # The span holds the cue ("named Lily"); the filter reads the name.
    return text.split()[-1] not in _NOT_A_FIRST_NAME


def _keep_place(text: str) -> bool:
    words = text.split()
    if not words:
        return False
    return words[0] not in _NOT_A_PLACE_START and _first_two(text) not in (
        _NOT_A_PLACE_PAIRS
    )


def _ci(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _cs(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


_ROLE_WORDS = (
    r"girlfriend|boyfriend|wife|husband|partner|friend|manager|boss|roommate|"
    r"flatmate|colleague|coworker|co-worker|teacher|doctor"
)
_STREET_TYPES = r"street|st|road|rd|avenue|ave|boulevard|blvd|lane|ln|drive|dr|court|ct"
_ID_MARK = r"(?:number|#|no\.?)"

PAPER_RULES: tuple[PaperRule, ...] = (
    PaperRule(
        "email address",
        "[EMAIL]",
        "high",
        _ci(r"\b[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b"),
    ),
    PaperRule(
        "phone number",
        "[PHONE]",
        "high",
        _ci(r"(?<!\w)(?:\+?\d{1,3}[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}(?!\w)"),
    ),
    PaperRule(
        "social handle", "[HANDLE]", "high", _cs(r"(?<!\w)@[A-Za-z0-9_]{2,32}\b")
    ),
    PaperRule("url", "[URL]", "high", _ci(r"\b(?:https?://|www\.)\S*\w")),
    PaperRule(
        "ip address",
        "[IP_ADDRESS]",
        "high",
        _cs(
            r"\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}"
            r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b"
        ),
    ),
    PaperRule(
        "mac address",
        "[MAC_ADDRESS]",
        "high",
        _cs(r"\b[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}\b"),
    ),
    PaperRule("ssn", "[SSN]", "high", _cs(r"\b\d{3}-\d{2}-\d{4}\b")),
    PaperRule("ein", "[EIN]", "medium", _cs(r"\b\d{2}-\d{7}\b")),
    PaperRule(
        "credit card",
        "[CARD_NUMBER]",
        "high",
        _cs(r"\b\d(?:[ -]?\d){12,18}\b"),
        keep=lambda s: luhn_valid(digits_only(s)),
    ),
    PaperRule("iban", "[IBAN]", "high", _cs(r"\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b")),
    PaperRule(
        "swift bic",
        "[SWIFT_BIC]",
        "medium",
        _ci(
            r"\b(?:swift(?:\s+bic)?|bic|bank\s+code)\s*(?:code|#|no\.?)?\s*[:#-]?\s*"
            r"[a-z]{6}[a-z0-9]{2}(?:[a-z0-9]{3})?\b"
        ),
    ),
    PaperRule(
        "routing number",
        "[ROUTING_NUMBER]",
        "high",
        _ci(rf"\b(?:routing|aba)\s*{_ID_MARK}?\s*[:#-]?\s*\d{{9}}\b"),
    ),
    PaperRule(
        "bank account number",
        "[BANK_ACCOUNT]",
        "high",
        _ci(rf"\b(?:account|acct)\s*{_ID_MARK}\s*[:#-]?\s*[a-z0-9-]{{6,20}}\b"),
    ),
    PaperRule(
        "passport number",
        "[PASSPORT]",
        "high",
        _ci(rf"\bpassport\s*{_ID_MARK}?(?:\s+is)?\s*[:#-]?\s*[a-z0-9]{{6,12}}\b"),
    ),
    PaperRule(
        "driver license number",
        "[DRIVER_LICENSE]",
        "high",
        _ci(
            rf"\b(?:driver'?s?|driving|dl)\s*license\s*{_ID_MARK}?\s*[:#-]?\s*"
            r"[a-z0-9-]{5,20}\b"
        ),
    ),
    PaperRule(
        "date of birth",
        "[DOB]",
        "high",
        _ci(
            r"\b(?:dob|date\s+of\s+birth|born\s+on|birth\s+date)\s*[:#-]?\s*"
            r"(?:\d{1,2}[/-]\d{1,2}[/-]\d{2,4}|[a-z]{3,9}\s+\d{1,2},?\s+\d{2,4})\b"
        ),
    ),
    PaperRule(
        "age expression",
        "[AGE]",
        "medium",
        _ci(
            r"\b(?:age\s*\d{1,3}|\d{1,3}\s*(?:years?\s+old|year-old)"
            r"|i\s*['’]?m\s*\d{1,3}|i\s+am\s*\d{1,3})\b"
        ),
    ),
    PaperRule(
        "relationship or private-life detail",
        "[RELATIONSHIP_DETAIL]",
        "low",
        _ci(
            r"\b(?:single|divorced|separated|widowed|break(?:\s+|-)up|broke\s+up|"
            r"girlfriend|boyfriend|wife|husband|fianc[eé]e?|partner|"
            r"ex[-\s]?(?:girlfriend|boyfriend|wife|husband|partner))\b"
        ),
    ),
    PaperRule(
        "single first name in personal context",
        "[PERSON]",
        "medium",
        _cs(rf"\b(?:{_ROLE_WORDS})\s+[A-Z][a-z]{{2,20}}\b"),
    ),
    PaperRule(
        "single first name",
        "[PERSON]",
        "low",
        _cs(r"\b(?:named|called|name is)\s+[A-Z][a-z]{2,20}\b"),
        keep=_keep_first_name,
    ),
    PaperRule(
        "street address",
        "[ADDRESS]",
        "medium",
        _ci(
            rf"\b\d{{1,6}}\s+(?:[a-z][a-z0-9.'-]*\s+){{0,5}}"
            rf"(?:{_STREET_TYPES}|way|place|pl|terrace|ter)\b\.?"
        ),
    ),
    PaperRule(
        "standalone street or place mention",
        "[LOCATION]",
        "low",
        _ci(
            rf"\b(?:(?:near|in|around|from|to)\s+(?:the\s+)?)?[a-z][a-z'-]+\s+"
            rf"(?:{_STREET_TYPES}|bd|terrace|ter)\b\.?"
        ),
        keep=_keep_place,
    ),
    PaperRule(
        "city or place mention",
        "[LOCATION]",
        "low",
        _cs(r"\b(?:in|near|around|from|to)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\b"),
        group=1,
        keep=_keep_place,
    ),
    PaperRule(
        "zip or postal code",
        "[POSTAL_CODE]",
        "medium",
        _ci(r"\b\d{5}(?:-\d{4})?\b|\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b"),
    ),
    PaperRule(
        "license plate",
        "[LICENSE_PLATE]",
        "medium",
        _ci(r"\b(?:license\s+plate|plate)\s*[:#-]?\s*[a-z0-9-]{4,10}\b"),
    ),
    PaperRule(
        "medical record number",
        "[MEDICAL_RECORD_NUMBER]",
        "high",
        _ci(
            rf"\b(?:mrn|medical\s+record|patient\s+id)\s*{_ID_MARK}?\s*[:#-]?\s*"
            r"[a-z0-9-]{4,20}\b"
        ),
    ),
    PaperRule(
        "employee or student id",
        "[INTERNAL_ID]",
        "high",
        _ci(
            r"\b(?:employee|student|staff|customer|client)\s*(?:id|number|#|no\.?)"
            r"\s*[:#-]?\s*[a-z0-9-]{3,20}\b"
        ),
    ),
    PaperRule(
        "account or order id",
        "[REFERENCE_ID]",
        "medium",
        _ci(
            r"\b(?:account|order|booking|reservation|tracking|invoice|case|ticket)"
            r"(?:\s*(?:id|number|#|no\.?)\s*[:#-]?\s*[a-z0-9-]{3,24}"
            r"|\s+(?=[a-z0-9-]*\d)[a-z0-9-]{3,24})\b"
        ),
    ),
    PaperRule(
        "organization name",
        "[ORG]",
        "medium",
        _cs(
            r"\b[A-Z][\w&'.-]+(?:\s+[A-Z][\w&'.-]+){0,4}\s+(?:Inc|LLC|Ltd|Corp|"
            r"Corporation|Company|Co\.|Studio|Agency|University|Hospital|Bank)\b"
        ),
    ),
    PaperRule(
        "person name with title",
        "[PERSON]",
        "medium",
        _cs(r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2}\b"),
    ),
    PaperRule(
        "full person name",
        "[PERSON]",
        "low",
        _cs(
            r"\b(?!(?:Contact|Call|Email|Text|Meet|Visit|Reach|Message|Thanks|Dear)\b)"
            r"[A-Z][a-z]{1,20}\s+[A-Z][a-z]{1,20}(?:\s+[A-Z][a-z]{1,20})?\b"
        ),
        keep=_keep_full_name,
    ),
    PaperRule(
        "bitcoin wallet",
        "[CRYPTO_WALLET]",
        "medium",
        _cs(r"\b(?:bc1|[13])[a-zA-HJ-NP-Z0-9]{25,62}\b"),
    ),
    PaperRule(
        "ethereum wallet", "[CRYPTO_WALLET]", "medium", _cs(r"\b0x[0-9a-fA-F]{40}\b")
    ),
)
"""The DP-Embed paper's categories with their tags and confidences (our patterns)."""

PAPER_CATEGORIES: tuple[str, ...] = tuple(
    dict.fromkeys(r.category for r in PAPER_RULES)
)
"""Every category string of the paper's rule set, in rule order."""


def scan_paper(
    text: str, *, keep: Iterable[str] = (), rules: Iterable[PaperRule] = PAPER_RULES
) -> list[PaperDetection]:
    """Find PII spans the way the DP-Embed paper's sanitizer resolves them.

    Every rule proposes spans, its filter drops implausible ones, exact
    duplicates go, and overlaps are settled in the sanitizer's order: the
    span that starts first wins, then the longer, then the surer rule.

    Args:
        text: The text to scan.
        keep: Categories to leave in the text (the paper's whitelist), by
            category string, case-insensitively; applied after overlaps.
        rules: Rules to run; defaults to `PAPER_RULES`.

    Returns:
        Non-overlapping detections sorted by start offset.

    Raises:
        ValueError: For a ``keep`` name that is no category, listing them.

    """
    kept = {name.strip().lower() for name in keep}
    unknown = kept - {c.lower() for c in PAPER_CATEGORIES}
    if unknown:
        raise ValueError(
            f"unknown PII category {sorted(unknown)}; the paper's rule set has "
            f"{', '.join(PAPER_CATEGORIES)}"
        )
    found: dict[tuple[int, int, str, str], PaperDetection] = {}
    for rule in rules:
        for m in rule.pattern.finditer(text):
            start, end = m.span(rule.group)
            span = text[start:end]
            if not span.strip() or (rule.keep and not rule.keep(span)):
                continue
            key = (start, end, rule.placeholder, span.lower())
            found.setdefault(
                key,
                PaperDetection(
                    rule.category, rule.placeholder, rule.confidence, start, end, span
                ),
            )
    ranked = sorted(
        found.values(),
        key=lambda d: (d.start, d.start - d.end, -CONFIDENCE_RANK[d.confidence]),
    )
    chosen: list[PaperDetection] = []
    for det in ranked:
        if all(det.end <= c.start or det.start >= c.end for c in chosen):
            chosen.append(det)
    return [d for d in chosen if d.category.lower() not in kept]
