"""``anonygraph methods``: list the methods a run can use."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.graphs import GRAPHS


def add_parser(sub: Any) -> None:
    """Add ``methods`` (no options)."""
    parser = sub.add_parser("methods", help="list the methods")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the registered methods, one per line."""
    print("\n".join(sorted(GRAPHS)))  # noqa: T201
    return 0
