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
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from anonygraph.attributes.gazetteer import (
    CONTINENTS,
    cities,
    countries,
    country_aliases,
    divisions,
    regions,
    source_files,
)
from anonygraph.cues.cue import Cue, clause_before
from anonygraph.cues.lexicon import table, words
from anonygraph.cues.memo import DETECTIONS
from anonygraph.runs.kept_tables import Converted, kept_table, module_file
from anonygraph.tools import kept_patterns

COUNTRY_ALIASES: dict[str, str] = country_aliases()
"""Other names people write for countries -> ISO code."""
SHORT_COUNTRY: dict[str, str] = {"US": "the US", "GB": "the UK"}
"""How a replacement names a country where its GeoNames name reads oddly."""

LOCATIVE = frozenset(
    "in from to near at around outside of visit visited visiting into across "
    "through leave left towards toward via".split()
)
BIRTH_CONTEXT = kept_patterns.compile(
    r"\b(?:born|grew up|raised|originally|hometown|home town|back home|native|"
    r"childhood|where i(?:'m| am) from|i'?m from|i am from|moved (?:away )?from)\b",
    re.IGNORECASE,
)
SELF_PLACE = kept_patterns.compile(
    r"\b(?:i|we)(?:'ve| have)?\s+(?:\w+\s+){0,2}?(?:live|living|lived|moved|"
    r"settled|relocated|based|stay|staying)\b|\bhere in\b",
    re.IGNORECASE,
)
NEARBY = frozenset("outside near around nearby".split())
"""Words after which a city is a landmark of distance, not a container."""
CONTINENT_ADJECTIVES: dict[str, tuple[str, str]] = {
    "Europe": ("European", "Europeans"),
    "Asia": ("Asian", "Asians"),
    "Africa": ("African", "Africans"),
    "North America": ("North American", "North Americans"),
    "South America": ("South American", "South Americans"),
    "Oceania": ("Oceanian", "Oceanians"),
}
"""A nationality's coarser form: the adjective of its continent, true of every
country in it ("Antipodean" would be false of a Tongan or a Fijian)."""
WORD = kept_patterns.compile(r"[^\W\d_](?:[\w'’.&-]*\w)?\.?", re.UNICODE)


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
    if name.isascii():
        # Most names: NFKD leaves ASCII as it is, and it holds no '’'. The
        # gazetteer folds some 60,000 names at every process's start.
        return name.lower()
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain.replace("’", "'").lower()


_GAZETTEER_LOCK = threading.Lock()


def gazetteer() -> Mapping[str, Place]:
    """Return folded name -> the most prominent place of that name."""
    # Built once per process, also when a warm-up thread (`warm_up`) and a
    # record ask for it at the same time.
    with _GAZETTEER_LOCK:
        return _gazetteer()


def place_table_files() -> tuple[object, ...]:
    """Return the files the place tables come from: the gazetteer's and this code."""
    return (*source_files(), module_file(__name__))


def _encode_places(places: Mapping[str, Place]) -> dict[str, list[Any]]:
    # Each place once (a country stands under its aliases too), then the keys.
    index: dict[Place, int] = {}
    at = [index.setdefault(place, len(index)) for place in places.values()]
    rows = [[p.name, p.kind, p.country, p.continent, p.population] for p in index]
    return {"keys": list(places), "at": at, "places": rows}


def _decode_places(kept: dict[str, list[Any]]) -> Mapping[str, Place]:
    rows, at = kept["places"], kept["at"]
    if not all(type(row) is list and len(row) == 5 for row in rows) or (
        at and not 0 <= min(at) <= max(at) < len(rows)
    ):
        raise ValueError("not a place table")
    # A country stands under several names: one Place for all of them.
    made: list[Place | None] = [None] * len(rows)

    def place(i: int) -> Place:
        found = made[i]
        if found is None:
            found = made[i] = Place(*rows[i])
        return found

    return Converted(dict(zip(kept["keys"], at, strict=True)), place)


