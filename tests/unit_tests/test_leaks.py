"""Explicit-cue leak rate per attribute."""

from __future__ import annotations

from anonygraph.cues.leaks import explicit_leak_rates, leaked_attributes


def test_when_the_label_or_an_exact_cue_is_in_the_text_then_it_leaks() -> None:
    labels = {
        "city_country": "Calgary, Canada",
        "age": 27,
        "sex": "female",
        "occupation": "nurse",
    }
    text = "My husband and I moved to Calgary. I'm 27 and a nurse."
    leaks = leaked_attributes(text, labels)
    assert set(leaks) == {"city_country", "age", "occupation"}
    assert "Calgary" in leaks["city_country"]


def test_when_cues_are_generalized_then_nothing_leaks() -> None:
    labels = {"city_country": "Calgary, Canada", "age": 27, "occupation": "nurse"}
    text = "My partner and I moved to Canada. I'm in my twenties."
    assert leaked_attributes(text, labels) == {}


def test_when_rates_are_computed_then_each_attribute_counts_its_labelled_records() -> (
    None
):
    rates = explicit_leak_rates(
        [
            ("I'm 27 and live in Leeds.", {"age": 27, "city_country": "Leeds, UK"}),
            ("I'm in my twenties.", {"age": 28}),
            ("Nothing here.", {"age": "", "sex": "male"}),
        ]
    )
    assert (rates["age"].labelled, rates["age"].leaked) == (2, 1)
    assert rates["age"].rate == 0.5
    assert rates["city_country"].rate == 1.0
    assert rates["sex"].leaked == 0 and rates["sex"].labelled == 1
