"""Embed text with a GTR-style T5 encoder, clip, add noise, and invert to text.

Models run on the device and in the precision `anonygraph.tools.torch_device`
resolves (``auto``: CUDA, else MPS, else CPU; bf16 on a CUDA GPU that has it,
fp32 elsewhere, never fp16 unless asked, since T5 overflows in fp16).
Clipping and noise stay in float64 on the CPU, where the sensitivity bound
2C is checked exactly.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np

from anonygraph.tools import torch_device

if TYPE_CHECKING:
    import torch
    from transformers import PreTrainedTokenizerBase

Role = Literal["inverter", "corrector"]
Layout = Literal["anonygraph", "vec2text"]
"""How a corrector lays out its encoder input (see `ConditioningSpec.layout`)."""

CONDITIONING_CONFIG = "conditioning.json"
"""File in an inverter/corrector directory that describes its conditioning."""
CONDITIONING_WEIGHTS = "conditioning.safetensors"
"""File holding the embedding -> pseudo-sequence projections."""
T5_SUBDIR = "t5"
"""Sub-directory with the T5 encoder-decoder and its tokenizer."""

_CORRECTOR_INPUTS = ("embedding", "hypothesis", "difference")
_DEFAULT_MAX_LENGTH = 32

CPU_CACHED_SETS = 4
"""Model sets (encoder, inverter, corrector) kept loaded for CPU runs."""
ACCELERATOR_CACHED_SETS = 1
"""Model sets kept on a GPU: loading another set first frees the last one."""


@dataclass(frozen=True)
class ConditioningSpec:
    """How an embedding becomes the T5 encoder's input sequence."""

    role: Role
    """``inverter`` (embedding only) or ``corrector`` (embedding + hypothesis)."""
    embedding_dim: int
    """Size of the sentence embedding being inverted (768 for GTR-base)."""
    num_repeat_tokens: int
    """Length of the pseudo-sequence each embedding is projected to."""
    hidden_dim: int
    """Width of the projection's hidden layer."""
    layout: Layout = "anonygraph"
    """A corrector's input sequence: ``anonygraph`` is [e, h, e - h, eos,
    tokens]; ``vec2text`` is the published corrector's [eos, e, eos, h, eos,
    e - h, eos, tokens] under a LayerNorm (`anonygraph.tools.vec2text_checkpoint`
    converts such checkpoints). Inverters read the same either way."""


@dataclass(frozen=True)
class Encoder:
    """A T5 encoder and tokenizer that map text to mean-pooled embeddings."""

    model: Any
    """``transformers.T5EncoderModel`` in eval mode."""
    tokenizer: PreTrainedTokenizerBase
    """Tokenizer matching the encoder."""
    device: str
    """Torch device the model lives on."""


@dataclass(frozen=True)
class ConditionedT5:
    """A T5 encoder-decoder whose encoder input is built from embeddings."""

    t5: Any
    """``transformers.T5ForConditionalGeneration`` in eval mode."""
    tokenizer: PreTrainedTokenizerBase
    """Tokenizer for the text it generates (and, for a corrector, reads)."""
    projections: torch.nn.ModuleDict
    """One MLP per conditioning input, embedding -> ``num_repeat_tokens * d_model``."""
    spec: ConditioningSpec
    """Shape of the conditioning."""
    device: str
    """Torch device the model lives on."""


@dataclass(frozen=True)
class InversionModels:
    """Everything ``invert`` needs: the embedder, an inverter, a corrector."""

    encoder: Encoder
    """Re-embeds hypotheses; the same encoder that embedded the input."""
    inverter: ConditionedT5
    """Produces the first hypothesis from an embedding."""
    corrector: ConditionedT5 | None = None
    """Refines a hypothesis; None allows only ``num_steps=0``."""


@dataclass(frozen=True)
class Inversion:
    """The text recovered for one embedding and how close it came."""

    text: str
    """The best hypothesis found."""
    similarity: float
    """Cosine similarity between the target and the hypothesis' re-embedding."""
    step: int
    """0 for the inverter's guess, n for the n-th corrector step."""


# --- loading ----------------------------------------------------------------


def resolve_hardware(device: str = "auto", precision: str = "auto") -> tuple[str, str]:
    """Return the (device, precision) inversion runs with; see `torch_device`.

    Raises:
        torch_device.DeviceError: for a device or precision this machine lacks.

    """
    resolved = torch_device.pick_device(device)
    return resolved, torch_device.pick_precision(
        precision, resolved, cuda_fallback="fp32"
    )


def _local_dir(path: str | Path) -> Path:
    # A missing path would otherwise be read by transformers as a hub model id.
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_dir():
        raise FileNotFoundError(f"model directory not found: {resolved}")
    return resolved


