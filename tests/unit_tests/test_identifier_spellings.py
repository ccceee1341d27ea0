"""A name outside the Latin script, then its Latin spelling in brackets."""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers


def persons(text: str) -> list[str]:
    """Return the text of every PERSON found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


@pytest.mark.parametrize(
    ("text", "spelling", "found"),
    [
        (
            "Арендатор: Жанар Исмаилова (Zhanar Ismailova), тел. +7 701 555 1234",
            "Zhanar Ismailova",
            True,
        ),
        ("Свидетель: Ерболат Жумабаев (Yerbolat Zhumabayev).", "Yerbolat", True),
        ("Witness: Жанар Исмаилова (Zhanar Ismailova).", "Zhanar Ismailova", True),
        # A Latin name's bracket may hold a firm or a role: left to the other rules.
        (
            "Contact: Priscilla Okoro (Harbour Freight), tel. +44 20 7946 0991",
            "Harbour Freight",
            False,
        ),
        # A bracket of vocabulary words after a name is a role, no spelling.
        (
            "Арендатор: Жанар Исмаилова (Head Nurse), тел. +7 701 555 1234",
            "Head Nurse",
            False,
        ),
    ],
)
def test_when_a_bracket_spells_a_non_latin_name_then_it_is_the_same_person(
    text: str, spelling: str, found: bool
) -> None:
    assert any(spelling in p for p in persons(text)) is found, persons(text)
