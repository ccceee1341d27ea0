"""Facts the rules must not claim for the author, each class with counter-cases.

Classes found on cue held-out 11: a number with no owner in its clause read
as the author's age, an amount banded in a currency or period the text does
not settle, a price the author pays read as income, a chat abbreviation read
as a job, a relative's job or place rewritten, pupils with place names read
as places, a status word rewritten with its "from ..." left dangling. The
phrasings are our own; each class keeps counter-cases where the author's own
fact must still be replaced.
"""

from __future__ import annotations

import pytest

from unit_tests.rules_rewrite import rewritten

CLASSES = {
    # A sentence that opens on a number takes its owner from the text before.
    "age with no owner": [
        (
            "Did you catch Cher on the radio? 78 and still touring the world.",
            "Did you catch Cher on the radio? 78 and still touring the world.",
        ),
        # Counter-cases: the author spoke last, or no one else was named.
        (
            "I'm off to bed. 41 and my knees are done.",
            "I'm off to bed. In my forties and my knees are done.",
        ),
        (
            "Hi all! 34, from Leeds, looking for a running club.",
            "Hi all! In my thirties, from [PLACE], looking for a running club.",
        ),
    ],
    # A band is written only for a currency and period the text settles.
    "amount the rules cannot place": [
        (
            "My salary is 200 000 francs a month and I live in Douala.",
            "My salary is [INCOME] a month and I live in [PLACE].",
        ),
        (
            "I earn RM4k plus, not enough for a condo.",
            "I earn [INCOME] plus, not enough for a condo.",
        ),
        (
            "I paid the £900 rent and the £45 parking fee.",
            "I paid the £900 rent and the £45 parking fee.",
        ),
        # Counter-cases: the francs of the text's own country, a period
        # stated, a yearly figure, pay the author receives or pays themself.
        ("I earn 90,000 francs a year in Geneva.", "I earn good money in [PLACE]."),
        ("I earn 3,000 euros a month.", "I earn a decent salary."),
        ("I earn $48k and rent a flat.", "I earn a decent salary and rent a flat."),
        # A week's pay says no year's band: the weeks worked are unsaid.
        ("They pay me £900 a week.", "They pay me [INCOME] a week."),
        (
            "I pay myself 50k a year from the shop.",
            "I pay myself [INCOME] a year from the shop.",
        ),
    ],
    # A job title is a noun in the parse, held by the author.
    "job read from another word or person": [
        ("ugh so tired rn, work was long", "ugh so tired rn, work was long"),
        ("Unmarried. Mother homemaker.", "Unmarried. Mother homemaker."),
        (
            "My dad is a retired engineer in Leeds.",
            "My dad is a retired engineer in Leeds.",
        ),
        (
            "My cousin, a plumber, moved to Denver last spring.",
            "My cousin, a plumber, moved to Denver last spring.",
        ),
        # Counter-cases: the title in a role of the author's.
        (
            "I'm an RN at the children's hospital.",
            "I'm a healthcare worker at the children's hospital.",
        ),
        (
            "Dad's a plumber and I'm an electrician.",
            "Dad's a plumber and I'm a tradesperson.",
        ),
    ],
    # A place whose clause has someone else as its subject is theirs.
    "place of someone else": [
        (
            "My gran lives in Glasgow and plays bridge every week.",
            "My gran lives in Glasgow and plays bridge every week.",
        ),
        (
            "Her band first played in Dublin in 1985.",
            "Her band first played in Dublin in 1985.",
        ),
        # Counter-cases: the author is a subject, an object or the one it
        # is done with; a partner's home is the author's.
        ("My sister and I grew up in Cardiff.", "My sister and I grew up in [PLACE]."),
        (
            "My mum booked me a flight to Leeds for my birthday.",
            "My mum booked me a flight to [PLACE] for my birthday.",
        ),
        ("I live in Glasgow with my gran.", "I live in [PLACE] with my gran."),
        # York is no sure city (several countries hold the name), and Leeds,
        # mum's, names no country: the author's York is unsettled.
        (
            "My mum moved to Leeds and I stayed in York.",
            "My mum moved to Leeds and I stayed in [PLACE].",
        ),
        (
            "My mum moved to Leeds and I stayed in Edinburgh.",
            "My mum moved to Leeds and I stayed in [PLACE].",
        ),
        (
            "My husband works offshore in the North Sea.",
            "My partner works offshore in [PLACE].",
        ),
    ],
    # A school whose clause has someone else as its subject is theirs.
    "school of someone else": [
        (
            "She was born abroad. She later studied at Oxford.",
            "She was born abroad. She later studied at Oxford.",
        ),
        # Counter-cases: the author's own school in the same sentence, and
        # the author's pronouns, which name no one else.
        (
            "so i'm 19, she/her, just started uni at Leeds doing history",
            "so i'm in my teens, she/her, just started uni at [SCHOOL] doing history",
        ),
        (
            "I studied at Oxford and she studied at Leeds.",
            "I studied at [SCHOOL] and she studied at Leeds.",
        ),
    ],
    # Names joined as a verb's subject do something: people or teams.
    "names joined as a subject": [
        (
            "Chelsea and Paris won the relay at sports day, and I coached them.",
            "Chelsea and Paris won the relay at sports day, and I coached them.",
        ),
        (
            "Coach service, Bath to Bristol: first departure 07:10.",
            "Coach service, Bath to Bristol: first departure 07:10.",
        ),
        # Counter-cases: a lone place the sentence is about, a route of the
        # author's.
        ("Leeds is where I live.", "[PLACE] is where I live."),
        ("I drive Bath to Bristol every day.", "I drive Bath to [PLACE] every day."),
    ],
    # The coarse status form takes no "from ...": the one it was from goes too.
    "status with its complement": [
        ("Separated from the twins' dad since spring.", "On my own since spring."),
        ("Separated since May, two kids.", "On my own since May, two kids."),
    ],
}
CASES = [
    pytest.param(text, expected, id=f"{name}: {text[:40]}")
    for name, cases in CLASSES.items()
    for text, expected in cases
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_when_a_fact_is_not_the_authors_or_not_settled_then_no_guess_is_written(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
