"""Place names: cities, countries, US states, regions and demonyms.

The places come from the one gazetteer the place match rule reads too
(``anonygraph.attributes.gazetteer``): GeoNames cities of 15,000 people and
more, countries, continents, and our table of aliases, states and regions.
Demonyms are our own list in ``data/``.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from anonygraph.attributes.gazetteer import (
    CONTINENTS,
    cities,
    countries,
    country_aliases,
    divisions,
    regions,
)
from anonygraph.cues.cue import Cue
from anonygraph.cues.lexicon import table, words

COUNTRY_ALIASES: dict[str, str] = country_aliases()
"""Other names people write for countries -> ISO code."""
SHORT_COUNTRY: dict[str, str] = {"US": "the US", "GB": "the UK"}
"""How a replacement names a country where its GeoNames name reads oddly."""

LOCATIVE = frozenset(
    "in from to near at around outside of visit visited visiting into across "
    "through leave left towards toward via".split()
)
BIRTH_CONTEXT = re.compile(
    r"\b(?:born|grew up|raised|originally|hometown|home town|back home|native|"
    r"childhood|where i(?:'m| am) from|i'?m from|i am from|moved (?:away )?from)\b",
    re.IGNORECASE,
)
SELF_PLACE = re.compile(
    r"\b(?:i|we)(?:'ve| have)?\s+(?:\w+\s+){0,2}?(?:live|living|lived|moved|"
    r"settled|relocated|based|stay|staying)\b|\bhere in\b",
    re.IGNORECASE,
)
WORD = re.compile(r"[^\W\d_](?:[\w'’.&-]*\w)?\.?", re.UNICODE)


@dataclass(frozen=True)
class Place:
    """One gazetteer entry."""

    name: str
    kind: str  # city, country, state, region, continent
    country: str  # display name of the country, "" for a continent or region
    continent: str
    population: int = 0

    @property
    def value(self) -> str:
        """The attribute value the place states, e.g. ``Calgary, Canada``."""
        if self.kind in ("city", "state") and self.country:
            return f"{self.name}, {self.country}"
        return self.name


def fold(name: str) -> str:
    """Lower-case, accent-free key for gazetteer look-ups."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain.replace("’", "'").lower()


_GAZETTEER_LOCK = threading.Lock()


def gazetteer() -> dict[str, Place]:
    """Return folded name -> the most prominent place of that name."""
    # Built once per process, also when a warm-up thread (`warm_up`) and a
    # record ask for it at the same time.
    with _GAZETTEER_LOCK:
        return _gazetteer()


@lru_cache(maxsize=1)
def _gazetteer() -> dict[str, Place]:
    by_code: dict[str, Place] = {}
    places: dict[str, Place] = {}

    def add(key: str, place: Place) -> None:
        rank = {"country": 4, "state": 3, "region": 2, "continent": 5, "city": 1}
        old = places.get(fold(key))
        if (
            old is None
            or rank[place.kind] > rank[old.kind]
            or (place.kind == old.kind and place.population > old.population)
        ):
            places[fold(key)] = place

    for code, country in countries().items():
        place = Place(country.name, "country", country.name, country.continent)
        by_code[code] = place
        add(country.name, place)
    for alias, code in COUNTRY_ALIASES.items():
        if code in by_code:
            add(alias, by_code[code])
    for name in CONTINENTS.values():
        add(name, Place(name, "continent", "", name))
    us = by_code["US"]
    # The detectors name US states only; other states and provinces serve
    # the match rule.
    for division in divisions():
        if division.country == "US":
            add(division.name, Place(division.name, "state", us.name, us.continent))
    for region in regions():
        home = by_code.get(region.country)
        for name in region.names:
            add(
                name.removeprefix("the "),
                Place(
                    region.name,
                    "region",
                    home.name if home else "",
                    home.continent if home else "",
                ),
            )
    for city in cities():
        home_country = by_code.get(city.country)
        if home_country is None or len(city.name) < 3:
            continue
        add(
            city.name,
            Place(
                city.name,
                "city",
                home_country.name,
                home_country.continent,
                city.population,
            ),
        )
    return places


@lru_cache(maxsize=1)
def demonyms() -> dict[str, str]:
    """Return demonym -> country name, e.g. ``Argentine`` -> ``Argentina``."""
    places = gazetteer()
    result = {}
    for demonym, country, _ in table("demonyms.tsv"):
        place = places.get(fold(country))
        result[demonym] = place.name if place else country
    return result


def country_of(name: str) -> Place | None:
    """Return the country called ``name`` (any alias), or None."""
    place = gazetteer().get(fold(name))
    return place if place is not None and place.kind == "country" else None


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t\"'(“")
    return not before or before[-1] in ".!?\n:"


def _previous_word(text: str, start: int) -> str:
    match = re.search(r"([A-Za-z']+)[\s,]*$", text[:start])
    return match.group(1).lower() if match else ""


