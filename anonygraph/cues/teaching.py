"""Teaching as the author's job: "I teach Spanish", "38 years teaching chemistry".

The job goes and the subject stays: the verb becomes its neutral form
("teaching maths to kids" -> "working with kids"), and a language stays a
language ("teach English" -> "work in English").
"""

from __future__ import annotations

import re
from typing import Any

from anonygraph.cues.ages import first_person_sentence
from anonygraph.cues.cue import Cue
from anonygraph.cues.lexicon import words
from anonygraph.cues.occupations import first_person_subject, subject_of, token_at
from anonygraph.tools import kept_patterns

TEACH_FORMS = {
    "teach": "work",
    "teaches": "works",
    "teaching": "working",
    "taught": "worked",
    "lecture": "work",
    "lectures": "works",
    "lecturing": "working",
    "lectured": "worked",
}
"""The teaching verb's neutral form: the subject taught goes with it, since
"to work with English" or "working with maths" reads as another job."""
LEARNERS = frozenset(
    "kids children students pupils adults teens teenagers toddlers kids' "
    "beginners learners graders refugees".split()
)
"""Those taught: after a teaching verb they stay ("working with kids")."""
DURATIONS = frozenset("years decades months weeks yrs".split())
TEACH = kept_patterns.compile(
    r"\b(?P<verb>teach|teaches|teaching|taught|lecture|lectures|lecturing|lectured)\s+(?P<obj>[A-Za-z]+)(?P<to>\s+to\b)?",
    re.IGNORECASE,
)
TEACH_BEFORE = kept_patterns.compile(
    r"(?:\bI\s+|\bI'?ve been\s+|\bI am\s+|\bI'm\s+|\bbeen\s+|\bnow\s+|\bcurrently\s+|"
    r"\bstill\s+|\balso\s+|,\s*|^\s*|[.!?]\s+|\band\s+|"
    r"\b(?:years|decades|months)\s+)$",
    re.IGNORECASE,
)
PRONOUNS = frozenset(
    "myself yourself himself herself me you them him her us it".split()
)


def _taught_end(match: re.Match[str], verb: Any) -> int:
    """Return where the subject taught ends: "teaching high school chemistry".

    The object's words right after the verb, never past a punctuation mark;
    with no object in the parse, the word after the verb if it is a noun or a
    number ("teach year 4"), else the verb alone ("Teaching has shown me").
    """
    if verb is None:
        return match.end("obj")
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.i > verb.i]
    following = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    if objects:
        words_ = set(objects[0].subtree)
    elif (
        following is not None
        and following.head is verb
        and following.pos_ in ("NOUN", "PROPN", "NUM")
    ):
        words_ = {following, *(c for c in following.children if c.i > following.i)}
    else:
        return match.end("verb")
    end = match.end("verb")
    for token in verb.doc[verb.i + 1 :]:
        if token not in words_ or token.is_punct or token.sent != verb.sent:
            break
        end = token.idx + len(token)
    return end


def _kept_object(verb: Any) -> bool:
    """Tell whether the verb's object stays: those taught, or one a clause is on."""
    if verb is None:
        return False
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.i > verb.i]
    if not objects:
        return False
    obj = objects[0]
    # "Taught kids chess - who knew?": a clause set off by a dash is an aside.
    clauses = [
        c for c in obj.children
        if c.dep_ in ("relcl", "acl") and c.i > obj.i
        and not any(t.is_punct for t in obj.doc[obj.i + 1 : c.left_edge.i])
    ]  # fmt: skip
    return obj.lower_ in LEARNERS or bool(clauses)


def _object_before(verb: Any) -> bool:
    """Tell whether the verb's object is the noun its relative clause describes.

    "the unit I teach", "the kids that I taught": no object after the verb,
    no "where" or "when", and the noun is no span of time ("the years I
    taught").
    """
    if verb is None or verb.dep_ != "relcl" or verb.head.lower_ in DURATIONS:
        return False
    return not any(
        (c.dep_ == "dobj" and c.i > verb.i)
        or c.lower_ in ("where", "when", "while", "how", "why")
        or c.dep_ == "prep"
        for c in verb.children
    )


def detect_teaching(text: str, doc: Any) -> list[Cue]:
    """Find "I teach Spanish", "now teaching Italian to teenagers": a teacher.

    The subject stays, the job goes: "teaching maths to kids" -> "working on
    maths with kids", "I teach Spanish" -> "I work with Spanish".
    """
    cues: list[Cue] = []
    for m in TEACH.finditer(text):
        if m.group("obj").lower() in PRONOUNS:
            continue
        verb = token_at(doc, m.start())
        by_parse = None
        if verb is not None and verb.pos_ in ("VERB", "AUX"):
            subject = subject_of(verb)
            if subject is not None:
                by_parse = first_person_subject(subject)
            elif verb.dep_ in ("acl", "relcl") and verb.head.lower_ not in DURATIONS:
                # "38 years teaching chemistry" is the author's career; "the
                # woman teaching yoga" is someone else.
                by_parse = False
        if by_parse is False or not (
            by_parse or TEACH_BEFORE.search(text[: m.start()])
        ):
            continue
        if not by_parse and not first_person_sentence(text, m.start()):
            continue
        word = m.group("verb").lower()
        if word.startswith("lectur") and (verb is None or verb.pos_ != "VERB"):
            continue  # "Lectures and lesson plans": the noun, not the job
        end = m.end()
        if m.group("obj") in words("languages.tsv"):
            # A language stays a language: "teach English" -> "work with
            # English" ("work in English" would name the language worked in).
            replacement = f"{TEACH_FORMS[word]} with {m.group('obj')}"
            replacement += " for" if m.group("to") else ""
            cues.append(
                Cue(m.start(), end, m.group(0), "occupation", "job_verb", "teacher",
                    replacement, 4)
            )  # fmt: skip
            continue
        end = _taught_end(m, verb)
        replacement = TEACH_FORMS[word]
        if _kept_object(verb):
            # "teaching the kids I love for twenty years": those taught, or
            # an object a clause hangs on, stay ("working with the kids I
            # love"); without it the clause would have nothing to describe.
            end, replacement = m.end("verb"), f"{replacement} with"
        if verb is not None and verb.dep_ in ("amod", "compound", "nmod"):
            # "teaching gigs" -> "working gigs"; the parse may take "Teaching
            # kids ..." for a kind of kids: those taught stay, "working with" them.
            end = m.end("verb")
            if verb.head.lower_ in LEARNERS:
                replacement = f"{replacement} with"
        to = re.match(r"\s+to\b", text[end:])
        if to:
            end, replacement = end + to.end(), f"{replacement} with"
        elif _object_before(verb) and end == m.end("verb"):
            # "the unit I teach covers ...": the thing taught is the noun the
            # clause hangs on, and "work" takes no object ("the unit I work").
            replacement = f"{replacement} with"
        cues.append(
            Cue(m.start(), end, text[m.start() : end], "occupation", "job_verb",
                "teacher", replacement, 4)
        )  # fmt: skip
    return cues


__all__ = ["detect_teaching"]
