"""Word-list cues: partners, status, gender, jobs, workplaces, schools, degrees."""

from __future__ import annotations

import re
from functools import lru_cache

from anonygraph.cues.cue import Cue
from anonygraph.cues.lexicon import table, words

# Titles said without an article ("As CTO I ..."), all in the jobs table.
_TITLES = r"(?:CTO|CEO|CFO|COO|CIO)"


def _alternation(phrases: list[str] | tuple[str, ...]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    partners = [row[0] for row in table("relationships.tsv")]
    status = [row[0] for row in table("status.tsv")]
    gender = [row[0] for row in table("gender.tsv")]
    jobs = [row[0] for row in table("jobs.tsv")]
    education = [row[0] for row in table("education.tsv")]
    companies = sorted(words("companies.txt"))
    self_noun = r"\b(?:I'?m|I am|I was|as|being|I'?ve been)\s+(?P<article>an?)\s+"
    return {
        "partner": re.compile(
            rf"\b(?P<my>[Mm]y|[Oo]ur)\s+(?P<word>{_alternation(partners)})(?:'s)?\b",
            re.IGNORECASE,
        ),
        "status": re.compile(rf"\b(?:{_alternation(status)})\b", re.IGNORECASE),
        "gender": re.compile(
            self_noun + rf"(?:(?:single|proud|new|young|old|big|working|stay-at-home)"
            rf"\s+)?(?P<word>{_alternation(gender)})\b",
            re.IGNORECASE,
        ),
        "parent_of": re.compile(
            r"\b(?P<word>mother|father|mom|mum|dad) of "
            r"(?:one|two|three|four|five|\d)\b",
            re.IGNORECASE,
        ),
        "job": re.compile(
            r"\b(?:I'?m|I am|I was|I work as|I worked as|working as|work as|as|"
            r"my job as|my work as|I'?ve been|became|become|retired)\s+"
            rf"(?P<span>(?:(?P<article>an?)\s+(?:\w+\s+)??|(?={_TITLES}\b))"
            rf"(?P<word>{_alternation(jobs)}))\b",
            re.IGNORECASE,
        ),
        "education": re.compile(
            rf"(?<![\w-])(?:{_alternation(education)})(?![\w-])", re.IGNORECASE
        ),
        "institution": re.compile(
            r"\b(?:(?:St\.?|Saint)\s+)?(?:[A-Z][\w'’&.-]*\s+){1,4}"
            r"(?P<type>Hospital|Medical Cent(?:er|re)|Clinic|Infirmary|University|"
            r"College|Academy|Institute|High School|Elementary School|Middle School|"
            r"School|Bank|"
            r"Inc\.?|Corp\.?|Corporation|LLC|Ltd\.?|GmbH|Company|Labs?|Laboratories)\b"
            r"|\b(?P<type2>University|College|Institute|Bank|School)\s+of\s+"
            r"(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
        ),
        "saint": re.compile(r"\b(?:St\.?|Saint)\s+[A-Z][a-z]+(?:'s|’s)"),
        "company": re.compile(
            rf"\b(?:at|for|with|from|joined)\s+(?P<word>{_alternation(companies)})\b"
        ),
    }


INSTITUTION_REPLACEMENT = {
    "hospital": "the hospital",
    "medical center": "the hospital",
    "medical centre": "the hospital",
    "infirmary": "the hospital",
    "clinic": "the clinic",
    "university": "a university",
    "college": "a college",
    "academy": "a school",
    "institute": "an institute",
    "high school": "a high school",
    "elementary school": "a school",
    "middle school": "a school",
    "school": "a school",
    "bank": "a bank",
}


def article(noun: str) -> str:
    """Return ``a`` or ``an`` for ``noun``."""
    return "an" if noun[:1].lower() in "aeiou" else "a"


def detect_phrases(text: str) -> list[Cue]:
    """Find partners, relationship status, gender, jobs, workplaces and degrees."""
    patterns = _patterns()
    cues: list[Cue] = []
    partners = {row[0].lower(): row for row in table("relationships.tsv")}
    for m in patterns["partner"].finditer(text):
        _, status, sex, coarse = partners[m.group("word").lower()]
        replacement = f"{m.group('my').lower()} {coarse}"
        certainty = 4 if status in ("married", "engaged", "divorced", "widowed") else 3
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "relationship_status",
                "partner",
                status,
                replacement,
                certainty,
            )
        )
        if sex != "-":
            cues.append(
                Cue(
                    m.start(),
                    m.end(),
                    m.group(0),
                    "sex",
                    "partner",
                    sex,
                    replacement,
                    3,
                    exact=False,
                )
            )
    status_rows = {row[0].lower(): row for row in table("status.tsv")}
    for m in patterns["status"].finditer(text):
        _, status, coarse = status_rows[m.group(0).lower()]
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "relationship_status",
                "status",
                status,
                coarse,
                4,
            )
        )
    gender = {row[0].lower(): row for row in table("gender.tsv")}
    for m in patterns["gender"].finditer(text):
        _, sex, neutral = gender[m.group("word").lower()]
        start, end = m.start("article"), m.end("word")
        quote = text[start:end]
        noun = text[m.end("article") : m.start("word")].lstrip() + neutral
        replacement = f"{article(noun)} {noun}"
        cues.append(
            Cue(start, end, quote, "sex", "self_reference", sex, replacement, 4)
        )
        if m.group("word").lower() in ("wife", "husband"):
            cues.append(
                Cue(
                    start,
                    end,
                    quote,
                    "relationship_status",
                    "self_reference",
                    "married",
                    replacement,
                    4,
                )
            )
    for m in patterns["parent_of"].finditer(text):
        sex = gender[m.group("word").lower()][1]
        cues.append(
            Cue(
                m.start("word"),
                m.end("word"),
                m.group("word"),
                "sex",
                "self_reference",
                sex,
                "parent",
                3,
            )
        )
    jobs = {row[0].lower(): row for row in table("jobs.tsv")}
    for m in patterns["job"].finditer(text):
        word = m.group("word").lower()
        if word in gender:
            continue
        _, occupation, coarse = jobs[word]
        quote = m.group("span")
        replacement = f"{article(coarse)} {coarse}"
        cues.append(
            Cue(
                m.start("span"),
                m.end("span"),
                quote,
                "occupation",
                "job",
                occupation,
                replacement,
                5,
            )
        )
    education = {row[0].lower(): row for row in table("education.tsv")}
    for m in patterns["education"].finditer(text):
        _, level, coarse = education[m.group(0).lower()]
        exact = level in ("phd", "college degree")
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "education",
                "degree",
                level,
                coarse,
                4 if exact else 3,
                exact,
            )
        )
    cues.extend(_detect_workplaces(text, patterns))
    return cues


