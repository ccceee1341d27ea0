"""Frames that state an attribute around a word the word lists cannot hold.

Each frame is a class of phrasings, not one example: a number as the object
of a verb of reaching an age ("hit 40", "on the wrong side of fifty"), a
number hedged or counted as years of life ("60-ish", "Thirty-one years on
this planet", "Sixty-eight come March"), an age-and-sex tag in any
punctuation ("a 34 F", "F/34"), an age at a past event with the time since
("I was 24 when ..., nineteen years ago"), a partner's death, a number of
years married, the income a benefit or a wage floor states (retirement is
`anonygraph.cues.retirement`'s).
"""

from __future__ import annotations

import re
from dataclasses import replace

from anonygraph.cues.ages import (
    TURN_FORMS,
    authors_clause,
    decade_phrase,
    first_person_sentence,
    something,
)
from anonygraph.cues.cue import Cue, clause_before
from anonygraph.cues.lexicon import table
from anonygraph.cues.numbers import CARDINAL, number_value
from anonygraph.tools import kept_patterns

_NOT_AN_AGE = (
    r"(?![\s-]*(?:%|percent|degrees|°|years|yrs|times|miles|km|kg|lbs?|mph|"
    r"followers|subscribers|likes|views|points|k\b|grand|quid|bucks|dollars|"
    r"euros|pounds|hours|minutes|days|weeks|months|people|pages|words|steps|[.,]\d))"
)
REACHED = kept_patterns.compile(
    r"\b(?P<verb>hit|hits|hitting|reached|reach|reaching|pushing|approaching|"
    r"nearing|knocking on|turned|turning|turn)\s+"
    rf"(?P<age>{CARDINAL})\b" + _NOT_AN_AGE,
    re.IGNORECASE,
)
"""A number as the object of a verb of reaching an age ("Having just turned 19")."""
REACHED_FORMS = {
    "hit": "hit {}",
    "hits": "hits {}",
    "hitting": "hitting {}",
    "reached": "reached {}",
    "reach": "reach {}",
    "reaching": "reaching {}",
    "pushing": "pushing {}",
    "approaching": "approaching {}",
    "nearing": "nearing {}",
    "knocking on": "knocking on {}",
}
WRONG_SIDE = kept_patterns.compile(
    rf"\b(?:on\s+)?the\s+(?:wrong|right|far|other)\s+side\s+of\s+(?P<age>{CARDINAL})\b"
    + _NOT_AN_AGE,
    re.IGNORECASE,
)
"""'on the wrong side of 40': the age, above or below a round number."""
ISH = kept_patterns.compile(rf"\b(?P<age>{CARDINAL})[\s-]?ish\b", re.IGNORECASE)
"""'60-ish', 'fortyish': an age hedged, still an age."""
YEARS_OF_LIFE = kept_patterns.compile(
    rf"\b(?P<age>{CARDINAL})(?:[\s-]odd|[\s-]plus|\+)?\s+"
    r"(?:years?|summers|winters|trips around the sun)\s+"
    r"(?P<rest>on\s+(?:this|the)\s+(?:planet|earth|Earth)|young|of\s+age|"
    r"around\s+the\s+sun|alive)\b",
    re.IGNORECASE,
)
"""'Thirty-one years on this planet', '70 years young': a life counted in years."""
COME = kept_patterns.compile(
    rf"(?:^|(?<=[.!?]\s)|(?<=\n)|(?<=,\s)|(?<=\bI'm\s)|(?<=\bI am\s))"
    rf"(?P<age>{CARDINAL})\s+(?:come|next|this|in)\s+"
    r"(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Christmas|spring|summer|autumn|fall|winter|birthday|"
    r"month|week|year)\b",
    re.IGNORECASE,
)
"""'Sixty-eight come March', "I'm 40 next month": the age at a date ahead."""
SEX_TAG = kept_patterns.compile(
    r"(?:(?<=\ba\s)|(?<=\ban\s)|(?<=[(\[,:])|(?<=[(\[,:]\s)|(?<=^)|(?<=\bI\s)|"
    r"(?<=\bme\s)|(?<=\bI'm\s)|(?<=\bMe\s))"
    r"(?P<span>(?P<age>\d{2})\s?/?\s?(?P<sex>[MF])|(?P<sex2>[MF])\s?/?\s?(?P<age2>\d{2}))"
    r"(?![\w/])"
)
"""An age-and-sex tag where the author stands: 'a 34 F with', '(F/31)', 'M 45,'."""
_OTHERS_TAG = kept_patterns.compile(
    r"\b(?:partner|husband|wife|boyfriend|girlfriend|bf|gf|fiancée?|spouse|son|"
    r"daughter|brother|sister|mum|mom|dad|friend|he|she|him|her|they|them)"
    r"\s*[(\[,]?\s*$",
    re.IGNORECASE,
)
PAST_AGE = kept_patterns.compile(
    rf"\b(?:I\s+was|I'd\s+just\s+turned|when\s+I\s+was)\s+(?P<age>{CARDINAL})"
    r"(?=\s+(?:when|and|before|after|as|so|then)\b|\s*[,;])",
    re.IGNORECASE,
)
"""'I was 24 when I emigrated': the author's age at an event."""
YEARS_AGO = kept_patterns.compile(
    rf"\b(?P<n>{CARDINAL})\s+years?\s+(?P<when>ago|later|since|on)\b", re.IGNORECASE
)
"""The time since that event: with the age then, it gives the age now."""


