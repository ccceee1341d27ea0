"""Retirement said of the author: an age group and an occupation at once.

"a retired chippy" -> "a former chippy", "I'm retired" -> "I'm out of the
workforce", "I retired in May" -> "I stopped working in May", "took early
retirement" -> "stopped working early", "retired to Sicily" -> "moved to
Sicily", "five years off retirement from X" -> "five years off stepping back
from X". Someone else's retirement and retirement as a topic ("retirement
planning") stay.
"""

from __future__ import annotations

import re

from anonygraph.cues.ages import authors_clause
from anonygraph.cues.cue import Cue, clause_before, sentence_of
from anonygraph.cues.frames import capitalized
from anonygraph.tools import kept_patterns

RETIRED = kept_patterns.compile(
    r"\b(?P<word>retired|retiring|retire|retires|retirement|pensioner|OAP)\b",
    re.IGNORECASE,
)
_RETIRE_VERB = {
    "retired": "stopped working",
    "retire": "stop working",
    "retires": "stops working",
    "retiring": "stopping work",
}

_NOT_A_NOUN_AFTER = kept_patterns.compile(
    r"\s+(?:from|in|at|on|to|for|with|after|before|since|when|last|this|next|early|"
    r"late|later|now|and|but|or|so|because|recently|young|happily|a|an|the|my|our|"
    r"two|three|four|five|six|ten|twenty|years?|yesterday|today|back|there|here|"
    r"too|already|aged?|as|out|off|altogether|completely|fully|properly)\b",
    re.IGNORECASE,
)
_TOOK = kept_patterns.compile(
    r"\b(?P<verb>took|take|takes|taking|taken)\s+(?:an?\s+)?(?P<early>early\s+)?$",
    re.IGNORECASE,
)
_TOOK_FORMS = {"took": "stopped working", "take": "stop working",
               "takes": "stops working", "taking": "stopping work",
               "taken": "stopped working"}  # fmt: skip
_MOVED = {"retired": "moved", "retire": "move", "retires": "moves",
          "retiring": "moving"}  # fmt: skip
_STEP_BACK = {
    "retired": "stepped back",
    "retire": "step back",
    "retires": "steps back",
    "retiring": "stepping back",
}


_FIRST_PERSON = kept_patterns.compile(
    r"\b(?:I|I'm|I've|I'd|me|my|we|we're|we've|our)\b", re.I
)
_SELF_NOUN_BEFORE = kept_patterns.compile(
    r"(?:\b(?:I'm|I am|I was|as|being|am|was|we're|we are|both)\s+(?:an?\s+)?"
    r"(?:[\w-]+\s+)?|^\s*)$",
    re.IGNORECASE,
)
_PLAN_AFTER = kept_patterns.compile(
    r"['’]?s?\s+(?:plans?|planning|funds?|savings|accounts?|party|home|village|"
    r"community|pot|scheme|package|benefits|thoughts|goals|age)\b",
    re.IGNORECASE,
)
"""'retirement planning', 'retirement fund': a topic anyone may raise."""


_OPENING_PREPOSITIONS = frozenset(
    "in into since after before until till during throughout".split()
)


_CLAUSE_MARKS = ".!?;\n–—"


def _authors_retirement(text: str, m: re.Match[str], word: str, clause: str) -> bool:
    """Tell whether a retirement word is said of the author.

    The clause before it (``clause``) speaks in the first person ("I took early
    retirement", "my retirement"), or the word opens a fragment that can only
    be the author's ("Retired firefighter, 63", "Pensioner here"); a topic
    ("retirement planning", "Retirement changes you") or someone else's ("my
    dad retired", "some traditions should retire") is not.
    """
    if re.search(r"(?:\b[a-z]+['’]s|\b(?:his|her|their|your))\s+$", clause, re.I):
        return False
    if word == "retirement" and _PLAN_AFTER.match(text[m.end() :]):
        return False
    if not authors_clause(text, m.start()):
        return False
    if re.search(r"(?:^|[,;(])\s*(?:being|as)\s+an?\s+$", clause, re.I):
        return True  # "Being a retired chippy", "As a retired teacher, I"
    if _FIRST_PERSON.search(clause):
        return True
    if word == "retirement" and clause.strip().lower() in _OPENING_PREPOSITIONS:
        # "In retirement I've taken up painting": the sentence says whose.
        return bool(_FIRST_PERSON.search(sentence_of(text, m.start(), m.end())))
    return not clause.strip() and word != "retirement"


