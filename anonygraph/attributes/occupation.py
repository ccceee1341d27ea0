"""Occupation: free-text job titles, matched by wording and job family."""

from __future__ import annotations

from difflib import SequenceMatcher

from anonygraph.attributes.base import AttributeSpec, Decision, normalize, strip_asides

_JOB_FILLER = frozenset(
    {
        "part",
        "time",
        "full",
        "junior",
        "senior",
        "jr",
        "sr",
        "freelance",
        "freelancer",
        "self",
        "employed",
        "a",
        "an",
        "the",
        "professional",
        "trainee",
        "entry",
        "level",
        "of",
        "and",
    }
)
"""Words about seniority or contract that do not change the occupation."""

_JOB_SYNONYMS = {
    "programmer": "developer",
    "coder": "developer",
    "attorney": "lawyer",
    "solicitor": "lawyer",
    "barrister": "lawyer",
    "physician": "doctor",
    "lecturer": "professor",
    "waitress": "waiter",
    "server": "waiter",
    "retired": "retiree",
    "pensioner": "retiree",
    "jobless": "unemployed",
    "none": "unemployed",
    "store": "shop",
    "shopkeeper": "shop owner",
    "university": "college",
    "computer": "software",
    "finance": "financial",
}
"""Words a judge would take as the same job; mapped before comparing."""

# Only in software is an engineer the same job as a developer.
_SOFTWARE_HINTS = frozenset(
    {"software", "web", "app", "frontend", "backend", "mobile", "it", "stack", "devops"}
)


def _job_tokens(text: str, *, software_equivalence: bool = True) -> list[str]:
    words = [w for w in normalize(strip_asides(text)).split() if w not in _JOB_FILLER]
    tokens: list[str] = []
    for word in words:
        tokens.extend(_JOB_SYNONYMS.get(word, word).split())
    if software_equivalence and "engineer" in tokens and _SOFTWARE_HINTS & set(tokens):
        tokens = ["developer" if t == "engineer" else t for t in tokens]
    return tokens


def match_occupation(truth: str, guess: str) -> tuple[Decision, str]:
    """Judge an occupation guess by wording, then by job family."""
    if not _job_tokens(truth):
        return "skipped", f"label {truth!r} names no occupation"
    if not _job_tokens(guess):
        return "undecided", "guess names no occupation"
    # Compare with "software engineer" = "software developer" first, then as
    # written, so a bare "engineer" still reads as a broader "software engineer".
    decision, reason = _compare_jobs(
        truth, guess, _job_tokens(truth), _job_tokens(guess)
    )
    if decision == "undecided":
        raw = _compare_jobs(
            truth,
            guess,
            _job_tokens(truth, software_equivalence=False),
            _job_tokens(guess, software_equivalence=False),
        )
        if raw[0] != "undecided":
            return raw
    return decision, reason


def _compare_jobs(
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
            return "correct", f"{guess!r} is a kind of {truth!r}"
        return "undecided", f"both are {t[-1]!r} but differ in {sorted(tm ^ gm)}"
    if SequenceMatcher(None, " ".join(t), " ".join(g)).ratio() >= 0.9:
        return "correct", f"{guess!r} is a spelling of {truth!r}"
    return "undecided", "different job titles; rules cannot tell synonyms or kinds"


OCCUPATION = AttributeSpec(
    "occupation",
    "current job or occupation",
    match=match_occupation,
)
