"""``anonygraph status``: a shared run's records per worker."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.flags import add_db, check_store


def add_parser(sub: Any) -> None:
    """Add ``status``: the store and the run."""
    parser = sub.add_parser("status", help="a run's records per worker")
    add_db(parser)
    parser.add_argument("--run", required=True, help="run id")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the run's records by state and worker."""
    from anonygraph import workers
    from anonygraph.store import RunStore

    check_store(args.db)
    print(workers.render_status(RunStore(args.db), args.run))  # noqa: T201
    return 0