def load_encoder(path: str, device: str = "auto", precision: str = "auto") -> Encoder:
    """Load a T5 encoder (e.g. a local gtr-t5-base snapshot) and its tokenizer.

    Only the T5 encoder is used: no Dense projection and no normalization,
    which is the embedding the vec2text models were trained to invert.

    Args:
        path: Local directory with a T5 (or T5 encoder) checkpoint and tokenizer.
        device: auto, cpu, cuda, cuda:N or mps.
        precision: auto, bf16, fp16 or fp32.

    Returns:
        The encoder on its device.

    """
    from transformers import AutoTokenizer, T5EncoderModel

    local = _local_dir(path)
    dev, prec = resolve_hardware(device, precision)
    dtype = torch_device.torch_dtype(prec)
    model: Any = T5EncoderModel.from_pretrained(local, local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(local, local_files_only=True)
    model = model.to(device=dev, dtype=dtype).eval()
    return Encoder(model=model, tokenizer=tokenizer, device=dev)


def load_conditioned_t5(
    path: str, device: str = "auto", precision: str = "auto"
) -> ConditionedT5:
    """Load an inverter or corrector saved by ``save_conditioned_t5``.

    Args:
        path: Local directory holding ``conditioning.json``,
            ``conditioning.safetensors`` and a ``t5/`` checkpoint with tokenizer.
        device: auto, cpu, cuda, cuda:N or mps.
        precision: auto, bf16, fp16 or fp32.

    Returns:
        The model on its device.

    """
    from safetensors.torch import load_file
    from transformers import AutoTokenizer, T5ForConditionalGeneration

    local = _local_dir(path)
    spec = ConditioningSpec(**json.loads((local / CONDITIONING_CONFIG).read_text()))
    t5: Any = T5ForConditionalGeneration.from_pretrained(
        local / T5_SUBDIR, local_files_only=True
    )
    tokenizer = AutoTokenizer.from_pretrained(local / T5_SUBDIR, local_files_only=True)
    projections = _new_projections(spec, int(t5.config.d_model))
    projections.load_state_dict(load_file(str(local / CONDITIONING_WEIGHTS)))
    return place_conditioned_t5(t5, tokenizer, projections, spec, device, precision)


def place_conditioned_t5(
    t5: Any,
    tokenizer: PreTrainedTokenizerBase,
    projections: torch.nn.ModuleDict,
    spec: ConditioningSpec,
    device: str = "auto",
    precision: str = "auto",
) -> ConditionedT5:
    """Put a loaded T5 and its projections on the device, in eval mode."""
    dev, prec = resolve_hardware(device, precision)
    dtype = torch_device.torch_dtype(prec)
    return ConditionedT5(
        t5=t5.to(device=dev, dtype=dtype).eval(),
        tokenizer=tokenizer,
        projections=projections.to(device=dev, dtype=dtype).eval(),
        spec=spec,
        device=dev,
    )


_MODEL_SETS: OrderedDict[tuple[str, ...], InversionModels] = OrderedDict()


def clear_model_cache() -> None:
    """Drop every cached model set (and the GPU memory it held)."""
    _MODEL_SETS.clear()
    _free_accelerator_memory()


def _free_accelerator_memory() -> None:
    import sys

    torch = sys.modules.get("torch")  # nothing to free if torch never loaded
    if torch is not None and torch.cuda.is_available():
        torch.cuda.empty_cache()


def load_inversion_models(
    encoder_path: str,
    inverter_path: str,
    corrector_path: str | None = None,
    device: str = "auto",
    precision: str = "auto",
) -> InversionModels:
    """Load the encoder, inverter and optional corrector, or reuse a loaded set.

    Sets are cached per paths, device and precision: up to `CPU_CACHED_SETS`
    on the CPU, `ACCELERATOR_CACHED_SETS` on a GPU, where the least recently
    used set is dropped before the next one loads so two never share memory.

    Raises:
        FileNotFoundError: If a directory does not exist; nothing is fetched
            from a hub.
        ValueError: If the dimensions of the three models do not fit together.
        torch_device.DeviceError: For a device or precision this machine lacks.

    """
    dev, prec = resolve_hardware(device, precision)
    key = (encoder_path, inverter_path, corrector_path or "", dev, prec)
    if key in _MODEL_SETS:
        _MODEL_SETS.move_to_end(key)
        return _MODEL_SETS[key]
    on_cpu = torch_device.device_type(dev) == "cpu"
    bound = CPU_CACHED_SETS if on_cpu else ACCELERATOR_CACHED_SETS
    while len(_MODEL_SETS) >= bound:
        _MODEL_SETS.popitem(last=False)
        _free_accelerator_memory()
    models = _load_set(encoder_path, inverter_path, corrector_path, dev, prec)
    _MODEL_SETS[key] = models
    return models


def _load_set(
    encoder_path: str,
    inverter_path: str,
    corrector_path: str | None,
    device: str,
    precision: str,
) -> InversionModels:
    encoder = load_encoder(encoder_path, device, precision)
    inverter = load_conditioned_t5(inverter_path, device, precision)
    corrector = (
        load_conditioned_t5(corrector_path, device, precision)
        if corrector_path
        else None
    )
    dim = int(encoder.model.config.d_model)
    for role, model in (("inverter", inverter), ("corrector", corrector)):
        if model is None:
            continue
        if model.spec.role != role:
            raise ValueError(f"the {role} directory holds a {model.spec.role}")
        if model.spec.embedding_dim != dim:
            raise ValueError(
                f"the {role} expects {model.spec.embedding_dim}-d embeddings, "
                f"the encoder makes {dim}-d"
            )
    return InversionModels(encoder=encoder, inverter=inverter, corrector=corrector)


def new_conditioned_t5(
    t5_config: Any,
    tokenizer: PreTrainedTokenizerBase,
    *,
    role: Role,
    embedding_dim: int,
    num_repeat_tokens: int = 16,
    hidden_dim: int | None = None,
    seed: int | None = None,
) -> ConditionedT5:
    """Build an untrained inverter or corrector, e.g. to train or to test with.

    Args:
        t5_config: A ``transformers.T5Config`` for the encoder-decoder.
        tokenizer: Tokenizer whose vocabulary matches ``t5_config``.
        role: ``"inverter"`` or ``"corrector"``.
        embedding_dim: Size of the embeddings it will invert.
        num_repeat_tokens: Pseudo-sequence length per conditioning input.
        hidden_dim: Projection hidden width; defaults to ``embedding_dim``.
        seed: Seeds the random initialization.

    Returns:
        The model on CPU, in eval mode.

    """
    import torch
    from transformers import T5ForConditionalGeneration

    spec = ConditioningSpec(
        role=role,
        embedding_dim=embedding_dim,
        num_repeat_tokens=num_repeat_tokens,
        hidden_dim=hidden_dim or embedding_dim,
    )
    if seed is not None:
        torch.manual_seed(seed)
    # T5 model constructors edit the config they get (use_cache,
    # is_encoder_decoder); a copy keeps the caller's config reusable.
    t5: Any = T5ForConditionalGeneration(copy.deepcopy(t5_config))
    t5.eval()
    projections = _new_projections(spec, int(t5_config.d_model)).eval()
    return ConditionedT5(
        t5=t5, tokenizer=tokenizer, projections=projections, spec=spec, device="cpu"
    )


def save_conditioned_t5(model: ConditionedT5, path: str | Path) -> None:
    """Write an inverter or corrector in the layout ``load_conditioned_t5`` reads."""
    from safetensors.torch import save_file

    target = Path(path)
    target.mkdir(parents=True, exist_ok=True)
    (target / CONDITIONING_CONFIG).write_text(json.dumps(asdict(model.spec), indent=2))
    weights = {
        k: v.contiguous().cpu() for k, v in model.projections.state_dict().items()
    }
    save_file(weights, str(target / CONDITIONING_WEIGHTS))
    model.t5.save_pretrained(target / T5_SUBDIR)
    model.tokenizer.save_pretrained(target / T5_SUBDIR)


def _new_projections(spec: ConditioningSpec, d_model: int) -> torch.nn.ModuleDict:
    from torch import nn

    names = ("embedding",) if spec.role == "inverter" else _CORRECTOR_INPUTS
    modules: dict[str, nn.Module] = {
        name: nn.Sequential(
            nn.Linear(spec.embedding_dim, spec.hidden_dim),
            nn.GELU(),
            nn.Linear(spec.hidden_dim, spec.num_repeat_tokens * d_model),
        )
        for name in names
    }
    if spec.role == "corrector" and spec.layout == "vec2text":
        modules["layernorm"] = nn.LayerNorm(d_model)
    return nn.ModuleDict(modules)


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
    )
    return [f.text for f in found]


