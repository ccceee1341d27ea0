"""Occupation: free-text job titles, matched by wording, then by job family.

Two stages. Word rules settle what the title's words decide: the same title,
a broader or a narrower title with the same head noun ("curator" for "art
curator" is less precise, and so is "math tutor" for "tutor"). Before they
compare, other names of one job are mapped to one name and grade words left
out, from our table ``anonygraph/data/job_titles.tsv`` ("lorry driver" is
"truck driver", "staff nurse" and "registered nurse" are "nurse"): such
titles are one job whatever their similarity. Titles the words cannot relate
go to the similarity stage: each title is embedded with the offline MiniLM
model the project ships, placed in a job family (a minor group of the US SOC
2018, through the nearest of its typical job titles,
``anonygraph/data/soc2018_groups.json``), and counted correct when its
similarity to the truth clears a threshold: a high one on its own, a lower
one within the same family. The first threshold was fitted on the
PersonalReddit reference verdicts (``benchmarks/matching_agreement.py
--fit``), the second on people's verdicts on SynthPAI guesses
(``benchmarks/human_verdicts.py --fit``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from importlib import resources
from typing import Any

from anonygraph.attributes.base import AttributeSpec, Decision, normalize, strip_asides

# Fitted on the 404 PersonalReddit reference verdicts (36 occupation records):
# every near-synonym threshold in 0.81-0.85 reaches the best agreement (69 of
# 72 top-1 and top-3 verdicts); this is its middle.
SAME_TITLE_SIMILARITY = 0.83
"""Cosine similarity at which two titles count as the same job in any family."""

# Fitted on people's verdicts on the fit part of the SynthPAI guesses (204
# occupation guesses): people keep roles within a family apart more than
# PersonalReddit's flags do ("doctor" for a surgeon, "counselor" for a
# therapist are wrong to them). 0.74-0.77 come within one guess of the best
# agreement (0.917, at 0.77) and keep PersonalReddit's occupation top-1
# agreement at least where it was at the old 0.65 (0.972); this is their middle.
# Synonyms below it ("staff nurse" 0.73, "lorry driver" 0.69) are the title
# table's to settle, not this threshold's.
SAME_FAMILY_SIMILARITY = 0.76
"""Cosine similarity at which two titles of one job family count as the same job."""

_NOISE = frozenset(
    {"a", "an", "the", "of", "and", "self", "employed", "entry", "level"}
)

# Contract and seniority words stay in the title: "graphic designer" says
# less than "part-time graphic designer", as human judges count it.
_CONTRACT = {
    "part time": "part-time",
    "full time": "full-time",
    "jr": "junior",
    "sr": "senior",
    "freelancer": "freelance",
}

# Only in software is an engineer the same job as a developer.
_SOFTWARE_HINTS = frozenset(
    {"software", "web", "app", "frontend", "backend", "mobile", "it", "stack", "devops"}
)


def _clean(text: str) -> str:
    t = normalize(strip_asides(text))
    for words, token in _CONTRACT.items():
        t = f" {t} ".replace(f" {words} ", f" {token} ").strip()
    return " ".join(w for w in t.split() if w not in _NOISE)


@dataclass(frozen=True)
class TitleNames:
    """The shipped table of other names of jobs and of grade words."""

    same: dict[tuple[str, ...], tuple[str, ...]]
    """A word or phrase as titles write it -> the name the rules use; each
    name the rules use also maps to itself, so that it is read whole."""

    grades: frozenset[str]
    """Words that name a grade, credential or licence, not another job."""


@lru_cache(maxsize=1)
def title_names() -> TitleNames:
    """Read ``anonygraph/data/job_titles.tsv`` (our own table; see its header)."""
    text = resources.files("anonygraph.data").joinpath("job_titles.tsv")
    same: dict[tuple[str, ...], tuple[str, ...]] = {}
    grades: set[str] = set()
    for line in text.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, written, *rest = line.split("\t")
        if kind == "grade":
            grades.add(normalize(written))
        else:
            same[tuple(normalize(written).split())] = tuple(normalize(rest[0]).split())
    for name in list(same.values()):
        # "real estate agent" is read whole, not as "real" + "estate agent".
        same.setdefault(name, name)
    return TitleNames(same, frozenset(grades))


@dataclass(frozen=True)
class _Reading:
    """A title under the names the rules use."""

    named: tuple[str, ...]
    """Its words with other names of a job mapped: "lorry driver" -> "truck driver"."""

    words: tuple[str, ...]
    """The same without grade words before the head noun: "staff nurse" -> "nurse"."""

    notes: tuple[str, ...]
    """What was mapped and left out, for the reason of a verdict."""


@lru_cache(maxsize=4096)
def _reading(text: str) -> _Reading:
    table = title_names()
    longest = max(len(k) for k in table.same)
    words = _clean(text).split()
    named: list[str] = []
    notes: list[str] = []
    i = 0
    while i < len(words):
        # The longest phrase of the table at this word wins, and its name is
        # not looked up again.
        for size in range(min(longest, len(words) - i), 0, -1):
            phrase = tuple(words[i : i + size])
            if phrase in table.same:
                named.extend(table.same[phrase])
                if table.same[phrase] != phrase:
                    notes.append(
                        f"{' '.join(phrase)!r} is {' '.join(table.same[phrase])!r}"
                    )
                i += size
                break
        else:
            named.append(words[i])
            i += 1
    grades = [w for w in named[:-1] if w in table.grades]
    kept = [w for w in named[:-1] if w not in table.grades] + named[-1:]
    if grades:
        notes.append(f"{' '.join(grades)!r} names a grade, not another job")
    return _Reading(tuple(named), tuple(kept), tuple(notes))


def _job_tokens(
    text: str, *, software_equivalence: bool = True, grades: bool = False
) -> list[str]:
    reading = _reading(text)
    tokens = list(reading.named if grades else reading.words)
    if software_equivalence and "engineer" in tokens and _SOFTWARE_HINTS & set(tokens):
        tokens = ["developer" if t == "engineer" else t for t in tokens]
    return tokens


def _canonical(text: str) -> str:
    # Other names mapped first, so "backend engineer" is embedded as "backend
    # developer"; grade words stay, as they tell roles of one family apart
    # ("registered nurse" and "nurse practitioner").
    return " ".join(_job_tokens(text, grades=True)) or _clean(text)


def _compare_words(
    truth: str, guess: str, t: list[str], g: list[str]
) -> tuple[Decision, str]:
    if t == g:
        return "correct", f"same occupation {' '.join(t)!r}"
    if t[-1] == g[-1]:
        tm, gm = set(t[:-1]), set(g[:-1])
        if tm == gm:
            return "correct", f"same occupation {' '.join(t)!r}"
        if gm < tm:
            return "less_precise", f"{guess!r} is a broader {t[-1]!r} than {truth!r}"
        if tm < gm:
            return "less_precise", f"{guess!r} is a narrower kind of {truth!r}"
        return "undecided", f"both are {t[-1]!r} but differ in {sorted(tm ^ gm)}"
    if SequenceMatcher(None, " ".join(t), " ".join(g)).ratio() >= 0.9:
        return "correct", f"{guess!r} is a spelling of {truth!r}"
    return "undecided", "different job titles"


def match_words(truth: str, guess: str) -> tuple[Decision, str]:
    """Judge two job titles by their words alone; ``undecided`` when they can't."""
    if not _job_tokens(truth):
        return "skipped", f"label {truth!r} names no occupation"
    if not _job_tokens(guess):
        return "undecided", "guess names no occupation"
    # "software engineer" = "software developer" first, then as written, so a
    # bare "engineer" still reads as a broader "software engineer".
    decision, reason = _compare_words(
        truth, guess, _job_tokens(truth), _job_tokens(guess)
    )
    if decision == "undecided":
        raw = _compare_words(
            truth,
            guess,
            _job_tokens(truth, software_equivalence=False),
            _job_tokens(guess, software_equivalence=False),
        )
        if raw[0] != "undecided":
            decision, reason = raw
    if decision in ("correct", "less_precise"):
        notes = dict.fromkeys(_reading(truth).notes + _reading(guess).notes)
        if notes:
            reason = f"{reason} ({'; '.join(notes)})"
    return decision, reason


