"""``anonygraph worker``: work records of shared runs (Postgres store), any machine."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from anonygraph.cli.flags import OptionError, add_db


def add_parser(sub: Any) -> None:
    """Add ``worker``: the store, one run or any, concurrency."""
    parser = sub.add_parser(
        "worker", help="work records of shared runs (Postgres store), on any machine"
    )
    add_db(parser)
    parser.add_argument("--run", help="only this run (default: any run's records)")
    parser.add_argument("--concurrency", type=int, default=1, help="records at once")
    parser.add_argument("--no-progress", action="store_true")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Lease and work records until none is left; exit 1 if one failed."""
    from anonygraph import workers

    if args.concurrency < 1:
        raise OptionError("--concurrency must be at least 1")
    options = workers.WorkerOptions(
        db=args.db,
        run_id=args.run,
        concurrency=args.concurrency,
        progress=not args.no_progress,
    )
    summary = asyncio.run(workers.run_worker(options))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    return 0 if not summary.failed else 1