def _decode_names(kept: list[str]) -> frozenset[str]:
    if not isinstance(kept, list) or not all(isinstance(n, str) for n in kept):
        raise TypeError("not a list of names")
    return frozenset(kept)


@lru_cache(maxsize=1)
def _gazetteer() -> Mapping[str, Place]:
    DETECTIONS.clear()  # cues read with the old tables (a test rebuilds them)
    return _kept_gazetteer()


@kept_table(
    "places", 1, place_table_files, encode=_encode_places, decode=_decode_places
)
def _kept_gazetteer() -> Mapping[str, Place]:
    by_code: dict[str, Place] = {}
    places: dict[str, Place] = {}

    rank = {"country": 4, "state": 3, "region": 2, "continent": 5, "city": 1}

    def add(key: str, place: Place) -> None:
        folded = fold(key)
        old = places.get(folded)
        if (
            old is None
            or rank[place.kind] > rank[old.kind]
            or (place.kind == old.kind and place.population > old.population)
        ):
            places[folded] = place

    for code, country in countries().items():
        place = Place(country.name, "country", country.name, country.continent)
        by_code[code] = place
        add(country.name, place)
    for alias, code in COUNTRY_ALIASES.items():
        if code in by_code:
            add(alias, by_code[code])
    for name in CONTINENTS.values():
        add(name, Place(name, "continent", "", name))
    # Canada's provinces and Australia's states are places too, but a big
    # city's name ("Victoria, BC", Québec) reads as the city; a smaller one's
    # (Ontario, California) does not.
    all_cities = cities()
    big_cities = {fold(c.name) for c in all_cities if c.population > 200_000}
    for division in divisions():
        owner = by_code[division.country]
        if division.country == "US" or fold(division.name) not in big_cities:
            add(
                division.name,
                Place(division.name, "state", owner.name, owner.continent),
            )
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
    for city in all_cities:
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


DETERMINERS = frozenset("a an the our my his her their your this that".split())


def _modifies_noun(text: str, start: int, end: int) -> bool:
    """Tell whether a place name stands as an adjective: "a Zurich insurer"."""
    following = re.match(r"\s+([a-z]+)\b", text[end:])
    return (
        _previous_word(text, start) in DETERMINERS
        and following is not None
        and following.group(1) not in ("and", "or", "is", "was", "are", "in", "on")
    )


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t\"'(“")
    return not before or before[-1] in ".!?\n:"


def _previous_word(text: str, start: int) -> str:
    match = re.search(r"([A-Za-z']+)[\s,]*$", text[:start])
    return match.group(1).lower() if match else ""


CALENDAR_WORDS = frozenset(
    "january february march april may june july august september october november "
    "december monday tuesday wednesday thursday friday saturday sunday".split()
)
"""Months and days: "passed in March" is a date, not the town of March."""


@lru_cache(maxsize=1)
@kept_table(
    "contested-cities", 1, place_table_files, encode=sorted, decode=_decode_names
)
def contested_city_names() -> frozenset[str]:
    """Return city names shared by countries of like size (Gloucester, Richmond).

    Without a state or country beside it, such a name's country is a guess:
    it becomes "a city", not the country of the biggest one.
    """
    largest: dict[str, dict[str, int]] = {}
    for city in cities():
        by_country = largest.setdefault(fold(city.name), {})
        by_country[city.country] = max(by_country.get(city.country, 0), city.population)
    contested = set()
    for name, by_country in largest.items():
        sizes = sorted(by_country.values(), reverse=True)
        if len(sizes) > 1 and sizes[1] * 2 >= sizes[0]:
            contested.add(name)
    return frozenset(contested)


@lru_cache(maxsize=1)
def postal_codes() -> dict[str, str]:
    """Return state and province postal codes -> country name (NJ -> United States)."""
    names = {code: country.name for code, country in countries().items()}
    return {
        d.postal: names[d.country] for d in divisions()
        if d.postal and d.country in names
    }  # fmt: skip


def _accept(text: str, start: int, end: int, place: Place, quote: str) -> bool:
    if quote.lower() in CALENDAR_WORDS and not re.match(r",\s*[A-Z]", text[end:]):
        return False
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


