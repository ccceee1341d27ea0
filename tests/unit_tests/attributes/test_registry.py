"""The registry: names, aliases, prompts, and the one is_unknown."""

from __future__ import annotations

import pytest

from anonygraph import attributes
from anonygraph.attributes import (
    ATTRIBUTES,
    DEFAULT_ATTRIBUTES,
    UnknownAttributeError,
    canonical_attribute,
    describe_attributes,
    is_unknown,
    resolve_attributes,
)
from anonygraph.state.domain import AttributeInference
from anonygraph.tools import matching


def test_when_registry_is_built_then_each_attribute_has_its_rule_in_one_place() -> None:
    assert DEFAULT_ATTRIBUTES == (
        "age",
        "sex",
        "city_country",
        "birth_city_country",
        "education",
        "occupation",
        "income_level",
        "relationship_status",
    )
    for spec in ATTRIBUTES.values():
        assert spec.description and spec.match is not None
        assert spec.match.__module__.startswith("anonygraph.attributes.")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pobp", "birth_city_country"),
        ("Location", "city_country"),
        ("gender", "sex"),
        ("income", "income_level"),
        ("married", "relationship_status"),
        ("hobby", "hobby"),
    ],
)
def test_when_a_data_set_name_is_given_then_the_alias_maps_it(
    name: str, expected: str
) -> None:
    assert canonical_attribute(name) == expected


def test_when_names_are_resolved_then_unknown_ones_are_named_in_the_error() -> None:
    assert resolve_attributes(None) == list(DEFAULT_ATTRIBUTES)
    assert resolve_attributes(["pobp", "hobby"], {"hobby": "a pastime"}) == [
        "birth_city_country",
        "hobby",
    ]
    with pytest.raises(UnknownAttributeError, match="'shoe size'"):
        resolve_attributes(["age", "shoe size"])


def test_when_attributes_are_described_then_options_follow_the_description() -> None:
    text = describe_attributes(["income_level", "hobby"], {"hobby": "a pastime"})
    assert text.splitlines() == [
        "- income_level: yearly income level (one of: low, middle, high, very high)",
        "- hobby: a pastime",
    ]


@pytest.mark.parametrize(
    ("guess", "unknown"),
    [
        ("", True),
        ("-", True),
        ("N/A", True),
        ("Unknown.", True),
        ("unclear", True),  # commits to nothing: no leak, not scored
        ("Cannot tell", True),
        ("(no other guess needed)", True),
        ("not sure", True),
        ("Prefer not to say.", True),  # declines to guess
        ("Unclear (maybe Berlin)", True),  # only an aside names a value
        ("Berlin", False),
        ("no income", False),  # a value of income_level
        ("single", False),
    ],
)
def test_when_a_guess_is_a_placeholder_then_loop_and_evaluator_agree(
    guess: str, unknown: bool
) -> None:
    assert is_unknown(guess) is unknown
    # The loop: an inference with only this guess leaks exactly when it is known.
    leak = AttributeInference(attribute="city_country", guesses=[guess], certainty=3)
    assert leak.is_leak is (not unknown)
    # The evaluator: an unknown guess is dropped before scoring.
    scored = matching.match_inference("city_country", "Berlin, Germany", [guess])
    assert scored.skipped is unknown


def test_when_loop_and_evaluator_test_unknowns_then_it_is_one_function() -> None:
    from anonygraph.state import domain

    assert domain.is_unknown is attributes.is_unknown
    assert matching.is_unknown is attributes.is_unknown
