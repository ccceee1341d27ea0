"""ROUGE-L and BLEU of anonymized text against the original."""

from __future__ import annotations

import pytest

from anonygraph.tools.text_metrics import TextMetrics, bleu, rouge_l, text_metrics

ORIGINAL = "I grabbed a pair of clippers for around 100 CHF from the shop in Zurich."
GENERALIZED = "I grabbed a pair of clippers for a fair price from a local shop."


@pytest.mark.parametrize("metric", [rouge_l, bleu])
def test_when_text_is_unchanged_then_the_score_is_one(metric: object) -> None:
    assert metric(ORIGINAL, ORIGINAL) == pytest.approx(1.0)  # type: ignore[operator]


@pytest.mark.parametrize("metric", [rouge_l, bleu])
def test_when_texts_share_no_word_then_the_score_is_zero(metric: object) -> None:
    assert metric(ORIGINAL, "Völlig anderer Inhalt hier") == 0.0  # type: ignore[operator]


@pytest.mark.parametrize("metric", [rouge_l, bleu])
def test_when_text_is_partly_rewritten_then_the_score_lies_between(
    metric: object,
) -> None:
    score = metric(ORIGINAL, GENERALIZED)  # type: ignore[operator]
    assert 0.0 < score < 1.0


def test_when_rouge_l_is_computed_then_it_is_the_lcs_f1() -> None:
    # LCS of "a b c d" and "a c d e" is "a c d": P = R = 3/4, so F1 = 0.75.
    assert rouge_l("alpha beta gamma delta", "alpha gamma delta epsilon") == 0.75


def test_when_bleu_is_computed_then_it_is_on_a_zero_to_one_scale() -> None:
    import sacrebleu

    expected = sacrebleu.sentence_bleu(GENERALIZED, [ORIGINAL]).score / 100
    assert bleu(ORIGINAL, GENERALIZED) == pytest.approx(expected)
    assert bleu(ORIGINAL, GENERALIZED) <= 1.0


@pytest.mark.parametrize(
    ("reference", "candidate", "expected"),
    [("", "", 1.0), ("", "new text", 0.0), (ORIGINAL, "", 0.0)],
)
def test_when_a_text_is_empty_then_scores_stay_defined(
    reference: str, candidate: str, expected: float
) -> None:
    assert rouge_l(reference, candidate) == expected
    assert bleu(reference, candidate) == expected


def test_when_semantic_is_not_asked_then_it_is_left_empty() -> None:
    metrics = text_metrics(ORIGINAL, GENERALIZED)
    assert isinstance(metrics, TextMetrics)
    assert metrics.semantic is None
    assert metrics.model_dump().keys() == {"rouge_l", "bleu", "semantic"}