_OTHER_SUBJECT = kept_patterns.compile(
    r"\b(?:you|he|she|they|it|someone|people|folks|everyone|anyone|one|who)\s+"
    r"(?:[\w']+\s+){0,2}$",
    re.IGNORECASE,
)


def _reached_by_author(text: str, m: re.Match[str]) -> bool:
    """Tell whether "hit 40", "turning 30" is said of the author.

    Not after another subject ("when you hit 30"); a gerund that is itself
    the subject ("hitting 30 sparks ...") speaks of anyone unless the clause
    is in the first person or the age closes a fragment ("Pushing seventy
    and still cycling").
    """
    if not authors_clause(text, m.start()):
        return False
    before = clause_before(text, m.start(), ".!?;\n–—,")
    if _OTHER_SUBJECT.search(before):
        return False
    if m.group("verb").lower().endswith("ing") and not re.search(
        r"\b(?:I|I'm|I am|me|my|we|we're)\b", before, re.IGNORECASE
    ):
        return bool(re.match(r"\s*(?:[,;.!]|and\b|now\b|next\b|this\b|soon\b|"
                             r"in\b|on\b)", text[m.end() :]))  # fmt: skip
    return True


def _age_cue(text: str, start: int, end: int, age: int, replacement: str) -> Cue:
    return Cue(start, end, text[start:end], "age", "age", str(age), replacement, 4)


def capitalized(text: str, start: int, phrase: str) -> str:
    """Return ``phrase`` with a capital when it starts a sentence at ``start``."""
    if not text[:start].strip() or re.search(r"[.!?\n]\s*$", text[:start]):
        return phrase[:1].upper() + phrase[1:]
    return phrase


