"""``anonygraph status``: a run's records per Ray worker and node."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import add_db, check_store


def add_parser(sub: Any) -> None:
    """Add ``status``: the store and the run."""
    parser = sub.add_parser("status", help=COMMANDS["status"])
    add_db(parser)
    parser.add_argument("--run", required=True, help="run id")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the run's records by state and worker."""
    from anonygraph.runs.run_status import render_status
    from anonygraph.runs.store import RunStore

    check_store(args.db)
    db = RunStore(args.db)
    try:
        print(render_status(db, args.run))  # noqa: T201
    finally:
        db.close()
    return 0
