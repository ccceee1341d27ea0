"""``anonygraph methods``: list the methods a run can use."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.commands import COMMANDS


def add_parser(sub: Any) -> None:
    """Add ``methods`` (no options)."""
    parser = sub.add_parser("methods", help=COMMANDS["methods"])
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the registered methods, one per line."""
    from anonygraph.graphs import GRAPHS

    print("\n".join(sorted(GRAPHS)))  # noqa: T201
    return 0
