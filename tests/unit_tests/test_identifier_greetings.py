"""The name a greeting's comma closes, kept when it is also a word or in capitals."""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers


def persons(text: str) -> list[str]:
    """Return the text of every PERSON found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Hi Will, the two forms are attached.", "Will"),
        ("Dear TAWANDA MUCHENA, your parcel is at the depot.", "TAWANDA MUCHENA"),
    ],
)
def test_when_a_greeting_addresses_a_name_then_it_is_a_person(
    text: str, name: str
) -> None:
    assert name in persons(text), persons(text)


@pytest.mark.parametrize(
    "text",
    [
        "Hi Team, the build is green again.",
        "Hello Everyone! Drinks at six.",
        "Hi There, quick one about the invoice.",
    ],
)
def test_when_a_greeting_addresses_a_group_then_no_person(text: str) -> None:
    assert persons(text) == []
