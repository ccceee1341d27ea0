"""Workplaces that name the job: "my warehouse job", "working at a garden centre".

A kind of workplace says the occupation as surely as a title does (a
warehouse hand, a shop assistant, a call-centre agent). So do an office
function done for a firm ("I do payroll for ...") and running a shop ("I
manage a Dollar General"). Each becomes the workplace in general: "my job",
"at a local business", "office work", "work at a local business".
"""

from __future__ import annotations

import re
from functools import lru_cache

from anonygraph.cues.ages import OTHER_SUBJECT_BEFORE, authors_clause
from anonygraph.cues.cue import Cue
from anonygraph.tools import kept_patterns

WORKPLACES = (
    "warehouse", "garden centre", "garden center", "call centre", "call center",
    "factory", "supermarket", "grocery store", "department store", "bakery",
    "petrol station", "gas station", "building site", "construction site",
    "fulfilment centre", "fulfillment center", "distribution centre",
    "distribution center", "car wash", "care home", "nursing home", "sawmill",
    "cannery", "abattoir", "slaughterhouse", "shipyard", "quarry", "refinery",
    "steelworks", "chip shop", "fast food place", "burger place", "pizza place",
    "hardware store", "corner shop", "convenience store", "charity shop",
    "nail salon", "hair salon", "salon", "garage", "print shop", "pharmacy",
    "chemist", "bookshop", "bookstore", "cinema", "gym", "hotel", "restaurant",
    "cafe", "café", "pub", "bar", "laundrette", "laundromat", "packing plant",
    "meat plant", "processing plant", "assembly line", "vineyard", "dairy",
    "kennels", "stables", "farm shop", "retail", "office", "factory floor",
    "family farm", "family business", "family shop", "farm", "dairy farm",
    "sheep farm", "cattle station", "mine", "coal mine", "gold mine", "pit",
    "depot", "bus depot", "oil rig", "rig", "docks", "mill", "fish plant",
    "plant nursery", "garden nursery", "tip", "recycling centre", "sorting office",
)  # fmt: skip
"""Places of work that name a trade. "office" and "retail" only before "job"."""

CHAINS = (
    "Dollar General", "Dollar Tree", "Family Dollar", "Walmart", "Target",
    "Costco", "Walgreens", "CVS", "Kroger", "Aldi", "Lidl", "Starbucks",
    "McDonald's", "Subway", "Greggs", "Home Depot", "Best Buy", "7-Eleven",
)  # fmt: skip
"""Chain stores one manages a branch of ("I manage a Dollar General"); only
after managing or running one: buying from them names no job."""

_NOT_AFTER_AT = frozenset({"office", "retail", "bar", "gym", "cinema", "hotel"})
"""Places one visits as often as one works at: only "X job" counts for them."""


def _alternation(phrases: tuple[str, ...] | list[str]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    places = _alternation(WORKPLACES)
    stores = _alternation(CHAINS)
    return {
        "job": kept_patterns.compile(
            r"\b(?P<det>my|a|an|the|this)\s+(?P<adj>(?:full-time|part-time|day|night|"
            r"new|old|first|summer|weekend|crappy|boring|little)\s+)?"
            rf"(?P<span>(?P<place>{places})\s+(?P<job>jobs?|gigs?|shifts?|work))\b",
            re.IGNORECASE,
        ),
        "at": kept_patterns.compile(
            r"\b(?P<verb>work|works|working|worked|job|jobs|shifts?|employed|"
            r"started|start|starting|hired|temping|volunteering|"
            r"on\s+(?:nights|lates|earlies)|labouring|laboring|grafting)\s+"
            r"(?:(?:full-time|part-time|nights|days|weekends|here|now|again|"
            r"still)\s+)?"
            rf"(?P<span>(?P<prep>at|in|on|down)\s+(?P<det>a|an|the|my|our|this)\s+"
            rf"(?:(?:local|small|big|busy|huge|little|family-run)\s+)?"
            rf"(?P<place>{places}))\b",
            re.IGNORECASE,
        ),
        "function": kept_patterns.compile(
            r"\b(?P<verb>do|does|doing|did|run|runs|running|handle|handles|handling)"
            r"\s+(?P<span>payroll|bookkeeping|the payroll|accounts payable|"
            r"accounts receivable|HR|IT support|tech support|customer service|"
            r"data entry)\b",
            re.IGNORECASE,
        ),
        "manage": kept_patterns.compile(
            r"\b(?P<span>(?P<verb>manage|manages|managed|managing|run|runs|ran|"
            r"running|own|owns|owned)\s+(?P<det>a|an|the|my)\s+"
            rf"(?:(?:local|small|little|busy)\s+)?(?P<place>{places}|{stores}))\b",
        ),
    }


_WORK_FORMS = {
    "manage": "work at",
    "manages": "works at",
    "managed": "worked at",
    "managing": "working at",
    "run": "work at",
    "runs": "works at",
    "ran": "worked at",
    "running": "working at",
    "own": "work at",
    "owns": "works at",
    "owned": "worked at",
}


def detect_workplaces(text: str) -> list[Cue]:
    """Find a workplace, office function or shop that names the author's job."""
    patterns = _patterns()
    cues: list[Cue] = []
    for m in patterns["job"].finditer(text):
        det = m.group("det").lower()
        if det in ("the", "this", "a", "an") and not authors_clause(text, m.start()):
            continue
        if det == "my" and OTHER_SUBJECT_BEFORE.search(text[: m.start()][-40:]):
            continue
        job = m.group("job")
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                "workplace", m.group("place").lower(), job, 4)
        )  # fmt: skip
    for m in patterns["at"].finditer(text):
        place = m.group("place").lower()
        if place in _NOT_AFTER_AT or not authors_clause(text, m.start()):
            continue
        # "at a garden centre" -> "at a local business"; "at/in the
        # warehouse" -> "at work".
        prep = "at" if m.group("prep").lower() in ("on", "down") else m.group("prep")
        if place.startswith("family "):
            replacement = "in the family business"  # "work on the family farm"
        elif m.group("det").lower() in ("a", "an"):
            replacement = f"{prep} a local business"
        else:
            replacement = "at work"
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                "workplace", place, replacement, 4)
        )  # fmt: skip
    for m in patterns["function"].finditer(text):
        if not authors_clause(text, m.start()):
            continue
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                "job_verb", m.group("span").lower(), "office work", 4)
        )  # fmt: skip
    for m in patterns["manage"].finditer(text):
        before = text[max(0, m.start() - 12) : m.start()]
        if not re.search(r"\bI\s+(?:\w+\s+)?$", before) or not authors_clause(
            text, m.start()
        ):
            continue
        verb = m.group("verb")
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                "workplace", m.group("place").lower(),
                f"{_WORK_FORMS[verb.lower()]} a local business", 4)
        )  # fmt: skip
    return cues
