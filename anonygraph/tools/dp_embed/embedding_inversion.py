"""Embed text with a GTR-style T5 encoder, clip, add noise, and invert to text.

The models (`inversion_models`) run where `anonygraph.tools.torch_device`
puts them. Clipping and noise stay in float64 on the CPU, where the
sensitivity bound 2C is checked exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from anonygraph.state.dp_embed import CORRECTOR_PICKS, CorrectorPick
from anonygraph.tools.dp_embed.inversion_models import (
    ConditionedT5,
    Encoder,
    InversionModels,
)

if TYPE_CHECKING:
    import torch

_DEFAULT_MAX_LENGTH = 32


@dataclass(frozen=True)
class Inversion:
    """The text recovered for one embedding and how close it came."""

    text: str
    """The best hypothesis found."""
    similarity: float
    """Cosine similarity between the target and the hypothesis' re-embedding."""
    step: int
    """0 for the inverter's guess, n for the n-th corrector step."""


# --- embedding, clipping, noise ----------------------------------------------


def embed(
    texts: Sequence[str],
    encoder: Encoder,
    *,
    max_length: int = _DEFAULT_MAX_LENGTH,
    batch_size: int = 32,
) -> np.ndarray:
    """Embed texts as the mean of the encoder's last hidden states.

    The mean runs over real tokens only (the attention mask), and the result is
    not normalized.

    Returns:
        A float64 array of shape ``(len(texts), d_model)``.

    """
    import torch

    rows: list[np.ndarray] = []
    with torch.inference_mode():
        for i in range(0, len(texts), batch_size):
            batch = encoder.tokenizer(
                list(texts[i : i + batch_size]),
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="pt",
            ).to(encoder.device)
            hidden = encoder.model(
                input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
            ).last_hidden_state.float()  # pool in fp32 whatever the model's dtype
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
            rows.append(pooled.double().cpu().numpy())
    dim = int(encoder.model.config.d_model)
    return np.concatenate(rows) if rows else np.zeros((0, dim))


def clip_l2(vectors: np.ndarray, clip: float) -> np.ndarray:
    """Scale each row down to L2 norm ``clip``; shorter rows are unchanged.

    The scaling is done in float64 so no row ends above ``clip`` by rounding,
    which the sensitivity bound 2C relies on.
    """
    if clip <= 0:
        raise ValueError(f"clip must be > 0, got {clip}")
    vectors = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    scale = np.minimum(1.0, clip / np.maximum(norms, np.finfo(np.float64).tiny))
    clipped: np.ndarray = vectors * scale
    return clipped


def add_gaussian_noise(
    vectors: np.ndarray,
    sigma: float,
    rng: int | np.random.Generator | torch.Generator | None = None,
) -> np.ndarray:
    """Add i.i.d. N(0, sigma^2) noise to every coordinate.

    Args:
        vectors: Clipped embeddings.
        sigma: Noise scale from the accountant; 0 adds nothing.
        rng: A seed, a numpy Generator, a torch Generator of any device, or
            None for fresh OS entropy. A fixed seed makes the noise
            reproducible, and so known to anyone who knows the seed: use one
            for tests and experiments only. A torch Generator draws on its own
            device (float64, or float32 on MPS, which has no float64); the
            draws then join the clipped vectors in float64 on the CPU.

    Returns:
        A new float64 array.

    """
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma}")
    vectors = np.asarray(vectors, dtype=np.float64)
    if sigma == 0:
        return vectors.copy()
    if rng is not None and type(rng).__module__.startswith("torch"):
        import torch

        generator = cast(torch.Generator, rng)
        mps = generator.device.type == "mps"
        noise = torch.randn(
            vectors.shape,
            generator=generator,
            device=generator.device,
            dtype=torch.float32 if mps else torch.float64,
        )
        return vectors + sigma * noise.cpu().numpy().astype(np.float64)
    numpy_rng = rng if isinstance(rng, np.random.Generator) else None
    numpy_rng = numpy_rng or np.random.default_rng(rng)  # type: ignore[arg-type]
    return vectors + numpy_rng.normal(0.0, sigma, size=vectors.shape)


# --- inversion ----------------------------------------------------------------


def invert(
    embeddings: np.ndarray,
    models: InversionModels,
    *,
    num_steps: int = 5,
    max_length: int = _DEFAULT_MAX_LENGTH,
    num_beams: int = 1,
    pick: CorrectorPick = "best",
) -> list[str]:
    """Turn embeddings back into text: one inverter guess, then corrector steps.

    Returns:
        One string per row of ``embeddings``.

    """
    found = invert_scored(
        embeddings,
        models,
        num_steps=num_steps,
        max_length=max_length,
        num_beams=num_beams,
        pick=pick,
    )
    return [f.text for f in found]


