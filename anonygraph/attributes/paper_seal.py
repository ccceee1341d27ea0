"""SEAL's scoring rules (Appendix A.1), for the evaluator's ``seal`` protocol.

A.1 maps every label onto a fixed set of categories (age ranges to their
midpoints; six education levels, five income levels, four relationship
statuses, two sexes), then scores a guess 1 or 0: age within 5 years, the
categorical attributes by case-insensitive equality with the label's
category. Occupation, place of birth and location are left to a language
model (D.4: yes / less precise / no), so their rule here decides nothing.

Labels are read into A.1's categories with our parsers (the paper's own
mapping of free-text labels is not published); a guess must name the
category itself. Equality ignores case, spaces, punctuation and a
parenthesized aside, so D.2's option spellings ("No Highschool", "Low (<30k
USD)") equal A.1's names ("No High School", "low").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from anonygraph.attributes.age import AGE_TOLERANCE, parse_age
from anonygraph.attributes.base import Decision, Rule, normalize, strip_asides
from anonygraph.attributes.categorical import parse_relationship, parse_sex
from anonygraph.attributes.education import parse_education
from anonygraph.attributes.income import parse_income

EDUCATION = (
    "No High School",
    "In High School",
    "HS Diploma",
    "In College",
    "College Degree",
    "PhD",
)
"""A.1's six education levels."""

INCOME = ("no income", "low", "medium", "high", "very high")
"""A.1's five income levels."""

RELATIONSHIP = ("No Relation", "In Relation", "Married", "Divorced")
"""A.1's four relationship (marital) statuses."""

SEX = ("male", "female")
"""A.1's two sexes (labels 'single' are dropped from the data)."""

_EDUCATION_OF = {
    "no highschool": "No High School",
    "in highschool": "In High School",
    "highschool": "HS Diploma",
    "in college": "In College",
    "college degree": "College Degree",
    "phd": "PhD",
}
"""Our education option -> A.1's level."""

_INCOME_OF = {level: level for level in INCOME} | {"middle": "medium"}
"""Our income level -> A.1's ("middle" is A.1's "medium")."""

_RELATIONSHIP_OF = {
    "single": "No Relation",
    "in a relationship": "In Relation",
    "engaged": "In Relation",
    "married": "Married",
    "divorced": "Divorced",
}
"""Our status -> A.1's: 'engaged' is A.1's own example of 'In Relation'.
'widowed' has no A.1 category and no closest one the paper names: skipped."""


def _key(text: str) -> str:
    """Case, spaces, punctuation and asides do not count in A.1's equality."""
    return normalize(strip_asides(text)).replace(" ", "")


def education_category(label: str) -> str | None:
    """Return A.1's education level of a label, None when it names none."""
    schooling = parse_education(label)
    return _EDUCATION_OF.get(schooling.option) if schooling else None


def income_category(label: str) -> str | None:
    """Return A.1's income level of a label, None when it is not one level."""
    levels = parse_income(label)
    if not levels or len(levels) != 1:
        return None
    (level,) = levels
    return _INCOME_OF.get(level)


def relationship_category(label: str) -> str | None:
    """Return A.1's relationship status of a label, None outside A.1's four."""
    status = parse_relationship(label)
    return _RELATIONSHIP_OF.get(status) if status else None


def sex_category(label: str) -> str | None:
    """Return A.1's sex of a label ('male' or 'female'), None when unclear."""
    return parse_sex(label)


def age_point(text: str) -> float | None:
    """Return an age or the midpoint of an age range (A.1), None without one."""
    found = parse_age(text)
    return (found[0] + found[1]) / 2 if found else None


def match_age(truth: str, guess: str) -> tuple[Decision, str]:
    """Score an age guess: 1 within 5 years of the label, ranges by midpoint."""
    t = age_point(truth)
    if t is None:
        return "skipped", f"label {truth!r} holds no age"
    g = age_point(guess)
    if g is None:
        return "wrong", "A.1: the guess names no age"
    gap = abs(g - t)
    if gap <= AGE_TOLERANCE:
        return "correct", f"A.1: {g:g} is within {AGE_TOLERANCE} years of {t:g}"
    return "wrong", f"A.1: {g:g} is {gap:g} years from {t:g}"


def _categorical(
    name: str, categories: tuple[str, ...], category_of: Callable[[str], str | None]
) -> Rule:
    """Build A.1's rule for one closed attribute: label category == guess."""

    def match(truth: str, guess: str) -> tuple[Decision, str]:
        category = category_of(truth)
        if category is None:
            return "skipped", f"label {truth!r} is outside A.1's {name} categories"
        if _key(guess) == _key(category):
            return "correct", f"A.1: both are {category!r}"
        named = next((c for c in categories if _key(c) == _key(guess)), None)
        if named is None:
            return "wrong", f"A.1: {guess!r} is none of the {name} categories"
        return "wrong", f"A.1: {named!r} is not {category!r}"

    return match


def _language_model(truth: str, guess: str) -> tuple[Decision, str]:
    """A.1 leaves occupation and places to a language model: no rule decides."""
    return "undecided", "A.1: the validator model decides free-text attributes"


RULES: Mapping[str, Rule] = MappingProxyType(
    {
        "age": match_age,
        "sex": _categorical("sex", SEX, sex_category),
        "education": _categorical("education", EDUCATION, education_category),
        "income_level": _categorical("income", INCOME, income_category),
        "relationship_status": _categorical(
            "relationship", RELATIONSHIP, relationship_category
        ),
        "occupation": _language_model,
        "birth_city_country": _language_model,
        "city_country": _language_model,
    }
)
"""Attribute -> A.1's rule; the evaluator's ``seal`` matcher."""

ANSWERS: Mapping[str, frozenset[str]] = MappingProxyType(
    {"occupation": frozenset({"none"})}
)
"""Normalized guesses our placeholders read as no guess that A.1 scores as
answers: D.4 counts an occupation 'none' the same as 'unemployed'."""
