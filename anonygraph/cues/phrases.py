"""Word-list cues: partners, status, gender, jobs, workplaces, schools, degrees."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from anonygraph.cues.ages import authors_clause
from anonygraph.cues.cue import Cue, clause_before
from anonygraph.cues.lexicon import table, words
from anonygraph.cues.numbers import number_value
from anonygraph.cues.place_contract import works_at
from anonygraph.cues.places import place_attribute
from anonygraph.tools import kept_patterns

_ADULT = 16
"""A count of years from which "a widow of N years" may be her age."""


def _alternation(phrases: list[str] | tuple[str, ...]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))


_DETERMINERS = "the|a|an|my|his|her|their|our|this|that|your|every|some|no|our"
_SENTENCE_START = r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s)|(?<=\n))"


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    partners = [row[0] for row in table("relationships.tsv")]
    status = [row[0] for row in table("status.tsv")]
    gender = [row[0] for row in table("gender.tsv")]
    education = [row[0] for row in table("education.tsv")]
    companies = sorted(words("companies.txt"))
    self_noun = r"\b(?:I'?m|I am|I was|as|being|I'?ve been)\s+(?P<article>an?)\s+"
    # "Granny here", "Nan of two": every person word of gender.tsv.
    here = [g for g in gender if g not in ("female", "male", "boy")]
    parents = [
        row[0] for row in table("gender.tsv") if row[2] in ("parent", "grandparent")
    ]
    return {
        "partner": kept_patterns.compile(
            # "The other half and I", "the missus": slang takes "the" for "my".
            r"\b(?P<my>my|our|the(?=\s+(?:wife|missus|missis|mrs|hubby|other half|"
            r"better half|fella|boyfriend|girlfriend)\b"
            # "the fella with the hat", "the girlfriend who called": a
            # description picks out someone, no partner of the author's.
            r"(?!\s+(?:of|with|who|that|whose)\b)))\s+"
            # Describing words may stand between: "my German girlfriend".
            r"(?P<adj>(?:(?!(?:ex|late|former|future|best|old)\b)[A-Za-z]+\s+){0,2}?)"
            rf"(?P<word>{_alternation(partners)})(?:'s)?(?![\w-])"
            # "Wife and I are ...": the partner without "my", at a sentence's start.
            rf"|{_SENTENCE_START}\s*(?P<bare>(?:{_alternation(partners)}))"
            r"(?=\s+and\s+(?:I|me)\b|\s+(?:wants|says|said|thinks|thought|reckons|"
            r"keeps|told|asked|hates|loves|works|worked|got|gets|is|was|has|had|"
            r"won't|doesn't|didn't|can't|will|would|just|still|finally)\b)",
            re.IGNORECASE,
        ),
        "group_gender": kept_patterns.compile(
            r"\b(?P<lead>(?:any\s+other|fellow|both|we'?re\s+both|as)\s+)"
            r"(?:(?!(?:of|and|with)\b)[\w-]+\s+){0,2}?"
            r"(?P<word>mums|moms|mothers|dads|fathers|women|men|guys|ladies|girls|gals|"
            r"blokes|lads)\b",
            re.IGNORECASE,
        ),
        "status": kept_patterns.compile(
            rf"\b(?:{_alternation(status)})\b", re.IGNORECASE
        ),
        "gender": kept_patterns.compile(
            self_noun + r"(?:(?!(?:fan|lot|bit|friend)\b)[\w'/.-]+\s+){0,3}?"
            rf"(?P<word>{_alternation(gender)})\b(?![\w-])",
            re.IGNORECASE,
        ),
        "kin": kept_patterns.compile(
            r"\b(?:I'?m|I am|I was|as)\s+(?:(?:his|her|their|the|an?|my \w+'s)\s+)?"
            r"(?:only\s+|eldest\s+|youngest\s+|oldest\s+|middle\s+|first\s+)?"
            r"(?P<word>great-grand(?:mother|father|ma|pa)|granddaughter|grandson|"
            r"daughter|son|sister|brother|niece|nephew|aunt|uncle)\b",
            re.IGNORECASE,
        ),
        "reflexive": kept_patterns.compile(
            r"\b(?:a|the|this)\s+(?:[\w-]+\s+){0,2}?(?:kid|guy|girl|boy|man|woman|"
            r"person|lad|lass|dude|someone)\b[^.!?\n]{0,60}?\bwho\b[^.!?\n]{0,40}?"
            r"\b(?P<word>himself|herself)\b",
            re.IGNORECASE,
        ),
        "fragment_gender": kept_patterns.compile(
            _SENTENCE_START + r"\s*(?:[\w'-]+\s+){1,3}?"
            r"(?P<word>guy|man|woman|girl|dude|lady|gal|boy|female|male)\b"
            r"(?=\s*,|\s+here\b)",
            re.IGNORECASE,
        ),
        # "Grandma here!", "Dad here,": the author introduces themself.
        "here_gender": kept_patterns.compile(
            _SENTENCE_START + rf"\s*(?P<word>{_alternation(here)})\b(?=\s+here\b)",
            re.IGNORECASE,
        ),
        "parent_of": kept_patterns.compile(
            rf"\b(?P<word>{_alternation(parents)}) of "
            r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twins|\d+)\b",
            re.IGNORECASE,
        ),
        "for_a_living": kept_patterns.compile(
            r"\b(?P<verb>[a-z]+?)(?P<ending>s|es|ing)?\s+for a living\b", re.IGNORECASE
        ),
        "drive": kept_patterns.compile(
            r"(?:\bI\s+|\bI've been\s+|\bbeen\s+|" + _SENTENCE_START + r"\s*)"
            r"(?P<span>(?P<verb>drive|drives|driving|drove)\s+(?:an?\s+)?"
            r"(?:(?:bin|delivery|dump|garbage|rubbish|tow|school|tour|tipper|"
            r"articulated|refuse|recycling|mail|ice cream|tanker)\s+)?"
            r"(?:trucks?|lorr(?:y|ies)|cabs?|taxis?|buses|bus|rigs?|semis?|forklifts?|"
            r"trains?|ambulances?|vans?|diggers?|tractors?|trams?))\b",
            re.IGNORECASE,
        ),
        "education": kept_patterns.compile(
            rf"(?<![\w-])(?:{_alternation(education)})(?![\w-])", re.IGNORECASE
        ),
        "public_employer": kept_patterns.compile(
            r"\b(?P<verb>work(?:s|ed|ing)?|retired|retiring|retire|laid off|quit|left|"
            r"joined|employed|job|career|years)\s+(?:[^.!?\n,]{0,25}?\s)?"
            r"(?P<prep>at|for|from|in|with|by)\s+"
            r"(?P<span>(?:the\s+)?(?:post office|postal service|fire department|"
            r"fire brigade|fire service|police department|police force|police|"
            r"army|navy|air force|marines|NHS|civil service|coast guard|"
            r"border force|railways?|railroad|rail network|the mines|the pits|"
            r"the docks|merchant navy|ministry of defence|prison service))\b",
            re.IGNORECASE,
        ),
        # "in Year 11", "starting Year 7": a UK/Australian school year.
        "school_year": kept_patterns.compile(
            r"\b(?i:in|into|starting|start|finished|finishing|doing|sitting|sat)\s+"
            r"(?:(?:my|the|our)\s+)?"
            r"(?P<span>(?:Year|Class|Grade|Standard|Std\.?)\s+(?:[7-9]|1[0-3]|"
            r"VII|VIII|IX|X|XI|XII))\b"
        ),
        "institution": kept_patterns.compile(
            r"\b(?:(?:St\.?|Saint)\s+)?(?:[A-Z][\w'’&-]*(?:\.[A-Z]\w*)*\s+){1,4}"
            r"(?P<type>Hospital|Medical Cent(?:er|re)|Clinic|Infirmary|University|"
            r"College|Academy|Institute|High School|Elementary School|Middle School|"
            r"School|High|Bank|"
            r"Inc\.?|Corp\.?|Corporation|LLC|Ltd\.?|GmbH|Company|Labs?|Laboratories)\b"
            r"|\b(?P<type2>University|College|Institute|Bank|School)\s+of\s+"
            r"(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
        ),
        "saint": kept_patterns.compile(
            # Not inside a longer name: "St Margaret's Bay" is a place.
            r"\b(?:St\.?|Saint)\s+[A-Z][a-z]+(?:'s|’s)(?!\s+[A-Z])"
        ),
        "company": kept_patterns.compile(
            rf"\b(?:at|for|with|from|joined)\s+(?P<word>{_alternation(companies)})\b"
        ),
    }


def status_pattern() -> re.Pattern[str]:
    """Return the pattern of the listed status phrases ("newly single")."""
    return _patterns()["status"]


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
    "high": "a high school",
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
        word = m.group("word") or m.group("bare")
        _, status, sex, coarse = partners[word.lower()]
        owner = (m.group("my") or "my").lower()
        adjectives = m.group("adj") or ""
        if adjectives and not all(
            w.lower() in _demonym_words() or w.lower() in PARTNER_ADJECTIVES
            for w in adjectives.split()
        ):
            continue  # "my best friend's wife", "my sister's husband" are not
        replacement = f"{'my' if owner == 'the' else owner} {adjectives}{coarse}"
        if m.group("bare"):
            replacement = replacement[:1].upper() + replacement[1:]
        if m.group(0).endswith(("'s", "’s")):
            replacement += m.group(0)[-2:]
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
        if not re.search(r"\b(?:i|i'm|my|we|our)\b", m.group(0), re.IGNORECASE) and (
            not _authors_status(text, m)
        ):
            continue  # "My brother is single again": his status
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
        widow = re.search(r"\bwidow(er)?\b", m.group(0), re.IGNORECASE)
        lasted = re.match(
            r"\s+of\s+(?P<time>(?:[\w-]+\s+){1,2}?(?:years?|months?))\b",
            text[m.end() :],
        )
        if widow and lasted and m.group(0).lower().startswith(("i'm", "i am")):
            # "I'm a widow of three years": how long, said of being on one's
            # own. "A widow of seventy-three years" may say her age instead:
            # a count of years an adult's age could be reads both ways, so
            # the status goes and the rest stays as written.
            count = lasted.group("time").rsplit(" ", 1)
            years = number_value(count[0]) if count[-1].startswith("year") else 0
            if years is None or years >= _ADULT:
                said = m.group(0).rsplit(" ", 1)[0]  # "I am a"
                cues[-1] = replace(
                    cues[-1], replacement=f"{said} [RELATIONSHIP]", sure=False
                )
            else:
                end = m.end() + lasted.end()
                since = f"I've been on my own for {lasted.group('time')}"
                cues[-1] = replace(cues[-1], end=end, quote=text[m.start() : end],
                                   replacement=since)  # fmt: skip
        if widow:
            # A widow is a woman, a widower a man: the status says the sex too.
            sex = "male" if widow.group(1) else "female"
            cues.append(
                Cue(m.start(), m.end(), m.group(0), "sex", "status", sex, coarse, 4)
            )
    gender = {row[0].lower(): row for row in table("gender.tsv")}
    cues.extend(_detect_gender(text, patterns, gender))
    cues.extend(_detect_job_verbs(text, patterns))
    education = {row[0].lower(): row for row in table("education.tsv")}
    for m in patterns["education"].finditer(text):
        level, coarse = education[m.group(0).lower()][1:3]
        if education[m.group(0).lower()][3:] == ("author",) and not authors_clause(
            text, m.start()
        ):
            continue  # "my son left school", "their secondary school"
        exact = True  # every listed phrase states a level; its coarse form does not
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
    for m in patterns["school_year"].finditer(text):
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "education",
                "degree", "in highschool", "school", 4)
        )  # fmt: skip
    cues.extend(_detect_workplaces(text, patterns))
    return cues


_OPENING_ADVERBS = (
    r"\b(?:recently|newly|just|happily|finally|still|now|also|once|twice|"
    r"officially|basically|technically|and|but|so|well|anyway|oh|yep|yes|nope|"
    # "Being divorced has its perks", "since divorced, running solo".
    r"being|since|after|when|while|until|till|before|ever)\b"
)


def _authors_status(text: str, m: re.Match[str]) -> bool:
    """Tell whether a status phrase without "I" or "my" is the author's.

    The clause before it speaks in the first person ("when I got hitched"),
    or the phrase opens a fragment ("Got hitched last spring", "Getting
    hitched next month!"); a gerund that is the subject of a general remark
    ("getting hitched tightens freedom") or others' ("singles trying get
    hitched") is not.
    """
    if not authors_clause(text, m.start()):
        return False
    clause = clause_before(text, m.start(), ".!?;,\n–—")
    if re.search(r"\b(?:I|I'm|I've|I'd|me|my|we|we're|we've|our|us)\b", clause, re.I):
        return True
    if re.search(r"\b(?:as|being)\s+an?\s+$", clause, re.I):
        return True  # "As a single mum of one", "Being a single dad"
    # "Recently divorced after eleven years": adverbs may open the fragment.
    if re.sub(_OPENING_ADVERBS, "", clause, flags=re.I).strip():
        return False
    return not m.group(0).split()[0].lower().endswith("ing") or bool(
        re.match(r"\s*(?:[,.!?;]|$|next|this|in|on|soon|today|tomorrow|at)\b",
                 text[m.end() :])
    )  # fmt: skip


PARTNER_ADJECTIVES = frozenset(
    "lovely wonderful amazing beautiful new current long-term longtime "
    "long-suffering patient dear darling sweet poor gorgeous handsome".split()
)
"""Words that may stand between "my" and a partner word ("my lovely wife")."""


@lru_cache(maxsize=1)
def _demonym_words() -> frozenset[str]:
    return frozenset(row[0].lower() for row in table("demonyms.tsv"))


GROUP_FEMALE = frozenset("mums moms mothers women ladies girls gals".split())
GROUP_PARENTS = frozenset("mums moms mothers dads fathers".split())

KIN_NEUTRAL = {
    "granddaughter": ("female", "grandchild"),
    "grandson": ("male", "grandchild"),
    "daughter": ("female", "child"),
    "son": ("male", "child"),
    "sister": ("female", "sibling"),
    "brother": ("male", "sibling"),
    "niece": ("female", "relative"),
    "nephew": ("male", "relative"),
    "aunt": ("female", "relative"),
    "uncle": ("male", "relative"),
}
"""Kin words that give the author's sex -> (sex, neutral word)."""


def _detect_gender(
    text: str, patterns: dict[str, re.Pattern[str]], gender: dict[str, tuple[str, ...]]
) -> list[Cue]:
    # The span is the noun alone: an age or a job before it ("an 83 year old
    # great-grandmother") is a cue of its own, generalized beside it.
    cues: list[Cue] = []
    for name in ("gender", "fragment_gender", "here_gender"):
        for m in patterns[name].finditer(text):
            word = m.group("word")
            sex, neutral = gender[word.lower()][1:3]
            cues.append(
                Cue(m.start("word"), m.end("word"), word, "sex", "self_reference",
                    sex, neutral, 4)
            )  # fmt: skip
            if word.lower() in ("wife", "husband"):
                cues.append(
                    Cue(m.start("word"), m.end("word"), word, "relationship_status",
                        "self_reference", "married", neutral, 4)
                )  # fmt: skip
    for m in patterns["group_gender"].finditer(text):
        # "Any other expat mums here?", "both women": the author is one of them
        # (in a text that speaks in the first person).
        if not re.search(r"\b(?:I|my|me|I'm|we|our|us)\b", text, re.IGNORECASE):
            continue
        if m.group("lead").lower().strip() == "as" and not re.search(
            r"\bas\s+(?:\w+\s+)?(?:mums|moms|dads|women|men)\s*,?\s*(?:we|I)\b",
            text[m.start() :],
            re.IGNORECASE,
        ):
            continue
        word = m.group("word").lower()
        sex = "female" if word in GROUP_FEMALE else "male"
        neutral = "parents" if word in GROUP_PARENTS else "adults"
        if m.group("lead").lower().strip() not in ("both", "we're both", "were both"):
            neutral = "parents" if word in GROUP_PARENTS else "people"
        cues.append(
            Cue(m.start("word"), m.end("word"), m.group("word"), "sex",
                "self_reference", sex, neutral, 4)
        )  # fmt: skip
    for m in patterns["reflexive"].finditer(text):
        # "for a kid from Winnipeg who taught himself": the author, in the
        # third person; only in a text that speaks in the first person.
        if not re.search(r"\b(?:I|my|me|I'm)\b", text):
            continue
        sex = "male" if m.group("word").lower() == "himself" else "female"
        cues.append(
            Cue(m.start("word"), m.end("word"), m.group("word"), "sex",
                "self_reference", sex, "themselves", 4)
        )  # fmt: skip
    for m in patterns["kin"].finditer(text):
        word = m.group("word")
        lower = word.lower()
        if lower.startswith("great-grand"):
            sex = "female" if re.search(r"mother|ma$", lower) else "male"
            neutral = "great-grandparent"
        else:
            sex, neutral = KIN_NEUTRAL[lower]
        cues.append(
            Cue(m.start("word"), m.end("word"), word, "sex", "self_reference", sex,
                neutral, 4)
        )  # fmt: skip
    for m in patterns["parent_of"].finditer(text):
        sex, neutral = gender[m.group("word").lower()][1:3]
        cues.append(
            Cue(m.start("word"), m.end("word"), m.group("word"), "sex",
                "self_reference", sex, neutral, 3)
        )  # fmt: skip
    return cues


VERB_FORMS = {"": "work", "s": "works", "es": "works", "ing": "working"}
OBJECT_AFTER = kept_patterns.compile(
    r"\b(?P<who>I|(?i:we|you|they|he|she|who))\s+(?:(?:now|still|also|just|actually)"
    r"\s+)?(?P<verb>[a-z]+)\s+$"
)
"""A subject and its verb: an -s word after them is the verb's object."""
DRIVE_FORMS = {
    "drive": "drive",
    "drives": "drives",
    "driving": "driving",
    "drove": "drove",
}


def _detect_job_verbs(text: str, patterns: dict[str, re.Pattern[str]]) -> list[Cue]:
    """Find "welds for a living", "been driving trucks": a job said as a verb.

    Job titles, training and teaching are `anonygraph.cues.occupations`'.
    """
    cues: list[Cue] = []
    for m in patterns["for_a_living"].finditer(text):
        verb = m.group("verb").lower()
        if verb in ("work", "do", "doing", "does", "what", "love", "enjoy", "like"):
            continue
        if re.search(
            r"\b(?:a|an|the|my|our|\w+ing)\s+$", text[: m.start("verb")], re.I
        ):
            continue  # "wield a scalpel", "making games" for a living: nouns
        form = VERB_FORMS.get((m.group("ending") or "").lower(), "work")
        start = m.start("verb")
        end = m.end("ending") if m.group("ending") else m.end("verb")
        # "I now fix boilers for a living": after a subject and its verb an -s
        # word is the verb's object, and the job is both words.
        owner = OBJECT_AFTER.search(text[:start]) if form == "works" else None
        if owner:
            start = owner.start("verb")
            form = "works" if owner.group("verb").endswith("s") else "work"
        cues.append(
            Cue(start, end, text[start:end], "occupation", "job_verb", verb, form, 4)
        )
    for m in patterns["drive"].finditer(text):
        verb = m.group("verb").lower()
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                "job_verb", "driver", DRIVE_FORMS[verb], 4)
        )  # fmt: skip
    return cues