def invert_scored(
    embeddings: np.ndarray,
    models: InversionModels,
    *,
    num_steps: int = 5,
    max_length: int = _DEFAULT_MAX_LENGTH,
    num_beams: int = 1,
    pick: CorrectorPick = "best",
) -> list[Inversion]:
    """Invert embeddings and report how close each result re-embeds.

    Each step conditions the corrector on the target, the current hypothesis'
    embedding, their difference and the hypothesis tokens, and decodes a new
    hypothesis. The next step starts from that new hypothesis, so a step that
    lands farther away does not end the search. With ``pick="best"`` the
    answer is the hypothesis whose re-embedding had the highest cosine
    similarity to the target (cosine rather than L2, because a noised target
    is far longer than any real embedding); with ``"last"`` it is the last
    step's, as vec2text returns without a sequence beam (the paper's
    setting). Decoding is greedy (or beam) and thus deterministic.

    Args:
        embeddings: Target vectors, shape ``(n, embedding_dim)``.
        models: Encoder, inverter and (for ``num_steps > 0``) corrector.
        num_steps: Corrector iterations; 0 keeps the inverter's guess.
        max_length: Token limit for generated and re-embedded text.
        num_beams: Beam width of each decoding.
        pick: ``best`` (closest re-embedding) or ``last`` (last step's).

    Returns:
        The picked hypothesis per row.

    Raises:
        ValueError: If ``num_steps > 0`` and no corrector was loaded, or for
            an unknown ``pick``.

    """
    if pick not in CORRECTOR_PICKS:
        raise ValueError(f"pick {pick!r}: choose {' or '.join(CORRECTOR_PICKS)}")
    if num_steps < 0:
        raise ValueError(f"num_steps must be >= 0, got {num_steps}")
    if num_steps > 0 and models.corrector is None:
        raise ValueError("num_steps > 0 needs a corrector model")
    targets = np.atleast_2d(np.asarray(embeddings, dtype=np.float64))
    if len(targets) == 0:
        return []
    gen = {"max_length": max_length, "num_beams": num_beams}
    texts = _generate(models.inverter, targets, None, None, **gen)
    current = embed(texts, models.encoder, max_length=max_length)
    best_sim = _cosine(targets, current)
    best_text, best_step = list(texts), [0] * len(texts)
    for step in range(1, num_steps + 1):
        assert models.corrector is not None
        new_texts = _generate(models.corrector, targets, current, texts, **gen)
        if new_texts == texts:
            break  # a fixed point: greedy decoding would repeat it forever
        texts = new_texts
        current = embed(texts, models.encoder, max_length=max_length)
        sim = _cosine(targets, current)
        if pick == "last":
            best_sim, best_text, best_step = sim, list(texts), [step] * len(texts)
            continue
        for i in np.flatnonzero(sim > best_sim):
            best_sim[i], best_text[i], best_step[i] = sim[i], texts[i], step
    return [
        Inversion(text=t, similarity=float(s), step=k)
        for t, s, k in zip(best_text, best_sim, best_step, strict=True)
    ]


def _cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    tiny = np.finfo(np.float64).tiny
    na = np.maximum(np.linalg.norm(a, axis=-1), tiny)
    nb = np.maximum(np.linalg.norm(b, axis=-1), tiny)
    return np.asarray((a * b).sum(axis=-1) / (na * nb))


def _generate(
    model: ConditionedT5,
    targets: np.ndarray,
    hypothesis_embeddings: np.ndarray | None,
    hypotheses: list[str] | None,
    *,
    max_length: int,
    num_beams: int,
) -> list[str]:
    """Decode text from the conditioning built out of embeddings (and tokens)."""
    import torch

    with torch.inference_mode():
        inputs_embeds, attention_mask = _conditioning(
            model, targets, hypothesis_embeddings, hypotheses, max_length
        )
        output = model.t5.generate(
            inputs_embeds=inputs_embeds,
            attention_mask=attention_mask,
            max_new_tokens=max_length,
            num_beams=num_beams,
            do_sample=False,
            # A pad token mid-answer decodes to nothing; never spend a step on it.
            suppress_tokens=_pad_ids(model),
        )
    decoded = model.tokenizer.batch_decode(output, skip_special_tokens=True)
    return [text.strip() for text in decoded]


