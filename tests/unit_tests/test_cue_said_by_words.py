"""What a phrase's own words say decides its rewrite (read on cue held-out 16).

A status under "not" hides nothing a coarser status could say; a town named
for a bridge is where one lives "in"; a street's name holds no school; a
partner word picks out someone else when a description follows it. Each rule
has a counter-case where the rewrite still stands. The texts are our own.
"""

from __future__ import annotations

import pytest

from unit_tests.rules_rewrite import rewritten


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I am not yet married but I have a boyfriend.",
         "I am not yet [RELATIONSHIP] but I have a boyfriend."),
        ("I am not divorced yet, just separated.",
         "I am not [RELATIONSHIP] yet, just on my own."),
        # Counter-case: a status said outright keeps its coarser form.
        ("I am married with two kids.", "I am in a relationship with two kids."),
    ],
)  # fmt: skip
def test_when_a_status_is_negated_then_it_becomes_its_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got my house on the bayou right there in Breaux Bridge.",
         "I got my house on the bayou right there in [PLACE]."),
        # Counter-case: one walks across a bridge.
        ("We walked across the Golden Gate Bridge at dawn.",
         "We walked across a bridge at dawn."),
    ],
)  # fmt: skip
def test_when_a_landmark_name_follows_in_then_it_is_a_town(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work at a forge off Lower High Street these days.",
         "I work at a forge off [PLACE] these days."),
        ("I work as technician at a factory in Kulim Hi-Tech now.",
         "I work as technician at a factory in [PLACE] now."),
        # A kind word the name holds only in part says no kind either.
        ("I finished Westfield High in 2010.", "I finished [SCHOOL] in 2010."),
    ],
)  # fmt: skip
def test_when_a_kind_word_is_not_the_names_head_then_no_school_is_said(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Come say hi to the fella with the Massey Ferguson hat.",
         "Come say hi to the fella with the Massey Ferguson hat."),
        # The fella who is the author's: "fella" is also any man, so the
        # partner it may mean is not written (`construction`).
        ("The fella and I went to Cork.", "[RELATIONSHIP] and I went to [PLACE]."),
    ],
)  # fmt: skip
def test_when_a_description_follows_a_partner_word_then_it_is_someone_else(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
