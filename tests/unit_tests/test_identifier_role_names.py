"""A name right after a noun of a person's role.

Each row is an invented sentence and the names the rule should read after
a role noun: someone's role ("his widow", "our cousins") takes names the
model calls a firm or a people; a role no one owns takes only a name Faker
lists. The counter-cases put a capitalized word after a noun of no person
("my car"), a date after someone's role, a run the model calls a firm after
a role no one owns, a pet after an animal's noun, and a role a proper
noun owns (a team's captain, who may be its public face).
"""

from __future__ import annotations

import pytest

from anonygraph.cues.engine import default_engine
from anonygraph.identifiers import find_identifiers
from anonygraph.identifiers.recognizers.role_names import role_names

ROLE_NAMES = [
    # Someone's role: a possessive before the role noun.
    ("The payout goes to his wife Nomvula Dube next week.", ["Nomvula Dube"]),
    ("Payout to his widow Gcebile Simelane, by bank transfer.", ["Gcebile Simelane"]),
    # A plural role: every name its list joins.
    (
        "We invited our cousins Thandeka and Sipho Mthembu to the braai.",
        ["Thandeka", "Sipho Mthembu"],
    ),
    (
        "Coming too: our friends Tyrone & Shanelle Auguste.",
        ["Tyrone", "Shanelle Auguste"],
    ),
    # Counter-cases: a noun of no person, a date, a firm, a pet.
    ("I drove my car Toyota to work.", []),
    ("We met our driver Monday at the gate.", []),
    ("The report came from analyst Quarterly Review.", []),
    ("Our parrot Lima turned twelve.", []),
    ("The visitors' captain Dale Morrow was rested.", ["Dale Morrow"]),
    ("Lightning's captain Dale Morrow was rested.", []),
]


@pytest.mark.parametrize(("text", "names"), ROLE_NAMES)
def test_when_a_name_follows_a_role_noun_then_it_is_read_as_a_name(
    text: str, names: list[str]
) -> None:
    doc = default_engine()(text)
    assert [text[s:e] for s, e in role_names(doc)] == names


def test_when_a_widow_is_named_then_the_identifier_pass_finds_her() -> None:
    text = "Payout to his widow Gcebile Simelane, by bank transfer."
    found = [i.text for i in find_identifiers(text) if i.kind == "PERSON"]
    assert "Gcebile Simelane" in found
