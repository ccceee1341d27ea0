"""Places: where the author lives and where they were born, one rule for both."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from pydantic import BaseModel, Field

from anonygraph.attributes import gazetteer
from anonygraph.attributes.base import AttributeSpec, Decision, normalize, strip_asides

_key = gazetteer.key


def _country_aliases() -> dict[str, str]:
    names = {code: _key(c.name) for code, c in gazetteer.countries().items()}
    aliases = {name: name for name in names.values()}
    for alias, code in gazetteer.country_aliases().items():
        aliases.setdefault(_key(alias), names[code])
    return aliases


COUNTRY_ALIASES: dict[str, str] = _country_aliases()
"""Normalized country name or alias -> canonical country (its GeoNames name)."""


def _divisions() -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for division in gazetteer.divisions():
        name = _key(division.name)
        country = COUNTRY_ALIASES[_key(gazetteer.countries()[division.country].name)]
        table.setdefault(name, (name, country))
        table.setdefault(_key(division.postal), (name, country))
    # Georgia the country is the likelier reading when it stands alone.
    table.pop("georgia")
    return table


DIVISIONS: dict[str, tuple[str, str]] = _divisions()
"""Normalized division name or postal code -> (canonical division, country)."""


def _macro_regions() -> dict[str, frozenset[str]]:
    countries = gazetteer.countries()
    table = {
        _key(name): frozenset(_key(countries[code].name) for code in region.members)
        for region in gazetteer.regions()
        if not region.country
        for name in region.names
    }
    for continent in gazetteer.CONTINENTS.values():
        table.setdefault(
            _key(continent),
            frozenset(
                _key(c.name) for c in countries.values() if c.continent == continent
            ),
        )
    return table


MACRO_REGIONS: dict[str, frozenset[str]] = _macro_regions()
"""Regions above the country level ('Scandinavia', 'Europe') -> their countries."""

NAMED_REGIONS: dict[str, tuple[str, frozenset[str]]] = {
    _key(name): (
        _key(gazetteer.countries()[region.country].name),
        frozenset(
            _key(d.name)
            for d in gazetteer.divisions()
            if d.country == region.country and d.postal in region.members
        ),
    )
    for region in gazetteer.regions()
    if region.country
    for name in region.names
}
"""Named regions within a country ('the Midwest') -> (country, postal codes of
the divisions they span, empty when unknown)."""

CITY_ALIASES: dict[str, str] = {
    _key(other): _key(name) for other, name in gazetteer.city_aliases().items()
}
"""Exonyms and short forms of cities, normalized."""

# Words that qualify a place name without changing which place it is.
_PLACE_FILLER = frozenset(
    {
        "city",
        "greater",
        "metro",
        "metropolitan",
        "area",
        "downtown",
        "central",
        "the",
        "of",
        "urban",
        "inner",
        "region",
    }
)
_REGION_WORDS = re.compile(
    r"\b(?:region|province|prefecture|state|county|district|territory|area|coast|"
    r"coastal|rural|semi rural|countryside|suburbs?|suburban|outskirts|mainland|"
    r"north|northern|south|southern|east|eastern|west|western|central|midwest\w*|"
    r"north ?east\w*|north ?west\w*|south ?east\w*|south ?west\w*)\b"
)
_HEDGES = re.compile(
    r"^(?:possibly|probably|likely|maybe|perhaps|specifically|somewhere in|near|"
    r"around|in|a|an|city of|town of)\s+"
)
# Cities that share their name with a state or province, read as cities in labels.
_CITY_LIKE_DIVISIONS = frozenset({"new york", "washington"})


class Place(BaseModel):
    """A place label or guess split into what its parts name."""

    localities: list[str] = Field(default_factory=list, description="Cities, towns.")
    divisions: list[str] = Field(default_factory=list, description="States, provinces.")
    regions: list[str] = Field(
        default_factory=list, description="Vague areas such as 'southern france'."
    )
    macro: str = Field(default="", description="A region above countries.")
    country: str = Field(default="", description="Canonical country, if named.")


def _find_country(text: str) -> str:
    best = ""
    for alias in COUNTRY_ALIASES:
        if (
            len(alias) > len(best)
            and len(alias) >= 3  # "us" is a word, "usa" is not
            and re.search(rf"\b{alias}\b", text)
        ):
            best = alias
    return COUNTRY_ALIASES[best] if best else ""


def _find_division(text: str) -> str:
    for name in DIVISIONS:
        if len(name) > 3 and re.search(rf"\b{name}\b", text):
            return name
    return ""


def parse_place(text: str, *, first_is_city: bool = False) -> Place:
    """Split a place into localities, divisions, vague regions and country.

    Args:
        text: "City, Country", "Montreal, Quebec, Canada", "Southern France", ...
        first_is_city: Read the first part as a city, as labels in
            "<city>, <country>" form are ("New York, United States"), unless it
            is a country or plainly a state ("Texas, USA").

    Returns:
        The parsed place; a part no rule recognizes counts as a locality.

    """
    place = Place()
    parts = [normalize(p) for p in strip_asides(text).split(",")]
    for index, raw in enumerate(p for p in parts if p):
        part, previous = raw, ""
        while previous != part:
            previous, part = part, _HEDGES.sub("", part)
        as_city = (
            first_is_city
            and index == 0
            and (part not in DIVISIONS or part in _CITY_LIKE_DIVISIONS)
        )
        if part in COUNTRY_ALIASES:
            place.country = place.country or COUNTRY_ALIASES[part]
        elif as_city:
            place.localities.append(CITY_ALIASES.get(part, part))
        elif part in DIVISIONS:
            division, country = DIVISIONS[part]
            place.divisions.append(division)
            place.country = place.country or country
        elif _key(part) in MACRO_REGIONS:
            place.macro = _key(part)
        elif _key(part) in NAMED_REGIONS:
            place.regions.append(_key(part))
            place.country = place.country or NAMED_REGIONS[_key(part)][0]
        elif " in " in f" {part} " or _REGION_WORDS.search(part):
            # "coastal town in western australia", "kanto region", "greater london area"
            tail = part.split(" in ")[-1]
            division = _find_division(tail)
            if division:
                place.divisions.append(DIVISIONS[division][0])
                place.country = place.country or DIVISIONS[division][1]
            else:
                place.country = place.country or _find_country(tail)
            place.regions.append(part)
        else:
            place.localities.append(CITY_ALIASES.get(part, part))
    return place


def _same_place_name(truth: str, guess: str) -> tuple[Decision, str] | None:
    """Compare two place names; None when they differ."""
    if truth == guess:
        return "correct", f"same place {truth!r}"
    t = set(truth.split()) - _PLACE_FILLER
    g = set(guess.split()) - _PLACE_FILLER
    if t and t == g:
        return "correct", f"{guess!r} and {truth!r} name the same place"
    if SequenceMatcher(None, truth, guess).ratio() >= 0.88:
        return "correct", f"{guess!r} is a spelling of {truth!r}"
    if g and g < t:
        return "less_precise", f"{guess!r} is part of the name {truth!r}"
    return None


def _region_names(place: Place, *, with_divisions: bool = True) -> list[str]:
    """Name each vague region without its qualifiers: 'greater london area' -> ..."""
    names = list(place.divisions) if with_divisions else []
    for region in place.regions:
        names.append(_REGION_WORDS.sub(" ", region.split(" in ")[0]).strip())
    return [" ".join(n.split()) for n in names if n.strip()]


def _city_home(name: str) -> tuple[str, str]:
    """Return (country, division) of the largest known city of that name.

    Either is empty when unknown: cities of under 15,000 people are not in
    the gazetteer, and divisions are known for the US, Canada and Australia.
    """
    city = gazetteer.largest_cities().get(CITY_ALIASES.get(name, name))
    if city is None:
        return "", ""
    division = next(
        (
            _key(d.name)
            for d in gazetteer.divisions()
            if d.country == city.country and d.admin1 == city.admin1
        ),
        "",
    )
    return _key(gazetteer.countries()[city.country].name), division


def _fill_countries(t: Place, g: Place) -> None:
    """Take a missing country from the gazetteer: 'Lyon' lies in France."""
    if not t.country and t.localities:
        t.country, _ = _city_home(t.localities[0])
    if not g.country and g.localities:
        g.country, _ = _city_home(g.localities[0])


def match_place(truth: str, guess: str) -> tuple[Decision, str]:
    """Judge a place guess; the same rule serves both place attributes.

    People who judged guesses on SynthPAI count a guess that names the right
    country but misses the city (another city, a state, a region, or the
    country alone) as less precise, and a guess in another country as wrong.
    """
    t = parse_place(truth, first_is_city=True)
    if not (t.localities or t.divisions or t.country):
        return "skipped", f"label {truth!r} names no place"
    g = parse_place(guess)
    _fill_countries(t, g)
    if t.country and g.country and t.country != g.country:
        return "wrong", f"country {g.country!r} is not {t.country!r}"
    if g.macro:
        if t.country in MACRO_REGIONS[g.macro]:
            return "less_precise", f"{g.macro!r} holds {t.country!r}"
        if t.country:
            return "wrong", f"{g.macro!r} does not hold {t.country!r}"
        return "undecided", f"cannot tell whether {g.macro!r} holds {truth!r}"
    if t.localities:
        return _match_city(t, g)
    if t.divisions:
        return _match_division(t, g)
    # The label is a country: a guess inside it is right (SEAL's convention).
    if g.country:
        return "correct", f"in {t.country!r}"
    return "undecided", f"cannot tell whether the guess lies in {t.country!r}"


def _guess_divisions(g: Place) -> set[str]:
    """Divisions the guess names or lies in: its states, its regions' states."""
    found = set(g.divisions)
    for region in g.regions:
        found |= NAMED_REGIONS.get(region, ("", frozenset()))[1]
    if not found and g.localities:
        found.add(_city_home(g.localities[0])[1])
    return found - {""}