def _accept(text: str, start: int, end: int, place: Place, quote: str) -> bool:
    locative = _previous_word(text, start) in LOCATIVE
    if quote in words("ambiguous_places.txt") or quote.lower() in (
        w.lower() for w in words("ambiguous_places.txt")
    ):
        return locative and quote[:1].isupper()
    if not quote[:1].isupper():
        return (
            locative
            and place.kind != "city"
            or (locative and place.population >= 100_000 and len(quote) >= 4)
        )
    following = re.match(r" ([A-Z][a-z]+)", text[end:])
    if following and not locative:
        return False  # "Paris Hilton", "Jordan Peterson": a name, not a place
    if place.kind != "city" or locative:
        return True
    if _sentence_start(text, start):
        return " " in quote or place.population >= 1_000_000
    return place.population >= 250_000


def _attribute(text: str, start: int) -> str:
    clause_start = max(text.rfind(mark, 0, start) for mark in ".!?\n;")
    clause = text[clause_start + 1 : start]
    return "birth_city_country" if BIRTH_CONTEXT.search(clause) else "city_country"


def _certainty(text: str, start: int, place: Place) -> int:
    clause_start = max(text.rfind(mark, 0, start) for mark in ".!?\n;")
    own = bool(SELF_PLACE.search(text[clause_start + 1 : start])) or bool(
        BIRTH_CONTEXT.search(text[clause_start + 1 : start])
    )
    base = {"city": 4, "state": 4, "country": 3, "region": 3, "continent": 2}
    return min(5, base[place.kind] + (1 if own and place.kind == "city" else 0))


def display_country(name: str) -> str:
    """Return how a text names a country: ``United States`` -> ``the US``."""
    place = gazetteer().get(fold(name))
    code = next((c for c, n in _country_codes().items() if n == name), "")
    if code in SHORT_COUNTRY:
        return SHORT_COUNTRY[code]
    if place is not None and re.match(
        r"(?:United|Republic|Netherlands|Philippines)", name
    ):
        return f"the {name}"
    return name


@lru_cache(maxsize=1)
def _country_codes() -> dict[str, str]:
    return {code: country.name for code, country in countries().items()}


def replacement_for(place: Place) -> str:
    """Return the next coarser place: city -> country, country -> continent."""
    if place.kind in ("city", "state", "region") and place.country:
        return display_country(place.country)
    if place.kind == "region":
        region = next((r for r in regions() if r.name == place.name), None)
        return region.replacement if region else place.continent or place.name
    if place.kind == "country":
        return place.continent or place.name
    return place.name


def detect_places(text: str) -> list[Cue]:
    """Find place names and demonyms in ``text``."""
    places = gazetteer()
    tokens = [(m.start(), m.end()) for m in WORD.finditer(text)]
    cues: list[Cue] = []
    taken = -1
    for i, (start, _) in enumerate(tokens):
        if start < taken:
            continue
        for n in range(min(4, len(tokens) - i), 0, -1):
            end = tokens[i + n - 1][1]
            between = text[start:end]
            if n > 1 and not re.fullmatch(r"[^\s]+(?:[ -][^\s]+)*", between):
                continue
            quote = re.sub(r"(?:'s|’s|\.)$", "", between)
            if quote.endswith(".") and quote.count(".") == 1:
                quote = quote[:-1]
            place = places.get(fold(quote))
            if place is None and quote.startswith("the "):
                continue
            if place is None or not _accept(
                text, start, start + len(quote), place, quote
            ):
                continue
            if (
                place.kind in ("region", "country")
                and text[max(0, start - 4) : start].lower() == "the "
            ):
                start_at = start - 4
            else:
                start_at = start
            attribute = _attribute(text, start_at)
            cues.append(
                Cue(
                    start_at,
                    start + len(quote),
                    text[start_at : start + len(quote)],
                    attribute,
                    place.kind,
                    place.value,
                    replacement_for(place),
                    _certainty(text, start_at, place),
                    exact=place.kind == "city",
                )
            )
            taken = start + len(quote)
            break
    cues.extend(_detect_demonyms(text))
    return cues


def _detect_demonyms(text: str) -> list[Cue]:
    table_ = demonyms()
    pattern = re.compile(
        r"\b("
        + "|".join(sorted(map(re.escape, table_), key=len, reverse=True))
        + r")\b"
    )
    cues = []
    for match in pattern.finditer(text):
        before = text[max(0, match.start() - 20) : match.start()].lower()
        self_ref = bool(
            re.search(r"(?:i'm|i am|as an?|fellow|being)\s+(?:an?\s+)?$", before)
        )
        cues.append(
            Cue(
                match.start(),
                match.end(),
                match.group(1),
                "birth_city_country" if self_ref else "city_country",
                "demonym",
                table_[match.group(1)],
                "local",
                4 if self_ref else 3,
                exact=False,
            )
        )
    return cues