def place_attribute(text: str, start: int) -> str:
    """Return the attribute a place at ``start`` speaks of: birthplace or home."""
    return _attribute(text, start)


def _attribute(text: str, start: int) -> str:
    clause = clause_before(text, start, ".!?\n;")
    return "birth_city_country" if BIRTH_CONTEXT.search(clause) else "city_country"


def _certainty(text: str, start: int, place: Place) -> int:
    clause = clause_before(text, start, ".!?\n;")
    own = bool(SELF_PLACE.search(clause)) or bool(BIRTH_CONTEXT.search(clause))
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
    if name.startswith("The "):
        return "the " + name[4:]  # GeoNames' "The Netherlands", mid-sentence
    return name


@lru_cache(maxsize=1)
def _country_codes() -> dict[str, str]:
    return {code: country.name for code, country in countries().items()}


def _decode_pairs(kept: list[list[str]]) -> frozenset[tuple[str, str]]:
    return frozenset((name, country) for name, country in kept)


@lru_cache(maxsize=1)
@kept_table("big-cities", 1, place_table_files, encode=sorted, decode=_decode_pairs)
def _city_names() -> frozenset[tuple[str, str]]:
    names = _country_codes()
    return frozenset(
        (fold(city.name), names.get(city.country, ""))
        for city in cities()
        if city.population >= 300_000
    )


def is_city_state(place: Place) -> bool:
    """Tell whether a country is also its own big city (Singapore, Monaco)."""
    return place.kind == "country" and (fold(place.name), place.name) in _city_names()


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
            replacement = replacement_for(place)
            if place.kind == "city" and (
                _previous_word(text, start_at) in NEARBY
                or fold(quote) in contested_city_names()
            ):
                # "a village outside Cork": the country would say "abroad".
                replacement = "a city"
            elif place.kind == "city" and _modifies_noun(
                text, start_at, start + len(quote)
            ):
                replacement = "local"  # "a Zurich insurer" -> "a local insurer"
            cues.append(
                Cue(
                    start_at,
                    start + len(quote),
                    text[start_at : start + len(quote)],
                    attribute,
                    place.kind,
                    place.value,
                    replacement,
                    _certainty(text, start_at, place),
                    # A country is where generalizing a place stops, unless
                    # it is a city too (Singapore, Monaco).
                    exact=place.kind in ("city", "state", "region")
                    or is_city_state(place),
                )
            )
            taken = start + len(quote)
            break
    cues.extend(_detect_demonyms(text))
    return cues


SELF_DEMONYM = kept_patterns.compile(
    r"(?:\bi'm|\bi am|\bas an?|\bfellow|\bbeing|\bother|\bwe|\bus|\bwe're|\bwe are)"
    r"\s+(?:an?\s+)?(?:proud\s+|young\s+|half\s+)?$"
    # "Half Nigerian, half Irish, grew up in ...": the author's halves.
    r"|(?:^|[.!?]\s+|,\s*|\band\s+)half[\s-]+$"
    # "Just a Kiwi bloke ...", "Proud Brummie, now in Spain": a fragment opening
    # a sentence introduces the author.
    r"|(?:^|[.!?]\s+)(?:just\s+an?|(?:an?\s+)?proud)\s+$",
    re.IGNORECASE,
)
LANGUAGE_BEFORE = kept_patterns.compile(
    r"\b(?:speak|speaks|spoke|speaking|learn|learning|learned|learnt|study|studying|"
    r"teach|teaches|teaching|taught|fluent in|in|translate|my|our|his|her|native)\s+$",
    re.IGNORECASE,
)


_SENTENCE_OPENING = kept_patterns.compile(r"(?:^|[.!?\n,:]\s*)$")