_LEFT = {"retired": "left", "retiring": "leaving", "retire": "leave"}
"""A retirement from an employer, said as leaving it."""


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
                "high",
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
                exact=True,
            )
        )
    for m in patterns["public_employer"].finditer(text):
        # "Retired from the post office": a public employer names the job.
        served = m.group("prep").lower() in ("at", "for", "by")
        coarse = "a public service" if served else "the public sector"
        start = m.start("span")
        verb = m.group("verb").lower()
        if (
            verb in _LEFT
            and m.group("prep").lower() == "from"
            and not text[m.end("verb") : m.start("prep")].strip()
        ):
            # "retired from the railways": retired is a job status of its own.
            start, coarse = m.start("verb"), f"{_LEFT[verb]} {coarse}"
        cues.append(
            Cue(start, m.end("span"), text[start : m.end("span")], "occupation",
                "institution", "public employer", coarse, 4)
        )  # fmt: skip
    for m in patterns["saint"].finditer(text):
        if any(c.start <= m.start() < c.end for c in cues):
            continue
        # "St. Mungo's" names a hospital, church or school: "work" where the
        # clause says the author works there, else a place whose kind and
        # whereabouts are unsaid ("born at St Bernard's" -> "born at [PLACE]").
        at = re.search(r"\b(?:at|from)\s*$", text[: m.start()])
        if at and works_at(text, m.start()):
            cues.append(
                Cue(m.start(), m.end(), m.group(0), "occupation", "institution",
                    "named institution", "work", 3, True)
            )  # fmt: skip
            continue
        cues.append(
            Cue(m.start(), m.end(), m.group(0), place_attribute(text, m.start()),
                "institution", "named institution", "[PLACE]", 3, True, sure=False)
        )  # fmt: skip
    for m in patterns["company"].finditer(text):
        cues.append(
            Cue(
                m.start("word"),
                m.end("word"),
                m.group("word"),
                "occupation",
                "company",
                m.group("word"),
                "a company"
                if m.group(0).lower().startswith(("at", "for", "with", "joined"))
                and text[m.end("word") : m.end("word") + 2] not in ("'s", "’s")
                else "the company",
                3,
                exact=True,
            )
        )
    return cues
