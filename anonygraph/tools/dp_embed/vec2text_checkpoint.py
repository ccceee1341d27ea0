"""Read vec2text inverters and correctors saved in their published layout.

DP-Embed-Invert decodes with the published ``jxm/gtr__nq__32`` inverter and
``jxm/gtr__nq__32__correct`` corrector (vec2text 0.0.13). Such a checkpoint
is a Hugging Face directory: ``config.json`` and ``model.safetensors`` (or
``pytorch_model.bin``) holding

- ``encoder_decoder.*``: a T5 encoder-decoder (its config is not saved; it is
  read off the weight shapes here);
- an inverter's ``embedding_transform.{0,3}``: Linear, Dropout, GELU, Linear
  from the embedding to ``num_repeat_tokens`` encoder positions;
- a corrector's ``embedding_transform_1`` (target embedding), ``_2``
  (target minus hypothesis) and ``_3`` (hypothesis), shaped the same, and a
  ``layernorm`` over its whole input sequence;
- optionally ``embedder.*``: the GTR T5 encoder stack that made the embeddings.

No tokenizer is saved (vec2text loads ``t5-base``'s); give a local directory
with a T5 tokenizer (GTR's shares its vocabulary). `load_published` turns a
checkpoint into the `ConditionedT5` that `embedding_inversion` runs, and
`convert_published` saves it in anonygraph's own layout. Nothing is fetched
from a hub: every path is a local directory.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from anonygraph.tools.dp_embed.inversion_models import (
    CONDITIONING_CONFIG,
    ConditionedT5,
    ConditioningSpec,
    Layout,
    load_conditioned_t5,
    local_dir,
    new_projections,
    place_conditioned_t5,
    save_conditioned_t5,
)

if TYPE_CHECKING:
    import torch

WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
"""Where a published checkpoint keeps its weights, in the order looked for."""

T5_PREFIX = "encoder_decoder."
EMBEDDER_PREFIX = "embedder."

INVERTER_TRANSFORMS = {"embedding": "embedding_transform"}
"""Our projection name -> the published module (inverter)."""
CORRECTOR_TRANSFORMS = {
    "embedding": "embedding_transform_1",
    "difference": "embedding_transform_2",
    "hypothesis": "embedding_transform_3",
}
"""Our projection name -> the published module (corrector)."""

LINEAR_INDEX = {"0": "0", "3": "2"}
"""Published Sequential index -> ours: the Dropout (1) has no weights and ours
has none, so the second Linear moves from 3 to 2."""


class CheckpointLayoutError(ValueError):
    """A directory whose weights are not a vec2text inverter or corrector."""


@dataclass(frozen=True)
class PublishedCheckpoint:
    """The weights and config of one published checkpoint, as read from disk."""

    role: Literal["inverter", "corrector"]
    """What the weights are, told by their module names."""
    config: dict[str, Any]
    """``config.json`` (vec2text's InversionConfig fields), {} if absent."""
    state: dict[str, torch.Tensor]
    """Every tensor, by its published name."""
    source: Path
    """The weight file read."""


def read_published(path: str | Path) -> PublishedCheckpoint:
    """Read a published checkpoint's config and weights from a local directory.

    Raises:
        FileNotFoundError: when the directory or its weight file is missing.
        CheckpointLayoutError: when the weights are neither layout.

    """
    local = local_dir(path)
    found = [local / name for name in WEIGHT_FILES if (local / name).is_file()]
    if not found:
        raise FileNotFoundError(
            f"{local}: no {' or '.join(WEIGHT_FILES)}; is this a vec2text checkpoint?"
        )
    source = found[0]
    state = _read_weights(source)
    config_file = local / "config.json"
    config = json.loads(config_file.read_text("utf-8")) if config_file.is_file() else {}
    if any(k.startswith("embedding_transform_1.") for k in state):
        role: Literal["inverter", "corrector"] = "corrector"
    elif any(k.startswith("embedding_transform.") for k in state):
        role = "inverter"
    else:
        raise CheckpointLayoutError(
            f"{source}: no embedding_transform (inverter) or embedding_transform_1 "
            "(corrector) weights; not a vec2text checkpoint"
        )
    if not any(k.startswith(T5_PREFIX) for k in state):
        raise CheckpointLayoutError(f"{source}: no {T5_PREFIX}* weights")
    return PublishedCheckpoint(role=role, config=config, state=state, source=source)


def _read_weights(source: Path) -> dict[str, torch.Tensor]:
    if source.suffix == ".safetensors":
        from safetensors.torch import load_file

        return dict(load_file(str(source)))
    import torch

    # weights_only: a pickle could run code; tensors are all we read.
    loaded = torch.load(source, map_location="cpu", weights_only=True)
    return dict(loaded)


def t5_config_from_state(
    state: dict[str, torch.Tensor], prefix: str = T5_PREFIX
) -> Any:
    """Rebuild the ``T5Config`` of an encoder-decoder from its weight shapes.

    vec2text saves only its own config; the T5 one (``t5-base`` for the GTR
    models) is read off the tensors: vocabulary and width from the shared
    embedding, depth from the blocks, heads from the relative attention bias,
    the feed-forward kind from its weight names. The output embeddings must
    be tied (``lm_head`` absent or equal to ``shared``), as in ``t5-base``.

    Raises:
        CheckpointLayoutError: when a tensor the config needs is missing, or
            the output embeddings are not tied.

    """
    from transformers import T5Config

    def tensor(name: str) -> torch.Tensor:
        key = prefix + name
        if key not in state:
            raise CheckpointLayoutError(f"missing {key}: cannot rebuild the T5 config")
        return state[key]

    shared = tensor("shared.weight")
    vocab_size, d_model = (int(n) for n in shared.shape)
    buckets, heads = (
        int(n)
        for n in tensor(
            "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
        ).shape
    )
    inner = int(tensor("encoder.block.0.layer.0.SelfAttention.q.weight").shape[0])
    gated = prefix + "encoder.block.0.layer.1.DenseReluDense.wi_0.weight" in state
    wi = "wi_0" if gated else "wi"
    d_ff = int(tensor(f"encoder.block.0.layer.1.DenseReluDense.{wi}.weight").shape[0])
    lm_head = state.get(prefix + "lm_head.weight")
    if lm_head is not None and not bool((lm_head == shared).all()):
        # T5 v1.1 keeps its own output matrix; transformers ties it to `shared`.
        raise CheckpointLayoutError(
            f"{prefix}lm_head.weight differs from the shared embedding (a T5 v1.1 "
            "model); vec2text's GTR checkpoints are t5-base, whose are tied"
        )
    fields: dict[str, Any] = {
        "vocab_size": vocab_size,
        "d_model": d_model,
        "d_kv": inner // heads,
        "d_ff": d_ff,
        "num_layers": _blocks(state, prefix + "encoder.block."),
        "num_decoder_layers": _blocks(state, prefix + "decoder.block."),
        "num_heads": heads,
        "relative_attention_num_buckets": buckets,
        "feed_forward_proj": "gated-gelu" if gated else "relu",
        "pad_token_id": 0,
        "eos_token_id": 1,
        # t5-base's: tied embeddings, so the decoder output is scaled by
        # d_model ** -0.5 before the shared output matrix.
        "tie_word_embeddings": True,
        "decoder_start_token_id": 0,
    }
    return T5Config(**fields)


def _blocks(state: dict[str, Any], prefix: str) -> int:
    numbers = {
        int(m.group(1))
        for key in state
        if (m := re.match(re.escape(prefix) + r"(\d+)\.", key))
    }
    return max(numbers) + 1 if numbers else 0


def _projection_weights(
    checkpoint: PublishedCheckpoint,
) -> tuple[dict[str, torch.Tensor], int, int, int]:
    """Rename the published projections to ours; return them and their sizes."""
    names = (
        INVERTER_TRANSFORMS if checkpoint.role == "inverter" else CORRECTOR_TRANSFORMS
    )
    ours: dict[str, torch.Tensor] = {}
    for our_name, published in names.items():
        for index, our_index in LINEAR_INDEX.items():
            for part in ("weight", "bias"):
                key = f"{published}.{index}.{part}"
                if key not in checkpoint.state:
                    raise CheckpointLayoutError(f"{checkpoint.source}: missing {key}")
                ours[f"{our_name}.{our_index}.{part}"] = checkpoint.state[key]
    if checkpoint.role == "corrector":
        for part in ("weight", "bias"):
            key = f"layernorm.{part}"
            if key not in checkpoint.state:
                raise CheckpointLayoutError(f"{checkpoint.source}: missing {key}")
            ours[key] = checkpoint.state[key]
    first = ours["embedding.0.weight"]
    hidden_dim, embedding_dim = (int(n) for n in first.shape)
    out = int(ours["embedding.2.weight"].shape[0])
    return ours, embedding_dim, hidden_dim, out


PUBLISHED_CONFIG_KEYS = ("embedder_model_name", "num_repeat_tokens")
"""InversionConfig fields every published inverter and corrector config holds
(vec2text saves the union of its data, model and training arguments)."""

ARCHITECTURE_ROLES = {
    "InversionModel": "inverter",
    "CorrectorEncoderModel": "corrector",
}
"""vec2text model class (``architectures`` in config.json) -> what it is."""

EXPERIMENT_ROLES = {"inversion": "inverter", "corrector": "corrector"}
"""vec2text ``experiment`` argument (config.json) -> what it trained."""


@dataclass(frozen=True)
class DetectedLayout:
    """What a model directory holds, told from its files and config fields."""

    layout: Layout
    role: Literal["inverter", "corrector"] | None
    """The config's word for it (published layout); None for anonygraph's,
    whose `ConditioningSpec` names it."""
    config: dict[str, Any]


def detect_layout(path: str | Path) -> DetectedLayout:
    """Tell anonygraph's layout from vec2text's published one.

    anonygraph's directory holds ``conditioning.json``; a published one (the
    folder a user downloads, e.g. ``jxm/gtr__nq__32__correct``) holds a
    ``config.json`` with vec2text's InversionConfig fields and a weight file.
    Its role comes from the config's ``architectures`` or ``experiment``.

    Raises:
        FileNotFoundError: for a missing directory.
        CheckpointLayoutError: for a directory of neither layout, naming what
            is missing.

    """
    local = local_dir(path)
    if (local / CONDITIONING_CONFIG).is_file():
        spec = json.loads((local / CONDITIONING_CONFIG).read_text("utf-8"))
        return DetectedLayout(layout="anonygraph", role=None, config=spec)
    config_file = local / "config.json"
    weights = [name for name in WEIGHT_FILES if (local / name).is_file()]
    if not config_file.is_file() or not weights:
        raise CheckpointLayoutError(
            f"{local}: neither anonygraph's layout ({CONDITIONING_CONFIG}) nor "
            f"vec2text's (config.json and {' or '.join(WEIGHT_FILES)}); give the "
            "folder that holds the model's files"
        )
    config: dict[str, Any] = json.loads(config_file.read_text("utf-8"))
    absent = [key for key in PUBLISHED_CONFIG_KEYS if key not in config]
    if absent:
        raise CheckpointLayoutError(
            f"{config_file}: no {', '.join(absent)}; not a vec2text "
            "InversionConfig (a plain T5 or another model's folder?)"
        )
    roles = {
        ARCHITECTURE_ROLES[name]
        for name in config.get("architectures") or []
        if name in ARCHITECTURE_ROLES
    }
    if config.get("experiment") in EXPERIMENT_ROLES:
        roles.add(EXPERIMENT_ROLES[config["experiment"]])
    if len(roles) > 1:
        raise CheckpointLayoutError(
            f"{config_file}: architectures and experiment disagree ({sorted(roles)})"
        )
    role = roles.pop() if roles else None
    return DetectedLayout(layout="vec2text", role=role, config=config)  # type: ignore[arg-type]


def load_model_dir(
    path: str | Path,
    tokenizer_path: str | Path,
    device: str = "auto",
    precision: str = "auto",
) -> ConditionedT5:
    """Load an inverter or corrector in either layout.

    Args:
        path: The model's directory.
        tokenizer_path: A T5 tokenizer's directory for a published checkpoint
            (which has none); unused for anonygraph's layout.
        device: auto, cpu, cuda, cuda:N or mps.
        precision: auto, bf16, fp16 or fp32.

    Raises:
        CheckpointLayoutError: as `detect_layout`, or when a published config
            and its weights disagree on what the model is or its repeat tokens.

    """
    found = detect_layout(path)
    if found.layout == "anonygraph":
        return load_conditioned_t5(str(path), device, precision)
    model = load_published(path, tokenizer_path, device, precision)
    if found.role and found.role != model.spec.role:
        raise CheckpointLayoutError(
            f"{path}: config.json says {found.role}, the weights are a "
            f"{model.spec.role}'s"
        )
    repeat = found.config["num_repeat_tokens"]
    if repeat != model.spec.num_repeat_tokens:
        raise CheckpointLayoutError(
            f"{path}: config.json num_repeat_tokens {repeat}, the weights "
            f"project to {model.spec.num_repeat_tokens}"
        )
    return model


def load_published(
    path: str | Path,
    tokenizer_path: str | Path,
    device: str = "auto",
    precision: str = "auto",
) -> ConditionedT5:
    """Load a published vec2text inverter or corrector as a `ConditionedT5`.

    Args:
        path: Local directory of the checkpoint (config.json + weights).
        tokenizer_path: Local directory with the T5 tokenizer it decodes with.
        device: auto, cpu, cuda, cuda:N or mps.
        precision: auto, bf16, fp16 or fp32.

    Returns:
        The model, on its device, ready for `embedding_inversion.invert`.

    Raises:
        FileNotFoundError: for a missing directory or weight file.
        CheckpointLayoutError: for weights of another layout, or projections
            whose width does not divide into the T5's.

    """
    from transformers import AutoTokenizer, T5ForConditionalGeneration

    checkpoint = read_published(path)
    t5_config = t5_config_from_state(checkpoint.state)
    weights, embedding_dim, hidden_dim, out = _projection_weights(checkpoint)
    d_model = int(t5_config.d_model)
    if out % d_model:
        raise CheckpointLayoutError(
            f"{checkpoint.source}: projection width {out} is not a multiple of the "
            f"T5 width {d_model}"
        )
    spec = ConditioningSpec(
        role=checkpoint.role,
        embedding_dim=embedding_dim,
        num_repeat_tokens=out // d_model,
        hidden_dim=hidden_dim,
        layout="vec2text",
    )
    t5: Any = T5ForConditionalGeneration(t5_config)
    t5_state = {
        key[len(T5_PREFIX) :]: value
        for key, value in checkpoint.state.items()
        if key.startswith(T5_PREFIX)
    }
    t5_state.pop("lm_head.weight", None)  # tied: `shared` (checked above)
    # Encoder and decoder embeddings (and a tied lm_head) are `shared` itself
    # in transformers: a checkpoint may leave them out.
    loaded = t5.load_state_dict(t5_state, strict=False)
    missing = [k for k in loaded.missing_keys if not _derived(k)]
    if missing or loaded.unexpected_keys:
        raise CheckpointLayoutError(
            f"{checkpoint.source}: the T5 weights do not fit the shapes read off "
            f"them (missing {missing[:3]}, unexpected {loaded.unexpected_keys[:3]})"
        )
    projections = new_projections(spec, d_model)
    projections.load_state_dict(weights)
    tokenizer = AutoTokenizer.from_pretrained(
        local_dir(tokenizer_path), local_files_only=True
    )
    return place_conditioned_t5(t5, tokenizer, projections, spec, device, precision)


def _derived(key: str) -> bool:
    # Tensors transformers ties to `shared` rather than storing.
    return key in (
        "encoder.embed_tokens.weight",
        "decoder.embed_tokens.weight",
        "lm_head.weight",
    )


def convert_published(
    path: str | Path, out: str | Path, tokenizer_path: str | Path
) -> ConditioningSpec:
    """Save a published checkpoint in anonygraph's layout (`load_conditioned_t5`).

    Returns:
        The conditioning of the saved model.

    """
    model = load_published(path, tokenizer_path, device="cpu", precision="fp32")
    save_conditioned_t5(model, out)
    return model.spec


def extract_embedder(
    path: str | Path, out: str | Path, tokenizer_path: str | Path
) -> Path:
    """Save the GTR encoder a published inverter carries as a T5 encoder directory.

    The result is what `inversion_models.load_encoder` reads: the T5
    encoder alone, mean-pooled and not normalized, as vec2text embeds.

    Raises:
        CheckpointLayoutError: when the checkpoint holds no ``embedder.*``.

    """
    from transformers import AutoTokenizer, T5EncoderModel

    checkpoint = read_published(path)
    stack = {
        key[len(EMBEDDER_PREFIX) :]: value
        for key, value in checkpoint.state.items()
        if key.startswith(EMBEDDER_PREFIX)
    }
    if "embed_tokens.weight" not in stack:
        raise CheckpointLayoutError(
            f"{checkpoint.source}: no {EMBEDDER_PREFIX}* weights; give the encoder "
            "directory (e.g. gtr-t5-base) separately"
        )
    state = {"shared.weight": stack["embed_tokens.weight"]}
    state.update({f"encoder.{k}": v for k, v in stack.items()})
    probe = {f"{T5_PREFIX}{k}": v for k, v in state.items()}
    config = t5_config_from_state(probe)
    config.num_decoder_layers = 0
    model: Any = T5EncoderModel(config)
    model.load_state_dict(state, strict=True)
    target = Path(out)
    model.save_pretrained(target)
    tokenizer = AutoTokenizer.from_pretrained(
        local_dir(tokenizer_path), local_files_only=True
    )
    tokenizer.save_pretrained(target)
    return target
