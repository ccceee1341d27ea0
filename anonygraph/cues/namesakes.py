"""Which countries hold a place of a given name, and when a city's name is sure.

"Perth" is a city of Australia and of Scotland, "Victoria" a city of Canada
and a state of Australia: a city's name may be generalized to its country
only when no other country holds a place of that name (`sure_city`). The
tables are built from the gazetteer once and kept in the user's cache
folder (`anonygraph.runs.kept_tables`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from anonygraph.attributes.gazetteer import cities, countries, divisions, regions
from anonygraph.cues.places import fold, place_table_files
from anonygraph.runs.kept_tables import Converted, kept_table, module_file

SURE_CITY_POPULATION = 100_000
"""A city smaller than this may share its name with a suburb or town the
gazetteer does not hold (Collingwood, Ontario and Collingwood, Melbourne)."""


def _table_files() -> tuple[object, ...]:
    return (*place_table_files(), module_file(__name__))


def _decode_holders(kept: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    if not all(isinstance(sizes, dict) for sizes in dict(kept).values()):
        raise TypeError("not a table of names")
    return kept


def _decode_namesakes(kept: dict[str, list[str]]) -> Mapping[str, frozenset[str]]:
    if not all(type(found) is list for found in dict(kept).values()):
        raise TypeError("not a table of names")
    return Converted(kept, frozenset)


@lru_cache(maxsize=1)
@kept_table("holders", 1, _table_files, encode=dict, decode=_decode_holders)
def holders() -> dict[str, dict[str, int]]:
    """Return folded city name -> country name -> its biggest place of that name."""
    code_name = {code: country.name for code, country in countries().items()}
    held: dict[str, dict[str, int]] = {}
    for city in cities():
        country = code_name.get(city.country)
        if not country:
            continue
        sizes = held.setdefault(fold(city.name), {})
        sizes[country] = max(sizes.get(country, 0), city.population)
    return held


@lru_cache(maxsize=1)
@kept_table(
    "namesakes",
    1,
    _table_files,
    encode=lambda held: {name: sorted(found) for name, found in held.items()},
    decode=_decode_namesakes,
)
def _namesakes() -> Mapping[str, frozenset[str]]:
    """Return folded name -> every country holding a place of that name.

    A place is a city of the gazetteer (15,000 people and more), a state or
    province, a region within a country, or the country itself: "Victoria"
    is a city of Canada and a state of Australia, "Perth" a city of Australia
    and of Scotland.
    """
    code_name = {code: country.name for code, country in countries().items()}
    held: dict[str, set[str]] = {name: set(sizes) for name, sizes in holders().items()}
    for division in divisions():
        if division.country in code_name:
            held.setdefault(fold(division.name), set()).add(code_name[division.country])
    for region in regions():
        if region.country in code_name:
            for name in region.names:
                held.setdefault(fold(name.removeprefix("the ")), set()).add(
                    code_name[region.country]
                )
    for country in countries().values():
        held.setdefault(fold(country.name), set()).add(country.name)
    return {name: frozenset(found) for name, found in held.items()}


def namesake_countries(name: str) -> frozenset[str]:
    """Return the countries that hold a city, state or region called ``name``."""
    return _namesakes().get(fold(name), frozenset())


def sure_city(name: str) -> str:
    """Return the one country a city's name points to, "" when it is a guess.

    A name is sure only when no other country holds a place of that name
    (`namesake_countries`), however small: the texts that went wrong meant
    the smaller one (Perth in Scotland is 2 % of Perth in Australia), so no
    share of the biggest's size tells a namesake that cannot be meant.
    """
    sizes = holders().get(fold(name), {})
    if not sizes:
        return ""
    country, size = max(sizes.items(), key=lambda kv: kv[1])
    if size < SURE_CITY_POPULATION or namesake_countries(name) - {country}:
        return ""
    return country
