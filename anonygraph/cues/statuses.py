"""Relationship-status adjectives said of the author, read from the parse.

"Still single at 39", "Engaged!", "I'm divorced now": the word lists
(`anonygraph.cues.phrases`) hold the phrases; this finds a bare status word
the parse makes the author's.
"""

from __future__ import annotations

import re
from typing import Any

from anonygraph.cues.ages import first_person_sentence
from anonygraph.cues.cue import Cue
from anonygraph.cues.phrases import status_pattern

STATUS_WORDS = {
    "single": ("single", "on my own"),
    "engaged": ("engaged", "spoken for"),
    "married": ("married", "spoken for"),
    "divorced": ("divorced", "on my own"),
    "separated": ("divorced", "on my own"),
    "widowed": ("widowed", "on my own"),
}
"""Status adjectives the parse finds said of the author ("Still single at
39", "Engaged!"): the relationship they state and a form that hides it."""


def detect_statuses(text: str, doc: Any) -> list[Cue]:
    """Find a status adjective predicated of the author or standing alone.

    "I'm single" and "single mum" are in the phrase list; this finds the rest
    from the parse: a status word that modifies no noun ("every single day",
    "a married couple" are not statuses) in a sentence that is the author's or
    has no subject ("Still single at 39", "Engaged! He asked at ..."), and not
    followed by what it is done in or with ("engaged in a debate").
    """
    cues: list[Cue] = []
    listed = [m.span() for m in status_pattern().finditer(text)]
    for token in doc:
        lower = token.lower_
        if lower not in STATUS_WORDS or token.dep_ in ("amod", "compound", "nmod"):
            continue
        if token.pos_ in ("NOUN", "PROPN") or any(
            c.dep_ in ("det", "poss") for c in token.children
        ):
            continue  # "a single", "the engaged": a thing, not a status
        if any(s <= token.idx < e for s, e in listed):
            continue  # the phrase list's ("newly single", "divorced twice")
        if any(c.dep_ == "nsubj" for c in token.children) and not any(
            c.dep_ in ("aux", "auxpass") and c.lemma_ == "be" for c in token.children
        ):
            continue  # "I married late": the verb, not the state
        if token.head.lower_ in ("got", "get", "getting", "gets"):
            continue  # "got married": the phrase list's, with a verb form
        after = text[token.idx + len(token) :]
        if re.match(r"\s+(?:in|with|to|by|on|couple|people|man|woman)\b", after):
            continue
        subjects = [
            c for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass")
        ] + [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects and not any(s.lower_ in ("i", "me") for s in subjects):
            continue
        if not subjects and not (
            _fragment(token) and first_person_sentence(text, token.idx)
        ):
            continue  # "staying single's cool", "who chose to stay single"
        status, coarse = STATUS_WORDS[lower]
        if token.text[:1].isupper():
            coarse = coarse[:1].upper() + coarse[1:]
        end = token.idx + len(token)
        for child in token.rights:
            if child.dep_ == "prep" and child.lower_ == "from":
                # "Separated from the kids' father": "on my own" takes no
                # "from" after it, so the one it was from goes with the word.
                last = child.right_edge
                end = last.idx + len(last)
        cues.append(
            Cue(token.idx, end, text[token.idx : end], "relationship_status",
                "status", status, coarse, 4)
        )  # fmt: skip
    return cues


def _fragment(token: Any) -> bool:
    """Tell whether a status word stands as its own clause ("Engaged!")."""
    if token.dep_ == "ROOT":
        return True
    head = token.head
    return (
        token.dep_ in ("conj", "appos")
        and head.dep_ == "ROOT"
        and not any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children)
    )
