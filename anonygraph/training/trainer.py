"""SEAL training: LoRA SFT on the three tasks, then DPO from the SFT model.

Needs the optional extra ``anonygraph[train]`` (torch, transformers, peft, trl,
datasets); they are imported only when training starts. The defaults are the
paper's (appendix B, table 6). Models load from local files only unless told
otherwise: nothing is downloaded behind the user's back.

Task weights scale how often each task's rows are seen: a weight of 2 repeats
a task's rows twice, 0.5 keeps a seeded half, so the SFT loss is
sum_k lambda_k * (sum of the row losses of task k).
"""

from __future__ import annotations

import functools
import math
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.tools import torch_device
from anonygraph.training.data import FILES
from anonygraph.training.trl_format import check_row, read_jsonl, to_prompt_completion

SFT_TASKS: tuple[str, ...] = ("anon", "priv", "util")
"""The SFT data sets, in the order of `FILES`."""


@dataclass
class TrainConfig:
    """Where the data and models are, and the training hyper-parameters."""

    data_dir: str
    """Folder written by ``anonygraph seal data``."""
    base_model: str
    """Local folder (or, with ``local_files_only=False``, hub id) of a causal LM."""
    output_dir: str
    """Where ``sft/`` and ``final/`` (merged models with tokenizers) are saved."""
    task_weights: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(SFT_TASKS, 1.0)
    )
    """lambda_anon, lambda_priv, lambda_util."""
    sft_batch_size: int = 8
    sft_epochs: float = 1.0
    sft_learning_rate: float = 2e-4
    dpo_batch_size: int = 4
    dpo_epochs: float = 1.0
    dpo_learning_rate: float = 5e-6
    beta: float = 0.01
    """DPO's beta: how far the policy may move from the SFT model."""
    weight_decay: float = 0.01
    adam_beta1: float = 0.9
    adam_beta2: float = 0.999
    adam_epsilon: float = 1e-8
    max_grad_norm: float = 1.0
    lora_rank: int = 16
    lora_alpha: int = 16
    lora_dropout: float = 0.05
    lora_targets: str = "all-linear"
    device: str = "auto"
    """auto (CUDA, else MPS, else CPU), cpu, cuda, cuda:N or mps; an explicit
    device this machine lacks stops training (see `anonygraph.tools.torch_device`)."""
    precision: str = "auto"
    """auto (bf16 on a CUDA GPU that has it, else fp16 there, as in the paper;
    fp32 on MPS and CPU), bf16, fp16 or fp32."""
    max_length: int = 2048
    """Longest tokenized conversation; longer ones are truncated."""
    max_steps: int = -1
    """Cap on optimizer steps per stage; -1 trains by epochs."""
    gradient_checkpointing: bool = True
    """Recompute activations in the backward pass: less memory, more time."""
    completion_only: bool = True
    """Compute the SFT loss on the answers only, not on the instructions."""
    skip_dpo: bool = False
    seed: int = 0
    logging_steps: int = 10
    local_files_only: bool = True


@dataclass
class TrainReport:
    """What a training run did: rows seen, losses logged, models saved."""

    sft_rows: dict[str, int]
    dpo_rows: int
    sft_losses: list[float]
    dpo_losses: list[float]
    sft_model: str
    final_model: str
    device: str = "cpu"
    """The device trained on, as resolved from `TrainConfig.device`."""
    precision: str = "fp32"
    """The precision trained in, as resolved from `TrainConfig.precision`."""


class TrainingSetupError(RuntimeError):
    """Raised when training cannot start: missing extra, data or model."""


