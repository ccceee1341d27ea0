"""The ``anonygraph seal data | train`` sub-commands, for `cli.py` to mount."""

from __future__ import annotations

import argparse

from anonygraph.tools.seal_data import seal_data_command
from anonygraph.tools.seal_train import add_train_arguments, seal_train_command


def add_seal_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``seal data`` and ``seal train``; each sets ``args.seal_command``.

    Training imports torch, transformers, peft and trl only when it starts.
    """
    seal = sub.add_parser("seal", help="SEAL: distillation data and training")
    steps = seal.add_subparsers(dest="seal_step", required=True)

    data = steps.add_parser(
        "data", help="turn a seal_trajectory run into JSONL for TRL's SFT and DPO"
    )
    data.add_argument("--db", default="runs.sqlite", help="run store (SQLite)")
    data.add_argument("--run", required=True, help="id of a seal_trajectory run")
    data.add_argument("--out", required=True, help="folder for the JSONL files")
    data.set_defaults(seal_command=seal_data_command)

    train = steps.add_parser(
        "train", help="LoRA SFT on the three tasks, then DPO (needs [train])"
    )
    add_train_arguments(train)
    train.set_defaults(seal_command=seal_train_command)
