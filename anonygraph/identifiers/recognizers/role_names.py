"""A name right after a noun of a person's role: "his widow Ana", "technician Farai".

The model misses a name it has not met when a role noun, not a title, stands
before it ("verified by the chief's speaker Pa Alusine Kallon"). The parse
still shows the pair: a lowercase common noun that names a kind of person
(a job, a kin word, a partner, a person's sex; the cue detectors' closed
lexicons, plural too) and one to three capitalized proper nouns right after
it. The pair counts as a name when the role is someone's (a possessive
before the noun, a pronoun or a lowercase noun: "his wife Ana", "the chief's
driver Pa Alusine Kallon") or the first word is a given name or surname
Faker lists ("by technician Farai"). A role a capitalized word owns reads no
name: it may be a team's or a firm's ("Thunder's captain"), whose holder is
its public face. After a plural role ("our friends Tyrone & Shanelle Auguste") each
name the list joins with "and" or "&" counts as well. A run the model labels
as a thing ("the driver Monday", "the analyst Quarterly Review") is left
out unless the role is someone's or plural, where only a date or a time is:
the model calls unknown names firms, towns and peoples as readily as
persons.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from presidio_analyzer import RecognizerResult

ROLE_RECOGNIZER = "RoleNameRecognizer"
"""The recognizer name of a role's name: a cue, so no topic's name (a full
name the model alone finds in a text of no other identifier is dropped as a
public figure's)."""

NOT_PERSON_LABELS = frozenset(
    "GPE LOC FAC ORG NORP DATE TIME EVENT PRODUCT WORK_OF_ART LAW LANGUAGE".split()
)
"""The model's labels of a thing: a run carrying one is no person's name."""

TIME_LABELS = frozenset("DATE TIME".split())
"""The labels that keep a run out even after someone's role ("our driver Monday")."""

KIN = frozenset(
    """mother father mum mom mam dad son daughter brother sister aunt auntie
    aunty uncle cousin nephew niece grandma grandpa granny gran grandmother
    grandfather grandson granddaughter stepson stepdaughter stepmother
    stepfather widow widower friend neighbour neighbor colleague boss
    flatmate roommate housemate classmate""".split()
)
"""English kin and acquaintance nouns (a closed class the lexicons lack)."""

JOINERS = frozenset({"and", "&"})
MAX_NAME_WORDS = 3


def role_names(doc: Any) -> list[tuple[int, int]]:
    """Return the spans of names that follow a noun of a person's role.

    Args:
        doc: The spaCy parse of the text.

    Returns:
        ``(start, end)`` character offsets of each name (see the module
        docstring).

    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    spans: list[tuple[int, int]] = []
    for token in doc:
        word = token.text
        if token.pos_ != "NOUN" or not word.isalpha() or not word.islower():
            continue
        plural = word not in _role_nouns() and word[:-1] in _role_nouns()
        if word not in _role_nouns() and not plural:
            continue
        # "his widow", "the chief's speaker": a pronoun's or a common noun's
        # role; "Thunder's captain" may be a team's public face.
        owners = [c for c in token.children if c.dep_ == "poss"]
        if any(c.pos_ != "PRON" and not c.text.islower() for c in owners):
            continue
        possessed = bool(owners)
        i = token.i + 1
        while True:
            run = _name_run(doc, i, owned=possessed or plural)
            if not run:
                break
            if possessed or fold(run[0].text) in known_names():
                spans.append((run[0].idx, run[-1].idx + len(run[-1].text)))
            i = run[-1].i + 1
            if not (plural and i + 1 < len(doc) and doc[i].lower_ in JOINERS):
                break
            i += 1
    return spans


def with_role_names(
    kept: list[RecognizerResult], doc: Any, identifier: str
) -> list[RecognizerResult]:
    """Add the names after a role noun to the model's, as cued finds.

    Args:
        kept: The model's PERSON results kept so far.
        doc: The spaCy parse of the text.
        identifier: The id of the recognizer that reports them.

    Returns:
        ``kept`` less the results a role's name overlaps, plus a result for
        each role's name.

    """
    spans = role_names(doc)
    found = [r for r in kept if not any(s < r.end and r.start < e for s, e in spans)]
    for start, end in spans:
        metadata = {
            RecognizerResult.RECOGNIZER_NAME_KEY: ROLE_RECOGNIZER,
            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: identifier,
        }
        found.append(
            RecognizerResult("PERSON", start, end, 0.85, recognition_metadata=metadata)
        )
    return found


def _name_run(doc: Any, i: int, *, owned: bool) -> list[Any]:
    """Return the capitalized proper nouns from token ``i`` on (at most three)."""
    run: list[Any] = []
    while i < len(doc) and len(run) < MAX_NAME_WORDS:
        token = doc[i]
        if token.pos_ != "PROPN" or not token.text.istitle():
            break
        if token.ent_type_ in (TIME_LABELS if owned else NOT_PERSON_LABELS):
            return []
        run.append(token)
        i += 1
    return run


@lru_cache(maxsize=1)
def _role_nouns() -> frozenset[str]:
    """Return one-word nouns of a person's role: jobs, kin, partners, sexes."""
    from anonygraph.cues.lexicon import table
    from anonygraph.identifiers.recognizers.name_checks import relation_words

    words = {
        row[0].split()[-1].lower()
        for name in ("occupations.tsv", "jobs.tsv", "relationships.tsv", "gender.tsv")
        for row in table(name)
    }
    return frozenset(words | relation_words() | KIN)
