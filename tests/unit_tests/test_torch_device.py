"""Device and precision rules, with the machine's capabilities monkeypatched."""

from __future__ import annotations

import pytest

from anonygraph.tools import torch_device
from anonygraph.tools.torch_device import DeviceError, pick_device, pick_precision


def machine(
    monkeypatch: pytest.MonkeyPatch,
    *,
    cuda: int = 0,
    bf16: bool = False,
    mps: bool = False,
) -> None:
    """Pretend this machine has ``cuda`` GPUs (with or without bf16) and MPS."""
    monkeypatch.setattr(torch_device, "cuda_available", lambda: cuda > 0)
    monkeypatch.setattr(torch_device, "cuda_device_count", lambda: cuda)
    monkeypatch.setattr(torch_device, "bf16_supported", lambda: cuda > 0 and bf16)
    monkeypatch.setattr(torch_device, "mps_available", lambda: mps)


@pytest.mark.parametrize(
    ("cuda", "mps", "requested", "expected"),
    [
        (1, False, "auto", "cuda"),
        (1, True, "auto", "cuda"),
        (0, True, "auto", "mps"),
        (0, False, "auto", "cpu"),
        (0, False, "", "cpu"),
        (2, False, "cpu", "cpu"),
        (2, False, "cuda", "cuda"),
        (2, False, "CUDA:1", "cuda:1"),
        (0, True, "mps", "mps"),
    ],
)
def test_when_a_device_is_asked_for_then_the_rule_picks_it(
    monkeypatch: pytest.MonkeyPatch, cuda: int, mps: bool, requested: str, expected: str
) -> None:
    machine(monkeypatch, cuda=cuda, mps=mps)
    assert pick_device(requested) == expected


@pytest.mark.parametrize(
    ("cuda", "mps", "requested", "message"),
    [
        (0, True, "cuda", "sees no CUDA GPU"),
        (0, False, "cuda:0", "sees no CUDA GPU"),
        (2, False, "cuda:2", "2 CUDA GPU"),
        (1, False, "mps", "no MPS backend"),
        (1, False, "gpu", "use one of auto, cpu, cuda, cuda:N, mps"),
        (1, False, "cuda:x", "use one of"),
    ],
)
def test_when_an_explicit_device_is_missing_then_it_fails_without_fallback(
    monkeypatch: pytest.MonkeyPatch, cuda: int, mps: bool, requested: str, message: str
) -> None:
    machine(monkeypatch, cuda=cuda, mps=mps)
    with pytest.raises(DeviceError, match=message):
        pick_device(requested)


@pytest.mark.parametrize(
    ("bf16", "device", "fallback", "requested", "expected"),
    [
        (True, "cuda", "fp16", "auto", "bf16"),
        (False, "cuda", "fp16", "auto", "fp16"),
        (True, "cuda:1", "fp32", "auto", "bf16"),
        (False, "cuda:1", "fp32", "auto", "fp32"),
        (True, "mps", "fp16", "auto", "fp32"),
        (True, "cpu", "fp16", "auto", "fp32"),
        (False, "cuda", "fp16", "fp16", "fp16"),
        (False, "mps", "fp32", "fp16", "fp16"),
        (True, "cuda", "fp16", "fp32", "fp32"),
        (False, "cpu", "fp16", "bf16", "bf16"),
    ],
)
def test_when_precision_is_auto_or_named_then_the_device_decides(
    monkeypatch: pytest.MonkeyPatch,
    bf16: bool,
    device: str,
    fallback: str,
    requested: str,
    expected: str,
) -> None:
    machine(monkeypatch, cuda=2, bf16=bf16)
    assert pick_precision(requested, device, cuda_fallback=fallback) == expected


@pytest.mark.parametrize(
    ("device", "requested", "message"),
    [
        ("cpu", "fp16", "fp16 needs a GPU"),
        ("cuda", "bf16", "does not support bf16"),
        ("cuda", "half", "use one of auto, bf16, fp16, fp32"),
    ],
)
def test_when_a_precision_does_not_fit_the_device_then_it_is_refused(
    monkeypatch: pytest.MonkeyPatch, device: str, requested: str, message: str
) -> None:
    machine(monkeypatch, cuda=1, bf16=False)
    with pytest.raises(DeviceError, match=message):
        pick_precision(requested, device, cuda_fallback="fp16")


def test_when_this_machine_is_asked_then_capabilities_are_consistent() -> None:
    device = pick_device("auto")
    assert device in ("cuda", "mps", "cpu")
    assert (device == "cuda") == torch_device.cuda_available()
    precision = pick_precision("auto", device, cuda_fallback="fp16")
    assert str(torch_device.torch_dtype(precision)).endswith(
        {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}[precision]
    )
