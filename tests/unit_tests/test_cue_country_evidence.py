"""A city's country is written only where the text confirms it (`country_evidence`).

Examples invented for this file. Each clause of the rule has a case and a
counter-case: (a) the country named, (b) a qualifier beside the city, (c)
another place only that country holds, with no place of another country.
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues, generalize_text
from anonygraph.cues.country_evidence import country_named_by


def rewritten(text: str) -> str:
    places = ("city_country", "birth_city_country")
    return generalize_text(
        text, [c for c in detect_cues(text) if c.attribute in places]
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A city alone: the gazetteer's country is a guess (a suburb or town
        # it does not hold may bear the name), so the placeholder stands.
        ("I live in Wichita.", "I live in [PLACE]."),
        ("I rent a flat in Collingwood.", "I rent a flat in [PLACE]."),
        ("I was born in Arabi and grew up poor.",
         "I was born in [PLACE] and grew up poor."),
        # (a) The text names the country, by any alias the gazetteer knows.
        ("I live in Wichita. Been in the States ten years.",
         "I live in the US. Been in North America ten years."),
        ("I live in Leeds and moved to the UK in 2010.",
         "I live in the UK and moved to Europe in 2010."),
        # Counter-case: the country named is another one.
        ("I live in Wichita. I lived in England for ten years before.",
         "I live in [PLACE]. I lived in Europe for ten years before."),
        # (b) A state, region or postal code beside the city says which.
        ("I live in Wichita, KS.", "I live in the US."),
        ("I grew up in Pune, Maharashtra.", "I grew up in India."),
        # Counter-case: a qualifier of another country than the name's.
        ("I rent a room in Bole, Addis Ababa.",
         "I rent a room in [PLACE], [PLACE]."),
        # (c) Another place only that country holds.
        ("I live in Wichita and work in Topeka.",
         "I live in the US and work in another part of the US."),
        ("I grew up in Wichita. Kansas summers are hot.",
         "I grew up in the US. [PLACE] summers are hot."),
        # Counter-cases: two places of different countries; a place whose
        # namesakes lie elsewhere; someone else's place, which confirms
        # nothing of the author's.
        ("Born in Cork, now living in Leeds.",
         "Born in [PLACE], now living in [PLACE]."),
        ("I live in Wichita and commute to Halifax.",
         "I live in [PLACE] and commute to [PLACE]."),
        ("I was born in Arabi and my gran lives in Addis Ababa.",
         "I was born in [PLACE] and my gran lives in Addis Ababa."),
        # A namesake the text names the country of.
        ("I live in Perth. Scotland is cold.", "I live in the UK. Europe is cold."),
    ],
)  # fmt: skip
def test_when_a_city_is_generalized_then_its_country_is_the_texts_or_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A country the span names keeps its continent.
        ("I'm from Ghana.", "I'm from Africa."),
        # A region of several countries keeps one only where all lie in it.
        ("I moved to Scandinavia.", "I moved to Europe."),
        ("I moved to the Middle East.", "I moved to [PLACE]."),
    ],
)
def test_when_a_place_becomes_a_continent_then_it_is_every_members(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("replacement", "country"),
    [("the US", "United States"), ("the UK", "United Kingdom"), ("[PLACE]", "")],
)
def test_when_a_replacement_is_read_then_the_country_it_names_is_found(
    replacement: str, country: str
) -> None:
    assert country_named_by(replacement) == country
