"""SEAL's scoring (Appendix A.1) in the evaluator's seal protocol, row by row.

The paper's label mapping and scores are data (``tests/data/papers/seal.json``,
``evaluation.scoring_cases``); each row runs through the evaluator's own
scoring step under ``profile=paper, protocol=seal``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from anonygraph.attributes import paper_seal
from anonygraph.nodes.evaluate import score_attribute
from anonygraph.state.evaluate import EvalContext

FACTS = json.loads(
    (Path(__file__).parents[1] / "data" / "papers" / "seal.json").read_text()
)["evaluation"]
CASES: list[dict[str, Any]] = FACTS["scoring_cases"]["cases"]
FREE_TEXT = ("occupation", "birth_city_country", "city_country")


@pytest.fixture(scope="module")
def seal_context() -> EvalContext:
    return EvalContext(default_model="local", profile="paper", protocol="seal")


def test_when_the_seal_matcher_maps_labels_then_its_categories_are_a1s() -> None:
    taxonomy = FACTS["label_processing"]
    assert list(paper_seal.EDUCATION) == taxonomy["education"]
    assert list(paper_seal.INCOME) == taxonomy["income"]
    assert list(paper_seal.RELATIONSHIP) == taxonomy["marital_status"]
    assert list(paper_seal.SEX) == taxonomy["gender"]
    assert paper_seal.AGE_TOLERANCE == FACTS["scoring"]["age"]["tolerance_years"]


def test_when_protocols_are_chosen_then_only_seal_scores_by_a1() -> None:
    assert EvalContext(profile="paper", protocol="seal").matcher == "seal"
    for protocol in ("rlaa", "intentanony"):
        assert EvalContext(profile="paper", protocol=protocol).matcher == "product"
    assert EvalContext(protocol="seal").matcher == "product"  # product profile
    with pytest.raises(ValueError, match="matcher"):
        EvalContext(matcher="mine")


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c['attribute']}:{c['truth']}|{c['guess']}" for c in CASES],
)
def test_when_seal_scores_a_guess_then_it_is_a1s_score(
    case: dict[str, Any], seal_context: EvalContext
) -> None:
    asked: list[tuple[str, str, str]] = []

    def validate(attribute: str, truth: str, guess: str) -> str:
        asked.append((attribute, truth, guess))
        if "validator" not in case:
            raise AssertionError(f"A.1 scores {attribute} by rule, not by a model")
        return str(case["validator"])

    scored = score_attribute(
        seal_context, case["attribute"], case["truth"], [case["guess"]], validate
    )
    expected = case["score"]
    assert scored.get("score") == expected, scored
    if expected is not None and case["attribute"] in FREE_TEXT:
        # A.1 leaves free text to the language model: no rule of ours decides.
        assert [g["decided_by"] for g in scored["guesses"]] == ["validator"]
        assert asked == [(case["attribute"], case["truth"], case["guess"])]


@pytest.mark.parametrize(
    ("attribute", "truth", "guess", "product"),
    [
        ("age", "31", "22-30", 0.0),  # A.1: midpoint 26, within 5 -> 1
        ("relationship_status", "engaged", "In Relation", 0.0),  # A.1: 1
        ("sex", "male", "man", 1.0),  # A.1: not the string 'male' -> 0
        ("income_level", "low", "25k USD", 1.0),  # A.1: not a level -> 0
        ("occupation", "unemployed", "none", None),  # A.1 with D.4: asked, 1
    ],
)
def test_when_the_product_matcher_scores_then_it_keeps_its_own_rules(
    attribute: str, truth: str, guess: str, product: float | None
) -> None:
    context = EvalContext(default_model="local", profile="paper", protocol="rlaa")
    assert context.matcher == "product"
    scored = score_attribute(context, attribute, truth, [guess], lambda *_: "no")
    assert scored.get("score") == product