def detect_age_frames(text: str) -> list[Cue]:
    """Find ages stated by the frames above, in the author's sentences."""
    cues: list[Cue] = []
    for m in REACHED.finditer(text):
        age = number_value(m.group("age")) or 0
        if not 13 <= age <= 110 or not _reached_by_author(text, m):
            continue
        verb = m.group("verb").lower()
        # "hit 40" -> "hit my forties"; "turned 19" -> "had a birthday" (no
        # coarser number reads after "turned").
        phrase = TURN_FORMS.get(verb) or REACHED_FORMS[verb].format(
            decade_phrase(age).removeprefix("in ")
        )
        cues.append(_age_cue(text, m.start(), m.end(), age, phrase))
    for m in WRONG_SIDE.finditer(text):
        age = number_value(m.group("age")) or 0
        if 13 <= age <= 110 and authors_clause(text, m.start()):
            phrase = decade_phrase(age + (1 if "wrong" in m.group(0).lower() else 0))
            cues.append(_age_cue(text, m.start(), m.end(), age, phrase))
    for m in ISH.finditer(text):
        age = number_value(m.group("age")) or 0
        if 18 <= age <= 99 and first_person_sentence(text, m.start()):
            phrase = capitalized(text, m.start(), something(age))
            cues.append(_age_cue(text, m.start(), m.end(), age, phrase))
    for m in YEARS_OF_LIFE.finditer(text):
        age = number_value(m.group("age")) or 0
        if 13 <= age <= 110 and first_person_sentence(text, m.start()):
            if age < 20:
                # No band of a teen's years reads here ("not many years of
                # age" says what the author did not): the number's placeholder.
                cue = _age_cue(text, m.start("age"), m.end("age"), age, "[AGE]")
                cues.append(replace(cue, sure=False))
                continue
            phrase = f"{something(age)} years {m.group('rest')}"
            phrase = capitalized(text, m.start(), phrase)
            cues.append(_age_cue(text, m.start(), m.end(), age, phrase))
    for m in COME.finditer(text):
        age = number_value(m.group("age")) or 0
        if 13 <= age <= 110 and first_person_sentence(text, m.start()):
            # The age is reached ahead: today the author is a year younger.
            # "This year" may be past the birthday: a band is true only where
            # it holds both ages ("35 this year": thirty-something); "30 this
            # year" spans two decades.
            this_year = m.group(0).lower().split()[-2:] == ["this", "year"]
            if this_year and (age - 1) // 10 != age // 10:
                cue = _age_cue(text, m.start(), m.end(), age, "[AGE]")
                cues.append(replace(cue, sure=False))
                continue
            phrase = capitalized(text, m.start(), something(age - 1))
            cues.append(_age_cue(text, m.start(), m.end(), age, phrase))
    for m in SEX_TAG.finditer(text):
        age = int(m.group("age") or m.group("age2"))
        if not 13 <= age <= 99:
            continue
        if _OTHERS_TAG.search(text[: m.start()]):
            continue  # "my partner (M33)": the partner's tag, not the author's
        sex = "male" if (m.group("sex") or m.group("sex2")) == "M" else "female"
        # After an article the tag is the noun ("a 34 F with two degrees").
        noun = bool(re.search(r"\ban?\s$", text[: m.start()]))
        replacement = "person" if noun else ""
        start, end = m.start("span"), m.end("span")
        kind = "age" if noun else "age_sex_tag"
        cues.append(Cue(start, end, text[start:end], "age", kind, str(age),
                        replacement, 5))  # fmt: skip
        cues.append(Cue(start, end, text[start:end], "sex", kind, sex,
                        replacement, 5))  # fmt: skip
    past = [m for m in PAST_AGE.finditer(text) if authors_clause(text, m.start())]
    for m in past:
        age = number_value(m.group("age")) or 0
        if 13 <= age <= 99:
            cues.append(_age_cue(text, m.start("age"), m.end("age"), age,
                                 decade_phrase(age)))  # fmt: skip
    if past:
        for m in YEARS_AGO.finditer(text):
            # With the age then, the years since give the age now: the count
            # goes, the time word stays ("nineteen years ago" -> "years ago").
            n = number_value(m.group("n")) or 0
            if 2 <= n <= 90:
                end = m.start("when")
                cues.append(
                    _age_cue(
                        text,
                        m.start(),
                        end - 1,
                        n,
                        capitalized(text, m.start(), "many years"),
                    )
                )
    return cues


