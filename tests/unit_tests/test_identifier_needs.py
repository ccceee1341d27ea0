"""A pattern's needs: a text without them holds no match, so it is not scanned.

`could_match` may only say False where the pattern has no match; each table
pairs a text the pattern cannot match (skipped) with one it matches (kept),
including the case pairs ``re`` folds together and digit runs broken by an
optional separator.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from anonygraph.identifiers.engine import recognizers
from anonygraph.identifiers.recognizers.needs import could_match, needs_of

DATA = Path(__file__).resolve().parents[1] / "data" / "identifiers_tuning.jsonl"

PASSPORT = r"(?i:\bpassport)\s*(?:no\.?)?\s*(?P<v>[A-Z]\d{7})"

CASES = [
    # (pattern, text, the pattern matches the text)
    (
        PASSPORT,
        "Passport no. K1234567",
        True,
    ),
    (PASSPORT, "my pass expired", False),
    # "ſ" and "s", "K" (Kelvin sign) and "k", "İ" and "i" are one letter to re.
    (r"(?i)paſſport", "PASSPORT 12", True),
    (r"(?i)passport", "paſſport 12", True),
    (r"(?i)kennzeichen", "\u212aennzeichen", True),
    (r"(?i)ibrahim", "\u0130brahim", True),
    # Digits in a row: an optional separator breaks the run it may stand in.
    (r"(?<![\w./+-])\d{13}(?!\d)", "ID 1234567890123", True),
    (r"(?<![\w./+-])\d{13}(?!\d)", "call 1234 567 890 123", False),
    (r"\d{3}-?\d{7}-?\d", "0011234567-8", True),
    (r"\d{3}-?\d{7}-?\d", "001-1234567-8", True),
    (r"\d{3}-?\d{7}-?\d", "001-123456-8", False),
    # An optional word, an empty alternative, a back-reference: no claim.
    (r"(?:tel\.?\s*)?\d{5}", "12345", True),
    (r"(?:tel|)\d{2}", "42", True),
    (r"(\w)\1x", "aax", True),
    (r"(?i:zip|post)\s*code\s*\d{5}", "Post code 90210", True),
    (r"(?i:zip|post)\s*code\s*\d{5}", "zip 90210", False),
]


@pytest.mark.parametrize(("pattern", "text", "matches"), CASES)
def test_when_a_text_lacks_what_a_pattern_needs_then_it_is_skipped_else_kept(
    pattern: str, text: str, matches: bool
) -> None:
    compiled = re.compile(pattern)
    assert (compiled.search(text) is not None) is matches
    if matches:
        assert could_match(compiled, text)
    else:
        assert not could_match(compiled, text)


def test_when_a_pattern_holds_no_string_or_digit_then_it_needs_nothing() -> None:
    needs = needs_of(re.compile(r"[A-Z][a-z]+\s[A-Z][a-z]+"))
    assert needs.strings is None
    assert needs.digits == 0


def test_when_the_recognizers_scan_the_tuning_texts_then_no_skip_hides_a_match() -> (
    None
):
    texts = [
        json.loads(line)["text"]
        for line in DATA.read_text("utf-8").splitlines()
        if line.strip()
    ]
    patterns = [
        pattern
        for recognizer in recognizers()
        for _, pattern, _ in getattr(recognizer, "compiled", ())
    ]
    assert len(patterns) > 100
    skipped = 0
    for pattern in patterns:
        for text in texts:
            if could_match(pattern, text):
                continue
            skipped += 1
            assert pattern.search(text) is None, (pattern.pattern[:80], text[:80])
    assert skipped > len(patterns)  # the needs skip most scans, not none
