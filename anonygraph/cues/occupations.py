"""Occupations the author states: job titles, training, "teaching X", "X job".

A title is found from a list (`titles`: the typical titles of each SOC 2018
minor group, our ``occupations.tsv`` filed by SOC major group, our
``jobs.tsv``), in the singular or plural, and widened by the parse to the
words that say its field ("dental hygienist", "claims adjuster", "HVAC
tech"): a head the list knows with a modifier it does not is still a job
("marine engineering apprenticeship", "speech-language pathologist"). The
span stops there: an article, an age ("a 24 year old bartender") or a career
stage ("retired", "junior") before it stays in the text and is generalized
on its own.

Whether the title is the author's comes from the parse: a title whose
clause has another subject ("my husband flies as a pilot", "the nurses
there are saints") is someone else's; one said of "I"/"we", after "as" in
the author's clause, or standing alone as a fragment ("Nurse practitioner
here, twelve years in") is the author's.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from anonygraph.cues import author_words
from anonygraph.cues.contract import (
    held_by_named_other,
    named_subject,
    residence_reading,
)
from anonygraph.cues.cue import Cue
from anonygraph.cues.lexicon import table, words
from anonygraph.tools import kept_patterns

SOC_COARSE: dict[str, str] = {
    "11": "manager",
    "13": "office worker",
    "15": "tech worker",
    "17": "professional",
    "19": "professional",
    "21": "care worker",
    "23": "legal professional",
    "25": "educator",
    "27": "creative worker",
    "29": "healthcare worker",
    "31": "healthcare worker",
    "33": "public safety worker",
    "35": "hospitality worker",
    "37": "service worker",
    "39": "service worker",
    "41": "sales worker",
    "43": "office worker",
    "45": "outdoor worker",
    "47": "tradesperson",
    "49": "tradesperson",
    "51": "industrial worker",
    "53": "transport worker",
    "55": "public sector worker",
}
"""A SOC 2018 major group -> the job family phrase a title in it becomes: a
phrase true of every title filed under the group."""

SOC_MINOR_COARSE: dict[str, str] = {
    "25-4000": "library, archive or museum worker",
    "25-9000": "education or library worker",
    "27-2000": "performer or sports worker",
    "27-3000": "media or communications worker",
    "43-5000": "logistics worker",
    "51-3000": "food worker",
    "51-6000": "textile or clothing worker",
    "51-9000": "production worker",
}
"""A SOC 2018 minor group whose major group's phrase is false of some of its
members (a librarian is no educator, a postman no office worker, an athlete
no creative worker) -> a phrase true of all of them."""


def group_phrase(code: str) -> str:
    """Return the job family phrase of a SOC group code ("43" or "43-5000")."""
    return SOC_MINOR_COARSE.get(code) or SOC_COARSE.get(code[:2], "professional")


MODIFIERS = frozenset(
    "trainee apprentice junior senior retired self-employed former qualified "
    "freelance part-time full-time head lead chief newly-qualified student "
    "certified licensed registered experienced aspiring".split()
)
"""Words before a job title that say where in a career one is: they stay."""

EVALUATIVE = frozenset(
    "good great bad best worst new old young tired proud happy overworked "
    "underpaid burnt-out burned-out exhausted only first last other full real "
    "actual current local same little big busy lonely humble average decent "
    "mediocre terrible lazy professional fellow female male".split()
)
"""Adjectives before a title that say how, not which job: they stay."""

RELATIONAL = kept_patterns.compile(r"(?:al|ic|ac|ary|ory|ine|ian|ar|il)$")
"""Endings of adjectives that name a field ("dental", "cardiac", "veterinary",
"respiratory", "marine", "civil"); other adjectives describe the person."""

TRAINING = frozenset(
    "apprenticeship apprenticeships internship internships traineeship "
    "residency fellowship placement".split()
)
"""Nouns whose field modifier names the job trained for ("electrician
apprenticeship"): the modifier goes, the noun stays."""

JOB_NOUNS = frozenset("job jobs career gig contract role position shifts".split())
"""Nouns a field word before which names the author's job ("my audit job")."""
WORK_VERBS = frozenset("work works worked working doing pulling covering".split())
"""Verbs the parser may take for a job noun's modifier ("working night shifts")."""

OTHER_PRONOUNS = frozenset("him her them he she they himself herself".split())
WAGE_NOUNS = frozenset("wage wages salary pay paycheck paycheque income hours".split())
_SENTENCE_START = r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s)|(?<=\n))"
CONTEXT_BEFORE = kept_patterns.compile(
    r"\b(?:I'?m|I am|I was|I work as|I worked as|working as|work as|worked as|as|"
    r"my job as|my work as|I'?ve been|been|became|become|retired|now|both|years?|"
    r"qualified as|trained as)\s+"
    r"(?:(?:an?|the)\s+)?"
    r"(?:(?!(?:of|for|with|to|about|and|than|like|from|at)\b)[\w'-]+\s+){0,3}$",
    re.IGNORECASE,
)
"""Words before a title (and its article, age, career stage) that make it the
author's, when the parse does not say otherwise."""
FRAGMENT_AFTER = kept_patterns.compile(
    r"^(?:\s*[,.!;]|\s+(?:here|at|in|for|with|and|since|who|from|by|out|of|on)\b)",
    re.IGNORECASE,
)


