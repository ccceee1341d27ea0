"""Ages and birth years the author states about themself."""

from __future__ import annotations

import datetime as dt
import re

from anonygraph.cues.cue import Cue, clause_before, sentence_of
from anonygraph.cues.numbers import CARDINAL, ORDINAL, number_value
from anonygraph.tools import kept_patterns

DECADES = {
    1: "teens",
    2: "twenties",
    3: "thirties",
    4: "forties",
    5: "fifties",
    6: "sixties",
    7: "seventies",
    8: "eighties",
    9: "nineties",
}
DECADE_NUMBER = {word: n for n, word in DECADES.items()}
TENS = {
    2: "twenty",
    3: "thirty",
    4: "forty",
    5: "fifty",
    6: "sixty",
    7: "seventy",
    8: "eighty",
    9: "ninety",
}

_AFTER_AGE = (
    r"(?=\s*(?:$|[,.;:!?)\]]|and\b|now\b|but\b|so\b|myself\b|too\b|here\b|"
    r"with\b|and\b|living\b|who\b|if\b|in\b|from\b))"
)
I_AM_AGE = kept_patterns.compile(
    r"\b(?:I'?m|I am|im|I was)\s+"
    r"(?:now\s+|only\s+|almost\s+|nearly\s+|just\s+|about\s+)?"
    rf"(?P<span>(?P<age>{CARDINAL})(?:\s*(?:years?|yrs?)[\s-]*old|\s*y/?o\b|\s*y\.o\.)?)"
    + _AFTER_AGE,
    re.IGNORECASE,
)
YEAR_OLD = kept_patterns.compile(
    r"\b(?:I'?m|I am|im|as|being|I was)\s+an?\s+"
    rf"(?P<span>(?P<age>{CARDINAL})(?:[\s-]*(?:years?|yrs?)[\s-]*old\b(?!s)"
    r"|\s?y/o\b|\s?y\.o\.))",
    re.IGNORECASE,
)
_SENTENCE_START = r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s)|(?<=\n))"
TURNED = kept_patterns.compile(
    rf"(?:\bI\s+|\bI'm\s+|{_SENTENCE_START})"
    r"(?P<span>(?:just\s+|recently\s+|finally\s+|am\s+)?"
    r"(?P<verb>turned|turn|turning)\s+"
    rf"(?P<age>{CARDINAL}))\b(?![\s-]*(?:%|percent|degrees|years|times|left|right))",
    re.IGNORECASE,
)
TURN_FORMS = {
    "turned": "had a birthday",
    "turn": "have a birthday",
    "turning": "having a birthday",
}
"""Turning N: no coarser number reads well after the verb, so the sentence says
a birthday happened ("Just turned 19 and ..." -> "Just had a birthday and ...")."""
BIRTHDAY = kept_patterns.compile(
    rf"\b(?P<pos>my|our)\s+(?P<ord>{ORDINAL})\s+"
    r"(?P<what>birthday|bday|b-day|summer|winter|christmas|spring|autumn|year on earth|"
    r"(?:wedding\s+)?anniversary)\b",
    re.IGNORECASE,
)
CLASS_OF = kept_patterns.compile(
    r"\b(?P<lead>(?:(?:my|our)\s+)?(?:graduating\s+|high school\s+)?class)\s+of\s+"
    r"(?P<year>'\d\d|(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
GRADUATED_IN = kept_patterns.compile(
    r"\b(?:graduat\w*|finished (?:high )?school|left school)\b[^.!?\n]{0,60}?"
    r"(?P<span>\s(?:in|back in)\s+(?P<year>(?:19|20)\d\d))\b",
    re.IGNORECASE,
)
BARE_AGE = kept_patterns.compile(
    rf"{_SENTENCE_START}\s*(?P<lead>(?:Now|Just|Only|Almost|Nearly|Recently)\s+)?"
    rf"(?P<age>{CARDINAL})(?=\s*(?:,|and\b|now\b|here\b|&|with\b))",
    re.IGNORECASE,
)
BOTH_AGE = kept_patterns.compile(
    rf"\b(?P<both>both|each)\s+(?P<age>{CARDINAL})\b(?=\s*(?:[,.;:!?]|and\b|now\b))",
    re.IGNORECASE,
)
APPOSITION = kept_patterns.compile(
    rf"(?:\b(?:I'?m|I am)\b[^.!?\n,]{{1,40}}"
    rf"|{_SENTENCE_START}\s*[A-Z][^.!?\n,]{{2,40}})"
    rf",\s*(?P<age>{CARDINAL})(?P<next>\s+next\s+(?:birthday|month|year))?"
    r"(?=\s*(?:[,.;!?]|and\b))",
)
ADVERB_AGE = kept_patterns.compile(
    r"(?:(?<=,)|(?<=\band)|(?<=\bbut))\s+"
    rf"(?P<span>(?P<lead>now|just|only|almost|nearly|barely|still)\s+(?P<age>{CARDINAL}))"
    r"(?=\s*(?:[,.;!?]|and\b|but\b|when\b|$))",
    re.IGNORECASE,
)
"""'moved at 24, now 35 and ...': an age in a list of the author's facts."""
AGED = kept_patterns.compile(
    rf"(?:{_SENTENCE_START}|(?<=,\s))\s*(?P<span>[Aa]ged\s+(?P<age>{CARDINAL}))\b"
    r"(?=\s*[,.;!?])",
)
"""'Aged 27, a junior doctor': the age alone, as a fragment or an aside."""
TAG_ASIDE = kept_patterns.compile(
    r"(?:(?<=,)|(?<=[.!?:]))\s*(?P<span>(?P<age>\d{2})(?P<sex>[MF])|"
    r"(?P<sex2>[MF])(?P<age2>\d{2}))(?=\s*[,.;!?)]|\s+here\b)"
)
"""An age-and-sex tag set off by commas ("Hi all, 52F, newly single")."""
AT_AGE_ANY = kept_patterns.compile(
    rf"\b(?P<span>at\s+(?P<age>{CARDINAL}))\b"
    r"(?!\s*(?:%|am\b|pm\b|a\.m|p\.m|o'?clock|:|\.\d|,\d|-\d|/|mph|kph|km|miles|"
    r"degrees|percent|per\b|years|year|st\b|th\b|rd\b|nd\b|minutes?|mins?|seconds?|"
    r"hours?|feet|ft|kg|lbs?|pounds|dollars|bucks|euros|k\b|times|points?|"
    r"weeks?|months?|days?|people|of\b|past\b|sharp\b|till\b|until\b|to\s+\d))",
    re.IGNORECASE,
)
"""'got my GED at 38', 'widowed at 44': an event at an age, in a first-person
sentence; times, speeds, prices and counts are not ages."""
BIG_BIRTHDAY = kept_patterns.compile(
    r"\bthe\s+big\s+(?:two|three|four|five|six|seven|eight|nine|[2-9])[\s-]?(?:oh|o|0)\b",
    re.IGNORECASE,
)
"""'the big four-oh': a round birthday, i.e. the age."""
FRAGMENT_YEAR_OLD = kept_patterns.compile(
    rf"{_SENTENCE_START}\s*(?P<age>{CARDINAL})[\s-]*(?:(?P<plural>years)|year|yrs?)"
    r"[\s-]*(?:old|young)\b(?!s)",
    re.IGNORECASE,
)
EVENT_AGE = kept_patterns.compile(
    r"\b(?:married|graduated|moved|retired|started|quit|left home|emigrated|"
    r"had my first|had our first|got my first|dropped out)\b[^.!?\n]{0,40}?\s"
    rf"(?P<span>at\s+(?P<age>{CARDINAL}))\b"
    r"(?!\s*(?:%|am\b|pm\b|o'clock|mph|km|degrees|percent|years|st\b|th\b))",
    re.IGNORECASE,
)
AGE_OF = kept_patterns.compile(
    rf"\b(?:at|by) the age of (?P<age>{CARDINAL})\b", re.IGNORECASE
)
# "At 20 I thought ...": an age said in passing, followed by the speaker.
AT_AGE = kept_patterns.compile(
    rf"\b(?P<span>(?P<at>at)\s+(?P<age>{CARDINAL}))\b(?=\s*,?\s*I(?:\b|'))",
    re.IGNORECASE,
)
TAG = kept_patterns.compile(
    r"(?:(?<=\bI)|(?<=\bme)|(?<=\bI'm)|(?<=^))\s*(?P<span>[(\[]?\s*"
    r"(?:(?P<age>\d{2})\s?(?P<sex>[MFmf])|(?P<sex2>[MFmf])\s?(?P<age2>\d{2}))"
    r"\s*[)\]]?)(?![\w])",
    re.IGNORECASE,
)
BORN = kept_patterns.compile(
    rf"(?:\bI\b[^.!?\n]{{0,25}}?|{_SENTENCE_START}\s*)\bborn\s+"
    r"(?:and\s+(?:raised|bred)\s+)?"
    # A place may stand between: "born in El Paso in 1979", "born in Bogotá in '91".
    r"(?:(?:in|at|on|near|outside)\s+[^.!?\n;]{1,40}?\s+(?=(?:in|back in)\s))?"
    r"(?P<prep>(?:in|back in)\s+)?(?:the year\s+)?"
    r"(?P<year>(?:19|20)\d\d|['’]\d\d)(?![\w'’])",
    re.IGNORECASE,
)
DECADE_PHRASE = kept_patterns.compile(
    r"\b(?:in\s+)?(?P<pos>my|our)\s+(?P<part>early|mid|late)?[\s-]*"
    r"(?P<decade>teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|"
    r"nineties|[2-9]0'?s)\b",
    re.IGNORECASE,
)


def age_band(age: int) -> tuple[int, int]:
    """Return the early/mid/late third of the decade ``age`` falls in."""
    tens = age // 10 * 10
    unit = age % 10
    if unit <= 3:
        return tens, tens + 3
    if unit <= 6:
        return tens + 4, tens + 6
    return tens + 7, tens + 9


def decade_phrase(age: int) -> str:
    """Return "in my twenties" for 27: the coarser form of an exact age.

    The whole decade, not its third: "in my late twenties" still gives the
    age to within two years, as close as the label it replaces.
    """
    if age < 13:
        return "a child"
    if age < 20:
        return "in my teens"
    return f"in my {DECADES[min(age // 10, 9)]}"


def something(age: int) -> str:
    """Return the adjective form: 27 -> "twenty-something"."""
    return f"{TENS[age // 10]}-something" if 20 <= age < 100 else "young"


def _cue(
    text: str,
    start: int,
    end: int,
    age: int,
    kind: str,
    replacement: str,
    certainty: int = 5,
    exact: bool = True,
) -> Cue:
    return Cue(
        start,
        end,
        text[start:end],
        "age",
        kind,
        str(age),
        replacement,
        certainty,
        exact,
    )


def _age(match: re.Match[str]) -> int:
    return number_value(match.group("age")) or 0


def detect_ages(text: str, today: dt.date | None = None) -> list[Cue]:
    """Find the author's stated age, age tag, birth year or decade of life."""
    cues = _stated_ages(text) + _age_events(text) + _age_tags(text)
    cues += _years(text, (today or dt.date.today()).year) + _decades(text)
    return cues


def _stated_ages(text: str) -> list[Cue]:
    cues: list[Cue] = []
    for m in I_AM_AGE.finditer(text):
        age = _age(m)
        if 13 <= age <= 99:
            cues.append(
                _cue(
                    text, m.start("span"), m.end("span"), age, "age", decade_phrase(age)
                )
            )
    for m in YEAR_OLD.finditer(text):
        age = _age(m)
        if 13 <= age <= 99:
            cues.append(
                _cue(text, m.start("span"), m.end("span"), age, "age", something(age))
            )
    for m in FRAGMENT_YEAR_OLD.finditer(text):
        age = _age(m)
        if 13 <= age <= 99:
            # "Thirty-two year old guy" names a person; "Sixteen years old and
            # ..." says the author's age: a phrase that reads as either.
            attributive = not m.group("plural")
            replacement = something(age) if attributive else decade_phrase(age)
            cues.append(_cue(text, m.start(), m.end(), age, "age", replacement))
    for pattern in (BARE_AGE, APPOSITION):
        for m in pattern.finditer(text):
            age = _age(m)
            owned = elided_subject_is_author(text, m.start("age"))
            if pattern is BARE_AGE and not owned:
                continue  # "Did you see her? 77 and still singing": her age
            if 13 <= age <= 99:
                phrase = decade_phrase(age)
                if m.start("age") == 0 or text[: m.start("age")].rstrip()[-1:] in ".!?":
                    phrase = phrase[:1].upper() + phrase[1:]
                # "74 next birthday" -> "in my seventies": the rest goes with it.
                end = m.end("next") if m.groupdict().get("next") else m.end("age")
                cues.append(_cue(text, m.start("age"), end, age, "age", phrase))
    for m in ADVERB_AGE.finditer(text):
        age = _age(m)
        if 13 <= age <= 99 and first_person_sentence(text, m.start()):
            lead = m.group("lead")
            cues.append(
                _cue(text, m.start("span"), m.end("span"), age, "age",
                     f"{lead} {decade_phrase(age)}")
            )  # fmt: skip
    for m in AGED.finditer(text):
        age = _age(m)
        if 13 <= age <= 99:
            cues.append(
                _cue(text, m.start("span"), m.end("span"), age, "age",
                     decade_phrase(age))
            )  # fmt: skip
    for m in BOTH_AGE.finditer(text):
        age = _age(m)
        if 13 <= age <= 99:
            phrase = decade_phrase(age).replace("my ", "our ")
            cues.append(
                _cue(
                    text, m.start(), m.end(), age, "age", f"{m.group('both')} {phrase}"
                )
            )
    for m in TURNED.finditer(text):
        age = _age(m)
        if not 13 <= age <= 110:
            continue
        span = m.group("span")
        lead = span[: m.start("verb") - m.start("span")]
        form = TURN_FORMS[m.group("verb").lower()]
        cues.append(_cue(text, m.start("span"), m.end("span"), age, "age", lead + form))
    return cues


def _age_events(text: str) -> list[Cue]:
    cues: list[Cue] = []
    for m in AT_AGE_ANY.finditer(text):
        age = _age(m)
        if not 13 <= age <= 99 or not first_person_sentence(text, m.start()):
            continue
        # "At 16 I left school": "at a young age" reads at a sentence's start
        # too, where "young" would not.
        phrase = "at a young age" if age < 25 else "later in life"
        cues.append(
            _cue(text, m.start("span"), m.end("span"), age, "age_then", phrase, 3)
        )
    for m in BIG_BIRTHDAY.finditer(text):
        cues.append(_cue(text, m.start(), m.end(), 0, "birthday", "a big birthday", 4))
    for m in AT_AGE.finditer(text):
        if not 13 <= _age(m) <= 99:
            continue  # "starts at 6, I'm ...": below 13, an hour more often than an age
        cues.append(
            _cue(
                text,
                m.start("span"),
                m.end("span"),
                _age(m),
                "age",
                f"{m.group('at')} my age",
                4,
                True,
            )
        )
    for m in EVENT_AGE.finditer(text):
        age = _age(m)
        if 13 <= age <= 99:
            phrase = "young" if age < 25 else "later in life"
            cues.append(
                _cue(text, m.start("span"), m.end("span"), age, "age_then", phrase, 3)
            )
    for m in AGE_OF.finditer(text):
        age = _age(m)
        cues.append(
            _cue(
                text,
                m.start(),
                m.end(),
                age,
                "age_then",
                "at a young age" if age < 25 else "later in life",
                2,
                False,
            )
        )
    for m in BIRTHDAY.finditer(text):
        number = number_value(m.group("ord")) or 0
        what = m.group("what")
        pos = m.group("pos")
        if "anniversary" in what.lower():
            replacement, attribute_certainty = f"{pos} {what}", 3
        elif what.lower() in ("birthday", "bday", "b-day"):
            replacement, attribute_certainty = f"{pos} birthday", 5
        elif number >= 13:
            replacement, attribute_certainty = f"another {what}", 4
        else:
            continue
        cues.append(
            _cue(text, m.start(), m.end(), number, "birthday", replacement,
                 attribute_certainty)
        )  # fmt: skip
    return cues


RELATIVE_SUBJECT = kept_patterns.compile(
    r"\s*(?:my|our)\s+(?:mum|mom|mother|dad|father|parents?|son|daughter|kids?|"
    r"nan|nana|nanna|gran|granny|grandma|grandpa|niece|nephew|neighbou?r|"
    r"(?:flat|room|house)?mate|colleague|co-?worker|cat|dog|"
    r"children|brother|sister|grand\w+|aunt|uncle|cousin|friend|boss|husband|"
    r"wife|partner|boyfriend|girlfriend)\b",
    re.IGNORECASE,
)
"""A sentence whose subject is one of the author's people."""


def first_person_sentence(text: str, at: int) -> bool:
    """Tell whether the sentence around ``at`` is the author's (or has no subject)."""
    sentence = sentence_of(text, at, at)
    first = re.search(r"\b(?:I|I'm|I've|my|me|we|our)\b", sentence)
    if not first and RELATIVE_SUBJECT.match(sentence):
        return False  # "My mum did it at 40": her age, not the author's
    # A sentence without a subject ("Got my GED at 38", "Widowed at 44") is the
    # author's too.
    return bool(first) or not re.search(
        r"\b(?:he|she|they|his|her|their)\b", sentence, re.IGNORECASE
    )


_FIRST_PERSON = kept_patterns.compile(r"\b(?:I|I'm|I've|I'd|me|my|myself)\b")
_OTHER_PERSON = kept_patterns.compile(
    r"\b(?:you|he|she|they|his|her|their|him|them)\b", re.IGNORECASE
)


def elided_subject_is_author(text: str, at: int) -> bool:
    """Tell whether a sentence opening on a number ("77 and still ...") is the author's.

    Its subject is left out, so the text before says whose it is: the
    sentence itself, or the nearest earlier one that speaks of a person, must
    speak in the first person ("I'm off. 41 and tired"), not of someone else
    ("Did you see her? 77 and still singing"); a text that opens on the
    number, or names no one before it, is the author introducing themself.
    """
    if _FIRST_PERSON.search(sentence_of(text, at, at)):
        return True
    before = text[: max(text.rfind(mark, 0, at) for mark in ".!?\n") + 1]
    sentences = [s for s in re.split(r"(?<=[.!?\n])", before) if s.strip()]
    for sentence in reversed(sentences):
        if _FIRST_PERSON.search(sentence):
            return True
        if _OTHER_PERSON.search(sentence):
            return False  # "did you see Dolly Parton? 77 and ...": hers
    return True  # "Hi all! Sipho here. 38, ...": no one else was named


OTHER_SUBJECT_BEFORE = kept_patterns.compile(
    r"\b(?:he|she|they|his|her|their|son|daughter|kids?|children|wife|husband|"
    r"partner|brother|sister|friend|mum|mom|dad|mother|father|boyfriend|girlfriend|"
    r"uncle|aunt|cousin|grandad|grandpa|grandma|nan|neighbou?r)(?:'s)?\s+"
    r"(?:[\w'-]+\s+){0,3}$",
    re.IGNORECASE,
)
"""Someone else just before a verb: "my mum works at", "my son graduated"."""


def authors_clause(text: str, at: int) -> bool:
    """Tell whether the words before ``at`` are said of the author.

    The sentence is the author's (`first_person_sentence`) and no one else
    stands as the subject right before ("my mum works at a bakery").
    """
    other = OTHER_SUBJECT_BEFORE.search(clause_before(text, at, ".!?;\n"))
    # "my husband and I", "neither my wife nor I": the author is a subject too.
    if other and not re.search(r"\b(?:and|nor|or)\s+(?:I|me|myself)\b", other.group(0)):
        return False
    return first_person_sentence(text, at)


def _age_tags(text: str) -> list[Cue]:
    cues: list[Cue] = []
    seen = {m.start("span") for m in TAG.finditer(text)}
    for m in TAG_ASIDE.finditer(text):
        if m.start("span") in seen:
            continue
        age = int(m.group("age") or m.group("age2"))
        if 13 <= age <= 99:
            sex = "male" if (m.group("sex") or m.group("sex2")) == "M" else "female"
            start, end = m.start("span"), m.end("span")
            cues.append(_cue(text, start, end, age, "age_sex_tag", ""))
            cues.append(
                Cue(start, end, text[start:end], "sex", "age_sex_tag", sex, "", 5)
            )
    for m in TAG.finditer(text):
        age = int(m.group("age") or m.group("age2"))
        sex = (m.group("sex") or m.group("sex2")).upper()
        if not 13 <= age <= 99:
            continue
        start, end = m.start("span"), m.end("span")
        cues.append(_cue(text, start, end, age, "age_sex_tag", ""))
        cues.append(
            Cue(
                start,
                end,
                text[start:end],
                "sex",
                "age_sex_tag",
                "male" if sex == "M" else "female",
                "",
                5,
            )
        )
    return cues


def _full_year(written: str, year_now: int) -> int:
    """Return the year "1979" or "'91" stands for (a two-digit one: the latest)."""
    if written[:1] not in "'’":
        return int(written)
    short = int(written[1:])
    return 2000 + short if 2000 + short <= year_now else 1900 + short


def _years(text: str, year_now: int) -> list[Cue]:
    cues: list[Cue] = []
    for m in BORN.finditer(text):
        year = _full_year(m.group("year"), year_now)
        if not 1900 <= year <= year_now:
            continue
        decade = f"the {year // 10 * 10}s"
        cues.append(
            Cue(
                m.start("year"),
                m.end("year"),
                m.group("year"),
                "age",
                "birth_year",
                str(year_now - year),
                decade if m.group("prep") else f"in {decade}",
                5,
                True,
            )
        )
    for m in CLASS_OF.finditer(text):
        written = m.group("year")
        full = int(written) if len(written) == 4 else 2000 + int(written[1:])
        lead = m.group("lead")
        if m.start() == 0 or text[: m.start()].rstrip()[-1:] in ".!?\n":
            lead = (
                "My " + lead[:1].lower() + lead[1:] if lead.lower() == "class" else lead
            )
        cues.append(
            Cue(m.start(), m.end(), m.group(0), "age", "graduation_year",
                str(year_now - full + 18), lead, 4, True)
        )  # fmt: skip
    for m in GRADUATED_IN.finditer(text):
        year = int(m.group("year"))
        cues.append(
            Cue(m.start("span"), m.end("span"), m.group("span"), "age",
                "graduation_year", str(year_now - year + 22), "", 4, True)
        )  # fmt: skip
    return cues


def _decades(text: str) -> list[Cue]:
    cues: list[Cue] = []
    for m in DECADE_PHRASE.finditer(text):
        word = m.group("decade").lower().replace("'", "")
        tens = DECADE_NUMBER.get(word) or int(word[0])
        low, high = tens * 10, tens * 10 + 9
        if word == "teens":
            low, high = 13, 19
        part = (m.group("part") or "").lower()
        if part:
            low, high = {
                "early": (low, low + 3),
                "mid": (low + 4, low + 6),
                "late": (low + 7, high),
            }[part]
            phrase = m.group(0)
            replacement = re.sub(r"(early|mid|late)[\s-]*", "", phrase, flags=re.I)
            certainty = 3
        else:
            replacement = (
                "at my age"
                if m.group(0).lower().startswith("in")
                else ("this stage of life")
            )
            certainty = 2
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "age",
                "age_range",
                f"{low}-{high}",
                replacement,
                certainty,
                # A third of a decade pins the age as closely as a label does.
                exact=bool(part),
            )
        )
    return cues