def _pad_ids(model: ConditionedT5) -> list[int] | None:
    pad = model.t5.config.pad_token_id
    return None if pad is None or pad == model.t5.config.eos_token_id else [pad]


def _conditioning(
    model: ConditionedT5,
    targets: np.ndarray,
    hypothesis_embeddings: np.ndarray | None,
    hypotheses: list[str] | None,
    max_length: int,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Build the encoder input: projected embeddings, then hypothesis tokens."""
    import torch

    spec, d_model = model.spec, int(model.t5.config.d_model)

    def project(name: str, vectors: np.ndarray) -> torch.Tensor:
        dtype = next(model.projections.parameters()).dtype
        x = torch.as_tensor(vectors, dtype=dtype, device=model.device)
        out: torch.Tensor = model.projections[name](x)
        return out.reshape(len(vectors), spec.num_repeat_tokens, d_model)

    if spec.role == "inverter":
        seq = project("embedding", targets)
        return seq, torch.ones(seq.shape[:2], dtype=torch.long, device=model.device)
    assert hypothesis_embeddings is not None and hypotheses is not None
    parts = [
        project("embedding", targets),
        project("hypothesis", hypothesis_embeddings),
        project("difference", targets - hypothesis_embeddings),
    ]
    tokens = model.tokenizer(
        hypotheses,
        padding=True,
        truncation=True,
        max_length=max_length,
        return_tensors="pt",
    ).to(model.device)
    word_embeddings = model.t5.get_input_embeddings()
    # The end-of-sequence embedding separates the vectors from the tokens.
    eos_id = model.t5.config.eos_token_id
    sep = word_embeddings(
        torch.full((len(targets), 1), eos_id, dtype=torch.long, device=model.device)
    )
    hypothesis_tokens = word_embeddings(tokens["input_ids"])
    if spec.layout == "vec2text":
        # The published corrector: a separator before each part, the parts in
        # the order target, hypothesis, difference, then a LayerNorm.
        target, hypothesis, difference = parts
        pieces = [sep, target, sep, hypothesis, sep, difference, sep]
        seq = model.projections["layernorm"](torch.cat([*pieces, hypothesis_tokens], 1))
        prefix_length = 3 * spec.num_repeat_tokens + 4
    else:
        seq = torch.cat([*parts, sep, hypothesis_tokens], dim=1)
        prefix_length = 3 * spec.num_repeat_tokens + 1
    prefix = torch.ones(
        (len(targets), prefix_length), dtype=torch.long, device=model.device
    )
    return seq, torch.cat([prefix, tokens["attention_mask"]], dim=1)


# --- the whole mechanism ------------------------------------------------------


@dataclass(frozen=True)
class ChunkRewrite:
    """What the mechanism made of a batch of chunks."""

    texts: list[str]
    """The inverted text per chunk."""
    similarities: list[float]
    """Cosine similarity of each output's re-embedding to its noised target."""


def privatize_and_invert(
    chunks: Sequence[str],
    models: InversionModels,
    *,
    sigma: float,
    clip: float,
    num_steps: int = 5,
    rng: int | np.random.Generator | torch.Generator | None = None,
    max_length: int = _DEFAULT_MAX_LENGTH,
    num_beams: int = 1,
    pick: CorrectorPick = "best",
) -> ChunkRewrite:
    """Run encode -> clip -> noise -> invert on every chunk.

    Args:
        chunks: The plain-text chunks (placeholders already taken out).
        models: Loaded encoder, inverter and corrector.
        sigma: Noise scale from ``dp_accountant.privacy_receipt``.
        clip: L2 norm C; must equal the clip the accountant was given.
        num_steps: Corrector iterations.
        rng: Noise source, see ``add_gaussian_noise``.
        max_length: Token limit per chunk (vec2text's GTR models use 32).
        num_beams: Beam width of each decoding.
        pick: Which corrector hypothesis to keep, see `invert_scored`.

    Returns:
        The rewritten chunks with diagnostics.

    """
    vectors = embed(chunks, models.encoder, max_length=max_length)
    noised = add_gaussian_noise(clip_l2(vectors, clip), sigma, rng)
    found = invert_scored(
        noised,
        models,
        num_steps=num_steps,
        max_length=max_length,
        num_beams=num_beams,
        pick=pick,
    )
    return ChunkRewrite(
        texts=[f.text for f in found],
        similarities=[f.similarity for f in found],
    )
