"""DP-Embed-Invert steps: split at PII, account, perturb chunks, stitch back."""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from anonygraph.inputs import split_comments
from anonygraph.runs.store import INVERSION_BACKEND
from anonygraph.state.dp_embed import DpEmbedContext, State
from anonygraph.tools.dp_embed import (
    dp_accountant,
    embedding_inversion,
    model_sets,
    pii,
    segmentation,
)
from anonygraph.tools.dp_embed.pii_paper import scan_paper


def split(state: State, runtime: Runtime[DpEmbedContext]) -> dict[str, Any]:
    """Cut the text into placeholders and chunks (or sentences, unredacted)."""
    ctx = runtime.context
    if ctx.redact_pii:
        spans: list[Any] = (
            scan_paper(state.current, keep=ctx.keep_categories)
            if ctx.pii_rules == "paper"
            else pii.scan(
                state.current, keep=ctx.keep_categories, verbatim=state.replacements
            )
        )
        segments = segmentation.segment(
            state.current, spans, split_blank_lines=ctx.split_blank_lines
        )
    else:
        segments = segmentation.split_sentences(state.current)
    return {"segments": [asdict(s) for s in segments]}


def account(state: State, runtime: Runtime[DpEmbedContext]) -> dict[str, Any]:
    """Calibrate the noise for this record's K chunks and write the receipt."""
    ctx = runtime.context
    receipt = dp_accountant.privacy_receipt(
        epsilon=ctx.epsilon,
        delta=ctx.delta,
        n_chunks=len(state.chunk_texts()),
        clip=ctx.clip,
        composition=ctx.composition,  # type: ignore[arg-type]  # checked there
        metric_unit=ctx.metric_unit or None,
    )
    return {"receipt": receipt.model_dump()}


def perturb(state: State, runtime: Runtime[DpEmbedContext]) -> dict[str, Any]:
    """Embed, clip, noise and invert every chunk with the local models.

    Raises:
        ValueError: When no encoder or inverter directory is configured.

    """
    ctx = runtime.context
    if not ctx.encoder_path or not ctx.inverter_path:
        raise ValueError(
            "dp-embed needs local models: set encoder_path and inverter_path "
            "(ANONYGRAPH_ENCODER_PATH, ANONYGRAPH_INVERTER_PATH)"
        )
    start = time.perf_counter()
    loaded = model_sets.load_inversion_models(
        ctx.encoder_path,
        ctx.inverter_path,
        ctx.corrector_path or None,
        ctx.device or "auto",
        ctx.precision,
    )
    result = embedding_inversion.privatize_and_invert(
        state.chunk_texts(),
        loaded,
        sigma=state.receipt["sigma"],
        clip=state.receipt["clip"],
        num_steps=ctx.num_steps if loaded.corrector else 0,
        rng=dp_accountant.noise_source(ctx.noise_seed, state.current),
        max_length=ctx.max_tokens,
        pick=ctx.corrector_pick,  # type: ignore[arg-type]  # checked in the context
    )
    call = {
        "id": uuid.uuid4().hex,
        "role": "inverter",
        "step": "perturb",
        "backend": INVERSION_BACKEND,
        "model": Path(ctx.inverter_path).name,
        "ok": True,
        "error": "",
        "tokens_in": 0,
        "tokens_out": 0,
        "seconds": round(time.perf_counter() - start, 4),
        "cached": False,
    }
    return {
        "rewritten": result.texts,
        "similarities": result.similarities,
        "calls": [call],
    }


def keep_chunks(state: State) -> dict[str, Any]:
    """Leave every chunk as written: the placeholders are the whole rewrite.

    Each chunk is its own target, so its similarity is 1 by definition.
    """
    chunks = state.chunk_texts()
    return {"rewritten": chunks, "similarities": [1.0] * len(chunks)}


def stitch(state: State) -> dict[str, Any]:
    """Join placeholders, rewritten chunks and filler into the final text."""
    segments = [segmentation.Segment(**s) for s in state.segments]
    text = segmentation.stitch(segments, state.rewritten)
    entry = {
        "round": 0,
        "text": state.current,
        "rewritten": text,
        "segments": state.segments,
        "chunks": [
            {"text": c, "rewritten": r, "similarity": s}
            for c, r, s in zip(
                state.chunk_texts(),
                state.rewritten,
                state.similarities,
                strict=True,
            )
        ],
        "receipt": state.receipt,
    }
    return {
        "anonymized": text,
        "anonymized_comments": split_comments(text, len(state.comments)),
        "status": "done",
        "iterations": [entry],
    }
