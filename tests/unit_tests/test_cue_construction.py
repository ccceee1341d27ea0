"""Only coarser forms true by construction are written (`anonygraph.cues.construction`).

Examples invented for this file; each table holds a kept coarse form beside
the placeholder its guessing neighbour becomes.
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues, generalize_text


def rewritten(text: str) -> str:
    return generalize_text(text, [c for c in detect_cues(text) if c.exact])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A kind the name's own words say stays; one they do not say goes.
        ("I did my degree at Ridgemoor University.",
         "I did my degree at a university."),
        ("I trained at Ashcombe Tech before the army.",
         "I trained at [SCHOOL] before the army."),
        ("We rowed across Lake Tarrow every summer.",
         "We rowed across a lake every summer."),
        # The kind goes in the name's slot: a verb the span holds stays, and
        # an article after adjectives goes.
        ("Left Ridgemoor College at eighteen with two A levels.",
         "Left a college in my teens with two exams."),
        ("I work at the old Harcastle Hospital.", "I work at the old hospital."),
    ],
)  # fmt: skip
def test_when_a_kind_is_read_off_a_name_then_only_its_own_words_say_it(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My husband and I run the allotment.", "My partner and I run the allotment."),
        # "bloke" is any man as well as a partner: the partner is not written.
        ("My bloke and I run the allotment.",
         "[RELATIONSHIP] and I run the allotment."),
    ],
)  # fmt: skip
def test_when_a_partner_word_is_also_any_mans_then_no_partner_is_written(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I teach Portuguese at a night school.",
         "I work with Portuguese at a night school."),
        ("I teach history to adults.", "I work with adults."),
    ],
)  # fmt: skip
def test_when_a_teaching_verb_goes_then_the_work_it_names_is_all_that_is_said(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work at a bakery on the ring road.",
         "I work at a business on the ring road."),
        # "on the dole" -> "on a tight budget" would be an inference.
        ("I've been on the dole since the plant shut.",
         "I've been [INCOME] since the plant shut."),
    ],
)  # fmt: skip
def test_when_a_replacement_adds_a_guess_then_the_guess_goes(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A place name written in lowercase by a writer who capitalizes is a
        # word, not the place ("nice" is no French city here).
        ("I live in Leeds, England. The food here is nice and cheap.",
         "I live in the UK. The food here is nice and cheap."),
        # Counter-case: a writer who writes everything in lowercase (a place,
        # whose country the text does not confirm).
        ("im from leeds lol", "im from [PLACE] lol"),
        # A city set in a place of another country is a namesake the
        # gazetteer does not hold: its country would contradict the text
        # (and nothing in it confirms Addis Ababa's).
        ("I rent a room in Bole, Addis Ababa.", "I rent a room in [PLACE], [PLACE]."),
        # A negated place: its country would deny more than the author did.
        ("I don't live in Ohio anymore.", "I don't live in [PLACE] anymore."),
    ],
)  # fmt: skip
def test_when_a_country_would_contradict_the_text_then_the_place_is_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "on my own" said of "me and my wife" would deny the wife.
        ("Me and the wife are separated now.",
         "Me and my partner are [RELATIONSHIP] now."),
        ("I'm separated now.", "I'm on my own now."),
        # An employer's name says it is an organization, not that it is a firm.
        ("I've driven for Trelawny for two years.",
         "I've driven for [ORG] for two years."),
    ],
)  # fmt: skip
def test_when_a_status_or_employer_form_would_add_a_claim_then_it_is_a_placeholder(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "income"),
    [
        # A pay verb that the parse reads as the adjective after "is": a
        # price, no income placeholder.
        ("The broth (¥880) is clear and the noodles firm.", False),
        # Counter-cases: the same word as the verb of pay.
        ("Most weeks I clear about $700 after fuel.", True),
        ("I still barely clear $30k.", True),
    ],
)  # fmt: skip
def test_when_a_pay_word_is_a_copulas_adjective_then_no_income_is_read(
    text: str, income: bool
) -> None:
    found = [c for c in detect_cues(text) if c.kind == "salary"]
    assert bool(found) is income
