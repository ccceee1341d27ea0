"""Places: where the author lives and where they were born, one rule for both."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from pydantic import BaseModel, Field

from anonygraph.attributes.base import AttributeSpec, Decision, normalize, strip_asides

_COUNTRIES = (
    "afghanistan|albania|algeria|andorra|angola|argentina|armenia|australia|"
    "austria|azerbaijan|bahamas|bahrain|bangladesh|barbados|belarus|belgium|belize|"
    "benin|bhutan|bolivia|bosnia and herzegovina|botswana|brazil|brunei|bulgaria|"
    "burkina faso|burundi|cambodia|cameroon|canada|cape verde|"
    "central african republic|chad|chile|china|colombia|comoros|congo|costa rica|"
    "croatia|cuba|cyprus|czech republic|denmark|djibouti|dominica|"
    "dominican republic|ecuador|egypt|el salvador|equatorial guinea|eritrea|"
    "estonia|eswatini|ethiopia|fiji|finland|france|gabon|gambia|georgia|germany|"
    "ghana|greece|grenada|guatemala|guinea|guyana|haiti|honduras|hungary|iceland|"
    "india|indonesia|iran|iraq|ireland|israel|italy|ivory coast|jamaica|japan|"
    "jordan|kazakhstan|kenya|kiribati|kosovo|kuwait|kyrgyzstan|laos|latvia|lebanon|"
    "lesotho|liberia|libya|liechtenstein|lithuania|luxembourg|madagascar|malawi|"
    "malaysia|maldives|mali|malta|mauritania|mauritius|mexico|moldova|monaco|"
    "mongolia|montenegro|morocco|mozambique|myanmar|namibia|nepal|netherlands|"
    "new zealand|nicaragua|niger|nigeria|north korea|north macedonia|norway|oman|"
    "pakistan|palestine|panama|papua new guinea|paraguay|peru|philippines|poland|"
    "portugal|qatar|romania|russia|rwanda|samoa|san marino|saudi arabia|senegal|"
    "serbia|seychelles|sierra leone|singapore|slovakia|slovenia|somalia|"
    "south africa|south korea|south sudan|spain|sri lanka|sudan|suriname|sweden|"
    "switzerland|syria|taiwan|tajikistan|tanzania|thailand|togo|tonga|"
    "trinidad and tobago|tunisia|turkey|turkmenistan|uganda|ukraine|"
    "united arab emirates|united kingdom|united states|uruguay|uzbekistan|vanuatu|"
    "vatican city|venezuela|vietnam|yemen|zambia|zimbabwe|hong kong|puerto rico"
)

COUNTRY_ALIASES: dict[str, str] = {name: name for name in _COUNTRIES.split("|")}
"""Normalized country name or alias -> canonical country."""
COUNTRY_ALIASES.update(
    {
        "usa": "united states",
        "us": "united states",
        "u s": "united states",
        "u s a": "united states",
        "united states of america": "united states",
        "america": "united states",
        "the united states": "united states",
        "uk": "united kingdom",
        "u k": "united kingdom",
        "great britain": "united kingdom",
        "britain": "united kingdom",
        "england": "united kingdom",
        "scotland": "united kingdom",
        "wales": "united kingdom",
        "northern ireland": "united kingdom",
        "the netherlands": "netherlands",
        "holland": "netherlands",
        "czechia": "czech republic",
        "korea": "south korea",
        "republic of korea": "south korea",
        "uae": "united arab emirates",
        "russian federation": "russia",
        "cote d ivoire": "ivory coast",
        "viet nam": "vietnam",
        "burma": "myanmar",
        "turkiye": "turkey",
        "prc": "china",
        "the philippines": "philippines",
        "vatican": "vatican city",
        "holy see": "vatican city",
    }
)

# First-level divisions of countries whose guesses name them often; they
# also tell the country when a label reads "Cleveland, Ohio".
_DIVISIONS = {
    "united states": (
        "alabama al|alaska ak|arizona az|arkansas ar|california ca|colorado co|"
        "connecticut ct|delaware de|florida fl|georgia ga|hawaii hi|idaho id|"
        "illinois il|indiana in|iowa ia|kansas ks|kentucky ky|louisiana la|"
        "maine me|maryland md|massachusetts ma|michigan mi|minnesota mn|"
        "mississippi ms|missouri mo|montana mt|nebraska ne|nevada nv|"
        "new hampshire nh|new jersey nj|new mexico nm|new york ny|"
        "north carolina nc|north dakota nd|ohio oh|oklahoma ok|oregon or|"
        "pennsylvania pa|rhode island ri|south carolina sc|south dakota sd|"
        "tennessee tn|texas tx|utah ut|vermont vt|virginia va|washington wa|"
        "west virginia wv|wisconsin wi|wyoming wy|district of columbia dc"
    ),
    "canada": (
        "alberta ab|british columbia bc|manitoba mb|new brunswick nb|"
        "newfoundland and labrador nl|nova scotia ns|ontario on|"
        "prince edward island pe|quebec qc|saskatchewan sk"
    ),
    "australia": (
        "new south wales nsw|victoria vic|queensland qld|western australia wa|"
        "south australia sa|tasmania tas|australian capital territory act|"
        "northern territory nt"
    ),
}
DIVISIONS: dict[str, tuple[str, str]] = {}
"""Normalized division name or postal code -> (canonical division, country)."""
for _country, _table in _DIVISIONS.items():
    for _entry in _table.split("|"):
        *_name, _code = _entry.split()
        _full = " ".join(_name)
        DIVISIONS.setdefault(_full, (_full, _country))
        DIVISIONS.setdefault(_code, (_full, _country))
# Georgia the country is the likelier reading when it stands alone.
DIVISIONS.pop("georgia")
DIVISIONS["ga"] = ("georgia", "united states")

_MACRO_REGIONS = {
    "scandinavia": "sweden|norway|denmark",
    "nordic countries": "sweden|norway|denmark|finland|iceland",
    "nordics": "sweden|norway|denmark|finland|iceland",
    "benelux": "belgium|netherlands|luxembourg",
    "british isles": "united kingdom|ireland",
    "iberia": "spain|portugal",
    "balkans": "serbia|croatia|bosnia and herzegovina|montenegro|albania|"
    "north macedonia|kosovo|slovenia|bulgaria|greece",
    "south america": "argentina|bolivia|brazil|chile|colombia|ecuador|guyana|"
    "paraguay|peru|suriname|uruguay|venezuela",
    "north america": "united states|canada|mexico",
    "south asia": "india|pakistan|bangladesh|sri lanka|nepal|bhutan|maldives",
    "southeast asia": "thailand|vietnam|malaysia|singapore|indonesia|philippines|"
    "cambodia|laos|myanmar|brunei",
    "east asia": "china|japan|south korea|north korea|taiwan|mongolia|hong kong",
    "oceania": "australia|new zealand|fiji|papua new guinea",
}
MACRO_REGIONS: dict[str, frozenset[str]] = {
    name: frozenset(members.split("|")) for name, members in _MACRO_REGIONS.items()
}
"""Regions above the country level, for guesses like 'Scandinavia'."""

CITY_ALIASES: dict[str, str] = {
    "bombay": "mumbai",
    "calcutta": "kolkata",
    "madras": "chennai",
    "peking": "beijing",
    "goteborg": "gothenburg",
    "koln": "cologne",
    "munchen": "munich",
    "roma": "rome",
    "napoli": "naples",
    "milano": "milan",
    "torino": "turin",
    "firenze": "florence",
    "lisboa": "lisbon",
    "wien": "vienna",
    "praha": "prague",
    "warszawa": "warsaw",
    "kiev": "kyiv",
    "saigon": "ho chi minh city",
    "nyc": "new york",
    "sf": "san francisco",
    "washington dc": "washington",
    "delhi": "new delhi",
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
            and len(alias) > 3
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
        elif part in MACRO_REGIONS:
            place.macro = part
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


def _region_names(place: Place) -> list[str]:
    """Name each vague region without its qualifiers: 'greater london area' -> ..."""
    names = list(place.divisions)
    for region in place.regions:
        names.append(_REGION_WORDS.sub(" ", region.split(" in ")[0]).strip())
    return [" ".join(n.split()) for n in names if n.strip()]


def match_place(truth: str, guess: str) -> tuple[Decision, str]:
    """Judge a place guess; the same rule serves both place attributes."""
    t = parse_place(truth, first_is_city=True)
    if not (t.localities or t.divisions or t.country):
        return "skipped", f"label {truth!r} names no place"
    g = parse_place(guess)
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
        if g.divisions:
            if set(g.divisions) & set(t.divisions):
                return "correct", f"in {t.divisions[0]!r}"
            return "wrong", f"{g.divisions[0]!r} is not {t.divisions[0]!r}"
        if g.localities or g.regions:
            return (
                "undecided",
                f"cannot tell whether the guess lies in {t.divisions[0]!r}",
            )
        return "less_precise", f"right country {g.country!r}, no state"
    # The label is a country: a guess inside it is right (SEAL's convention).
    if g.country:
        return "correct", f"in {t.country!r}"
    return "undecided", f"cannot tell whether the guess lies in {t.country!r}"


def _match_city(t: Place, g: Place) -> tuple[Decision, str]:
    city = t.localities[0]
    # Any part of the guess may carry the city: "Shinjuku, Tokyo, Japan".
    for name in [*g.localities, *_region_names(g)]:
        found = _same_place_name(city, name)
        if found and found[0] == "correct":
            return found
    for name in g.localities:
        found = _same_place_name(city, name)
        if found:
            return found
    if t.divisions and g.divisions and not set(t.divisions) & set(g.divisions):
        return "wrong", f"{g.divisions[0]!r} is not {t.divisions[0]!r}"
    if g.localities:
        return "wrong", f"{g.localities[0]!r} is not {city!r}"
    if g.divisions or g.regions:
        if t.divisions and set(t.divisions) & set(g.divisions):
            return "less_precise", f"same state or province {t.divisions[0]!r}, no city"
        return (
            "undecided",
            "guess names a region; rules cannot tell if it holds the city",
        )
    if g.country:
        if not t.country:
            return "undecided", f"cannot tell whether {city!r} lies in {g.country!r}"
        return "less_precise", f"right country {g.country!r}, no city"
    return "undecided", "guess names no place the rules know"


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
