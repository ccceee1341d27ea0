"""``anonygraph purge``: delete a run's intermediates and checkpoints."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import OptionError, add_db, check_store


def add_parser(sub: Any) -> None:
    """Add ``purge``: the store and the run."""
    parser = sub.add_parser("purge", help=COMMANDS["purge"])
    add_db(parser)
    parser.add_argument("--run", required=True, help="run id")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Keep the run's outputs; drop iterations, call details and checkpoints."""
    from anonygraph.runs.store import RunStore
    from anonygraph.runs.store.checkpointers import purge_checkpoints

    check_store(args.db)
    db = RunStore(args.db)
    if db.get_run(args.run) is None:
        raise OptionError(f"--run {args.run}: no such run in {args.db}")
    db.purge_intermediates(args.run)
    purge_checkpoints(args.db, args.run)
    return 0