@dataclass(frozen=True)
class JobFamily:
    """A minor group of the SOC 2018 occupation taxonomy."""

    code: str
    title: str
    major: str


@lru_cache(maxsize=1)
def _taxonomy() -> tuple[tuple[JobFamily, ...], tuple[str, ...]]:
    """Read the shipped SOC 2018 groups: one (family, typical title) per row."""
    data = json.loads(
        resources.files("anonygraph.data").joinpath("soc2018_groups.json").read_text()
    )
    majors: dict[str, str] = data["major_groups"]
    families: list[JobFamily] = []
    titles: list[str] = []
    for group in data["minor_groups"]:
        major = majors[group["code"][:2] + "-0000"]
        family = JobFamily(group["code"], group["title"], major)
        for example in group["examples"]:
            families.append(family)
            titles.append(normalize(example))
    return tuple(families), tuple(titles)


def job_families() -> tuple[JobFamily, ...]:
    """Return the SOC 2018 minor group of each shipped typical job title."""
    return _taxonomy()[0]


@lru_cache(maxsize=1)
def _example_vectors() -> Any:
    return _encode(_taxonomy()[1])


def _encode(texts: tuple[str, ...]) -> Any:
    # The one sentence encoder of the project; imported here so that the
    # word rules work without the optional model.
    from anonygraph.tools.text_metrics import load_embedder

    return load_embedder().encode(
        list(texts), normalize_embeddings=True, convert_to_numpy=True
    )


