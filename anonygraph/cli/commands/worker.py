"""``anonygraph worker``: gone; a run spreads over machines with ``--engine ray``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from anonygraph.cli.commands import COMMANDS

REPLACEMENT = (
    "anonygraph worker: the lease queue is gone; to spread a run over machines, "
    "start a Ray cluster on them and run `anonygraph run --engine ray "
    "--ray-address HEAD:PORT ...` (docs/ray.md)"
)
"""The one line an old ``anonygraph worker`` command gets."""


def add_parser(sub: Any) -> None:
    """Add ``worker``, which takes its old flags and names its replacement."""
    parser = sub.add_parser("worker", help=COMMANDS["worker"])
    for flag in ("--db", "--run", "--concurrency"):
        parser.add_argument(flag, help=argparse.SUPPRESS)
    parser.add_argument("--no-progress", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Name the replacement in one line; exit 2 (a command that no longer works)."""
    print(REPLACEMENT, file=sys.stderr)  # noqa: T201
    return 2