def _detect_workplaces(text: str, patterns: dict[str, re.Pattern[str]]) -> list[Cue]:
    cues: list[Cue] = []
    for m in patterns["institution"].finditer(text):
        kind = (m.group("type") or m.group("type2") or "").lower().rstrip(".")
        replacement = INSTITUTION_REPLACEMENT.get(kind, "the company")
        start = m.start()
        before = text[max(0, start - 4) : start]
        if before.lower() == "the ":
            start -= 4
        quote = text[start : m.end()]
        attribute = (
            "education"
            if kind
            in (
                "university",
                "college",
                "academy",
                "institute",
                "high school",
                "school",
            )
            else ("occupation")
        )
        cues.append(
            Cue(
                start,
                m.end(),
                quote,
                attribute,
                "institution",
                kind,
                replacement,
                3,
                exact=False,
            )
        )
    for m in patterns["saint"].finditer(text):
        if any(c.start <= m.start() < c.end for c in cues):
            continue
        # "St. Mungo's" names a hospital, church or school: "work" when the
        # author is at it, else a neutral "the place".
        at = re.search(r"\b(?:at|from)\s*$", text[: m.start()])
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "occupation",
                "institution",
                "named institution",
                "work" if at else "the place",
                3,
                False,
            )
        )
    for m in patterns["company"].finditer(text):
        cues.append(
            Cue(
                m.start("word"),
                m.end("word"),
                m.group("word"),
                "occupation",
                "company",
                m.group("word"),
                "the company",
                3,
                exact=False,
            )
        )
    return cues