@lru_cache(maxsize=4096)
def _vector(text: str) -> Any:
    return _encode((text,))[0]


def job_family(title: str) -> tuple[JobFamily, float]:
    """Place a job title in its SOC job family by the nearest typical title.

    Args:
        title: Any job title.

    Returns:
        The family and the similarity to its nearest typical title.

    Raises:
        ImportError: when the offline similarity model is not installed.

    """
    scores = _example_vectors() @ _vector(_canonical(title))
    best = int(scores.argmax())
    return job_families()[best], float(scores[best])


def title_similarity(truth: str, guess: str) -> float:
    """Cosine similarity of two job titles' MiniLM embeddings."""
    return float(_vector(_canonical(truth)) @ _vector(_canonical(guess)))


def match_family(truth: str, guess: str) -> tuple[Decision, str]:
    """Judge two job titles by similarity and job family."""
    try:
        similarity = title_similarity(truth, guess)
        t_family, _ = job_family(truth)
        g_family, _ = job_family(guess)
    except ImportError as error:
        return "undecided", f"different job titles; similarity model missing ({error})"
    same = t_family == g_family
    if similarity >= SAME_TITLE_SIMILARITY:
        return "correct", f"near-synonym titles, similarity {similarity:.2f}"
    if same and similarity >= SAME_FAMILY_SIMILARITY:
        return (
            "correct",
            f"same job family: {t_family.title} ({t_family.code}), "
            f"similarity {similarity:.2f}",
        )
    if same:
        return (
            "wrong",
            f"same job family {t_family.title} ({t_family.code}) but "
            f"similarity {similarity:.3f} < {SAME_FAMILY_SIMILARITY}",
        )
    return (
        "wrong",
        f"other job family: {g_family.title} ({g_family.code}) for "
        f"{t_family.title} ({t_family.code}), similarity {similarity:.2f}",
    )


_RANK: dict[Decision, int] = {"correct": 3, "less_precise": 2, "wrong": 1}

_RETIRED = re.compile(r"\b(?:retired|retiree|pensioner)\b")
# Work arrangements people judge on their own: a label that names only one
# ("part-time job") is matched by a guess with the same arrangement, and a
# guess that names only one ("Freelancer") is right for a label with it.
_ARRANGEMENTS = {
    "part-time": re.compile(r"\bpart ?time\b"),
    "freelance": re.compile(r"\bfreelanc\w*"),
}
_ANY_WORK = frozenset(
    {"job", "jobs", "work", "worker", "employee", "employed", "freelancer", "field"}
)
_FIELD_FILLER = frozenset(
    {"in", "an", "unspecified", "various", "some", "student", "part", "time"}
)


def _alternatives(guess: str) -> list[str]:
    """Split 'Woodworker/Carpenter' and 'teacher or tutor' into their titles."""
    parts = re.split(r"/|\bor\b", strip_asides(guess), flags=re.IGNORECASE)
    return [p.strip() for p in parts if p.strip()] or [guess]


def _status_rule(truth: str, guess: str) -> tuple[Decision, str] | None:
    """Settle retirement and bare work arrangements before titles are compared."""
    t, g = normalize(truth), normalize(guess)
    if _RETIRED.search(t) and _RETIRED.search(g):
        return "correct", "both are retired; the former job is extra"
    for name, pattern in _ARRANGEMENTS.items():
        if not (pattern.search(t) and pattern.search(g)):
            continue
        rest_t = set(pattern.sub(" ", t).split()) - _ANY_WORK - _FIELD_FILLER
        rest_g = set(pattern.sub(" ", g).split()) - _ANY_WORK - _FIELD_FILLER
        if not rest_t or not rest_g:
            return "correct", f"both are {name} work; no other job is named"
    return None


def _match_title(truth: str, guess: str) -> tuple[Decision, str]:
    status = _status_rule(truth, guess)
    if status is not None:
        return status
    decision, reason = match_words(truth, guess)
    if decision != "undecided" or reason == "guess names no occupation":
        return decision, reason
    return match_family(truth, guess)


def match_occupation(truth: str, guess: str) -> tuple[Decision, str]:
    """Judge an occupation guess: status, wording, then job family.

    A guess naming alternatives ("Woodworker/Carpenter") is judged by its
    best one. People who judged SynthPAI guesses count a retired guess
    right for a retired label whatever the former job, and a bare work
    arrangement ("part-time job") by the arrangement alone.
    """
    best: tuple[Decision, str] | None = None
    for option in _alternatives(guess):
        decision, reason = _match_title(truth, option)
        if decision == "skipped":
            return decision, reason
        if best is None or _RANK.get(decision, 0) > _RANK.get(best[0], 0):
            best = (decision, reason)
    assert best is not None
    return best


OCCUPATION = AttributeSpec(
    "occupation",
    "current job or occupation",
    match=match_occupation,
)
