"""Which cities' countries the text confirms, and which continents are true.

The gazetteer's country for a city is a guess wherever the author may mean
a place it does not hold: "Collingwood" (a Melbourne suburb) read as the
Canadian town, "born in Arabi" (Louisiana) as the Ethiopian one, "Bole,
Addis Ababa" as a Chinese city. Each held-out set brought a new name, so
the rule here is by class: a city's country is written only where the text
confirms it (`confirmed`); otherwise the city becomes its typed placeholder.

Confirmed means one of:
    (a) the text names the country ("the States", "UK", "England" for the
        UK: a country cue, any alias the gazetteer knows), where it does
        not negate it;
    (b) the city is qualified by a state, region, postal code or country
        ("Wichita, KS", "Pune, Maharashtra", "Richmond in Melbourne",
        merged by `anonygraph.cues.qualified_places`), or the same name is
        so qualified elsewhere in the text with the same country;
    (c) another place of the text (a second city, a state, a region) whose
        name every holder in the gazetteer places in that one country, said
        in no negation, and no place of the text lies only outside it (a
        different country, or a name no holder of which is in that country:
        the author's city may be its namesake there).
The city's own reading must be sure first (`anonygraph.cues.placeholders`
and `anonygraph.cues.construction` decide that); this module only withdraws.

A country named by the span itself keeps its continent ("from Ghana" ->
"from Africa"), and a nationality its continent's adjective: the gazetteer
puts each country in one continent (GeoNames' choice for a country on two,
Russia in Europe and Turkey in Asia, is kept as the gazetteer's). A region
of several countries keeps its continent only where every member country is
in it (`continent_true`): "the Middle East" -> "Asia" would be false of
Egypt, and "Southeast Asia" lists Timor-Leste, which GeoNames puts in
Oceania, so both become the placeholder. States and regions of one country
keep that country: their names are the division's, not a town's guess. No
rule writes "abroad" or "overseas": those would say where the author is not.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import cache
from typing import Any

from anonygraph.attributes.gazetteer import CONTINENTS, countries, regions
from anonygraph.cues.cue import PLACE_KINDS, Cue
from anonygraph.cues.namesakes import namesake_countries
from anonygraph.cues.owners import no_places, others_facts
from anonygraph.cues.place_contract import negated, plain_name
from anonygraph.cues.placeholders import unsure
from anonygraph.cues.places import display_country, fold, gazetteer

_QUALIFIED = re.compile(r",|\s+in\s+")
"""What joins a city to the place that says which one it is."""


def confirmed_places(text: str, doc: Any, cues: list[Cue]) -> list[Cue]:
    """Return ``cues`` with each unconfirmed country or untrue continent a placeholder.

    Args:
        text: The text the cues were found in.
        doc: Its spaCy parse (whose clause a place is in).
        cues: The text's cues, each settled and checked by construction.

    Returns:
        ``cues``, a sure city whose country the text does not confirm
        (`confirmed`) and a region whose continent is not every member's
        (`continent_true`) replaced by their typed placeholder.

    """
    out = list(cues)
    theirs: set[Cue] | None = None
    for i, cue in enumerate(cues):
        if not cue.sure or not cue.attribute.endswith("country"):
            continue
        if cue.kind == "city" and theirs is None:
            theirs = set(others_facts(doc, cues)) | set(no_places(doc, cues))
        if (cue.kind == "city" and not confirmed(text, cue, cues, theirs or ())) or (
            cue.kind == "region" and not continent_true(cue)
        ):
            out[i] = unsure(cue)
    return out


def confirmed(
    text: str, cue: Cue, cues: list[Cue], theirs: Collection[Cue] = ()
) -> bool:
    """Tell whether the text confirms the country a city's cue would write.

    Args:
        text: The text the cues were found in.
        cue: A sure city cue whose replacement names a country.
        cues: Every cue of the text (the other places are the evidence).
        theirs: Cues of someone else's clause ("my gran lives in Addis
            Ababa") or of no place: they may deny a country, never confirm
            the author's.

    Returns:
        True where (a), (b) or (c) of the module's rule holds.

    """
    country = country_named_by(cue.replacement)
    if not country:
        return True  # no country written ("a city", a placeholder)
    if _QUALIFIED.search(cue.quote):
        return True  # (b): "Wichita, KS", "Richmond in Melbourne"
    name = _base(cue.quote)
    supported = contradicted = False
    for other in cues:
        if other is cue or other.overlaps(cue) or not _a_place(other):
            continue
        if _base(other.quote) == name:
            # The same name again: qualified, it says which place (b).
            if (
                _QUALIFIED.search(other.quote)
                and other.sure
                and other.replacement == cue.replacement
            ):
                return True
            continue
        found = resolved(other)
        if not found:
            continue  # a name no table holds says nothing either way
        denied = negated(text, other.start) or other in theirs
        if other.kind == "country" and found == {country} and not denied:
            return True  # (a): "... been in Canada ten years"
        if country not in found:
            contradicted = True
        elif found == {country} and not denied:
            supported = True
    return supported and not contradicted  # (c)


def resolved(cue: Cue) -> frozenset[str]:
    """Return every country a place cue's name may lie in; empty when unknown.

    A qualified city ("Pune, Maharashtra") lies where its qualifier says; a
    country is itself; a city, state or region lies in every country the
    gazetteer holds a place of that name in (`namesakes.namesake_countries`).
    """
    if _QUALIFIED.search(plain_name(cue.quote)):
        country = country_named_by(cue.replacement) if cue.sure else ""
        return frozenset({country}) if country else frozenset()
    name = plain_name(cue.quote)
    # "the States" is the alias itself; "the Midwest" a region's name less "the".
    place = gazetteer().get(fold(cue.quote.strip())) or gazetteer().get(fold(name))
    if place is None or place.kind == "continent":
        return frozenset()
    if place.kind == "country":
        return frozenset({place.name})
    found = set(namesake_countries(name))
    if place.country:
        found.add(place.country)
    return frozenset(found)


def country_named_by(replacement: str) -> str:
    """Return the country a replacement names (``the US`` -> ``United States``)."""
    return _display_names().get(replacement.lower(), "")


def continent_true(cue: Cue) -> bool:
    """Tell whether a region's continent is true of every country in it.

    "Scandinavia" -> "Europe" is; "the Middle East" -> "Asia" is not
    (Egypt is in Africa). A region of one country, and any other place,
    is not this check's.
    """
    place = gazetteer().get(fold(plain_name(cue.quote)))
    if place is None or place.kind != "region" or place.country:
        return True
    region = next((r for r in regions() if r.name == place.name), None)
    if region is None or not region.members:
        return True
    named = _continents_of(cue.replacement)
    if not named:
        return True  # not a continent: another rule's form
    held = countries()
    return all(
        code in held and held[code].continent in named for code in region.members
    )


def _continents_of(replacement: str) -> frozenset[str]:
    """Return the continents a form names: one, or both for "the Americas"."""
    if replacement in CONTINENTS.values():
        return frozenset({replacement})
    plural = re.fullmatch(r"the (\w+)s", replacement)
    if plural is None:
        return frozenset()
    return frozenset(c for c in CONTINENTS.values() if c.endswith(plural.group(1)))


def _a_place(cue: Cue) -> bool:
    return cue.kind in PLACE_KINDS and cue.attribute.endswith("country")


def _base(quote: str) -> str:
    """Return a place's name less its qualifier: "Richmond, VA" -> "richmond"."""
    return fold(_QUALIFIED.split(plain_name(quote))[0].strip())


@cache
def _display_names() -> dict[str, str]:
    return {display_country(c.name).lower(): c.name for c in countries().values()}
