"""``anonygraph seal data | train``: SEAL's distillation data and training.

Training imports torch, transformers, peft and trl only when it starts.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.tools.torch_device import DEVICES, PRECISIONS
from anonygraph.training.data import (
    FILES,
    DataOptions,
    NoTrajectoriesError,
    build_data,
    load_trajectories,
    write_data,
)
from anonygraph.training.trainer import (
    SFT_TASKS,
    TrainConfig,
    TrainingSetupError,
    train,
)


def add_parser(sub: Any) -> None:
    """Add ``seal data`` and ``seal train``; each sets ``args.func``."""
    seal = sub.add_parser("seal", help=COMMANDS["seal"])
    steps = seal.add_subparsers(dest="seal_step", required=True)

    data = steps.add_parser(
        "data", help="turn a seal_trajectory run into JSONL for TRL's SFT and DPO"
    )
    data.add_argument("--db", default="runs.sqlite", help="run store (SQLite)")
    data.add_argument("--run", required=True, help="id of a seal_trajectory run")
    data.add_argument("--out", required=True, help="folder for the JSONL files")
    # SEAL Table 3's ablations (section 5.3); SFT alone is `seal train --skip-dpo`.
    data.add_argument(
        "--task-type",
        choices=["a", "ac"],
        default="ac",
        help="ac: anonymization and critique (inference, utility) rows; a: "
        "anonymization only (train it with --sft-epochs 2 --sft-batch-size 4, "
        "SEAL table 6)",
    )
    data.add_argument(
        "--no-adversarial-feedback",
        dest="adversarial_feedback",
        action="store_false",
        help="anonymization rows without the guesses of the text they rewrite",
    )
    data.add_argument(
        "--no-confidence",
        dest="confidence",
        action="store_false",
        help="rank privacy by the count of guessed attributes only, not their "
        "mean certainty",
    )
    data.add_argument(
        "--keep-identical",
        action="store_true",
        help="keep pairs of texts that are the same up to white space, as the "
        "paper's sets do (default: drop and count them)",
    )
    data.set_defaults(func=seal_data_command)

    train_ = steps.add_parser(
        "train", help="LoRA SFT on the three tasks, then DPO (needs [train])"
    )
    add_train_arguments(train_)
    train_.set_defaults(func=seal_train_command)


def seal_data_command(args: argparse.Namespace) -> int:
    """Run ``anonygraph seal data``: store trajectories -> JSONL for TRL."""
    try:
        trajectories = load_trajectories(args.db, args.run)
    except NoTrajectoriesError as exc:
        print(f"anonygraph seal data: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    options = DataOptions(
        critique=args.task_type == "ac",
        adversarial_feedback=args.adversarial_feedback,
        confidence=args.confidence,
        keep_identical=args.keep_identical,
    )
    data = build_data(trajectories, options=options)
    paths = write_data(data, args.out)
    counts = data.counts()
    lines = [f"{data.trajectories} trajectories from run {args.run}"]
    lines += [f"  {name}: {counts[name]} rows -> {paths[name]}" for name in FILES]
    dropped = data.dropped_identical
    if any(dropped.values()):
        lines.append(
            f"  left out for identical texts: {dropped['anon']} anon pair(s), "
            f"{dropped['pref']} pref pair(s) (--keep-identical keeps them)"
        )
    print("\n".join(lines), file=sys.stderr)  # noqa: T201
    return 0


def parse_weights(text: str) -> dict[str, float]:
    """Parse ``anon=1,priv=0.5,util=0.5`` into task weights.

    Raises:
        ValueError: for a malformed pair or an unknown task.

    """
    weights: dict[str, float] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        task, sep, value = pair.partition("=")
        if not sep or task.strip() not in SFT_TASKS:
            raise ValueError(
                f"--weights {pair}: expected TASK=NUMBER, TASK in {SFT_TASKS}"
            )
        weights[task.strip()] = float(value)
    return weights


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``seal train``'s options; every default comes from `TrainConfig`."""
    defaults = TrainConfig(data_dir="", base_model="", output_dir="")
    parser.add_argument("--data", required=True, help="folder written by `seal data`")
    parser.add_argument(
        "--model", required=True, help="base causal LM: a local folder (or hub id)"
    )
    parser.add_argument("--out", required=True, help="folder for sft/ and final/")
    parser.add_argument(
        "--weights", default="", help="task weights, e.g. anon=1,priv=0.5,util=0.5"
    )
    for name in (
        "sft_batch_size", "sft_epochs", "sft_learning_rate", "dpo_batch_size",
        "dpo_epochs", "dpo_learning_rate", "beta", "weight_decay", "max_grad_norm",
        "lora_rank", "lora_alpha", "lora_dropout", "max_length", "max_steps", "seed",
        "logging_steps",
    ):  # fmt: skip
        value = getattr(defaults, name)
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            type=type(value),
            default=value,
            help=f"default {value}",
        )
    parser.add_argument(
        "--device",
        default=defaults.device,
        metavar="|".join(DEVICES),
        help="auto: CUDA, else MPS, else CPU; an explicit device must exist",
    )
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default=defaults.precision,
        help="auto: bf16 on a CUDA GPU that has it, else fp16 there; fp32 on MPS/CPU",
    )
    parser.add_argument("--skip-dpo", action="store_true", help="stop after SFT")
    parser.add_argument(
        "--no-gradient-checkpointing",
        dest="gradient_checkpointing",
        action="store_false",
        help="faster, more memory",
    )
    parser.add_argument(
        "--full-loss",
        action="store_true",
        help="SFT loss on instructions too, not only on the answers",
    )
    parser.add_argument(
        "--allow-download",
        action="store_true",
        help="let transformers fetch --model from the hub",
    )


def seal_train_command(args: argparse.Namespace) -> int:
    """Run ``anonygraph seal train``."""
    tuned = {
        name: getattr(args, name)
        for name in asdict(TrainConfig(data_dir="", base_model="", output_dir=""))
        if hasattr(args, name)
    }
    try:
        config = TrainConfig(
            **{
                **tuned,
                "data_dir": args.data,
                "base_model": args.model,
                "output_dir": args.out,
                "task_weights": {
                    **dict.fromkeys(SFT_TASKS, 1.0),
                    **parse_weights(args.weights),
                },
                "completion_only": not args.full_loss,
                "local_files_only": not args.allow_download,
            }
        )
        report = train(config)
    except (TrainingSetupError, ValueError) as exc:
        print(f"anonygraph seal train: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    lines = [
        f"SFT rows {report.sft_rows}, loss {_span(report.sft_losses)}",
        f"DPO rows {report.dpo_rows}, loss {_span(report.dpo_losses)}",
        f"trained on {report.device} in {report.precision}; "
        f"model: {report.final_model}",
    ]
    print("\n".join(lines), file=sys.stderr)  # noqa: T201
    return 0


def _span(losses: list[float]) -> str:
    return f"{losses[0]:.4f} -> {losses[-1]:.4f}" if losses else "(not trained)"
