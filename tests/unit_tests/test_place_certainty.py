"""A place name becomes its country only when no namesake could be meant (issue 34).

A name is certain when the text confirms its country (the country named,
a qualifier beside it, or another place only that country holds) and the
gazetteer holds no city, state or region of that name in a country the text
names too; otherwise,
and whenever an aside right after the name speaks of it, the name becomes
the typed placeholder.
"""

from __future__ import annotations

import pytest

from anonygraph.cues.namesakes import namesake_countries, sure_city
from unit_tests.rules_rewrite import rewritten as rules_rewrite

PLACES = ("city_country", "birth_city_country")


def rewritten(text: str) -> str:
    return rules_rewrite(text, PLACES)


CLASSES = {
    # Another country holds a city of the same name, however small.
    "shared name": [
        ("Our flat in Perth has a view of the river.",
         "Our flat in [PLACE] has a view of the river."),
        ("Spent my twenties working in Dublin pubs.",
         "Spent my twenties working in [PLACE] pubs."),
        ("Retired to Guadalajara with my wife.", "Retired to [PLACE] with my wife."),
        ("Commuting into London every weekday is grim.",
         "Commuting into [PLACE] every weekday is grim."),
        # A city of one country that is a state of another.
        ("We bought a little house in Victoria.",
         "We bought a little house in [PLACE]."),
    ],
    # No other country holds the name in the gazetteer: still its guess (a
    # suburb or town it does not hold may share the name) until the text
    # confirms the country (`anonygraph.cues.country_evidence`).
    "unique name": [
        ("Our flat in Calgary has a view of the river.",
         "Our flat in [PLACE] has a view of the river."),
        ("Retired to Toulouse with my wife.", "Retired to [PLACE] with my wife."),
        ("Spent my twenties working in Hamburg.",
         "Spent my twenties working in [PLACE]."),
        ("Spent my twenties working in Hamburg and Munich.",
         "Spent my twenties working in Germany and another part of Germany."),
    ],
    # The state or country right beside the name says which one.
    "settled by the text": [
        ("Our flat in Perth, Western Australia has a view of the river.",
         "Our flat in Australia has a view of the river."),
        ("Spent my twenties working in London, Ontario.",
         "Spent my twenties working in Canada."),
    ],
    # A district and its city side by side are one place: the city takes its
    # placeholder, not "another part of" the country.
    "district and city": [
        ("Renting a flat in Kreuzberg, Berlin these days.",
         "Renting a flat in Germany, [PLACE] these days."),
    ],
    # An aside after the name says something of that very place.
    "aside": [
        ("Grew up in Perth (the Scottish one) and never left.",
         "Grew up in [PLACE] (the Scottish one) and never left."),
        ("I teach in Rabat, not the Moroccan one, the one on Malta.",
         "I teach in [PLACE], not the Moroccan one, the one on Malta."),
        ("Our flat in Calgary, the one near the river, is cold.",
         "Our flat in [PLACE], the one near the river, is cold."),
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(text, expected, id=f"{name}: {text}")
        for name, rows in CLASSES.items()
        for text, expected in rows
    ],
)
def test_when_a_place_name_is_rewritten_then_its_country_is_certain_or_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("name", "country"),
    [
        ("Calgary", "Canada"),
        ("Toulouse", "France"),
        ("Perth", ""),
        ("Victoria", ""),
        ("Wellington", ""),
        ("Paris", ""),
    ],
)
def test_when_a_name_has_a_namesake_abroad_then_no_country_is_sure(
    name: str, country: str
) -> None:
    assert sure_city(name) == country
    assert (len(namesake_countries(name)) == 1) == bool(country)
