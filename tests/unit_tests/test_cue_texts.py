"""The cue texts of tests/data: what the detectors and generalizers leave.

A regression guard, not a tuning target: the bounds are the counts measured
when the rules last changed (tests/data/README.md says how the splits were
made). A change that leaves more labelled cues, or loses a span that had to
stay (a language), fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from anonygraph.cues import detect_cues, generalize_text

DATA = Path(__file__).resolve().parents[1] / "data"


def present(span: str, text: str) -> bool:
    return (
        re.search(rf"(?<!\w){re.escape(span)}(?!\w)", text, re.IGNORECASE) is not None
    )


def generalized(text: str, rounds: int = 3) -> str:
    for _ in range(rounds):
        new = generalize_text(text, [c for c in detect_cues(text) if c.exact])
        if new == text:
            break
        text = new
    return text


@pytest.mark.parametrize(
    ("split", "most_left"),
    [
        ("tuning", 1),
        ("heldout", 1),
        ("heldout2", 0),
        ("heldout3", 2),
        ("heldout4", 0),
        ("heldout5", 3),
    ],
)
def test_when_a_cue_split_is_generalized_then_no_more_cues_are_left_than_measured(
    split: str, most_left: int
) -> None:
    records = [
        json.loads(line)
        for line in (DATA / f"cues_{split}.jsonl").read_text().splitlines()
    ]
    left, lost = [], []
    for record in records:
        out = generalized(record["text"])
        if any(present(cue, out) for cue in record["cues"]):
            left.append(record["id"])
        if any(not present(keep, out) for keep in record["keep"]):
            lost.append(record["id"])
    assert len(left) <= most_left, left
    assert lost == []
