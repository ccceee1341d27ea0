"""``anonygraph review``: answer a --review run's pending reviews and resume them."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.commands.run import WAITING_EXIT
from anonygraph.cli.flags import add_db, check_store


def add_parser(sub: Any) -> None:
    """Add ``review``: the run and its store."""
    parser = sub.add_parser(
        "review",
        help=COMMANDS["review"],
        description="Walk the records a --review run left waiting: show the diff "
        "so far and the proposal, read a key (a: approve, e: edit, r: reject, k: "
        "skip, q: quit) and, to edit, one line of changes from standard input.",
    )
    parser.add_argument("--run", required=True, help="run id (printed by `run`)")
    add_db(parser)
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Ask about each pending review on the terminal; exit 3 while some still wait."""
    from anonygraph.runs.engines.pending_reviews import review_run

    # Like every command reading a store: a Postgres URL, or a SQLite file
    # that exists (`run` prints this command with either).
    check_store(args.db)

    def ask(prompt: str) -> str | None:
        print(prompt, end="", flush=True)  # noqa: T201
        line = sys.stdin.readline()
        return line.rstrip("\n") if line else None

    def say(line: str) -> None:
        print(line, flush=True)  # noqa: T201

    summary = asyncio.run(review_run(args.db, args.run, ask, say))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    if summary.failed:
        return 1
    return WAITING_EXIT if summary.waiting else 0