def _plural(word: str) -> str:
    if word.endswith(("man", "woman")) and word not in ("human",):
        return word[:-3] + "men"
    if word.endswith("person"):
        return word[:-6] + "people"
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def plural_phrase(phrase: str) -> str:
    """Return a noun phrase with its last word in the plural."""
    head, _, last = phrase.rpartition(" ")
    return f"{head} {_plural(last)}".strip()


@lru_cache(maxsize=1)
def titles() -> dict[str, tuple[str, str]]:
    """Return job title -> (occupation value, coarser family phrase).

    The typical titles of each SOC 2018 minor group
    (``anonygraph/data/soc2018_groups.json``) first, then ``occupations.tsv``
    (titles filed by SOC major group, or by minor group where the major
    group's phrase is false of them), then ``jobs.tsv``; a later list wins.
    """
    lexicon: dict[str, tuple[str, str]] = {}
    path = resources.files("anonygraph").joinpath("data", "soc2018_groups.json")
    for group in json.loads(path.read_text("utf-8"))["minor_groups"]:
        coarse = group_phrase(group["code"])
        for title in group["examples"]:
            lexicon[title.lower()] = (title.lower(), coarse)
    for row in table("occupations.tsv"):
        title, code = row[0].lower(), row[1]
        family = row[2] if len(row) > 2 and row[2] else group_phrase(code)
        lexicon[title] = (title, family)
    for row in table("jobs.tsv"):
        lexicon[row[0].lower()] = (row[1], row[2])
    gendered = {row[0].lower() for row in table("gender.tsv")}
    return {t: v for t, v in lexicon.items() if t not in gendered}


@lru_cache(maxsize=1)
def _forms() -> dict[str, tuple[str, bool]]:
    """Return every written form of a title -> (title, plural)."""
    forms: dict[str, tuple[str, bool]] = {}
    for title in titles():
        forms.setdefault(plural_phrase(title), (title, True))
        forms[title] = (title, False)
    return forms


@lru_cache(maxsize=1)
def _title_pattern() -> re.Pattern[str]:
    alternation = "|".join(
        re.escape(f) for f in sorted(_forms(), key=len, reverse=True)
    )
    return kept_patterns.compile(
        rf"(?<![\w-])(?:{alternation})(?![\w-])", re.IGNORECASE
    )


def token_at(doc: Any, char: int) -> Any:
    """Return the parse token that covers character ``char``, or None."""
    for token in doc:
        if token.idx <= char < token.idx + len(token.text):
            return token
    return None


