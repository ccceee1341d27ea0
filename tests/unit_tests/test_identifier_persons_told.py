"""Person names told from words that only stand where a name might.

A lowercase word after "I am" or a greeting is a name only in the text of a
writer who writes in lowercase; a people's name is what someone is; a quoted
nickname belongs to the name around it, so two relatives who share a surname
stay two people.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import IdentifierBook, find_identifiers
from anonygraph.identifiers.recognizers.name_checks import capitalizing_writer


def persons(text: str) -> list[str]:
    """Return the text of every PERSON found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A writer who capitalizes "I" and sentence starts: a lowercase word
        # after the cue is a word.
        ("I am woman, 42 years old, live with my family.", []),
        ("Eh bro, I 31 this year. Later go makan?", []),
        ("Anyone wanna trade venison fer pasties, I'm game.", []),
        # Counter-cases: a lowercase writer's name, and a capitalized name.
        ("hey its maria, can u call me back", ["maria"]),
        ("i'm sanjay btw, new here", ["sanjay"]),
        ("Hi, I'm Sarah and this is my ticket.", ["Sarah"]),
    ],
)
def test_when_a_lowercase_word_follows_a_name_cue_then_the_writer_decides(
    text: str, expected: list[str]
) -> None:
    assert persons(text) == expected


@pytest.mark.parametrize(
    ("text", "capitalizes"),
    [
        ("I live here. It rains.", True),
        ("i live here. it rains", False),
        ("Honestly im tired lol", False),
        ("", False),
    ],
)
def test_when_a_text_is_read_then_its_writer_is_told_capitalizing_or_not(
    text: str, capitalizes: bool
) -> None:
    assert capitalizing_writer(text) is capitalizes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have boyfriend, he is Lithuanian, we live together.", []),
        # Counter-case: a name beside the people's name still goes.
        (
            "My boyfriend Tomas Petraitis is Lithuanian.",
            ["Tomas Petraitis"],
        ),
    ],
)
def test_when_a_peoples_name_stands_alone_then_it_is_no_person(
    text: str, expected: list[str]
) -> None:
    assert persons(text) == expected


def test_when_two_relatives_share_a_surname_then_each_has_a_number() -> None:
    text = (
        "Funeral notice. Eustace 'Bunny' Forbes, 88, of Holetown, passed "
        "peacefully. He leaves four children, including Dr Marcia Forbes of "
        "Toronto."
    )
    assert "Eustace 'Bunny' Forbes" in persons(text)
    out = IdentifierBook().replace(text)
    assert "[PERSON_1], 88" in out
    assert "including [PERSON_2] of Toronto" in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Borned over on Hatteras though, moved after school.", []),
        # Counter-case: a name after "on" that Faker lists stays a person.
        (
            "I rely on Maria Lopez for lifts; text me at ana.ruiz@example.com.",
            ["Maria Lopez"],
        ),
    ],
)
def test_when_one_unknown_word_follows_on_then_it_is_no_person(
    text: str, expected: list[str]
) -> None:
    assert persons(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # German "im" (in dem) before a noun or a season: no self-introduction,
        # and no sign of a writer who writes "i" in lowercase.
        ("Servus mitnand! Ich zahl 900 im Monat. Im Herbst Markt, sonst Ruhe.", []),
        ("Moin alle, wir treffen uns im Hafen. Im Herbst Kirmes.", []),
        # Counter-cases: chat's "im" before a given name Faker lists.
        ("hey im maria, just moved here", ["maria"]),
        ("Im Kevin, new to the group!", ["Kevin"]),
    ],
)
def test_when_bare_im_is_german_then_no_name_follows_it(
    text: str, expected: list[str]
) -> None:
    assert persons(text) == expected