_PARTNERS = sorted(
    (row[0] for row in table("relationships.tsv") if not row[0].startswith("ex")),
    key=len,
    reverse=True,
)
PARTNER_DIED = kept_patterns.compile(
    r"\b(?:my|our)\s+(?:(?:late|dear|beloved|lovely)\s+)?"
    rf"(?:{'|'.join(re.escape(p) for p in _PARTNERS)})\s+"
    r"(?P<verb>passed away|passed on|passed|died|was killed|went)\b",
    re.IGNORECASE,
)
"""'since my wife passed': the author is widowed."""
LOST_PARTNER = kept_patterns.compile(
    r"\b(?P<verb>lost|losing|lose)\s+(?:my|our)\s+(?:(?:dear|beloved)\s+)?"
    rf"(?:{'|'.join(re.escape(p) for p in _PARTNERS)})\b",
    re.IGNORECASE,
)
YEARS_TOGETHER = kept_patterns.compile(
    rf"\b(?P<n>{CARDINAL})\s+years\s+(?:(?:of\s+)?(?:marriage|married|wed|wedded)\b|"
    r"with\s+(?:the\s+same|my|one)\b)",
    re.IGNORECASE,
)
"""'forty years with the same grumpy man', '30 years married': a long marriage."""
PROPOSED = kept_patterns.compile(
    r"\b(?P<who>I|(?:my|our|the)\s+(?:[a-z-]+\s+){0,2}?"
    rf"(?:{'|'.join(re.escape(p) for p in _PARTNERS)}))\s+(?:finally\s+|just\s+)?"
    r"(?P<verb>proposed|proposes|proposing)\b",
    re.IGNORECASE,
)
"""'My fella proposed on the beach': an engagement."""


def detect_relationship_frames(text: str) -> list[Cue]:
    """Find a partner's death, a long marriage counted in years, a proposal."""
    cues: list[Cue] = []
    for m in PARTNER_DIED.finditer(text):
        # The clause turns round: "since my wife passed" -> "since I lost
        # someone close"; "passed" or "died" after a partner says widowed.
        replacement = "I lost someone close"
        cues.append(Cue(m.start(), m.end(), m.group(0), "relationship_status",
                        "partner", "widowed", replacement, 4))  # fmt: skip
    for m in LOST_PARTNER.finditer(text):
        replacement = f"{m.group('verb')} someone close"
        cues.append(Cue(m.start(), m.end(), m.group(0), "relationship_status",
                        "partner", "widowed", replacement, 4))  # fmt: skip
    for m in YEARS_TOGETHER.finditer(text):
        if not first_person_sentence(text, m.start()):
            continue
        start, end = m.start(), m.end("n")
        many = capitalized(text, start, "many")
        cues.append(Cue(start, end, text[start:end], "age", "age", m.group("n"),
                        many, 3))  # fmt: skip
    for m in PROPOSED.finditer(text):
        start = m.start("verb")
        cues.append(Cue(start, m.end(), m.group("verb"), "relationship_status",
                        "status", "engaged", "made a big gesture"
                        if m.group("verb").lower() == "proposed"
                        else "makes a big gesture", 4))  # fmt: skip
    return cues


BENEFITS = kept_patterns.compile(
    r"\b(?P<span>(?:on|off|living on|claiming|getting)\s+(?:the\s+)?(?:dole|"
    r"benefits|welfare|universal credit|disability(?:\s+benefits?)?|jobseeker'?s"
    r"(?:\s+allowance)?|food stamps|social assistance|centrelink|income support|"
    r"JSA|ESA|PIP|SNAP|ODSP|AISH|the pension|a pension|my pension|"
    r"the state pension|the old age pension|the breadline))\b",
    re.IGNORECASE,
)
"""What one lives on that states a low income."""
WAGE_FLOOR = kept_patterns.compile(
    r"\b(?:the\s+)?(?P<what>minimum wage|minimum-wage|living wage|national "
    r"living wage|min wage|award wage|poverty wages?|six figures|six-figure|"
    r"seven figures|seven-figure|six-figure salary)\b",
    re.IGNORECASE,
)
_WAGE_FORMS = {
    "minimum": ("low", "a low wage", "low-wage"),
    "min": ("low", "a low wage", "low-wage"),
    "living": ("low", "a modest wage", "modest"),
    "national": ("low", "a modest wage", "modest"),
    "award": ("low", "a modest wage", "modest"),
    "poverty": ("low", "a low wage", "low-wage"),
    "six": ("high", "good money", "well-paid"),
    "seven": ("very high", "a very high income", "very well-paid"),
}


