"""One gazetteer: the place cue detectors and the place match rule read one table."""

from __future__ import annotations

import stat
from pathlib import Path

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
from anonygraph.runs.kept_tables import kept_path


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


def test_when_cities_are_read_twice_then_the_second_read_is_the_private_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    first = gazetteer.city_rows()  # from GeoNames' JSON, then kept
    (kept,) = (tmp_path / "anonygraph").glob("geonames-cities15000-*.json")
    monkeypatch.setattr(gazetteer, "geonames", lambda name: pytest.fail(name))
    second = gazetteer.city_rows()

    assert second == first and len(first) > 20_000
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert gazetteer.cities() == tuple(gazetteer.City(*row) for row in first)


@pytest.mark.parametrize("kept", [b"{not json", b"[[1, 2], 3]"])
def test_when_the_cached_cities_are_broken_then_geonames_is_read_again(
    kept: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = kept_path(
        gazetteer.CITY_ROWS, gazetteer.CITY_ROWS_LAYOUT, gazetteer._city_table()
    )
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(kept)

    rows = gazetteer.city_rows()

    assert len(rows) > 20_000 and all(len(row) == 6 for row in rows)
    assert gazetteer.city_rows() == rows  # rewritten whole
