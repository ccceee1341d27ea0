"""SEAL distillation data: scores, pairs, preferences and TRL-ready JSONL."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from seal_steps import Leak, step

from anonygraph.state.seal import TrajectoryStep
from anonygraph.training.data import FILES, DataOptions, build_data, write_data
from anonygraph.training.scores import (
    anonymization_pairs,
    preference_triples,
    privacy_score,
    utility_score,
)
from anonygraph.training.trl_format import check_row, read_jsonl


def trajectory(
    *states: tuple[list[Leak], tuple[int, int, int]],
) -> list[TrajectoryStep]:
    return [step(i, f"text {i}", leaks, util) for i, (leaks, util) in enumerate(states)]


def test_when_scoring_then_privacy_counts_guesses_and_their_mean_certainty() -> None:
    s = step(0, "x", [("age", 4), ("occupation", 1)], util=(8, 6, 0))

    assert privacy_score(s) == (-2, Fraction(-5, 2))
    assert privacy_score(step(0, "x", [])) == (0, 0)
    assert utility_score(s) == Fraction(8 + 6, 10 * 3)


def test_when_a_later_state_is_more_private_and_as_useful_then_it_pairs() -> None:
    steps = trajectory(
        ([("age", 4), ("occupation", 4)], (10, 10, 1)),
        ([("age", 3)], (10, 10, 1)),  # better privacy, tied utility: pairs with 0
        ([], (9, 9, 1)),  # best privacy but less useful than both
    )

    assert anonymization_pairs(steps) == [(0, 1)]


def test_when_privacy_is_equal_then_no_pair_even_with_better_utility() -> None:
    steps = trajectory(
        ([("age", 3)], (6, 6, 1)),
        ([("occupation", 3)], (10, 10, 1)),
    )

    assert anonymization_pairs(steps) == []
    assert (
        preference_triples(
            [
                step(0, "x", [("age", 5)]),
                *trajectory(*[([("age", 3)], (9, 9, 1))] * 3)[1:],
            ]
        )
        == []
    )


def test_when_counts_differ_then_fewer_guesses_win_over_lower_certainty() -> None:
    many_unsure = ([("age", 1), ("occupation", 1)], (10, 10, 1))
    one_sure = ([("age", 5)], (10, 10, 1))

    assert anonymization_pairs(trajectory(many_unsure, one_sure)) == [(0, 1)]
    assert anonymization_pairs(trajectory(one_sure, many_unsure)) == []


def test_when_counts_tie_then_lower_mean_certainty_is_more_private() -> None:
    steps = trajectory(([("age", 4)], (9, 9, 1)), ([("occupation", 2)], (9, 9, 1)))

    assert anonymization_pairs(steps) == [(0, 1)]


def test_when_utilities_tie_exactly_then_float_rounding_does_not_break_the_tie() -> (
    None
):
    assert 0.7 + 1.0 != 0.8 + 0.9  # the trap exact fractions avoid
    steps = trajectory(([("age", 4)], (8, 9, 1)), ([], (7, 10, 1)))

    assert utility_score(steps[0]) == utility_score(steps[1])
    assert anonymization_pairs(steps) == [(0, 1)]


def test_when_two_states_hold_the_same_text_then_they_make_no_pair() -> None:
    steps = [
        step(0, "I nurse kids at night.", [("occupation", 4)]),
        step(1, "I  nurse kids\nat night.", [("occupation", 2)]),
    ]

    assert anonymization_pairs(steps) == []
    assert preference_triples([step(0, "x0", [("age", 5)]), *steps]) == []


def test_when_later_states_differ_then_preferences_take_the_better_as_chosen() -> None:
    steps = trajectory(
        ([("age", 5), ("occupation", 5)], (10, 10, 1)),
        ([("age", 4)], (7, 7, 1)),  # worse than state 2 on both
        ([], (9, 8, 1)),
        ([("age", 2)], (9, 8, 1)),  # tied utility with state 2, less private
    )

    # (i, w, l): w beats l on privacy and ties or beats it on utility.
    assert preference_triples(steps) == [(0, 2, 1), (0, 2, 3), (0, 3, 1), (1, 2, 3)]


def test_when_data_is_built_then_each_task_has_the_expected_rows() -> None:
    steps = trajectory(
        ([("age", 4), ("occupation", 4)], (10, 10, 1)),
        ([("age", 3)], (10, 9, 1)),
        ([], (10, 9, 1)),
    )

    data = build_data([steps])

    # x_0 pairs with nothing (utility fell after it); x_1 -> x_2 holds.
    assert anonymization_pairs(steps) == [(1, 2)]
    assert data.counts() == {"anon": 1, "priv": 3, "util": 3, "pref": 1}
    first_user, first_answer = data.anon[0]["messages"]
    assert "<text>\ntext 1\n</text>" in first_user["content"]
    assert "- age (certainty 3/5): 34. clue for age" in first_user["content"]
    assert "meaning 9/10: same point" in first_user["content"]
    assert json.loads(first_answer["content"]) == {
        "changes": "Blurred the cues to age.",
        "text": "text 2",
    }
    judge_user, judge_answer = data.util[2]["messages"]
    assert "<source>\ntext 0\n</source>" in judge_user["content"]
    assert "<edited>\ntext 2\n</edited>" in judge_user["content"]
    assert json.loads(judge_answer["content"])["meaning"]["score"] == 9
    infer_answer = json.loads(data.priv[0]["messages"][1]["content"])
    assert list(infer_answer) == ["age", "occupation", "city_country"]
    assert infer_answer["city_country"]["guesses"] == []


def test_when_files_are_written_then_rows_have_the_sft_and_dpo_columns(
    tmp_path: Path,
) -> None:
    steps = trajectory(
        ([("age", 5), ("occupation", 4)], (10, 10, 1)),
        ([("age", 3)], (9, 9, 1)),
        ([], (9, 9, 1)),
        ([("occupation", 1)], (8, 9, 1)),
    )

    paths = write_data(build_data([steps, steps[:2]]), tmp_path)

    assert set(paths) == set(FILES)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["trajectories"] == 2
    for name, path in paths.items():
        rows = read_jsonl(path)
        assert len(rows) == summary[name] > 0, name
        for row in rows:
            check_row(name, row)
        if name == "pref":
            assert all(set(r) == {"prompt", "chosen", "rejected"} for r in rows)
            assert all(r["chosen"] != r["rejected"] for r in rows)
        else:
            assert all(
                [m["role"] for m in r["messages"]] == ["user", "assistant"]
                for r in rows
            )
        assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("name", "row", "problem"),
    [
        ("anon", {"messages": []}, "non-empty"),
        ("anon", {"messages": [{"role": "user", "content": "x"}]}, "end with"),
        ("priv", {"messages": [{"role": "bot", "content": "x"}]}, "unexpected"),
        ("util", {"text": "x"}, "only messages"),
        ("pref", {"prompt": [], "chosen": [], "rejected": []}, "non-empty"),
        ("pref", {"prompt": "x", "chosen": "y"}, "prompt, chosen, rejected"),
    ],
)
def test_when_a_row_breaks_trls_format_then_the_check_names_it(
    name: str, row: dict[str, object], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        check_row(name, row)


# SEAL Table 3's ablation switches and the identical-pair filter, against the
# paper's facts (tests/data/papers/seal.json, section 5.3 / Table 3 / 4.1-4.2).

SEAL_FACTS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "papers" / "seal.json").read_text()
)["algorithm"]


def ablation_steps() -> list[TrajectoryStep]:
    # x_1 and x_2 both leave one guess: x_2's is unsure, so only the mean
    # certainty ("Conf.") ranks x_2 above x_1.
    return [
        step(0, "text 0", [("age", 5), ("occupation", 5)], (10, 10, 1)),
        step(1, "text 1", [("age", 5)], (10, 10, 1)),
        step(2, "text 2", [("age", 1)], (10, 10, 1)),
    ]


def test_when_no_switch_is_given_then_the_data_is_the_papers_full_method() -> None:
    full = SEAL_FACTS["ablation_switches"]["full_method"]["value"]
    options = DataOptions()
    assert options.critique == (full["task_type"] == "A & C")
    assert options.adversarial_feedback == full["adversarial_feedback"]
    assert options.confidence == full["confidence_in_privacy_score"]


@pytest.mark.parametrize(
    ("switch", "options", "counts"),
    [
        # Task type "A only": D_anon and D_pref, no critique rows.
        ("task_type", DataOptions(critique=False), (3, 0, 0, 1)),
        ("task_type", DataOptions(), (3, 3, 3, 1)),
        # Without "Conf.", x_2 (one unsure guess) no longer beats x_1 (one sure).
        ("confidence_in_privacy_score", DataOptions(confidence=False), (2, 3, 3, 0)),
    ],
)
def test_when_a_table_3_switch_is_set_then_the_data_sets_change_so(
    switch: str, options: DataOptions, counts: tuple[int, int, int, int]
) -> None:
    assert switch in SEAL_FACTS["ablation_switches"]
    built = build_data([ablation_steps()], options=options).counts()
    assert tuple(built[name] for name in ("anon", "priv", "util", "pref")) == counts


def test_when_adversarial_feedback_is_off_then_anonymization_rows_show_no_guesses() -> (
    None
):
    assert "adversarial_feedback" in SEAL_FACTS["ablation_switches"]
    steps = ablation_steps()
    for feedback in (True, False):
        data = build_data([steps], options=DataOptions(adversarial_feedback=feedback))
        for prompt in [r["messages"][0]["content"] for r in data.anon] + [
            r["prompt"][0]["content"] for r in data.pref
        ]:
            assert ("(certainty 5/5)" in prompt) is feedback
            assert ("not shown: find the cues" in prompt) is not feedback
            assert "readability 10/10" in prompt  # the utility stays


def test_when_texts_repeat_then_identical_pairs_are_dropped_and_counted() -> None:
    paper = SEAL_FACTS["datasets_for_training"]["identical_text_pairs_excluded"]
    assert paper["value"] is False  # 4.1/4.2: the paper's sets keep them
    steps = [
        step(0, "a text", [("age", 5), ("occupation", 5)], (10, 10, 1)),
        step(1, "a  text", [("age", 5)], (10, 10, 1)),  # same words as x_0
        step(2, "other", [("age", 4)], (10, 10, 1)),
        step(3, "other\n", [("age", 2)], (10, 10, 1)),  # same words as x_2
    ]
    product = build_data([steps])
    kept = build_data([steps], options=DataOptions(keep_identical=True))

    # D_anon: (0,1) and (2,3) are identical texts; D_pref: (i=1, w=3, l=2)
    # and (i=0, w=3, l=2) prefer a text to itself.
    assert product.dropped_identical == {"anon": 2, "pref": 2}
    assert kept.dropped_identical == {"anon": 0, "pref": 0}
    assert kept.counts()["anon"] - product.counts()["anon"] == 2
    assert kept.counts()["pref"] - product.counts()["pref"] == 2
    for row in product.pref:
        chosen = json.loads(row["chosen"][0]["content"])["text"]
        rejected = json.loads(row["rejected"][0]["content"])["text"]
        assert chosen.split() != rejected.split()


def test_when_data_is_written_then_the_summary_names_switches_and_drops(
    tmp_path: Path,
) -> None:
    steps = [
        step(0, "a text", [("age", 5)], (10, 10, 1)),
        step(1, "a text", [], (10, 10, 1)),
    ]
    options = DataOptions(critique=False, confidence=False)
    write_data(build_data([steps], options=options), tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["dropped_identical"] == {"anon": 1, "pref": 0}
    assert summary["options"] == {
        "critique": False,
        "adversarial_feedback": True,
        "confidence": False,
        "keep_identical": False,
    }
    assert (tmp_path / FILES["priv"]).read_text() == ""
