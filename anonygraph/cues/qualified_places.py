"""A place the text qualifies by the place beside it: "Hamilton, Ontario".

"Hamilton, Ontario", "Victoria, BC", "Richmond in Melbourne": the second
place (or a postal code) says which of the places of that name is meant, so
the two become one span whose replacement is the qualifier's country.
"""

from __future__ import annotations

import re
from dataclasses import replace

from anonygraph.cues.cue import PLACE_KINDS, Cue
from anonygraph.cues.namesakes import sure_city
from anonygraph.cues.places import display_country, fold, gazetteer, postal_codes


def merge_qualified_places(text: str, cues: list[Cue]) -> list[Cue]:
    """Make "Hamilton, Ontario" one place: the region says which Hamilton.

    Replaced one by one it would read "Canada, Canada" (or, for a name that
    is also a city elsewhere, "Canada, the US"); as one span it becomes the
    qualifier's country.
    """
    places = sorted(
        (c for c in cues if c.kind in PLACE_KINDS and c.attribute.endswith("country")),
        key=lambda c: c.start,
    )
    merged: dict[Cue, Cue] = {}
    gone: set[Cue] = set()
    codes = postal_codes()
    for index, first in enumerate(places):
        if first in gone or first.kind not in ("city", "state", "region"):
            continue
        second = places[index + 1] if index + 1 < len(places) else None
        code = re.match(r",\s*([A-Z]{2,3}\b|(?:[A-Z]\.){2,3})", text[first.end :])
        if code and code.group(1).replace(".", "") in codes:
            # "Victoria, BC", "New Brunswick, NJ", "Kamloops, B.C.": a postal
            # code, with or without its dots, says which.
            country = codes[code.group(1).replace(".", "")]
            end = first.end + code.end()
        elif (
            second is not None
            and first.kind == "city"
            and re.fullmatch(r"\s+in\s+", text[first.end : second.start])
            and (country := _container_country(second.quote))
        ):
            # "Richmond in Melbourne": the part of a city the text places in
            # it, whatever other Richmonds there are.
            end = second.end
            gone.add(second)
        elif second is not None and re.fullmatch(
            r",\s*", text[first.end : second.start]
        ):
            qualifier = gazetteer().get(fold(second.quote.removeprefix("the ")))
            if qualifier is None or qualifier.kind not in (
                "state",
                "region",
                "country",
            ):
                continue
            country = (
                qualifier.name if qualifier.kind == "country" else qualifier.country
            )
            end = second.end
            gone.add(second)
        else:
            continue
        # "Toronto, Ontario, Canada": the country after the qualifier goes too.
        for after in places[index + 1 :]:
            if after.start >= end and re.fullmatch(r",\s*", text[end : after.start]):
                if (
                    after.kind == "country"
                    and country
                    and fold(after.value) == fold(country)
                ):
                    end = after.end
                    gone.add(after)
                break
        replacement = display_country(country) if country else first.replacement
        merged[first] = replace(
            first,
            kind="city",
            end=end,
            quote=text[first.start : end],
            value=f"{text[first.start : end]}",
            replacement=replacement,
        )
    out = []
    for cue in cues:
        if cue in gone or any(
            cue is not m and cue.start == m.start and cue.end == m.end for m in gone
        ):
            continue
        out.append(merged.get(cue, cue))
    return out


def _container_country(quote: str) -> str:
    """Return the country of a place that contains another, "" when unsure.

    A state, region or country says it; a city only when its name is one
    country's (`anonygraph.cues.placeholders.sure_city`).
    """
    place = gazetteer().get(fold(quote.removeprefix("the ")))
    if place is None:
        return ""
    if place.kind == "country":
        return place.name
    if place.kind in ("state", "region"):
        return place.country
    return sure_city(place.name) if place.kind == "city" else ""