def detect_retirement(text: str) -> list[Cue]:
    """Find the author's retirement: it states an age group and an occupation.

    "a retired chippy" -> "a former chippy" (the title is a cue of its own),
    "I'm retired" -> "I'm not working", "I retired in May" -> "I stopped
    working in May", "five years off retirement" -> "five years off leaving
    work"; someone else's retirement ("my dad retired") stays.
    """
    cues: list[Cue] = []
    for m in RETIRED.finditer(text):
        word = m.group("word").lower()
        before = text[: m.start()]
        after = text[m.end() :]
        clause = clause_before(text, m.start(), _CLAUSE_MARKS)
        if not _authors_retirement(text, m, word, clause):
            continue
        start, end = m.start(), m.end()
        if word in ("pensioner", "oap"):
            replacement = "older person"
        elif word == "retirement" and (took := _TOOK.search(before)):
            start = took.start()
            replacement = _TOOK_FORMS[took.group("verb").lower()] + (
                " early" if took.group("early") else ""
            )  # "took early retirement" -> "stopped working early"
        elif word == "retirement" and re.match(r"\s+from\b", after):
            replacement = "stepping back"  # "five years off retirement from X"
        elif word == "retirement":
            possessive = re.search(r"\b(?:my|our|early)\s+$", before, re.IGNORECASE)
            if possessive and possessive.group(0).lower().startswith("early"):
                start, replacement = possessive.start(), "leaving work early"
            elif possessive:
                start, replacement = possessive.start(), "leaving work"
            elif in_ := re.search(r"\bin\s+$", before, re.IGNORECASE):
                start, replacement = in_.start(), "these days"
            else:
                replacement = "leaving work"
        elif (
            word == "retired"
            and re.match(r"\s+[a-z]", after)
            and not (_NOT_A_NOUN_AFTER.match(after))
        ):
            if not _SELF_NOUN_BEFORE.search(clause):
                continue  # "my retired neighbours", "retired nonnas": others
            # "a retired chippy", "Retired firefighter, 63", "both retired
            # teachers": before a noun it becomes "former".
            replacement = "former"
        elif re.search(r"\b(?:I'm|I am|I was|I've been|been|am|now|being|just|"
                       r"happily|recently|newly|semi|fully)[\s-]+$", before,
                       re.IGNORECASE) and word == "retired":  # fmt: skip
            replacement = "out of the workforce"
        elif (
            word == "retired"
            and not clause.strip()
            and re.match(r"\s+(?:now|these days|for good)\b", after)
        ):
            replacement = "out of the workforce"  # "Retired now - ..."
        elif word in _MOVED and re.match(r"\s+to\s+(?:[A-Z]|the\s|a\s)", after):
            replacement = _MOVED[word]  # "retired to Sicily": moved there
        elif re.match(r"\s+(?:[\w-]+\s+){0,3}from\b", after):
            # "retired early from the fire brigade" -> "stepped back early from".
            replacement = _STEP_BACK.get(word, "stepped back")
        else:
            replacement = _RETIRE_VERB.get(word, "stopped working")
        replacement = capitalized(text, start, replacement)
        for attribute in ("occupation", "age"):
            cues.append(Cue(start, end, text[start:end], attribute, "retired",
                            "retired", replacement, 3))  # fmt: skip
    return cues