def invert_scored(
    embeddings: np.ndarray,
    models: InversionModels,
    *,
    num_steps: int = 5,
    max_length: int = _DEFAULT_MAX_LENGTH,
    num_beams: int = 1,
) -> list[Inversion]:
    """Invert embeddings and report how close each result re-embeds.

    Each step conditions the corrector on the target, the current hypothesis'
    embedding, their difference and the hypothesis tokens, and decodes a new
    hypothesis. The next step starts from that new hypothesis, so a step that
    lands farther away does not end the search, but the answer is the
    hypothesis whose re-embedding had the highest cosine similarity to the
    target. Cosine rather than L2, because a noised target is far longer than
    any real embedding. Decoding is greedy (or beam) and thus deterministic.

    Args:
        embeddings: Target vectors, shape ``(n, embedding_dim)``.
        models: Encoder, inverter and (for ``num_steps > 0``) corrector.
        num_steps: Corrector iterations; 0 keeps the inverter's guess.
        max_length: Token limit for generated and re-embedded text.
        num_beams: Beam width of each decoding.

    Returns:
        The best hypothesis per row.

    Raises:
        ValueError: If ``num_steps > 0`` and no corrector was loaded.

    """
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

    Returns:
        The rewritten chunks with diagnostics.

    """
    vectors = embed(chunks, models.encoder, max_length=max_length)
    noised = add_gaussian_noise(clip_l2(vectors, clip), sigma, rng)
    found = invert_scored(
        noised, models, num_steps=num_steps, max_length=max_length, num_beams=num_beams
    )
    return ChunkRewrite(
        texts=[f.text for f in found],
        similarities=[f.similarity for f in found],
    )
