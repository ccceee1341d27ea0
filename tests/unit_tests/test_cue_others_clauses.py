"""Clauses about someone else, and texts about no one, read from the parse.

Classes found on cue held-out 9 to 17's texts with no cue and their traps:
a noun read as the author's "mine", a dateline the tagger took for a verb
with its subject left out, an obituary's verbless fragments, a relative
clause's "who", a person named by their job with a description apposed to
them, a relative's clause joined to one of the author's, and a short stay
somewhere (a visit, no home). The phrasings
are our own; each class keeps a counter-case where the author's own fact in
the same shape is still replaced.
"""

from __future__ import annotations

import pytest

from unit_tests.rules_rewrite import rewritten

CLASSES = {
    # "mine" is the author only as a pronoun; a pit is no word of theirs.
    "mine as a noun": [
        (
            "The tram runs from the station to the old tin mine museum in "
            "Redruth. Tickets are sold at the door.",
            "The tram runs from the station to the old tin mine museum in "
            "Redruth. Tickets are sold at the door.",
        ),
        (
            "The blue house in Redruth is mine. It has a red door.",
            "The blue house in [PLACE] is mine. It has a red door.",
        ),
    ],
    # A word alone before a colon is a heading, not a verb of the author's.
    "dateline": [
        (
            "HOBART: A ferry lost power off Bruny Island on Monday. The crew, "
            "from Kettering, were towed to the wharf.",
            "HOBART: A ferry lost power off Bruny Island on Monday. The crew, "
            "from Kettering, were towed to the wharf.",
        ),
        (
            "Moved to Hobart in May. The ferries are great.",
            "Moved to [PLACE] in May. The ferries are great.",
        ),
    ],
    # After a clause about someone else, a fragment goes on describing them.
    "fragment of an obituary": [
        (
            "ANNA BELL died at home on 2 May, aged 90. She was a postmistress "
            "for forty years. Dear sister of Tom, 84, a retired farrier in Ludlow.",
            "ANNA BELL died at home on 2 May, aged 90. She was a postmistress "
            "for forty years. Dear sister of Tom, 84, a retired farrier in Ludlow.",
        ),
        (
            "Sister of Tom, retired farrier in Ludlow, keen gardener.",
            "Sister of Tom, retired farrier in [PLACE], keen gardener.",
        ),
    ],
    # "who" stands for the noun its clause hangs on.
    "relative clause": [
        (
            "My brother, who trained as a nurse in Cardiff, visits at Easter.",
            "My brother, who trained as a nurse in Cardiff, visits at Easter.",
        ),
        (
            "I am the one who trained as a nurse in Cardiff.",
            "I am the one who trained as a nurse in [PLACE].",
        ),
    ],
    # A subject named by a job ("our guide") is someone; what is apposed is theirs.
    "person named by a job": [
        (
            "Our guide, a student from Tartu, was brilliant.",
            "Our guide, a student from Tartu, was brilliant.",
        ),
        (
            "I'm a nurse, a student from Tartu.",
            "I'm a healthcare worker, a student from [PLACE].",
        ),
    ],
    # The author in a clause joined to a relative's leaves the relative's alone.
    "relative's clause beside the author's": [
        (
            "My cousin [PERSON_1] just moved to Dundee, so I spent the weekend "
            "carrying his boxes.",
            "My cousin [PERSON_1] just moved to Dundee, so I spent the weekend "
            "carrying his boxes.",
        ),
        (
            "My cousin [PERSON_1] and I just moved to Dundee, so we spent the "
            "weekend carrying boxes.",
            "My cousin [PERSON_1] and I just moved to [PLACE], so we spent the "
            "weekend carrying boxes.",
        ),
    ],
    # A stay shorter than a year is a visit; a longer one, or being there now,
    # may be the author's home.
    "short stay": [
        (
            "Stayed three nights at a guesthouse in Oban: clean rooms, friendly "
            "owners. Would go back.",
            "Stayed three nights at a guesthouse in Oban: clean rooms, friendly "
            "owners. Would go back.",
        ),
        (
            "I live in Whitby and spent the weekend in York with the kids.",
            "I live in [PLACE] and spent the weekend in York with the kids.",
        ),
        (
            "Been in Leeds a month now and loving it.",
            "Been in [PLACE] a month now and loving it.",
        ),
        (
            "I spent ten years in Leeds before the move.",
            "I spent ten years in [PLACE] before the move.",
        ),
        # A time that is now is no length: "these days" is where the author is.
        (
            "Spent a year abroad once. These days I live in Stockport.",
            "Spent a year abroad once. These days I live in [PLACE].",
        ),
    ],
}
CASES = [
    pytest.param(text, expected, id=f"{name}: {text[:40]}")
    for name, cases in CLASSES.items()
    for text, expected in cases
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_when_a_clause_is_someone_elses_then_its_facts_stay(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