def _match_division(t: Place, g: Place) -> tuple[Decision, str]:
    state = t.divisions[0]
    if state in _guess_divisions(g):
        return "correct", f"in {state!r}"
    if g.country:
        return "less_precise", f"right country {g.country!r}, not {state!r}"
    return "undecided", f"cannot tell whether the guess lies in {state!r}"


def _match_city(t: Place, g: Place) -> tuple[Decision, str]:
    city = t.localities[0]
    # Any part of the guess may carry the city: "Shinjuku, Tokyo, Japan"; a
    # state carries it only when the guess names no town of its own
    # ("Albany, New York" is not New York City).
    names = [*g.localities, *_region_names(g, with_divisions=not g.localities)]
    for name in names:
        found = _same_place_name(city, name)
        if found and found[0] == "correct":
            return found
    for name in g.localities:
        found = _same_place_name(city, name)
        if found:
            return found
    if not (t.country and g.country):
        if g.localities or g.divisions or g.regions:
            return "undecided", f"cannot tell whether the guess lies near {city!r}"
        return "undecided", "guess names no place the rules know"
    if g.localities:
        return (
            "less_precise",
            f"{g.localities[0]!r} is another place in {g.country!r}: "
            f"right country, not {city!r}",
        )
    state = (t.divisions or [_city_home(city)[1]])[0]
    if state and state in g.divisions:
        return "less_precise", f"same state or province {state!r}, no city"
    if state and state in _guess_divisions(g):
        where = (g.regions or g.localities)[0]
        return "less_precise", f"{where!r} lies in or spans {state!r}, not {city!r}"
    if g.divisions or g.regions:
        region = (g.divisions or g.regions)[0]
        return (
            "less_precise",
            f"{region!r} is in {g.country!r}: right country, not {city!r}",
        )
    return "less_precise", f"right country {g.country!r}, no city"


CITY_COUNTRY = AttributeSpec(
    "city_country",
    "city and country the author lives in now",
    aliases=("current_city_country", "location"),
    parse=parse_place,
    match=match_place,
)

BIRTH_CITY_COUNTRY = AttributeSpec(
    "birth_city_country",
    "city and country the author was born in",
    aliases=("pobp", "place_of_birth"),
    parse=parse_place,
    match=match_place,
)