def weighted_rows(
    rows_by_task: dict[str, list[dict[str, Any]]],
    weights: dict[str, float],
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Repeat or subsample each task's rows by its weight, then shuffle them all.

    Raises:
        ValueError: for a negative weight or a weight for an unknown task.

    """
    unknown = set(weights) - set(SFT_TASKS)
    if unknown:
        raise ValueError(f"unknown task weight(s) {sorted(unknown)}; use {SFT_TASKS}")
    rng = random.Random(seed)
    mixed: list[dict[str, Any]] = []
    for task in SFT_TASKS:
        rows, weight = rows_by_task.get(task, []), weights.get(task, 1.0)
        if weight < 0:
            raise ValueError(f"task weight {task}={weight} is negative")
        whole, part = int(math.floor(weight)), weight - math.floor(weight)
        mixed += rows * whole + rng.sample(rows, round(part * len(rows)))
    rng.shuffle(mixed)
    return mixed


def load_rows(data_dir: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Read and check the four JSONL files written by ``seal data``.

    Raises:
        TrainingSetupError: when a file is missing or a row does not fit TRL.

    """
    rows: dict[str, list[dict[str, Any]]] = {}
    for name, filename in FILES.items():
        path = Path(data_dir) / filename
        if not path.is_file():
            raise TrainingSetupError(
                f"{path} is missing; write it with `anonygraph seal data`"
            )
        rows[name] = read_jsonl(path)
        for number, row in enumerate(rows[name], start=1):
            try:
                check_row(name, row)
            except ValueError as exc:
                raise TrainingSetupError(f"{path}, line {number}: {exc}") from exc
    return rows


def resolve_hardware(config: TrainConfig) -> tuple[str, str]:
    """Return the (device, precision) training will use.

    Raises:
        TrainingSetupError: for a device or precision this machine lacks.

    """
    try:
        device = torch_device.pick_device(config.device)
        precision = torch_device.pick_precision(
            config.precision, device, cuda_fallback="fp16"
        )
    except torch_device.DeviceError as exc:
        raise TrainingSetupError(str(exc)) from exc
    return device, precision


def config_class(base: Any, device: str) -> Any:
    """Return TRL's config class ``base``, pinned to one GPU for ``cuda:N``.

    Outside distributed training the Trainer puts the model on cuda:0 and
    spreads batches over every visible GPU; for an explicit ``cuda:N`` the
    subclass keeps the Trainer's set-up (accelerate's state) and then trains
    on that one GPU. Any other device returns ``base`` unchanged.
    """
    if not re.fullmatch(r"cuda:\d+", device):
        return base

    class OnOneGpu(base):  # type: ignore[misc]
        @functools.cached_property
        def _setup_devices(self) -> Any:
            import torch

            super()._setup_devices  # noqa: B018 - builds the Trainer's state
            torch.cuda.set_device(device)
            self._n_gpu = 1
            return torch.device(device)

    return OnOneGpu


def _import_stack() -> dict[str, Any]:
    try:
        import datasets
        import peft
        import torch
        import transformers
        import trl
    except ImportError as exc:
        raise TrainingSetupError(
            f"training needs the optional extra: pip install 'anonygraph[train]' "
            f"({exc.name} is missing)"
        ) from exc
    return {
        "datasets": datasets,
        "peft": peft,
        "torch": torch,
        "transformers": transformers,
        "trl": trl,
    }


def _common_args(config: TrainConfig, device: str, precision: str) -> dict[str, Any]:
    cuda = torch_device.device_type(device) == "cuda"
    return {
        "weight_decay": config.weight_decay,
        "adam_beta1": config.adam_beta1,
        "adam_beta2": config.adam_beta2,
        "adam_epsilon": config.adam_epsilon,
        "max_grad_norm": config.max_grad_norm,
        "gradient_checkpointing": config.gradient_checkpointing,
        "optim": "adamw_torch",
        "fp16": precision == "fp16",
        "bf16": precision == "bf16",
        "max_steps": config.max_steps,
        "max_length": config.max_length,
        "logging_steps": config.logging_steps,
        "save_strategy": "no",
        "report_to": "none",
        "seed": config.seed,
        "use_cpu": device == "cpu",
        "dataloader_pin_memory": cuda,
    }


def _losses(trainer: Any) -> list[float]:
    return [float(e["loss"]) for e in trainer.state.log_history if "loss" in e]


def train(config: TrainConfig) -> TrainReport:
    """Fine-tune ``config.base_model`` on SEAL data: SFT, then DPO, both with LoRA.

    Raises:
        TrainingSetupError: for a missing extra, data file or model.

    """
    rows = load_rows(config.data_dir)
    stack = _import_stack()
    transformers, trl = stack["transformers"], stack["trl"]
    device, precision = resolve_hardware(config)
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(
            config.base_model, local_files_only=config.local_files_only
        )
        model = transformers.AutoModelForCausalLM.from_pretrained(
            config.base_model,
            local_files_only=config.local_files_only,
            dtype=torch_device.torch_dtype(precision),
        )
    except OSError as exc:
        raise TrainingSetupError(f"cannot load {config.base_model!r}: {exc}") from exc
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    lora = stack["peft"].LoraConfig(
        r=config.lora_rank,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=config.lora_targets,
        task_type="CAUSAL_LM",
    )
    common = _common_args(config, device, precision)
    out = Path(config.output_dir)

    sft_data = weighted_rows(
        {task: rows[task] for task in SFT_TASKS}, config.task_weights, config.seed
    )
    if not sft_data:
        raise TrainingSetupError(f"{config.data_dir} holds no SFT rows")
    if config.completion_only:
        sft_data = [to_prompt_completion(r) for r in sft_data]
    sft = trl.SFTTrainer(
        model=model,
        args=config_class(trl.SFTConfig, device)(
            output_dir=str(out / "sft-run"),
            per_device_train_batch_size=config.sft_batch_size,
            num_train_epochs=config.sft_epochs,
            learning_rate=config.sft_learning_rate,
            **common,
        ),
        train_dataset=stack["datasets"].Dataset.from_list(sft_data),
        processing_class=tokenizer,
        peft_config=lora,
    )
    sft.train()
    sft_model = sft.model.merge_and_unload()
    sft_dir = _save(sft_model, tokenizer, out / "sft")
    report = TrainReport(
        sft_rows={task: len(rows[task]) for task in SFT_TASKS},
        dpo_rows=len(rows["pref"]),
        sft_losses=_losses(sft),
        dpo_losses=[],
        sft_model=sft_dir,
        final_model=sft_dir,
        device=device,
        precision=precision,
    )
    if config.skip_dpo or not rows["pref"]:
        return report

    # The merged SFT model is both the start and, with the new LoRA adapter
    # switched off, the reference of DPO: pi_ref = the SFT model.
    dpo = trl.DPOTrainer(
        model=sft_model,
        args=config_class(trl.DPOConfig, device)(
            output_dir=str(out / "dpo-run"),
            per_device_train_batch_size=config.dpo_batch_size,
            num_train_epochs=config.dpo_epochs,
            learning_rate=config.dpo_learning_rate,
            beta=config.beta,
            **common,
        ),
        train_dataset=stack["datasets"].Dataset.from_list(rows["pref"]),
        processing_class=tokenizer,
        peft_config=lora,
    )
    dpo.train()
    report.dpo_losses = _losses(dpo)
    report.final_model = _save(dpo.model.merge_and_unload(), tokenizer, out / "final")
    return report


def _save(model: Any, tokenizer: Any, folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    return str(folder)