def detect_income_frames(text: str) -> list[Cue]:
    """Find benefits lived on and wage floors or figures named in words."""
    cues: list[Cue] = []
    for m in BENEFITS.finditer(text):
        if not first_person_sentence(text, m.start()):
            continue
        lead = m.group("span").split()[0]
        lead = "living" if lead.lower() == "living" else lead
        replacement = (
            f"{lead} a tight budget"
            if lead.lower() in ("on", "living")
            else (f"{lead} some support")
        )
        if lead.lower() == "off":
            replacement = "off a tight budget"
        cues.append(Cue(m.start(), m.end(), m.group(0), "income_level", "benefits",
                        "low", replacement, 3))  # fmt: skip
    for m in WAGE_FLOOR.finditer(text):
        if not first_person_sentence(text, m.start()):
            continue
        key = m.group("what").split()[0].split("-")[0].lower()
        level, noun, adjective = _WAGE_FORMS[key]
        # Before a noun it is an adjective ("a minimum-wage job", "a
        # six-figure salary"); else it is what one earns ("on minimum wage").
        noun_after = re.match(r"\s+(?:job|jobs|salary|pay|work|role|gig|income)\b",
                              text[m.end() :])  # fmt: skip
        start = m.start()
        before = text[:start]
        if noun_after:
            replacement = adjective
        else:
            replacement = noun
            article = re.search(r"\b(?:a|the)\s+$", before, re.IGNORECASE)
            below = re.search(r"\b(?:under|below|less than)\s+$", before, re.I)
            if below and level == "low":
                # "earning under minimum wage" -> "earning very little"
                start, replacement = below.start(), "very little"
            elif article and not m.group(0).lower().startswith("the"):
                start = article.start()
        cues.append(Cue(start, m.end(), text[start : m.end()], "income_level",
                        "salary_band", level, replacement, 3))  # fmt: skip
    return cues


HOME_TOWN_OF = kept_patterns.compile(
    r"\b(?P<lead>(?:home\s*town|village|town|city|county|suburb|region|province|"
    r"island|parish|borough|district|hamlet|neighbourhood|neighborhood))"
    r"(?P<span>\s+of\s+(?P<name>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}))"
)
"""'our home town of Bundoran': a place named by apposition to its kind."""


def detect_place_frames(text: str) -> list[Cue]:
    """Find a place named after its kind ("the village of X"): the name goes."""
    cues: list[Cue] = []
    for m in HOME_TOWN_OF.finditer(text):
        if m.group("name").split()[0] in ("The", "My", "Our", "I"):
            continue
        start, end = m.start("span"), m.end("span")
        cues.append(Cue(start, end, text[start:end], "city_country", "name_modifier",
                        m.group("name"), "", 4))  # fmt: skip
    return cues


