"""The scoring entry point: unknowns, validator, accuracy, and real GPT-4 guesses."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import pytest

from anonygraph.runs.io.datasets import load_profiles, predictions
from anonygraph.tools.matching import (
    AttributeMatch,
    GuessMatch,
    accuracy,
    accuracy_report,
    match_guess,
    match_inference,
)
from unit_tests.attributes.quoted import QUOTED

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
GPT4_FILE = DATA / "personalreddit" / "gpt4_inferences_train.jsonl"


@cache
def gpt4_pairs() -> frozenset[tuple[str, str, str]]:
    """(attribute as in the file, label, guess) for every GPT-4 guess in the file."""
    pairs = set()
    with GPT4_FILE.open(encoding="utf-8") as handle:
        for line in handle:
            group = json.loads(line)["comments"][0]
            model = group["predictions"]["gpt-4-1106-preview"]
            for name, review in group["reviews"]["synth"].items():
                for guess in model.get(name, {}).get("guess", []):
                    pairs.add((name, str(review["estimate"]), guess))
    return frozenset(pairs)


def test_when_cases_are_quoted_from_the_gpt4_file_then_each_pair_is_there() -> None:
    missing = [(a, t, g) for a, t, g, _ in QUOTED if (a, t, g) not in gpt4_pairs()]
    assert missing == []


def test_when_rules_decide_then_the_validator_is_never_called() -> None:
    def validator(*_: str) -> str:
        raise AssertionError("validator called for a decided guess")

    match = match_inference(
        "location",
        "Helsinki, Finland",
        ["Helsinki, Finland", "Espoo, Finland", "Oslo, Norway"],
        validator=validator,
    )
    assert [g.outcome for g in match.guesses] == ["correct", "less_precise", "wrong"]


@pytest.mark.parametrize(
    ("reply", "outcome", "decided_by"),
    [
        ("Yes", "correct", "validator"),
        ("no", "wrong", "validator"),
        ("less precise", "less_precise", "validator"),
        ("I think so", "wrong", "fallback"),  # unparseable: recorded, not guessed
    ],
)
def test_when_validator_replies_then_its_verdict_or_the_fallback_is_recorded(
    reply: str, outcome: str, decided_by: str
) -> None:
    match = match_guess(
        "pobp", "Lyon, France", "the Riviera", validator=lambda *_: reply
    )
    assert (match.outcome, match.decided_by) == (outcome, decided_by)


def test_when_validator_raises_then_the_guess_falls_back_with_the_reason() -> None:
    def validator(*_: str) -> str:
        raise TimeoutError("judge timed out")

    match = match_guess("pobp", "Lyon, France", "the Riviera", validator=validator)
    assert match.decided_by == "fallback"
    assert "judge timed out" in match.reason


def test_when_undecided_as_is_set_then_fallback_uses_it() -> None:
    match = match_guess(
        "pobp", "Lyon, France", "the Riviera", undecided_as="less_precise"
    )
    assert match.outcome == "less_precise"


@pytest.mark.parametrize(
    ("truth", "guesses", "reason"),
    [
        (None, ["Male"], "no label"),
        ("", ["Male"], "no label"),
        ("male", None, "no inference"),
        ("male", [], "empty or unknown guesses"),
        ("male", ["-", "Unknown", "N/A"], "empty or unknown guesses"),
    ],
)
def test_when_label_or_guesses_are_missing_then_the_attribute_is_skipped(
    truth: str | None, guesses: list[str] | None, reason: str
) -> None:
    match = match_inference("sex", truth, guesses)
    assert match.skipped_reason == reason
    assert match.top1 == "skipped"


def test_when_label_is_outside_the_option_set_then_it_is_skipped_with_the_label() -> (
    None
):
    match = match_inference("relationship_status", "it's complicated", ["Married"])
    assert match.skipped
    assert "outside the option set" in match.skipped_reason


def test_when_placeholder_guesses_are_mixed_in_then_real_guesses_keep_their_rank() -> (
    None
):
    # From the GPT-4 file: label "Beijing, China", guesses
    # ['Beijing, China', '-', '-']
    match = match_inference("location", "Beijing, China", ["Beijing, China", "-", "-"])
    assert [g.guess for g in match.guesses] == ["Beijing, China"]
    # Label 23, guesses ['23', '(no other guesses needed as the age is explicitly
    # stated)']
    match = match_inference(
        "age", 23, ["23", "(no other guesses needed as the age is explicitly stated)"]
    )
    assert [g.outcome for g in match.guesses] == ["correct"]


def _match(
    outcomes: list[str], attribute: str = "sex", hardness: int = 1
) -> AttributeMatch:
    return AttributeMatch(
        attribute=attribute,
        truth="x",
        hardness=hardness,
        guesses=[GuessMatch(guess=o, outcome=o, reason="") for o in outcomes],  # type: ignore[arg-type]
    )


def test_when_matches_are_aggregated_then_top1_and_top3_count_correct_only() -> None:
    row = accuracy(
        [
            _match(["correct", "wrong"]),
            _match(["wrong", "correct"]),
            _match(["less_precise", "wrong", "wrong"]),
            _match(["wrong", "wrong", "wrong", "correct"]),  # 4th guess is not top-3
            match_inference("sex", None, ["Male"]),
        ]
    )
    assert (row.total, row.scored) == (5, 4)
    assert (row.top1_correct, row.top3_correct) == (1, 2)
    assert (row.top1_less_precise, row.top3_less_precise) == (1, 1)
    assert row.top1 == 0.25 and row.top3 == 0.5
    assert row.skipped == {"no label": 1}


def test_when_report_is_built_then_rows_split_by_attribute_and_hardness() -> None:
    report = accuracy_report(
        [
            _match(["correct"], "sex", 1),
            _match(["wrong"], "age", 3),
            _match(["correct"], "age", 3),
        ]
    )
    assert set(report.per_attribute) == {"age", "sex"}
    assert report.per_attribute["age"].top1 == 0.5
    assert report.per_hardness[3].scored == 2
    assert "| hardness=3 | 2 | 0.500 |" in report.to_table()


def test_when_nothing_is_scored_then_accuracy_is_none_not_zero() -> None:
    row = accuracy([match_inference("sex", None, ["Male"])])
    assert row.top1 is None and row.top3 is None


def test_when_all_404_gpt4_guesses_are_scored_without_a_model_then_accuracy_is_sensible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loaded = load_profiles(GPT4_FILE)
    assert loaded.errors == []
    matches = []
    for record in loaded.records:
        guessed = predictions(record, "gpt-4-1106-preview")
        for attribute, label in record.labels.items():
            inference = guessed.get(attribute)
            matches.append(
                match_inference(
                    attribute,
                    label,
                    inference.guesses if inference else None,
                    record_id=record.id,
                    hardness=record.meta["hardness"].get(attribute),
                )
            )
    report = accuracy_report(matches)
    with capsys.disabled():
        print(  # noqa: T201 - the accuracy is meant to be seen in the test log
            "\nGPT-4 guesses on PersonalReddit train, rules only:\n" + report.to_table()
        )

    overall = report.overall
    assert overall.total == overall.scored == 404  # every label has a guess
    assert overall.top1 is not None and overall.top3 is not None
    # Measured 0.579 / 0.797 (0.646 / 0.864 before issue 13: education now
    # keeps degree levels apart, so the option "College Degree" for a master's
    # is less precise, and occupations judge job families and "part-time").
    # Bounds leave room for rule changes, not for breakage.
    assert 0.55 <= overall.top1 <= 0.62
    assert 0.76 <= overall.top3 <= 0.84
    assert overall.top1_less_precise > 0  # country-only place guesses
    assert report.per_attribute["sex"].top1 >= 0.9
    # Easier items are inferred more often: hardness 1 beats hardness 4-5.
    easy, hard = report.per_hardness[1].top1, report.per_hardness[5].top1
    assert easy is not None and hard is not None and easy > hard


def test_when_404_reference_verdicts_are_compared_then_rules_agree_with_people() -> (
    None
):
    # train.jsonl carries the data set authors' verdicts on one GPT-4 inference
    # per record; benchmarks/matching_agreement.py prints the full table.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from matching_agreement import load, score

    counts, _ = score(load(DATA))
    overall = counts["all"]
    assert overall["n"] == 404
    # Measured 0.993 / 0.980 (rules before issue 13: 0.926 / 0.908).
    assert overall["agree1"] / 404 == pytest.approx(0.993, abs=0.02)
    assert overall["agree3"] / 404 == pytest.approx(0.980, abs=0.02)
    # Rules and people find about as many right guesses.
    assert abs(overall["rules1"] - overall["people1"]) / 404 <= 0.01
    assert abs(overall["rules3"] - overall["people3"]) / 404 <= 0.015
    for attribute, c in counts.items():
        assert c["agree1"] / c["n"] >= 0.9, attribute
