"""Chat speakers stamped by a bare time or followed by a bracket of their role.

Each positive case is an invented chat; each counter-case an itinerary or
a shop speaking, of the same shape.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers.person_spans import chat_speakers


def speakers(text: str) -> set[str]:
    """Return the speakers' names found in ``text``."""
    return {i.text for i in chat_speakers(text)}


SPOKEN = [
    (
        "09:12 Ravindra: payment sent\n09:14 Sunetra: got it, thanks\n"
        "09:15 Ravindra: ok",
        "Sunetra",
    ),
    (
        "14.03.2026 08:01 Айдана: кто заберёт ключи?\n14.03.2026 08:03 Ерлан: я заберу",
        "Айдана",
    ),
    (
        "[2026-02-01 19:02] Halima (parent): is the class on Friday?\n"
        "[2026-02-01 19:04] tutor: yes, at 6",
        "Halima",
    ),
]


@pytest.mark.parametrize(("text", "name"), SPOKEN)
def test_when_a_chat_line_opens_with_a_stamped_speaker_then_it_is_a_person(
    text: str, name: str
) -> None:
    assert name in speakers(text)


NOT_SPOKEN = [
    # An itinerary's lines open with a time and a word of the vocabulary.
    (
        "09:00 Breakfast: hotel buffet\n10:30 Departure: coach to the old town\n"
        "13:00 Lunch: included",
        "Breakfast",
    ),
    # A shop speaks in a stamped chat: its bracket says what it is.
    (
        "[10:05] Kavakli Carpets (public): hello, yes we ship\n"
        "[10:06] Derya: great, to Izmir please",
        "Kavakli Carpets",
    ),
    # One bare time alone stamps no chat.
    ("Meeting notes\n10:02 Ravindra: will send the draft", "Ravindra"),
]


@pytest.mark.parametrize(("text", "word"), NOT_SPOKEN)
def test_when_a_time_or_a_bracket_opens_no_persons_turn_then_no_speaker(
    text: str, word: str
) -> None:
    assert word not in speakers(text)
