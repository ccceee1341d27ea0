"""DP-Embed's evaluation metrics: the gold-PII substring leak and the length ratio."""

from __future__ import annotations

import pytest

from anonygraph.tools.text_metrics import gold_pii_leak, leaked_pii, length_ratio


@pytest.mark.parametrize(
    ("output", "gold", "leaked"),
    [
        ("Contact [PERSON] at [EMAIL].", ["Jane Doe", "jane@example.com"], []),
        ("ask JANE DOE about it", ["Jane Doe"], ["Jane Doe"]),  # case-insensitive
        ("call 415-555-0188", ["415-555-0188", "Jane"], ["415-555-0188"]),
        ("Annual report", ["Ann"], ["Ann"]),  # a substring counts, as in the paper
        ("Jane\nDoe wrote", ["Jane Doe"], []),  # split by a line break: not found
        ("nothing here", ["", "  "], []),  # empty gold strings are skipped
    ],
)
def test_when_gold_pii_is_searched_then_only_substrings_count(
    output: str, gold: list[str], leaked: list[str]
) -> None:
    assert leaked_pii(output, gold) == leaked


def test_when_leak_is_pooled_then_it_is_over_all_gold_strings() -> None:
    leak = gold_pii_leak(
        ["[PERSON] lives in Oslo", "no pii left", "mail x@y.io"],
        [["Kari Nordmann", "Oslo"], [], ["x@y.io", "Berit", ""]],
    )
    assert (leak.leaked, leak.total) == (2, 4)
    assert leak.rate == 0.5
    assert gold_pii_leak([], []).rate is None
    with pytest.raises(ValueError, match="differ in length"):
        gold_pii_leak(["a"], [])


@pytest.mark.parametrize(
    ("reference", "candidate", "unit", "ratio"),
    [
        ("abcd", "ab", "chars", 0.5),
        ("one two three four", "one two", "words", 0.5),
        ("short", "much longer text", "chars", 16 / 5),
        ("", "anything", "chars", None),
    ],
)
def test_when_lengths_are_compared_then_the_ratio_is_candidate_over_reference(
    reference: str, candidate: str, unit: str, ratio: float | None
) -> None:
    assert length_ratio(reference, candidate, unit=unit) == ratio  # type: ignore[arg-type]
