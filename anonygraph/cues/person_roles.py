"""Parse roles that make a name a person, whatever the entity tagger calls it.

The small model reads many given names as places ("married to Declan",
"Tamsin" tagged GPE) or organizations ("Chelsea" tagged ORG). A place
settled from such a name would say the author married a town. The role the
name has in the sentence settles it: the object of "to" after a status word
the status detector knows ("married to", "engaged to"), or a name joined by
"and"/"or" to the identifier pass's ``[PERSON_n]`` ("Chelsea and
[PERSON_2] are at the door").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from anonygraph.cues.lexicon import table
from anonygraph.cues.statuses import STATUS_WORDS
from anonygraph.tools import kept_patterns

PERSON_PLACEHOLDER = r"\[PERSON_\d+\]"
_JOINED_AFTER = kept_patterns.compile(rf"\s*(?:and|&|or)\s+{PERSON_PLACEHOLDER}")
_JOINED_BEFORE = kept_patterns.compile(rf"{PERSON_PLACEHOLDER}\s*,?\s*(?:and|&|or)\s+$")


def known_name(name: str) -> bool:
    """Tell whether a person may carry ``name``: a Faker locale lists it.

    A town of the gazetteer that no locale lists as a given name or surname
    ("Nnewi", "Camborne") is a place though the tagger reads it as a person.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    if not name or fold(name) in kin_words():
        return bool(name)  # "Papa", "Mum": a relation, named as a person
    return all(fold(word) in known_names() for word in name.split())


@lru_cache(maxsize=1)
def kin_words() -> frozenset[str]:
    """Return the cue vocabulary's kin and partner words ("mum", "hubby")."""
    from anonygraph.cues.places import fold

    kin = [row[0] for row in table("gender.tsv") if row[2] != "person"]
    partners = [row[0] for row in table("relationships.tsv")]
    return frozenset(fold(w) for w in kin + partners)


def person_by_role(text: str, span: Any) -> bool:
    """Tell whether the parse role of a name's span makes it a person.

    Args:
        text: The text the span's parse was made from.
        span: The name's spaCy span.

    """
    return _status_partner(span) or _joined_to_person(text, span)


def _status_partner(span: Any) -> bool:
    """Tell a name that is whom a relationship status is with ("married to Declan")."""
    root = span.root
    preposition = root.head
    if (
        span.start >= 2
        and span.doc[span.start - 1].lower_ == "to"
        and span.doc[span.start - 2].lower_ in STATUS_WORDS
    ):
        # "Married to Anna Mae twenty-six years": the parser may hang the name
        # on the years; right after "<status> to" it is still the partner.
        return True
    return bool(
        root.dep_ == "pobj"
        and preposition.lower_ == "to"
        and preposition.head.lower_ in STATUS_WORDS
    )


def _joined_to_person(text: str, span: Any) -> bool:
    """Tell a name coordinated with a person ("Chelsea and [PERSON_2]")."""
    # Only a person placeholder right beside it: the parser's "conj" runs
    # over clauses ("moved to London, Ontario and Mum and Dad retired").
    start, end = span.start_char, span.end_char
    return bool(_JOINED_AFTER.match(text, end) or _JOINED_BEFORE.search(text[:start]))
