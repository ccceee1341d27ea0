"""Look-alikes: numbers and strings shaped like identifiers that are not.

Versions, SKUs and order numbers, ISBNs, log timestamps, line numbers and
request ids, quantities and prices look like phone numbers, IDs or IP
addresses. The recognizers of number-shaped kinds ask `is_lookalike` before
they report a candidate.
"""

from __future__ import annotations

import re

from anonygraph.tools import kept_patterns

CUES = kept_patterns.compile(
    r"(?:\b(?:order|orders|sku|ref|reference|case|ticket|invoice|inv|txn|"
    r"transaction|otp|policy|art\.?-?nr|item|model|part|serial|stock|build|"
    r"version|release|ver|isbn|issn|doi|line|lines|session|request|req|trace|"
    r"job|pid|port|tracking|badge|shipment|booking|confirmation|reservation|batch|"
    r"lot|flight|page|chapter|rule|error|err|routing|aba|swift|bic|ifsc|bsb|"
    r"transit|institution|track|code|issue|issues|pr|pull|bug|task|story|"
    r"claim|caso|takip|pedido|encomenda|commande|bestellung|rechnung|factura|"
    r"fatura|faktura|sipariş|kargo|envío|envio|guía|guia)\b\.?\s*(?:no\.?|number|#|id)?"
    r"\s*[:#=]?\s*#?\s*|#)$",
    re.IGNORECASE,
)
"""A cue word right before a number that makes it a reference, not a person's
(bank routing, sort, branch and transit codes are the bank's, not the holder's)."""

CODE_AFTER = kept_patterns.compile(r"^ \d{0,3}[A-Z]{1,4}\b")
"""Capitals glued to digits right after a number ("RM 41 882 905 7GB"): the
number is the middle of a parcel or reference code."""

CODE_BEFORE = kept_patterns.compile(r"\b[A-Z]{1,4} $")
"""Capitals right before a number, which ``CODE_AFTER`` closes."""

UNIT_AFTER = kept_patterns.compile(
    r"^[ \t]*(?:%|°|km|mi|kg|g|mg|ml|l|cm|mm|m|ft|in|lbs?|oz|cups?|tbsp|tsp|"
    r"minutes?|mins?|hours?|hrs?|seconds?|secs?|ms|days?|weeks?|years?|"
    r"tiles|px|kb|mb|gb|tb|req|rpm|mph|kph|pcs|units|items|x)\b",
    re.IGNORECASE,
)
"""A unit right after a number: a quantity."""

VERSION = kept_patterns.compile(r"(?:^|[^\w.])v?\d+(?:\.\d+){1,3}(?:[-+.]\w+)*$")
"""A dotted version number (1.4.0, v2.3.14, 3.4.2-beta)."""

TIMESTAMP = kept_patterns.compile(
    r"^(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?)$"
)
"""An ISO date or a clock time."""

ISBN = kept_patterns.compile(r"^97[89][- ]?\d{1,5}[- ]?\d{1,7}[- ]?\d{1,7}[- ]?\d$")
"""An ISBN-13 with or without hyphens."""


def is_lookalike(text: str, start: int, end: int, *, dotted: bool = True) -> bool:
    """Tell whether ``text[start:end]`` is a reference number, version or quantity.

    ``dotted=False`` says the caller knows the dots are a phone number's.
    """
    value = text[start:end]
    if TIMESTAMP.match(value) or ISBN.match(value):
        return True
    if dotted and "." in value and VERSION.search(text[max(0, start - 2) : end]):
        return True
    # A price: a currency sign before the number.
    if text[max(0, start - 1) : start] in ("$", "£", "€", "¥"):
        return True
    if CUES.search(text[max(0, start - 40) : start]):
        return True
    if CODE_AFTER.match(text[end : end + 8]) and CODE_BEFORE.search(
        text[max(0, start - 6) : start]
    ):
        return True
    return bool(UNIT_AFTER.match(text[end : end + 12]))
