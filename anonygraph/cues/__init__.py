"""Explicit-cue detectors and generalizers.

Explicit cues are spans that state an attribute of the author outright: place
names, ages and birth years, partners and relationship status, gendered
self-references, job titles and workplaces, schools and degrees, money
amounts. Each detected `Cue` carries its span, the attribute it points to and
a coarser replacement (city -> country, 27 -> "in my late twenties",
"my husband" -> "my partner", "$85k" -> "tens of thousands").

A replacement is made only where the parse and the rest of the text confirm
what the span is; where a coarser form would be a guess, the span becomes its
attribute's typed placeholder ("[PLACE]", "[AGE]", "[INCOME]":
`anonygraph.cues.placeholders`), and a span the parse shows is no cue (a
house number, a person's name) stays as written.

Entry points: `detect_cues` finds them, `generalize_text` replaces them,
`is_generalization` tells whether one cue is a coarser form of another.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from anonygraph.cues.ages import detect_ages
from anonygraph.cues.boundaries import apart, on_whole_words, within_longer_names
from anonygraph.cues.construction import constructed
from anonygraph.cues.contract import (
    without_authorless_places,
    without_borrowed_first_person,
)
from anonygraph.cues.cue import PLACE_KINDS, Cue, clause_before, sentence_of
from anonygraph.cues.employers import confirm_employers
from anonygraph.cues.engine import Engine, default_engine
from anonygraph.cues.frames import detect_frames
from anonygraph.cues.memo import DETECTIONS
from anonygraph.cues.money import band_range, detect_money
from anonygraph.cues.named_entities import (
    at_institution,
    detect_entities,
    organization_cue,
)
from anonygraph.cues.occupations import (
    detect_business,
    detect_licences,
    detect_occupations,
)
from anonygraph.cues.owners import no_places, others_facts
from anonygraph.cues.phrases import detect_phrases
from anonygraph.cues.place_contract import negated, second_place
from anonygraph.cues.placeholders import (
    NAME_MODIFIER,
    PLACEHOLDERS,
    STATUS_MODIFIER,
    placeholder,
    settle,
)
from anonygraph.cues.places import (
    CONTINENT_ADJECTIVES,
    detect_places,
    fold,
    gazetteer,
)
from anonygraph.cues.qualified_places import merge_qualified_places
from anonygraph.cues.retirement import detect_retirement
from anonygraph.cues.self_descriptions import detect_self_descriptions
from anonygraph.cues.statuses import detect_statuses
from anonygraph.cues.teaching import detect_teaching
from anonygraph.cues.work_verbs import detect_work_verbs
from anonygraph.cues.workplaces import detect_workplaces
from anonygraph.tools import kept_patterns

__all__ = [
    "Cue",
    "detect_cues",
    "generalize",
    "generalize_text",
    "is_generalization",
    "select_spans",
    "warm_up",
]


def detect_cues(
    text: str,
    attributes: Iterable[str] | None = None,
    engine: Engine | None = None,
) -> list[Cue]:
    """Return every explicit cue in ``text``, in text order.

    The pattern and word-list recognizers run first; the entity recognizer
    adds the names they missed (an entity overlapping their cue is theirs).

    Args:
        text: The text to scan.
        attributes: Keep only cues pointing to these attributes; all when None.
        engine: The NLP engine that parses ``text``; the shared spaCy
            pipeline (`default_engine`) when None.

    """
    if engine is None:
        known = _remembered(text)
        if attributes is None:
            return list(known)
        wanted = set(attributes)
        return [c for c in known if c.attribute in wanted]
    doc = engine(text)
    places = detect_places(text)
    # An amount is in the money of the country the text is set in ("$" in
    # Toronto is Canadian): its income band is that economy's.
    countries = {c.value.rpartition(", ")[2] for c in places}
    cues = places + detect_ages(text) + detect_money(text, countries, doc)
    cues += detect_phrases(text) + detect_occupations(text, doc)
    cues += detect_teaching(text, doc) + detect_business(text, doc)
    cues += detect_licences(text) + detect_statuses(text, doc)
    cues += detect_self_descriptions(text) + detect_workplaces(text)
    cues += detect_frames(text) + detect_retirement(text)
    cues += detect_work_verbs(text, doc)
    # "Did my PGCE at Cardiff Met": a verb whose object is a degree is studies;
    # the degree's own cue speaks for it, and "Worked at" would be false.
    cues = [
        c for c in cues
        if c.kind != "job_verb" or not any(
            o.attribute == "education" and o.kind == "degree"
            and c.start <= o.start and o.end <= c.end
            for o in cues
        )
    ]  # fmt: skip
    found = detect_entities(text, doc, cues)
    replaced = {(c.start, c.end) for c in found}
    cues = [c for c in cues if (c.start, c.end) not in replaced] + found
    cues = [_as_name_modifier(text, doc, c) for c in cues]
    cues = [_named_by_neighbour(text, c, cues) for c in cues]
    cues = merge_qualified_places(text, [_city_as_school(text, c) for c in cues])
    cues = _without_relatives_schools(text, cues)
    # What the parse and the rest of the text do not confirm becomes a typed
    # placeholder; what they show is no cue (a house number) is dropped.
    cues = confirm_employers(text, doc, settle(text, doc, cues))
    cues = constructed(text, doc, cues)  # no guessed kind, country or status
    # "finishing my studies" said of Dolly Parton would be a false sentence.
    cues = without_borrowed_first_person(doc, cues)
    # A span cut inside a word ("m 17" in "im 17") would leave a fragment.
    cues = apart(text, within_longer_names(doc, on_whole_words(text, cues)))
    # "My nan goes to bingo in Blackpool": a place, job or age of the clause's
    # subject, someone other than the author, is no cue of the author's.
    # A name that is no place takes the names inside it along.
    theirs = others_facts(doc, cues)
    named = no_places(doc, cues)
    cues = [
        c for c in cues
        if c not in theirs
        and not any(n.start <= c.start and c.end <= n.end for n in named)
    ]  # fmt: skip
    # A timetable or a forecast in no person states no place of its author's.
    cues = without_authorless_places(doc, cues)
    # A span that is already its own coarse form ("student") is no lead to edit.
    cues = [
        replace(c, exact=False)
        if c.exact and c.replacement.lower() == c.quote.lower()
        else c
        for c in cues
    ]
    # "Westfield" inside "Westfield High": the longer span says it all, and
    # the inner one would tell the attacker a second, wrong level.
    cues = [
        c for c in cues
        if not any(
            o.attribute == c.attribute and o.start <= c.start and c.end <= o.end
            and o.end - o.start > c.end - c.start
            for o in cues
        )
    ]  # fmt: skip
    if "[" in text:
        cues = _outside_placeholders(text, cues)
    if attributes is not None:
        wanted = set(attributes)
        cues = [c for c in cues if c.attribute in wanted]
    return sorted(cues, key=lambda c: (c.start, -c.end, c.attribute))


def _outside_placeholders(text: str, cues: list[Cue]) -> list[Cue]:
    """Drop cues inside an identifier's placeholder (``[EMAIL_2]`` is no company).

    The placeholder stands for a value the identifier pass took out; a
    generalizer rewriting it would leave nothing to restore.
    """
    from anonygraph.identifiers.detect import PLACEHOLDER

    taken = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
    return [c for c in cues if not any(s < c.end and c.start < e for s, e in taken)]


def _remembered(text: str) -> tuple[Cue, ...]:
    """Return ``text``'s cues with the shared pipeline, detected once per process.

    The key holds what else changes the answer: the date (ages from birth
    years) and the detectors themselves, so a detector replaced at run time
    (a test's patch) is not answered from the cache. A rebuilt gazetteer
    clears the cache (`anonygraph.cues.places`); asking for it first makes a
    cleared one rebuild before the lookup.
    """
    gazetteer()
    key = (text, dt.date.today(), _detectors())
    cues = DETECTIONS.get(key)
    if cues is None:
        cues = tuple(detect_cues(text, engine=default_engine()))
        DETECTIONS.put(key, cues)
    return cues


def _detectors() -> tuple[object, ...]:
    return (
        default_engine, detect_places, detect_ages, detect_money, detect_phrases,
        detect_occupations, detect_teaching, detect_business, detect_licences,
        detect_statuses, detect_self_descriptions, detect_workplaces,
        detect_entities, detect_frames, detect_retirement, detect_work_verbs,
    )  # fmt: skip


def warm_up() -> None:
    """Load the detectors' tables now rather than on the first record's check.

    Building the place gazetteer takes about half a second and loading the
    spaCy pipeline about 1.5 s; batch runs and workers call this in a thread
    at start, while their first model calls wait.
    """
    detect_cues("Born in Calgary, Canada in 1990; I am 34 and earn $85k.")


REMOVED_KINDS = frozenset(
    {"age_sex_tag", "graduation_year", NAME_MODIFIER, STATUS_MODIFIER}
)
"""Cue kinds whose span goes without a replacement ("(27F)", " in 2015",
"Toyota" in "a Toyota supplier", "divorced" in "a divorced father")."""

_DETERMINER_BEFORE = kept_patterns.compile(
    r"\b(?:a|an|the|my|our|his|her|their)\s+$", re.I
)


def _city_as_school(text: str, cue: Cue) -> Cue:
    """Read a city after "at" in a sentence about studies as its university.

    "doing law at Cardiff" -> "doing law at a university", not "at the UK".
    """
    if cue.kind != "city" or not re.search(r"\bat\s+$", text[: cue.start]):
        return cue
    # "Our daughter started at Oxford this year": a city one starts at, with
    # the start of a year after it, is its university ("started at Lisbon"
    # on a trip is not).
    school = bool(_ENROLLED_AT.search(text[: cue.start])) or bool(
        _STARTED_AT.search(text[: cue.start]) and _TERM_AFTER.match(text, cue.end)
    )
    if not school and not at_institution(text, cue.start, cue.end):
        return cue
    sentence = sentence_of(text, cue.start, cue.end)
    return organization_cue(text, cue.start, cue.end, sentence, "at", school)


_NEIGHBOUR_AT = kept_patterns.compile(
    r"\s+(?:in\s+[\w' -]{1,30}?\s+)?(?:at|from|for|with)\s+$", re.IGNORECASE
)
"""What joins a degree or a job to where it is: "my B.Tech at", "a BSc in
physics from", "a software engineer at"."""


def _named_by_neighbour(text: str, cue: Cue, cues: list[Cue]) -> Cue:
    """Read a name right after a degree as its school, after a job as its employer.

    "Completed my B.Tech at NIT Trichy", "a software engineer at Infosys":
    the cue before says what the name is, where a name the education and
    work words do not know was read as an employer ("at a company", false of
    a school) or left unsaid ("[PLACE]").
    """
    if cue.kind not in ("organization", "area") or cue.attribute == "education":
        return cue  # a name the gazetteer holds is a city ("_city_as_school")
    for other in cues:
        degree = other.attribute == "education" and other.kind == "degree"
        job = other.attribute == "occupation" and other.kind == "job"
        if (
            (degree or job)
            and other.end <= cue.start
            and _NEIGHBOUR_AT.fullmatch(text[other.end : cue.start])
            and (degree or not re.search(r"\bfrom\s+$", text[: cue.start]))
        ):
            sentence = sentence_of(text, cue.start, cue.end)
            name = cue.start + 4 if cue.quote.lower().startswith("the ") else cue.start
            before = text[other.end : name].split()[-1].lower()
            return organization_cue(
                text, name, cue.end, sentence, before, school=degree, employer=job
            )
    return cue


_ENROLLED_AT = kept_patterns.compile(
    r"\b(?:enroll?(?:ed|ing)|accepted|a place)\s+at\s+$", re.I
)
_STARTED_AT = kept_patterns.compile(r"\bstart(?:ed|ing|s)?\s+at\s+$", re.I)
_TERM_AFTER = kept_patterns.compile(
    r"\s+(?:this|last|next|in)\s+(?:year|term|semester|autumn|fall|september|"
    r"october|january)\b",
    re.I,
)


_RELATIVE_BEFORE = kept_patterns.compile(
    r"\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:sons?|daughters?|"
    r"grandsons?|granddaughters?|grandkids|grandchildren|kids?|children|child|"
    r"brothers?|sisters?|nephews?|nieces?|cousins?|wife|husband|partner|"
    r"boyfriend|girlfriend|friends?|mum|mom|dad|mother|father|parents)\b"
    r"(?P<rest>[^.!?\n]*)$",
    re.IGNORECASE,
)
"""A relative as the subject before a span: "My grandson just started at"."""


def _without_relatives_schools(text: str, cues: list[Cue]) -> list[Cue]:
    """Leave a relative's school as it stands, with what is in it.

    "My eldest grandson just started at Ohio State": his school says nothing
    the author must lose, and "Ohio" inside it is no place of the author's.
    """
    theirs = []
    for cue in cues:
        if cue.attribute != "education" or cue.kind not in (
            "institution",
            "organization",
        ):
            continue  # a relative's employer may still pin the family's city
        relative = _RELATIVE_BEFORE.search(clause_before(text, cue.start))
        if relative and not re.search(
            r"\b(?:I|I'm|I've|me|we|we're|us)\b", relative.group("rest")
        ):
            theirs.append(cue)
    return [
        c
        for c in cues
        if not any(t.start <= c.start and c.end <= t.end for t in theirs)
    ]


def _as_name_modifier(text: str, doc: Any, cue: Cue) -> Cue:
    """Drop an employer's or school's name that modifies a noun after it.

    "at a Toyota supplier" -> "at a supplier", "the Vauxhall plant" -> "the
    plant": "a company supplier" or "the company plant" would not read.
    """
    if cue.kind not in ("organization", "company"):
        return cue
    start = cue.start + 4 if cue.quote.lower().startswith("the ") else cue.start
    if not _DETERMINER_BEFORE.search(text[:start]):
        return cue
    following = next((t for t in doc if t.idx > cue.end), None)
    if (
        following is None
        or text[cue.end : following.idx].strip()
        or following.pos_ != "NOUN"
        or not following.text[:1].islower()
        or text[cue.end : cue.end + 2] in ("'s", "’s")
    ):
        return cue
    return replace(
        cue, start=start, quote=text[start : cue.end], kind="name_modifier",
        replacement="",
    )  # fmt: skip


def generalize(cue: Cue) -> str:
    """Return the coarser span that may replace ``cue`` (its quote if none)."""
    return (
        cue.replacement if cue.replacement or cue.kind in REMOVED_KINDS else cue.quote
    )


def select_spans(cues: Iterable[Cue]) -> list[Cue]:
    """Keep one cue per region of text: the longest of overlapping spans."""
    chosen: list[Cue] = []
    for cue in sorted(cues, key=lambda c: (-(c.end - c.start), c.start)):
        if not any(cue.overlaps(other) for other in chosen):
            chosen.append(cue)
    return sorted(chosen, key=lambda c: c.start)


_LAST_WORD = kept_patterns.compile(r"(\w+)\s*$")


def generalize_text(text: str, cues: Iterable[Cue]) -> str:
    """Replace each cue's span by its generalization, fixing case and spacing.

    Two different places that generalize to the same one stay two places:
    the later becomes "another part of" it ("moved to Calgary ... back home
    in Halifax" -> "moved to Canada ... back home in another part of
    Canada"), so the sentence keeps saying the author moved.
    """
    out: list[str] = []
    last = 0
    first_place: dict[str, Cue] = {}  # replacement -> the place it first stood for
    capitalize = False
    opened = False  # a removed span right after "(": the space after it goes too
    chosen = select_spans(cues)
    for index, cue in enumerate(chosen):
        replacement = generalize(cue)
        if (
            cue.kind in PLACE_KINDS
            and replacement != cue.quote
            and _names_a_place(replacement)
        ):
            first = first_place.setdefault(replacement.lower(), cue)
            relation = "same" if first.value == cue.value else second_place(first, cue)
            if relation != "same":
                # "Portland, Maine, not Oregon": "not another part of the US"
                # would not read; the place the author is not stays unnamed.
                # A state and a city may be one place ("Kerala ... from
                # Thrissur"): "another part" is said of two cities only.
                replacement = (
                    placeholder(cue.attribute)
                    if negated(text, cue.start) or relation == "unsure"
                    else f"another part of {replacement}"
                )
        before = text[last : cue.start]
        sentence_start = (
            not "".join(out).strip()
            and not before.strip()
            or bool(re.search(r"[.!?\n]\s*[\"'(“]?$", "".join(out) + before))
        )
        if sentence_start and replacement[:1].islower():
            replacement = replacement[:1].upper() + replacement[1:]
        if capitalize:
            before = _capitalized(before)
        if opened:
            before = before.lstrip(" ")
        # A removed name at a sentence's start ("Gen-Z core: ...") leaves the
        # next word to open it.
        capitalize = sentence_start and not replacement
        # "(BS aviation tech)" less its name: "(aviation tech)", not "( aviation".
        opened = not replacement and before.rstrip(" ").endswith("(")
        if not replacement:
            before = before.rstrip(" ")
        # A dropped name leaves its article before the next word ("a Deloitte
        # office" -> "an office").
        following = replacement or _next_words(text, cue, chosen[index + 1 :])
        before = _agree_article(before + ("" if replacement else " "), following)
        before = before if replacement else before[:-1]
        if (
            cue.kind in PLACE_KINDS
            and re.search(
                r"\b(?:rural|northern|southern|eastern|western|central|coastal|upstate|"
                r"downtown|small-town)\s+$",
                before,
                re.IGNORECASE,
            )
            and replacement.startswith(("the ", "The "))
        ):
            replacement = (
                f"parts of {replacement}"  # "rural Iowa" -> "rural parts of the US"
            )
        # "Married to my wife" -> "with my" + "my partner": two spans side
        # by side that would say one word twice keep it once.
        if out and not before.strip():
            said = _LAST_WORD.search(out[-1])
            head, _, rest = replacement.partition(" ")
            if said and rest and said.group(1).lower() == head.lower():
                replacement = rest
        end = cue.end
        if (
            replacement
            and cue.quote.endswith("s")
            and not replacement.endswith("s")
            and re.match(r"['’](?!\w)", text[end:])
        ):
            # "the Islands' scholarship": a plural's bare apostrophe after
            # "[PLACE]" would not read; the replacement owns as a singular.
            replacement, end = replacement + text[end] + "s", end + 1
        out.extend([before, replacement])
        last = end
    tail = _capitalized(text[last:]) if capitalize else text[last:]
    tail = tail.lstrip(" ") if opened else tail
    result = "".join(out) + tail
    # A removed span (an age tag) must not leave "I  ," or "( )" behind.
    result = re.sub(r"\(\s*\)|\[\s*\]", "", result)
    result = re.sub(r"[ \t]+([,.;:!?])", r"\1", re.sub(r"[ \t]{2,}", " ", result))
    # A removed tag between commas or at a sentence's start ("Hi all, 52F,
    # newly single", "34M, moving back") leaves one comma, or none.
    result = re.sub(r",(\s*,)+", ",", result)
    result = re.sub(r":[ \t]*,", ":", result)  # "About me: 33M, born": no ":,"
    if not text[:1].isspace():
        result = result.lstrip(" ")  # a removed first word leaves no space
    # Not after an abbreviation's dot ("Kamloops, B.C., and"): no sentence ends.
    return re.sub(
        r"(^|(?<!\.[A-Za-z])[.!?])\s*[,;]\s*(\w|\[)",
        lambda m: m.group(1) + (" " if m.group(1) else "") + m.group(2).upper(),
        result,
    )


def _next_words(text: str, cue: Cue, later: list[Cue]) -> str:
    """Return what will follow a removed span, for its article to agree with.

    The next cue's replacement where it comes right after: "a divorced
    engineer" -> "a professional", not "an professional".
    """
    rest = text[cue.end :]
    if later and not text[cue.end : later[0].start].strip():
        return generalize(later[0]) + text[later[0].end :]
    return rest.lstrip()


def _capitalized(piece: str) -> str:
    """Return ``piece`` with its first letter upper-case, spaces before it kept."""
    match = re.match(r"\s*[a-z]", piece)
    if match is None:
        return piece
    at = match.end() - 1
    return piece[:at] + piece[at].upper() + piece[at + 1 :]


def _names_a_place(replacement: str) -> bool:
    """Tell whether a replacement names a place ("Canada"), not a kind of one.

    "another part of" fits a named country, not "a city", "the area" or a
    placeholder: "another part of the area" would invent a second place.
    """
    return replacement not in PLACEHOLDERS.values() and not re.match(
        r"(?:a|an|the area|local|another)\b|\[", replacement, re.IGNORECASE
    )


_DETERMINER_FIRST = kept_patterns.compile(
    r"(?:a|an|the|my|our|your|his|her|their|this|that|another)\s", re.IGNORECASE
)


def _agree_article(before: str, replacement: str) -> str:
    """Make an "a"/"an" right before a replacement fit its first sound."""
    match = re.search(r"\b([Aa]n?)(\s+)$", before)
    if not match or not replacement or _DETERMINER_FIRST.match(replacement):
        # "me an the wife" -> "me an my partner": no article stands before a
        # determiner, so the "an" there is another word ("and") and stays.
        return before
    vowel = replacement[:1].lower() in "aeiou" and not replacement.lower().startswith(
        ("eu", "uni", "one")
    )
    wanted = "an" if vowel else "a"
    if match.group(1).lower() == wanted:
        return before
    if match.group(1)[0].isupper():
        wanted = wanted.capitalize()
    return before[: match.start(1)] + wanted + match.group(2)


def _age_range(cue: Cue) -> tuple[int, int] | None:
    if cue.attribute != "age":
        return None
    match = re.fullmatch(r"(\d+)(?:-(\d+))?", cue.value)
    if not match:
        return None
    low = int(match.group(1))
    return low, int(match.group(2) or low)


def is_generalization(new: Cue, old: Cue) -> bool:
    """Return True when ``new`` says no more than ``old`` about the same attribute.

    True for the same cue, for ``old``'s own replacement, for the same claim in
    other words (same kind and value: "a craft studio" for "the Blue Heron glass
    studio"), for a place that
    contains ``old``'s place (city -> its country -> its continent), an age
    range that contains ``old``'s age, or a money band that contains its amount.
    """
    if new.attribute != old.attribute:
        return False
    quote = new.quote.lower()
    if quote == old.quote.lower() or quote == generalize(old).lower():
        return True
    if new.kind == old.kind and new.value and fold(new.value) == fold(old.value):
        return True  # the same claim in other words: "a craft studio" for a named one
    if new.kind == "demonym" and old.kind == "demonym":
        return any(new.quote in forms for forms in CONTINENT_ADJECTIVES.values())
    if new.kind in ("country", "continent", "region", "state"):
        places = gazetteer()
        old_place = places.get(fold(old.quote.removeprefix("the ")))
        if old_place is not None:
            containers = {fold(old_place.country), fold(old_place.continent)}
            return fold(new.value) in containers or fold(new.quote) in containers
        return False
    new_ages, old_ages = _age_range(new), _age_range(old)
    if new_ages and old_ages:
        return (
            new_ages[0] <= old_ages[0]
            and old_ages[1] <= new_ages[1]
            and (new_ages != old_ages or not new.exact)
        )
    low, high = band_range(new.value)
    if new.attribute == "income_level" and high:
        amounts = re.findall(r"\d[\d,.]*", old.quote)
        return any(low <= float(a.replace(",", "")) < high for a in amounts)
    return not new.exact and old.exact and new.kind == old.kind
