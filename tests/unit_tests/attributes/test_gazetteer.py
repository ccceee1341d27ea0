"""One gazetteer: the place cue detectors and the place match rule read one table."""

from __future__ import annotations

import pytest

from anonygraph.attributes import gazetteer
from anonygraph.attributes.places import (
    COUNTRY_ALIASES,
    DIVISIONS,
    MACRO_REGIONS,
    NAMED_REGIONS,
    parse_place,
)
from anonygraph.cues.places import fold
from anonygraph.cues.places import gazetteer as cue_gazetteer


@pytest.mark.parametrize("alias", sorted(gazetteer.country_aliases()))
def test_when_a_country_alias_is_in_the_table_then_detector_and_matcher_agree(
    alias: str,
) -> None:
    code = gazetteer.country_aliases()[alias]
    country = gazetteer.countries()[code]
    detected = cue_gazetteer()[fold(alias)]
    assert (detected.kind, detected.name) == ("country", country.name)
    assert COUNTRY_ALIASES[gazetteer.key(alias)] == gazetteer.key(country.name)


@pytest.mark.parametrize(
    "region", gazetteer.regions(), ids=[r.name for r in gazetteer.regions()]
)
def test_when_a_region_is_in_the_table_then_both_know_it_and_what_it_holds(
    region: gazetteer.Region,
) -> None:
    detected = cue_gazetteer()[fold(region.name.removeprefix("the "))]
    assert detected.kind in ("region", "continent")
    if region.country:
        country, spans = NAMED_REGIONS[gazetteer.key(region.name)]
        assert country == gazetteer.key(gazetteer.countries()[region.country].name)
        assert len(spans) == len(region.members)  # every postal code resolved
    else:
        holds = MACRO_REGIONS[gazetteer.key(region.name)]
        assert len(holds) == len(region.members)  # every ISO code resolved


@pytest.mark.parametrize(
    ("city", "division"),
    [
        ("Toronto", "Ontario"),
        ("Montreal", "Quebec"),
        ("Calgary", "Alberta"),
        ("Sydney", "New South Wales"),
        ("Perth", "Western Australia"),
        ("Houston", "Texas"),
    ],
)
def test_when_a_city_is_placed_then_its_geonames_division_is_the_table_s(
    city: str, division: str
) -> None:
    place = gazetteer.largest_cities()[gazetteer.key(city)]
    (row,) = [d for d in gazetteer.divisions() if d.name == division]
    assert (place.country, place.admin1) == (row.country, row.admin1)


def test_when_georgia_stands_alone_then_it_is_the_country_but_ga_is_the_state() -> None:
    assert parse_place("Georgia").country == "georgia"
    assert DIVISIONS["ga"] == ("georgia", "united states")
