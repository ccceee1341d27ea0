"""The second round of cue recognizers: titles from the parse, birth years,
income bands in the author's economy, hyphenated nationalities, dropped names,
and the similarity floor for rules rewrites. Sentences invented for the tests;
none is from tests/data."""

from __future__ import annotations

import pytest

from anonygraph.cues import Cue, detect_cues, generalize_text
from anonygraph.tools.acceptance import only_cue_generalizations, rejections


def jobs(text: str) -> list[Cue]:
    return [c for c in detect_cues(text) if c.attribute == "occupation" and c.exact]


@pytest.mark.parametrize(
    ("text", "quote", "replacement"),
    [
        ("I'm a registered dietitian at a small clinic.", "dietitian",
         "healthcare worker"),
        ("Worked ten years as a pipefitter before my back gave out.", "pipefitter",
         "tradesperson"),
        ("I've been a cardiac sonographer since 2015.", "cardiac sonographer",
         "healthcare worker"),
        ("Veterinary technician here, ask me about cat bites.",
         "Veterinary technician", "healthcare worker"),
        ("We're both paramedics on the same crew.", "paramedics",
         "healthcare workers"),
        ("I'm a 31 year old pharmacist.", "pharmacist", "healthcare worker"),
        ("I'm a logistics coordinator at a port.", "logistics coordinator",
         "coordinator"),
        ("Just started my plumbing apprenticeship.", "plumbing apprenticeship",
         "apprenticeship"),
        ("I quit my accounting job last spring.", "accounting job", "job"),
        ("I teach history to eighth graders.", "teach history to",
         "work with"),
        ("Still teaching piano on weekends.", "teaching piano", "working"),
    ],
)  # fmt: skip
def test_when_the_author_states_a_job_then_its_title_and_field_go(
    text: str, quote: str, replacement: str
) -> None:
    found = [c for c in jobs(text) if c.quote == quote]
    assert found, jobs(text)
    assert found[0].replacement == replacement


@pytest.mark.parametrize(
    "text",
    [
        "My husband works as an electrician.",
        "The pharmacist told me to wait.",
        "My sister is a dental hygienist.",
        "She teaches French at my school.",
        "I asked the plumber for a quote.",
        "My dad's accounting job moved him around.",
        "I'm a big fan of firefighters.",
        "The nurses on that ward are saints.",
    ],
)
def test_when_a_job_is_someone_elses_then_no_occupation_cue_is_found(
    text: str,
) -> None:
    assert jobs(text) == []


def test_when_an_age_stands_before_a_title_then_each_is_its_own_cue() -> None:
    text = "I'm a 31 year old pharmacist."
    assert generalize_text(text, [c for c in detect_cues(text) if c.exact]) == (
        "I'm a thirty-something healthcare worker."
    )


@pytest.mark.parametrize(
    ("text", "quote", "replacement"),
    [
        ("Born in Lima in 1985, raised elsewhere.", "1985", "the 1980s"),
        ("I was born in Perth in '02 and left at ten.", "'02", "the 2000s"),
        ("Born and raised in Leeds in 1990.", "1990", "the 1990s"),
    ],
)
def test_when_a_birth_year_follows_a_birthplace_then_the_decade_replaces_it(
    text: str, quote: str, replacement: str
) -> None:
    found = [c for c in detect_cues(text) if c.kind == "birth_year"]
    assert [(c.quote, c.replacement) for c in found] == [(quote, replacement)]


def test_when_someone_else_was_born_in_a_year_then_no_age_is_found() -> None:
    assert [
        c for c in detect_cues("My son was born in 2010.") if c.attribute == "age"
    ] == []


@pytest.mark.parametrize(
    ("text", "level"),
    [
        # Purchasing power, not the market rate: a Swiss salary this size is high.
        ("I make 140,000 francs a year.", "high"),
        ("I earn 80,000 euros a year.", "high"),
        ("I make 18 lakh a year.", "high"),
        ("The offer was 24 LPA.", "high"),
        # "$" is the money of the country the text is set in.
        ("I make $70k a year in Toronto.", "middle"),
        ("I make $70k a year in Denver.", "high"),
        ("I earn forty thousand a year.", "middle"),
        ("I earn 3,000 zloty a month.", "low"),
        ("We live on CHF 300k.", "very high"),
    ],
)
def test_when_a_salary_is_stated_then_its_band_is_the_authors_economys(
    text: str, level: str
) -> None:
    found = [c for c in detect_cues(text) if c.attribute == "income_level"]
    assert [c.value for c in found] == [level], found


@pytest.mark.parametrize(
    "text",
    [
        "The NHS 111 line is useless.",
        "She ran a 10k in 45 minutes.",
        "It took a thousand tries.",
        "We won 3 games in a row.",
    ],
)
def test_when_a_number_is_no_amount_of_money_then_no_income_cue_is_found(
    text: str,
) -> None:
    assert [c for c in detect_cues(text) if c.attribute == "income_level"] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm Mexican-American and proud.", "I'm North American and proud."),
        ("I'm Irish-Canadian by birth.", "I'm European-North American by birth."),
        (
            "As a Korean-American kid I stood out.",
            "As an Asian-American kid I stood out.",
        ),
    ],
)
def test_when_a_nationality_is_hyphenated_then_it_is_replaced_as_one(
    text: str, expected: str
) -> None:
    assert generalize_text(text, [c for c in detect_cues(text) if c.exact]) == expected


def test_when_a_dropped_name_stood_after_an_article_then_the_article_fits() -> None:
    text = "I got a job at a Deloitte office downtown."
    start = text.index("Deloitte")
    name = Cue(start, start + 8, "Deloitte", "occupation", "name_modifier",
               "Deloitte", "")  # fmt: skip
    assert generalize_text(text, [name]) == "I got a job at an office downtown."


@pytest.mark.parametrize(
    ("original", "rewrite", "only"),
    [
        (
            "I live in Calgary, Alberta and love it.",
            "I live in Canada and love it.",
            True,
        ),
        ("I'm 34 and a nurse.", "I'm in my thirties and a healthcare worker.", True),
        ("I live in Calgary and love it.", "I live in Canada and hate it.", False),
        ("I live in Calgary and love it.", "Canada is where I live.", False),
        # A dropped cue takes its comma; a placeholder is a cue's form too.
        ("34M, moving back to Guadalajara soon.", "Moving back to [PLACE] soon.", True),
        ("Calgary, sadly, is home.", "Canada sadly is home.", False),
    ],
)
def test_when_a_rewrite_only_generalizes_cues_then_it_is_told_apart(
    original: str, rewrite: str, only: bool
) -> None:
    assert only_cue_generalizations(original, rewrite) is only


def test_when_the_rules_rewrite_only_generalizes_then_the_floor_does_not_refuse() -> (
    None
):
    original = "Working as a paramedic in Calgary pays $41 an hour before overtime."
    rewrite = generalize_text(original, [c for c in detect_cues(original) if c.exact])
    low = lambda a, b: 0.1  # noqa: E731 - a similarity under any floor
    assert rejections(original, rewrite, similarity=low, rules_rewrite=True) == []
    refused = rejections(original, rewrite, similarity=low)
    assert [r.check for r in refused] == ["similarity"]
