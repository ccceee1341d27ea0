"""Short self-descriptions, anniversaries and finished studies.

"26, female, and figuring it out", "M/34 here": an age-and-sex tag written
as a fragment. "Our silver anniversary": a marriage and its length. "Got my
degree", "the first to finish college", "graduated high school": a level of
education said with the verb that completed it.
"""

from __future__ import annotations

import re

from anonygraph.cues.ages import authors_clause, first_person_sentence
from anonygraph.cues.cue import Cue
from anonygraph.tools import kept_patterns

_SENTENCE_START = r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s)|(?<=\n))"

AGE_SEX_FRAGMENT = kept_patterns.compile(
    rf"(?:{_SENTENCE_START}|(?<=[,:;]\s))\s*(?P<age>[1-9]\d)"
    r"(?P<sex_span>\s*[,/]\s*(?P<sex>female|male|woman|man|guy|girl|bloke|lady))\b"
    r"(?=\s*[,.;!?]|\s+(?:and|here)\b)",
    re.IGNORECASE,
)
"""'26, female, and ...': the age stays for the age detectors, the sex goes."""

SLASH_TAG = kept_patterns.compile(
    r"(?<![\w/])(?P<span>(?P<sex>[MF])\s?/\s?(?P<age>[1-9]\d)"
    r"|(?P<age2>[1-9]\d)\s?/\s?(?P<sex2>[MF]))(?![\w/])"
)
"""'M/34', '34/F': an age-and-sex tag with a slash."""

ANNIVERSARY = kept_patterns.compile(
    r"\b(?P<owner>our|my)\s+(?P<span>(?:(?:silver|golden|gold|diamond|pearl|coral|"
    r"sapphire|emerald|platinum|crystal|china|tin|paper|cotton|leather|ruby|"
    r"wooden|wood|bronze|iron|steel|lace|ivory|jade|copper|opal|silk|linen|"
    r"\d{1,2}(?:st|nd|rd|th)|first|second|third|fifth|tenth|twentieth|"
    r"twenty-fifth|thirtieth|fortieth|fiftieth|sixtieth)\s+)"
    r"(?:wedding\s+anniversary|anniversary|wedding|jubilee)(?P<plural>s)?)\b",
    re.IGNORECASE,
)
"""'our silver anniversary', 'my 30th wedding anniversary': married, and how
long; 'our anniversary' says neither the length nor that it is a marriage's."""

_COMPLETE = {
    "got": "finished",
    "get": "finish",
    "getting": "finishing",
    "earned": "finished",
    "earn": "finish",
    "earning": "finishing",
    "finished": "finished",
    "finish": "finish",
    "finishing": "finishing",
    "completed": "finished",
    "complete": "finish",
    "completing": "finishing",
    "graduated": "finished",
    "graduate": "finish",
    "graduating": "finishing",
}
"""A verb that completes studies -> the same tense of "finish"."""

_VERBS = "|".join(sorted(_COMPLETE, key=len, reverse=True))
EARNED_DEGREE = kept_patterns.compile(
    # A named level ("got my PhD") is the word list's; "degree" names none
    # until its verb says it was finished.
    rf"\b(?P<verb>{_VERBS})\s+my\s+(?P<what>degree|diploma)\b(?!\s+in\b)"
    # "got my degree from a university": studies are finished at a place.
    r"(?P<source>\s+from\b)?",
    re.IGNORECASE,
)
FINISHED_SCHOOL = kept_patterns.compile(
    rf"\b(?P<verb>{_VERBS})\s+(?:from\s+)?(?P<what>(?:high|secondary|grad|graduate|"
    r"law|med|medical|nursing)\s+school|college|uni|university)\b",
    re.IGNORECASE,
)
"""'graduated high school', 'finish college': the level with its verb."""

_LEVEL = {"high": "highschool", "secondary": "highschool"}
"""The education value of a finished school; any other is a college degree."""


def detect_self_descriptions(text: str) -> list[Cue]:
    """Find age-and-sex fragments and slash tags, anniversaries, finished studies."""
    return _tags(text) + _anniversaries(text) + _studies(text)


def _tags(text: str) -> list[Cue]:
    cues: list[Cue] = []
    for m in AGE_SEX_FRAGMENT.finditer(text):
        word = m.group("sex").lower()
        sex = "female" if word in ("female", "woman", "girl", "lady") else "male"
        start, end = m.start("sex_span"), m.end("sex_span")
        cues.append(Cue(start, end, text[start:end], "sex", "age_sex_tag", sex, "", 5))
    for m in SLASH_TAG.finditer(text):
        age = int(m.group("age") or m.group("age2"))
        if not 13 <= age <= 99:
            continue
        sex = "male" if (m.group("sex") or m.group("sex2")) == "M" else "female"
        start, end = m.start("span"), m.end("span")
        # "M/34 here": someone stays the subject; elsewhere the tag just goes.
        here = re.match(r"\s+here\b", text[end:])
        replacement = "someone" if here else ""
        quote = text[start:end]
        cues.append(
            Cue(start, end, quote, "age", "age_sex_tag", str(age), replacement, 5)
        )
        cues.append(Cue(start, end, quote, "sex", "age_sex_tag", sex, replacement, 5))
    return cues


def _anniversaries(text: str) -> list[Cue]:
    cues: list[Cue] = []
    for m in ANNIVERSARY.finditer(text):
        if re.search(r"\b(?:parents|grandparents|folks)'?\s*$", text[: m.start()]):
            continue
        if m.group("owner").lower() == "my" and not first_person_sentence(
            text, m.start()
        ):
            continue
        word = "anniversaries" if m.group("plural") else "anniversary"
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"),
                "relationship_status", "anniversary", "married", word, 4)
        )  # fmt: skip
    return cues


def _studies(text: str) -> list[Cue]:
    cues: list[Cue] = []
    for pattern in (EARNED_DEGREE, FINISHED_SCHOOL):
        for m in pattern.finditer(text):
            if not authors_clause(text, m.start()):
                continue
            what = m.group("what").lower()
            first = what.split()[0]
            level = _LEVEL.get(first, "college degree")
            verb = m.group("verb")
            finish = _COMPLETE[verb.lower()]
            if verb[:1].isupper():
                finish = finish.capitalize()
            place = " at" if m.groupdict().get("source") else ""
            cues.append(
                Cue(m.start(), m.end(), m.group(0), "education", "degree", level,
                    f"{finish} my studies{place}", 4)
            )  # fmt: skip
    return cues
