"""Names joined to a found person's by "and", "&" or "+": a second person.

A field's value before a bracket that holds a found person's name is that
person spelled again ("1. Олег Ким (Oleg Kim)").

"Household: Tenzin Dolma & Karma Wangchuk", "to Tunde and Kemi Balogun for
the van", "Giulia Bianchi + Marco Ferri": the words a coordinator joins to
a person's name are of the same kind as it. They count when they look like
a name on their own: two to three capitalized words none of which is a word
that is no name or an organization's, or one word some Faker locale lists
as a given name or surname ("Smith & Sons", "Tenzin & Co" are no one).
"""

from __future__ import annotations

from anonygraph.identifiers.identifier import Identifier
from anonygraph.tools import kept_patterns

COORDINATOR = r"(?:&|\+|and|und|et|e|y|i|og|och|en|ve|и)"
"""Words and signs that join two names ("&", "and", "und", "y", "и")."""

CAPITALIZED = r"[^\W\d_a-zà-ÿ][^\W\d_'’]*(?:[-'’][^\W\d_]+)*"
"""A word that opens with a letter no lowercase Latin one is."""

AFTER = kept_patterns.compile(
    rf"[ \t]+{COORDINATOR}[ \t]+(?P<v>{CAPITALIZED}(?:[ ]{CAPITALIZED}){{0,2}})"
    r"(?![\w'’-])"
)
"""A coordinator and the capitalized run after a name."""

BEFORE = kept_patterns.compile(
    rf"(?<![\w'’-])(?P<v>{CAPITALIZED}(?:[ ]{CAPITALIZED}){{0,2}})[ \t]+"
    rf"{COORDINATOR}[ \t]+$"
)
"""The capitalized run and a coordinator before a name."""


NAME_WORD = r"[^\W\d_]+(?:[-'’][^\W\d_]+)*"
"""A word of a name in any script ("Jean-Claude", "Ким")."""

SPELLED_BEFORE = kept_patterns.compile(
    rf"(?:^|(?<=[:;,—–])|(?<=\d[.)]))[ \t]*(?P<v>{NAME_WORD}(?:[ ]{NAME_WORD}){{0,3}})"
    r"[ \t]*[(（]$"
)
"""A field's whole value before a bracket that holds a found person's name:
the same person spelled again ("1. Олег Ким (Oleg Kim)",
"Manager: Ti Pè (Pierre Altéus)")."""


def coordinated_names(text: str, found: list[Identifier]) -> list[Identifier]:
    """Find the names a coordinator joins to a found person's.

    Args:
        text: The text the identifiers were found in.
        found: The finds so far (persons and the rest).

    Returns:
        New PERSON finds; overlaps are left to the caller.

    """
    extra: list[Identifier] = []
    for ident in found:
        if ident.kind != "PERSON":
            continue
        line_start = text.rfind("\n", 0, ident.start) + 1
        after = AFTER.match(text, ident.end)
        before = BEFORE.search(text, line_start, ident.start)
        spelled = None
        if text.startswith((")", "）"), ident.end):
            spelled = SPELLED_BEFORE.search(text, line_start, ident.start)
        for m in (after, before, spelled):
            if m is not None and _names_someone(m.group("v")):
                start, end = m.span("v")
                extra.append(
                    Identifier("PERSON", start, end, m.group("v"), 0.6, "Coordinated")
                )
    return extra


def _names_someone(value: str) -> bool:
    """Tell a capitalized run that looks like a person's name on its own."""
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.org_contacts import ORG_HEADS
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        looks_like_name,
        names_no_one,
        not_names,
    )

    words = value.split()
    if not looks_like_name(value) or names_no_one(value):
        return False
    if any(w.lower() in not_names() or ORG_HEADS.match(w) for w in words):
        return False
    return len(words) >= 2 or fold(words[0]) in known_names()
