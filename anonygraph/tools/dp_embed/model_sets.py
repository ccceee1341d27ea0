"""The encoder, inverter and corrector loaded as one set, and the sets kept loaded.

Separate from `inversion_models` (one model's layout and loading) and
`vec2text_checkpoint` (vec2text's published folders), which this module
puts together: either layout may hold the inverter or the corrector.
"""

from __future__ import annotations

from collections import OrderedDict

from anonygraph.tools import torch_device
from anonygraph.tools.dp_embed.inversion_models import (
    InversionModels,
    load_encoder,
    resolve_hardware,
)
from anonygraph.tools.dp_embed.vec2text_checkpoint import load_model_dir

CPU_CACHED_SETS = 4
"""Model sets (encoder, inverter, corrector) kept loaded for CPU runs."""
ACCELERATOR_CACHED_SETS = 1
"""Model sets kept on a GPU: loading another set first frees the last one."""

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

    The inverter and corrector directories may each be in anonygraph's layout
    or vec2text's published one (`vec2text_checkpoint.detect_layout`).

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
    # A published vec2text directory carries no tokenizer: it decodes with the
    # T5 vocabulary the GTR encoder shares.
    inverter = load_model_dir(inverter_path, encoder_path, device, precision)
    corrector = (
        load_model_dir(corrector_path, encoder_path, device, precision)
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