def _author_as_noun(text: str, match: re.Match[str], before: str, after: str) -> bool:
    """Tell whether "for a Brit living in Nantes" speaks of the author.

    A demonym noun after "for a", not followed by a noun ("for a British
    firm"), in a text that speaks in the first person, is the author seen
    from outside ("which is saying something for a Brit").
    """
    return (
        bool(re.search(r"\bfor\s+an?\s+$", before, re.IGNORECASE))
        and not match.group(2)
        and bool(
            re.match(
                r"\s*(?:[,.;!?]|$|living\b|who\b|like me\b|abroad\b|"
                r"based\b|in\b|from\b)",
                after,
            )
        )  # fmt: skip
        and bool(re.search(r"\b(?:I|my|me|I'm)\b", text))
    )


def _detect_demonyms(text: str) -> list[Cue]:
    table_ = demonyms()
    pattern = kept_patterns.compile(
        r"(?<!North )(?<!South )(?<!Latin )\b("
        + "|".join(sorted(map(re.escape, table_), key=len, reverse=True))
        + r")(s?)\b"
    )
    cues: list[Cue] = []
    for match in pattern.finditer(text):
        before = text[max(0, match.start() - 20) : match.start()]
        after = text[match.end() : match.end() + 20]
        language = bool(LANGUAGE_BEFORE.search(before)) and not match.group(2)
        if language or re.match(
            r"\s*(?:lessons?|class|teacher|course|speakers?)\b", after
        ):
            continue  # a language, not a nationality
        self_ref = (
            bool(SELF_DEMONYM.search(before))
            or re.match(r"\s+here\b", after)
            # "Aussie expat in Dubai here": a few words before "here" when
            # the demonym opens the sentence.
            or re.match(r"(?:\s+[\w-]+){1,3}?\s+here\b", text[match.end() :])
            and _SENTENCE_OPENING.search(text[: match.start()])
            or _author_as_noun(text, match, before, after)
        )
        country = table_[match.group(1)]
        place = gazetteer().get(fold(country)) or gazetteer().get(
            fold(f"the {country}")
        )
        continent = place.continent if place is not None else ""
        forms = CONTINENT_ADJECTIVES.get(continent, ("foreign", "foreigners"))
        replacement = forms[1] if match.group(2) else forms[0]
        cues.append(
            Cue(
                match.start(),
                match.end(),
                match.group(0),
                "birth_city_country" if self_ref else "city_country",
                "demonym",
                country,
                replacement if self_ref else match.group(0),
                4 if self_ref else 2,
                exact=bool(self_ref),
            )
        )
    return _join_hyphenated(text, cues)


def _join_hyphenated(text: str, cues: list[Cue]) -> list[Cue]:
    """Make "Mexican-American" one cue: its parts' continents, joined once.

    Replaced part by part it would read "North American-American"; as one
    span it becomes "North American" (both parts on one continent),
    "Asian-American" or "Asian-South American".
    """
    joined: list[Cue] = []
    for cue in cues:
        last = joined[-1] if joined else None
        if (
            last is not None
            and last.end + 1 == cue.start
            and text[last.end] == "-"
            and (last.exact or cue.exact)
        ):
            first = next(
                (forms[0] for forms in CONTINENT_ADJECTIVES.values()
                 if last.replacement in forms), last.replacement,
            )  # fmt: skip
            # "Korean-American": a kept second part stays ("Asian-American").
            # "Asian-American" is how heritage is said; other second parts
            # are the author's nationality too ("Japanese-Brazilian").
            american = cue.quote == "American"
            second = cue.quote if american else _self_form(cue)
            parts = [first] if first == _self_form(cue) else [first, second]
            joined[-1] = replace(
                last,
                end=cue.end,
                quote=text[last.start : cue.end],
                value=f"{last.value}; {cue.value}",
                replacement="-".join(parts),
                exact=True,
            )
            continue
        joined.append(cue)
    return joined


def _self_form(cue: Cue) -> str:
    """Return a demonym's continent adjective, whatever its own replacement."""
    place = gazetteer().get(fold(cue.value)) or gazetteer().get(
        fold(f"the {cue.value}")
    )
    continent = place.continent if place is not None else ""
    return CONTINENT_ADJECTIVES.get(continent, ("foreign", "foreigners"))[0]
