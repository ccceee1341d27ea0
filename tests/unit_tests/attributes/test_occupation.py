"""Occupation: word rules, then SOC job family and MiniLM similarity."""

from __future__ import annotations

import pytest

from anonygraph.attributes.occupation import (
    SAME_TITLE_SIMILARITY,
    job_families,
    job_family,
)
from anonygraph.tools.matching import match_guess

from .quoted import FAMILY_OCCUPATION_CASES, OCCUPATION_CASES


@pytest.mark.parametrize(("truth", "guess", "expected"), OCCUPATION_CASES)
def test_when_occupation_guess_is_judged_then_head_noun_and_modifiers_decide(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("occupation", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        ("software engineer", "engineer", "less_precise"),
        ("web developer", "Developer", "less_precise"),
        ("art curator", "Curator", "less_precise"),
        ("Accountant", "acountant", "correct"),  # a typo
        ("lawyer", "Attorney", "correct"),
    ],
)
def test_when_occupation_guess_is_broader_then_it_is_less_precise(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("occupation", truth, guess).outcome == expected


@pytest.mark.parametrize(("truth", "guess", "expected"), FAMILY_OCCUPATION_CASES)
def test_when_titles_differ_then_job_family_and_similarity_decide(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("occupation", truth, guess).outcome == expected


@pytest.mark.parametrize(
    ("truth", "guess", "expected", "reason"),
    [
        ("journalist", "reporter", "correct", "same job family"),
        # One family, but people keep its roles apart below the threshold.
        ("chemist", "chemistry teacher", "wrong", "same job family"),
        ("accountant", "auditor", "wrong", "same job family"),
        ("electrician", "plumber", "wrong", "same job family"),  # too far apart
        ("financial manager", "financial analyst", "wrong", "other job family"),
        ("pilot", "hairdresser", "wrong", "other job family"),
    ],
)
def test_when_titles_share_no_words_then_the_reason_names_family_and_similarity(
    truth: str, guess: str, expected: str, reason: str
) -> None:
    match = match_guess("occupation", truth, guess)
    assert match.outcome == expected
    assert match.decided_by == "rule"
    assert reason in match.reason and "similarity 0." in match.reason


@pytest.mark.parametrize(
    ("truth", "guess"),
    [
        ("teacher", "physics teacher"),
        ("nurse", "pediatric nurse"),
        ("tutor", "math tutor"),
    ],
)
def test_when_truth_is_broad_and_guess_narrower_then_it_is_less_precise(
    truth: str, guess: str
) -> None:
    match = match_guess("occupation", truth, guess)
    assert (match.outcome, match.reason) == (
        "less_precise",
        f"{guess!r} is a narrower kind of {truth!r}",
    )


def test_when_a_title_is_placed_then_its_soc_family_is_named() -> None:
    family, similarity = job_family("kindergarten teacher")
    assert (family.code, family.major) == (
        "25-2000",
        "Educational Instruction and Library Occupations",
    )
    assert similarity > SAME_TITLE_SIMILARITY  # it is one of the typical titles


def test_when_the_taxonomy_is_loaded_then_every_minor_group_has_a_major_group() -> None:
    families = set(job_families())
    assert len({f.code for f in families}) == 98
    assert {f.major for f in families} >= {
        "Management Occupations",
        "Legal Occupations",
    }


def test_when_match_command_runs_then_verdict_and_reason_are_printed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from anonygraph import cli

    code = cli.main(
        ["match", "--truth", "journalist", "--guess", "reporter",
         "--attribute", "occupation"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("correct (rule): same job family: Media and Communication")
    assert "similarity 0." in out


@pytest.mark.parametrize(
    ("truth", "guess", "expected", "reason"),
    [
        # A guess naming alternatives is judged by its best one.
        ("baker", "Pastry chef/Baker", "correct", "same occupation"),
        ("baker", "Cashier or shop assistant", "wrong", ""),
        # Retirement is the status people judge; the former job is extra.
        ("retired", "Retired schoolteacher", "correct", "both are retired"),
        ("retired", "Schoolteacher", "wrong", ""),
        # A bare work arrangement is matched by the arrangement alone.
        ("part-time job", "Part-time cashier", "correct", "part-time work"),
        ("freelance photographer", "Freelancer", "correct", "freelance work"),
        ("photographer", "Freelancer", "wrong", ""),
        # Both name a job beyond the arrangement: the titles decide.
        ("part-time cashier", "part-time nurse", "wrong", ""),
    ],
)
def test_when_guess_has_alternatives_or_a_status_then_it_is_judged_by_them(
    truth: str, guess: str, expected: str, reason: str
) -> None:
    match = match_guess("occupation", truth, guess)
    assert match.outcome == expected
    assert reason in match.reason


@pytest.mark.parametrize(
    ("truth", "guess", "note"),
    [
        # Grade, credential and licence words name no other job.
        ("registered nurse", "staff nurse", "names a grade"),
        ("nurse", "Registered Nurse", "names a grade"),
        ("nurse", "RN", "'rn' is 'registered nurse'"),
        ("electrician", "licensed electrician", "names a grade"),
        ("accountant", "Chartered Accountant", "names a grade"),
        ("plumber", "qualified plumber", "names a grade"),
        # Regional and other names of one job.
        ("truck driver", "lorry driver", "'lorry' is 'truck'"),
        ("truck driver", "HGV driver", "'hgv driver' is 'truck driver'"),
        ("real estate agent", "estate agent", "'estate agent' is"),
        ("realtor", "estate agent", "'realtor' is 'real estate agent'"),
        ("physical therapist", "physiotherapist", "'physiotherapist' is"),
        ("family doctor", "GP", "'gp' is 'family doctor'"),
        ("mail carrier", "postman", "'postman' is 'mail carrier'"),
        ("firefighter", "fireman", "'fireman' is 'firefighter'"),
        ("police officer", "cop", "'cop' is 'police officer'"),
        ("flight attendant", "air hostess", "'air hostess' is"),
        ("bartender", "barman", "'barman' is 'bartender'"),
        ("sales assistant", "shop assistant", "'shop assistant' is"),
        ("sales assistant", "store clerk", "'store clerk' is"),
        ("accountant", "CPA", "'cpa' is 'accountant'"),
        ("garbage collector", "binman", "'binman' is 'garbage collector'"),
        ("funeral director", "undertaker", "'undertaker' is 'funeral director'"),
        ("high school teacher", "secondary school teacher", "'secondary school' is"),
    ],
)
def test_when_titles_differ_by_region_or_grade_then_they_are_the_same_job(
    truth: str, guess: str, note: str
) -> None:
    match = match_guess("occupation", truth, guess)
    assert match.outcome == "correct"
    assert match.reason.startswith("same occupation") and note in match.reason


@pytest.mark.parametrize(
    ("truth", "guess", "expected"),
    [
        # Roles of one family stay apart: a grade word does not make them one.
        ("registered nurse", "nurse practitioner", "wrong"),
        ("staff nurse", "nursing assistant", "wrong"),
        ("registered nurse", "registered dietitian", "wrong"),
        ("truck driver", "bus driver", "wrong"),
        ("lorry driver", "taxi driver", "wrong"),
        ("police officer", "security guard", "wrong"),
        # Seniority and "professional" are not grades: they say more.
        ("nurse", "head nurse", "less_precise"),
        ("chef", "professional chef", "less_precise"),
        ("nurse", "pediatric nurse", "less_precise"),
        # A grade word is left out only before the head noun.
        ("kitchen staff", "kitchen porter", "wrong"),
    ],
)
def test_when_titles_differ_by_more_than_grade_or_region_then_they_stay_apart(
    truth: str, guess: str, expected: str
) -> None:
    assert match_guess("occupation", truth, guess).outcome == expected


def test_when_the_title_table_is_read_then_every_name_reads_as_itself() -> None:
    # A name the rules use must come out whole ("real estate agent" holds the
    # other name "estate agent"), or two titles of one job would differ.
    from anonygraph.attributes.occupation import _reading, title_names

    names = title_names()
    assert names.grades >= {"registered", "staff", "licensed", "chartered"}
    for name in set(names.same.values()):
        assert _reading(" ".join(name)).named == name
