"""DP-Embed-Invert's models: the encoder, inverter and corrector, loaded or built.

Models run on the device and in the precision `anonygraph.tools.torch_device`
resolves (``auto``: CUDA, else MPS, else CPU; bf16 on a CUDA GPU that has it,
fp32 elsewhere, never fp16 unless asked, since T5 overflows in fp16). Loaded
sets are cached per paths, device and precision. `embedding_inversion` runs
them.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

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
    e - h, eos, tokens] under a LayerNorm (`anonygraph.tools.dp_embed.
    vec2text_checkpoint` converts such checkpoints). Inverters read the same
    either way."""


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


def local_dir(path: str | Path) -> Path:
    """Resolve a model directory, refusing one that does not exist.

    Raises:
        FileNotFoundError: naming the path (transformers would read a missing
            path as a hub model id).
    """
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

    local = local_dir(path)
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

    local = local_dir(path)
    spec = ConditioningSpec(**json.loads((local / CONDITIONING_CONFIG).read_text()))
    t5: Any = T5ForConditionalGeneration.from_pretrained(
        local / T5_SUBDIR, local_files_only=True
    )
    tokenizer = AutoTokenizer.from_pretrained(local / T5_SUBDIR, local_files_only=True)
    projections = new_projections(spec, int(t5.config.d_model))
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
    projections = new_projections(spec, int(t5_config.d_model)).eval()
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


def new_projections(spec: ConditioningSpec, d_model: int) -> torch.nn.ModuleDict:
    """Build the untrained embedding -> pseudo-sequence MLPs a spec needs."""
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