def _whole_word(token: Any) -> str:
    """Return the hyphenated word a token is part of ("self-employed")."""
    text = token.doc.text
    start, end = token.idx, token.idx + len(token.text)
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "-"):
        end += 1
    return str(text[start:end]).lower()


def _field_modifier(token: Any) -> bool:
    """Tell whether a word before a title says its field ("dental", "claims")."""
    lower = token.lower_
    whole = _whole_word(token)
    if whole in MODIFIERS or whole in EVALUATIVE:
        return False
    if token.pos_ not in ("NOUN", "PROPN", "ADJ", "X", "VERB") or any(
        ch.isdigit() for ch in token.text
    ):
        return False  # "35yo research scientist": the age is a cue of its own
    if token.pos_ == "ADJ" and not RELATIONAL.search(whole):
        return False  # "a nervous student": how, not which job
    if lower in MODIFIERS or lower in EVALUATIVE or lower in ("year", "years", "old"):
        return False
    if token.dep_ not in ("compound", "amod", "nmod", "npadvmod"):
        return False
    if token.text[:1].isupper() and not token.text.isupper():
        # A capitalized word is a name (an employer, a place) unless it
        # begins the sentence: names are cues of their own.
        return bool(token.is_sent_start) and token.pos_ != "PROPN"
    return lower not in _demonym_words()


@lru_cache(maxsize=1)
def _demonym_words() -> frozenset[str]:
    return frozenset(row[0].lower() for row in table("demonyms.tsv"))


def _relative_owns(head: Any) -> bool:
    """Tell whether a kin word on the title names its holder ("mother homemaker")."""
    from anonygraph.cues.ages import RELATIVE_SUBJECT
    from anonygraph.cues.person_roles import kin_words  # person_roles imports cues

    holders = [
        c.lower_.removesuffix("'s")
        for c in head.children
        if c.dep_ in ("compound", "nmod", "poss")
    ]
    return any(
        word in kin_words() or RELATIVE_SUBJECT.match(f"my {word}") is not None
        for word in holders
    )


def _widen_left(doc: Any, first: Any, head: Any) -> int:
    """Return the index of the first token of the title with its field words."""
    i = first.i
    while i > 0:
        prev = doc[i - 1]
        if prev.text == "-" and i > 1 and _field_modifier(doc[i - 2]):
            i -= 2
            continue
        if not _field_modifier(prev) or not (
            first.i <= prev.head.i <= head.i or (i <= prev.head.i <= head.i)
        ):
            break
        i -= 1
    return int(i)


