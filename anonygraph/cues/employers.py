"""Confirm from the parse that a name read as an employer is where the author works.

The entity recognizers read a name after "at", "for" or "with" as an
employer when work is near ("a company"), and one after "for" as one in any
case ("doing deliveries for Deliveroo"). The parse says more: the name may
say where a place is ("a private hospital at Mangaluru": a town), or hang on
a clause about someone or something else ("the lobola for Lerato is nearly
paid off": a person). A name the tagger reads as a place (GPE, LOC) is no
sure employer either. `confirm_employers` keeps the employer where the
preposition hangs on a verb whose subject is the author or unsaid ("I drove
for Uber", "Drove for Uber"), and `anonygraph.cues.construction` then
writes ``[ORG]`` for it, since the name does not say it is a firm; after a
job noun the occupation detectors found ("a staff nurse at KTPH", a
hospital) the name is where the author works but of no kind the job says,
so ``[ORG]``; after one of the
vocabulary's kinds of place (`LANDMARK_NOUNS`: hospital, station, market,
...) the name becomes ``[PLACE]``, and elsewhere the organization's
placeholder ``[ORG]``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from anonygraph.cues import author_words
from anonygraph.cues.cue import Cue
from anonygraph.cues.person_roles import kin_words
from anonygraph.cues.place_contract import LANDMARK_NOUNS
from anonygraph.cues.placeholders import placeholder, unsure
from anonygraph.cues.places import fold, place_attribute

GUESSED = frozenset({"a company", "the company"})
"""What an employer's name becomes when the recognizers read it as one."""

_PREPOSITIONS = frozenset({"at", "for", "with", "by"})


def confirm_employers(text: str, doc: Any, cues: list[Cue]) -> list[Cue]:
    """Return the cues with each unconfirmed employer made a typed placeholder.

    Args:
        text: The text the cues were found in.
        doc: Its spaCy parse.
        cues: Settled cues.

    """
    jobs = [c for c in cues if c.attribute == "occupation" and c.kind != "organization"]
    out = []
    for cue in cues:
        if cue.kind != "organization" or cue.replacement not in GUESSED:
            out.append(cue)
            continue
        confirmed = _confirmed(text, doc, cue, jobs)
        if confirmed is not None:
            out.append(confirmed)
    return out


def _confirmed(text: str, doc: Any, cue: Cue, jobs: list[Cue]) -> Cue | None:
    start = cue.start + 4 if cue.quote.lower().startswith("the ") else cue.start
    span = doc.char_span(start, cue.end, alignment_mode="expand")
    if span is None:
        return cue
    if fold(span.text) in kin_words():
        return None  # "For Mum's birthday": a relation, no organization
    if span.root.dep_ == "poss":
        return unsure(cue)  # "Mum's birthday", "Tesco's checkout": nothing says which
    if span.root.dep_ != "pobj":
        return cue  # "joined Infosys": not a preposition's object
    preposition = span.root.head
    if preposition.lower_ not in _PREPOSITIONS:
        return cue
    head = preposition.head
    # The parser may hang "at" on the verb ("work ... in a hospital at
    # Mangaluru"); a kind of place right before the preposition is located
    # by the name all the same.
    before = doc[preposition.i - 1]
    if (
        preposition.lower_ == "at"
        and any(t.pos_ == "NOUN" and t.lower_ in LANDMARK_NOUNS for t in (head, before))
    ) or all(t.ent_type_ in ("GPE", "LOC") for t in span):
        # "a private hospital at Mangaluru": the name says where it stands;
        # "working ... at Mangaluru", which the tagger reads as a place, too.
        attribute = place_attribute(text, start)
        return replace(
            cue,
            start=start,
            quote=text[start : cue.end],
            attribute=attribute,
            kind="area",
            replacement=placeholder(attribute),
            sure=False,
        )
    if head.pos_ == "NOUN" and any(j.start <= head.idx < j.end for j in jobs):
        # "a staff nurse at KTPH": the job says the author works there, not
        # what it is (a hospital, not a company).
        return unsure(cue)
    verb = head
    while verb.head.i != verb.i and verb.pos_ not in ("VERB", "AUX"):
        verb = verb.head
    subject = _subject(verb)
    if subject is not None and (
        subject.lower_ not in author_words.SUBJECTS
        or any(t.i == span.root.i for t in subject.subtree)
    ):
        return unsure(cue)  # "the lobola for Lerato is paid off": not the author's
    return cue


def _subject(verb: Any) -> Any:
    """Return the subject of ``verb``, or of the verb it is joined to; None if none."""
    while True:
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            return subjects[0]
        if verb.dep_ in ("conj", "xcomp") and verb.head.i != verb.i:
            verb = verb.head
            continue
        return None