ELITE_GROUP = kept_patterns.compile(
    r"\b(?:a|an|the|one of the)\s+(?P<span>Big\s+(?:Four|4|Three|3|Five|5)|FAANG|"
    r"MAANG|Magic\s+Circle|BigLaw|Big\s+Law|MBB|Fortune\s+500|FTSE\s+100)"
    r"(?=\s+(?:firm|company|bank|consultancy|accountancy|law firm|tech|employer|"
    r"job|company's|firms|companies)\b)",
)
"""A named group of employers before the noun it modifies ("a Big Four firm")."""
DEPARTMENT = kept_patterns.compile(
    r"(?<![\w'’&])(?P<span>(?P<field>[a-z]{2,}|HR|IT|A&E|R&D|ICT|ER|ICU))\s+"
    r"(?P<noun>department|dept|division)\b"
)
"""A field before "department": the field names the job ("planning department")."""
_WORKS_IN = kept_patterns.compile(
    r"\b(?:work\w*|job|joined|retire\w*|transferred|employed|staff|I'm in|"
    r"I am in|I was in|head of|manag\w+|run|running)\b",
    re.IGNORECASE,
)
SAME_PARTNER = kept_patterns.compile(
    r"\b(?:with\s+the\s+same|married\s+to\s+(?:a|the|this|one))\s+"
    r"(?:[a-z-]+\s+){0,2}?(?P<word>man|woman|bloke|guy|girl|fella|lady|gal|chap|lad|"
    r"lass)\b",
    re.IGNORECASE,
)
"""'forty years with the same grumpy man': the partner's sex, hence the author's
likely one."""
EVENT_AFTER_AGE = kept_patterns.compile(
    r"\bI\s+was\s+(?:(?:in|only|just|about|barely)\s+)*"
    r"(?:(?:Year|Grade|Class|Standard)\s+\d{1,2}|\d{1,2}|[a-z]+(?:-[a-z]+)?|"
    r"a\s+(?:freshman|sophomore|junior|senior|kid|teenager|toddler|baby))"
    r"\s+when\s+(?P<span>(?:the\s+)?(?:[A-Z0-9][\w/'’-]*\s+)*[A-Z0-9][\w/'’-]*)"
    r"(?=\s+(?:happened|was on|were on|came out|hit|started|took place|was|were|"
    r"broke|ended|began)\b)",
)
"""'I was in Year 9 when the London Olympics happened': a dated event with the
author's age or school year then gives the age now."""


def detect_group_frames(text: str) -> list[Cue]:
    """Find employer groups, departments, a partner's sex and dated events."""
    cues: list[Cue] = []
    for m in ELITE_GROUP.finditer(text):
        cues.append(Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                        "company", m.group("span"), "large", 3))  # fmt: skip
    for m in DEPARTMENT.finditer(text):
        field = m.group("field")
        if field.lower() in (
            "the",
            "a",
            "our",
            "my",
            "this",
            "that",
            "same",
            "new",
            "old",
            "whole",
            "entire",
            "other",
            "every",
        ):
            continue  # fmt: skip
        clause = clause_before(text, m.start(), ".!?;\n")
        if not _WORKS_IN.search(clause) or not authors_clause(text, m.start()):
            continue  # "Our local fire department is great": not where one works
        cues.append(Cue(m.start("span"), m.end("span"), m.group("span"), "occupation",
                        "name_modifier", field, "", 3))  # fmt: skip
    for m in SAME_PARTNER.finditer(text):
        if not first_person_sentence(text, m.start()):
            continue
        word = m.group("word").lower()
        sex = "female" if word in ("woman", "girl", "lady", "gal", "lass") else "male"
        cues.append(Cue(m.start("word"), m.end("word"), m.group("word"), "sex",
                        "partner", sex, "person", 3))  # fmt: skip
    for m in EVENT_AFTER_AGE.finditer(text):
        span = m.group("span")
        if not re.search(r"[A-Z0-9]", span.removeprefix("the ")[:1]):
            continue
        cues.append(Cue(m.start("span"), m.end("span"), span, "age", "event",
                        span, "something big", 3))  # fmt: skip
    return cues


def detect_frames(text: str) -> list[Cue]:
    """Return the cues of every frame in this module."""
    return (
        detect_age_frames(text) + detect_relationship_frames(text)
        + detect_income_frames(text)
        + detect_place_frames(text) + detect_group_frames(text)
    )  # fmt: skip