def subject_of(token: Any) -> Any:
    """Return the subject of the clause ``token`` heads, following shared ones."""
    current = token
    for _ in range(4):
        subjects = [c for c in current.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            return subjects[0]
        if (
            current.dep_ in ("conj", "xcomp", "advcl", "acomp")
            and current.head is not current
        ):
            current = current.head
            continue
        return None
    return None


def first_person_subject(subject: Any) -> bool:
    """Tell whether a verb's subject is the author ("I", "my wife and I")."""
    if any(
        t.lower_ in author_words.PERSONS
        and (t is subject or t.dep_ in ("conj", "nsubj"))
        for t in subject.subtree
    ):
        return True
    # "Stay-at-home mom for five years, now going back ...", "Retired
    # firefighter, 63, still can't sleep": a bare singular noun opening the
    # sentence is the author, in a fragment that drops "I'm a".
    first = min(t.i for t in subject.subtree)
    return (
        subject.tag_ == "NN"
        and first == subject.sent.start
        and not any(c.dep_ in ("det", "poss") for c in subject.children)
    )


def _others(token: Any) -> bool:
    """Tell whether a determiner or possessor makes the noun someone else's."""
    for child in token.children:
        if child.dep_ == "poss" and child.lower_ not in ("my", "our"):
            return True
        if child.dep_ == "det" and child.lower_ in ("the", "that", "those", "these"):
            return True
    return False


def _self_by_parse(head: Any) -> bool | None:
    """True: the author's job; False: someone else's; None: the parse can't say."""
    token = head
    while token.dep_ == "conj" and token.head is not token:
        token = token.head
    if (
        token.dep_ == "pobj"
        and token.head.lower_ == "of"
        and any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in head.children)
        and any(t.lower_ == "and" for t in head.doc[token.head.i : head.i])
        and token.head.head.dep_ in ("attr", "oprd")
    ):
        # "I'm a dad of two girls and a software engineer": the parse joins
        # the title to "girls", but "a" makes it a second thing the author is.
        token = token.head.head
    if held_by_named_other(token):
        return False  # "Coach Dale, 61, a retired plumber": Dale's job
    while token.dep_ == "appos" and token.head is not token:
        token = token.head
    dep = token.dep_
    if dep in ("attr", "acomp", "oprd") or (
        dep == "dep" and token.head.lemma_ == "be"
    ):  # "I'm 23, a bartender in ...": the parse leaves the title loose
        subject = subject_of(token.head)
        if subject is not None and named_subject(subject):
            return False  # "Okonkwo is a wrestler and farmer": his jobs
        return None if subject is None else first_person_subject(subject)
    if dep == "pobj" and token.head.lower_ == "as":
        before = token.doc[token.head.i - 1] if token.head.i else None
        if before is not None and before.lower_ in OTHER_PRONOUNS:
            return False  # "me as a translator and him as a game designer"
        if before is not None and before.lower_ in ("me", "myself"):
            return True
        governor = token.head.head
        if governor.pos_ in ("VERB", "AUX"):
            subject = subject_of(governor)
            return True if subject is None else first_person_subject(subject)
        if governor.pos_ == "NOUN":
            return not _others(governor)
        return None
    if dep in ("nsubj", "nsubjpass", "dobj", "pobj", "dative"):
        return False if _others(token) else None
    if dep == "poss":
        return token.head.lower_ in WAGE_NOUNS and not _others(token)
    if dep == "ROOT":
        return not any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children)
    return None


def _self_by_words(text: str, start: int, end: int, head: Any = None) -> bool:
    before = text[:start]
    context = CONTEXT_BEFORE.search(before)
    if context and not re.search(
        r"\b(?:such|well)\s+as\s+(?:\S+\s+){0,3}$", before, re.IGNORECASE
    ):
        # The words between ("a 24 year old") must belong to the title's
        # phrase: "I was always discussing quantum mechanics" names no job.
        gap = re.match(r"\S+(?:\s+an?|\s+the)?\s+", before[context.start() :])
        first = context.start() + (gap.end() if gap else 0)
        between = [t for t in head.doc if first <= t.idx < start] if head else []
        if all(head in t.ancestors or t.head == head for t in between):
            return True
    fragment = re.search(
        _SENTENCE_START
        + r"\s*(?:(?:first|second|third|fourth|final)[\s-]year\s+)?"
        + r"(?:[\w-]+\s+)?$",
        before,
    )
    if fragment is None:
        return False
    lead = before[fragment.start() :].strip().lower()
    return (not lead or lead in MODIFIERS or lead.endswith("year")) and bool(
        FRAGMENT_AFTER.match(text[end:])
    )


