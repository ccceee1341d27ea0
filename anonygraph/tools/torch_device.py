"""Choose the torch device and floating-point precision of the local models.

One rule for SEAL training and DP-Embed's inversion:

- Device ``auto`` picks CUDA, then Apple's MPS, then the CPU. An explicit
  ``cpu``, ``cuda``, ``cuda:N`` or ``mps`` that this machine lacks is an
  error naming what is missing, never a silent fall back to the CPU.
- Precision ``auto`` is bf16 on a CUDA device that supports it, the caller's
  fallback on older CUDA devices (fp16 for training, as in SEAL's paper;
  fp32 for inversion, since T5 overflows in fp16), and fp32 on MPS (whose
  half-precision support varies by torch and macOS version) and on the CPU.
  An explicit precision is checked against the device: fp16 needs an
  accelerator, bf16 on CUDA needs a GPU that supports it.

The capability checks are module functions so that tests can monkeypatch
them and run every branch on a machine without a GPU.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

DEVICES: tuple[str, ...] = ("auto", "cpu", "cuda", "cuda:N", "mps")
"""What a device option accepts; N is a CUDA device index."""
PRECISIONS: tuple[str, ...] = ("auto", "bf16", "fp16", "fp32")
"""What a precision option accepts."""

_DEVICE = re.compile(r"^(?:auto|cpu|mps|cuda(?::(\d+))?)$")


class DeviceError(ValueError):
    """A device or precision that this machine cannot provide."""


def _torch() -> Any:
    import torch

    return torch


def cuda_available() -> bool:
    """Say whether torch sees a CUDA GPU."""
    return bool(_torch().cuda.is_available())


def cuda_device_count() -> int:
    """Return how many CUDA GPUs torch sees."""
    return int(_torch().cuda.device_count())


def mps_available() -> bool:
    """Say whether torch can use Apple's Metal (MPS) backend."""
    mps = getattr(_torch().backends, "mps", None)
    return bool(mps is not None and mps.is_available())


def bf16_supported() -> bool:
    """Say whether the current CUDA GPU computes in bf16."""
    return cuda_available() and bool(_torch().cuda.is_bf16_supported())


def pick_device(requested: str = "auto") -> str:
    """Resolve a device option to a torch device string.

    Args:
        requested: ``auto``, ``cpu``, ``cuda``, ``cuda:N`` or ``mps``; empty
            means ``auto``.

    Returns:
        ``cpu``, ``mps``, ``cuda`` or ``cuda:N``.

    Raises:
        DeviceError: for an unknown name or a device this machine lacks.

    """
    name = (requested or "auto").strip().lower()
    match = _DEVICE.match(name)
    if match is None:
        raise DeviceError(f"device {requested!r}: use one of {', '.join(DEVICES)}")
    if name == "auto":
        if cuda_available():
            return "cuda"
        return "mps" if mps_available() else "cpu"
    if name == "mps" and not mps_available():
        raise DeviceError(
            "device mps: torch has no MPS backend here (Apple silicon with a "
            "torch build for macOS needed); use --device auto or cpu"
        )
    if name.startswith("cuda"):
        if not cuda_available():
            raise DeviceError(
                f"device {name}: torch sees no CUDA GPU (a CPU-only torch build, "
                "no driver, or CUDA_VISIBLE_DEVICES hides it); use --device auto or cpu"
            )
        index = match.group(1)
        count = cuda_device_count()
        if index is not None and int(index) >= count:
            raise DeviceError(
                f"device {name}: torch sees {count} CUDA GPU(s), cuda:0 to "
                f"cuda:{count - 1}"
            )
    return name


def device_type(device: str) -> str:
    """Return the kind of a device string: ``cpu``, ``cuda`` or ``mps``."""
    return device.split(":", 1)[0]


def pick_precision(requested: str, device: str, *, cuda_fallback: str) -> str:
    """Resolve a precision option for a resolved device.

    Args:
        requested: ``auto``, ``bf16``, ``fp16`` or ``fp32``; empty means auto.
        device: What `pick_device` returned.
        cuda_fallback: What ``auto`` means on a CUDA GPU without bf16.

    Returns:
        ``bf16``, ``fp16`` or ``fp32``.

    Raises:
        DeviceError: for an unknown name or a precision the device lacks.

    """
    name = (requested or "auto").strip().lower()
    if name not in PRECISIONS:
        raise DeviceError(
            f"precision {requested!r}: use one of {', '.join(PRECISIONS)}"
        )
    kind = device_type(device)
    if name == "auto":
        if kind == "cuda":
            return "bf16" if bf16_supported() else cuda_fallback
        return "fp32"
    if name == "fp16" and kind == "cpu":
        raise DeviceError(
            "precision fp16 needs a GPU (cuda or mps); on the CPU use fp32 or bf16"
        )
    if name == "bf16" and kind == "cuda" and not bf16_supported():
        raise DeviceError(
            "precision bf16: this GPU does not support bf16; use fp16 or fp32"
        )
    return name


def torch_dtype(precision: str) -> torch.dtype:
    """Return the torch dtype of a resolved precision."""
    import torch

    dtypes = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
    return dtypes[precision]
