"""``anonygraph show``: a run's records, each with its diff, guesses and cost."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Literal, get_args

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import add_db

Color = Literal["auto", "always", "never"]
"""When removed words are marked red and inserted ones green."""


def add_parser(sub: Any) -> None:
    """Add ``show``: the store, the run, one record or all, colour."""
    parser = sub.add_parser("show", help=COMMANDS["show"])
    add_db(parser)
    parser.add_argument("--run", required=True, help="run id")
    parser.add_argument("--id", help="one record (default: every record)")
    parser.add_argument(
        "--color", choices=get_args(Color), default="auto",
        help="mark removed words red and inserted green",
    )  # fmt: skip
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the record view of each record (colour on a terminal unless NO_COLOR)."""
    from anonygraph.reporting.record_view import record_reviews, render_review
    from anonygraph.runs.store import RunStore

    color = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    )
    reviews = record_reviews(RunStore(args.db), args.run, args.id)
    print("\n".join(render_review(r, color=color) for r in reviews))  # noqa: T201
    return 0