NOT_THE_AUTHORS = kept_patterns.compile(
    r"(?:\b(?:if|whether)\s+I'?m|\b(?:if|whether)\s+I\s+(?:am|was|were)|"
    r"\bmistaken\s+for|\bmistook\s+me\s+for|\btaken\s+for|"
    r"\b(?:assume|assumed|assumes|think|thinks|thought)\s+I'?m|"
    r"\bI'?m\s+not|\bI\s+am\s+not|\bas\s+if\s+I\s+(?:was|were)|"
    r"\bpretend(?:ing|ed)?\s+to\s+be)\s+(?:the|a|an|some)\s+(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)
"""A role the author is taken for or denies: "asked if I'm the recruiter"."""


FUNCTION_TAGS = frozenset(
    {"ADP", "ADV", "PART", "INTJ", "SCONJ", "CCONJ", "DET", "PRON"}
)
"""Parts of speech no job title takes: a title read as one is another word
("rn", right now, an adposition at a clause's end)."""


def detect_occupations(text: str, doc: Any) -> list[Cue]:
    """Find the author's job titles, training, teaching and job-field words."""
    cues: list[Cue] = []
    taken: list[tuple[int, int]] = []
    for m in _title_pattern().finditer(text):
        first, last = token_at(doc, m.start()), token_at(doc, m.end() - 1)
        if first is None or last is None:
            continue
        head = last
        if head.dep_ in ("compound", "amod", "nmod") and head.head.i > head.i:
            if head.head.lower_ in TRAINING | JOB_NOUNS:
                continue  # "electrician apprenticeship": the training's cue
            if head.head.pos_ in ("NOUN", "PROPN") and head.head.lower_ not in (
                WAGE_NOUNS
            ):
                continue  # "nurse" in "nurse training": a modifier, not a job
        if head.pos_ in FUNCTION_TAGS or head.dep_ in ("advmod", "npadvmod"):
            continue  # "so bored rn": the parse reads an adverbial, not a noun
        if head.pos_ == "VERB":
            # "and cook until the potatoes break", "guard the door": a title
            # word the parse reads as a verb names no job; where a verb states
            # the author's work ("I nurse at St Mary's") the work verbs say so.
            continue
        title, plural = _forms()[m.group(0).lower()]
        if _relative_owns(head):
            continue  # "mother homemaker": the mother's job, not the author's
        start = doc[_widen_left(doc, first, head)].idx
        end = m.end()
        if text[start:end].lower() in coarse_phrases():
            continue  # "a healthcare worker": what a title became, not a title
        if NOT_THE_AUTHORS.search(text[max(0, start - 40) : start]):
            continue  # "asked if I'm the recruiter": a role taken for, not held
        self_parse = _self_by_parse(head)
        if self_parse is False or not (self_parse or _self_by_words(text, start, end)):
            continue
        value, family = titles()[title]
        known = text[start:end].lower() in _forms()
        if not known and start < m.start():
            value = text[start:end].lower()  # "dental hygienist": a title of its own
        replacement = plural_phrase(family) if plural else family
        if residence_reading(head):
            # "a woman, resident in St. George's": where she lives, or a job.
            cues.append(
                Cue(start, end, text[start:end], "occupation", "job", value,
                    "[OCCUPATION]", 5, sure=False)
            )  # fmt: skip
            taken.append((start, end))
            continue
        lead = re.search(r"\b(\w+)\s+$", text[:start])
        if (
            not plural
            and lead
            and lead.group(1).lower() in ("as", "am", "'m", "was", "became", "become")
        ):
            replacement = f"{'an' if replacement[:1] in 'aeio' else 'a'} {replacement}"
        cues.append(
            Cue(start, end, text[start:end], "occupation", "job", value, replacement, 5)
        )
        taken.append((start, end))
    cues += _training(text, doc, taken)
    return cues


@lru_cache(maxsize=1)
def coarse_phrases() -> frozenset[str]:
    """Return the phrases titles and degrees become ("healthcare worker")."""
    phrases = {family for _, family in titles().values()}
    phrases |= {row[2].lower() for row in table("education.tsv") if len(row) > 2}
    return frozenset(phrases | {plural_phrase(p) for p in phrases})


@lru_cache(maxsize=1)
def job_words() -> frozenset[str]:
    """Return every word of a title or a family phrase, lower-cased."""
    phrases = set(titles()) | set(coarse_phrases())
    return frozenset(w for p in phrases for w in re.findall(r"[\w']+", p))


def _field_word(word: str) -> bool:
    """Tell whether a noun names a job's field: a title begins with its stem."""
    stem = word.lower()
    stem = stem[:-3] if stem.endswith("ing") and len(stem) > 6 else stem
    if len(stem) < 4:
        return False
    return any(t.startswith(stem) for t in titles() if " " not in t)


def _training(text: str, doc: Any, taken: list[tuple[int, int]]) -> list[Cue]:
    """Find a field before a training or job noun: "electrician apprenticeship"."""
    cues: list[Cue] = []
    for token in doc:
        lower = token.lower_
        if lower not in TRAINING and lower not in JOB_NOUNS:
            continue
        if _others(token) or token.i == 0:
            continue
        i = _widen_left(doc, token, token)
        while i < token.i and doc[i].lower_ in WORK_VERBS:
            i += 1  # "working night shifts": the verb that does them, no field
        if i == token.i:
            continue
        field = doc[i : token.i]
        if lower in JOB_NOUNS and not any(_field_word(t.text) for t in field):
            continue
        start, end = doc[i].idx, token.idx + len(token.text)
        if text[start:end].lower() in coarse_phrases() or any(
            s < end and start < e for s, e in taken
        ):
            continue
        cues.append(
            Cue(start, end, text[start:end], "occupation", "job",
                field.text.lower(), token.text, 4)
        )  # fmt: skip
    return cues


BUSINESS = kept_patterns.compile(
    r"\b(?:run|runs|ran|running|own|owns|owned|owning|manage|manages|managed|"
    r"managing|opened|open|opening|started)\s+"
    r"(?P<span>(?P<det>a|an|the|my|our)\s+(?:(?!(?:and|of|in|at)\b)[\w'&-]+\s+){0,3}?"
    r"(?P<noun>farm|restaurant|shop|store|bakery|cafe|café|pub|bar|salon|garage|"
    r"guesthouse|hotel|b&b|practice|ranch|vineyard|brewery|bookshop|bookstore|"
    r"gym|studio|agency|food truck|kennel|laundromat|florist))\b",
    re.IGNORECASE,
)
"""'ran a dairy farm', 'running a small guesthouse': the author's trade, said as
the business they run (the article stays, the kind of business goes)."""


def detect_business(text: str, doc: Any) -> list[Cue]:
    """Find the business the author runs: "we ran a dairy farm" -> "a business"."""
    cues: list[Cue] = []
    for m in BUSINESS.finditer(text):
        verb = token_at(doc, m.start())
        if verb is not None and verb.pos_ in ("VERB", "AUX"):
            subject = subject_of(verb)
            if subject is not None and not first_person_subject(subject):
                continue  # "my uncle runs a garage": his trade
            if subject is None and verb.dep_ in ("acl", "relcl"):
                continue
        det = m.group("det")
        replacement = f"{'a' if det.lower() in ('a', 'an') else det} business"
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "occupation", "job",
                m.group("noun").lower(), replacement, 4)
        )  # fmt: skip
    return cues


LICENCE = kept_patterns.compile(
    r"\b(?P<span>CDL|HGV(?:\s+licen[cs]e)?|(?:forklift|nursing|real estate|"
    r"commercial driver'?s?|trucking|electrician'?s|plumbing|teaching)\s+licen[cs]e)\b",
)
"""Licences that name a trade: "got my CDL" says truck driver."""


def detect_licences(text: str) -> list[Cue]:
    """Find a trade's licence the author holds: "my CDL" -> "my licence"."""
    word = "license" if "license" in text.lower() else "licence"
    return [
        Cue(m.start("span"), m.end("span"), m.group("span"), "occupation", "job",
            m.group("span"), word, 4)
        for m in LICENCE.finditer(text)
        if re.search(r"\b(?:my|our|I|I've|I'm)\b", text[max(0, m.start() - 40) :
                                                      m.start()])
    ]  # fmt: skip


__all__ = [
    "SOC_COARSE",
    "SOC_MINOR_COARSE",
    "detect_business",
    "detect_licences",
    "detect_occupations",
    "first_person_subject",
    "plural_phrase",
    "subject_of",
    "titles",
    "token_at",
    "words",
]
