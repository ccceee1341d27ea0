"""``anonygraph report``: tables, plots and report.html over evaluated runs."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import add_db, check_store


def add_parser(sub: Any) -> None:
    """Add ``report``: the store, the runs, the folder."""
    parser = sub.add_parser("report", help=COMMANDS["report"])
    add_db(parser)
    parser.add_argument("--run", action="append", help="runs to include (default: all)")
    parser.add_argument("--out", default="report", help="folder for report.md/csv/png")
    parser.add_argument(
        "--protocol",
        default="",
        choices=("rlaa", "seal", "intentanony"),
        help="whose utility composite, MEAN/READ scale and top-k the paper table "
        "follows (default: the evaluations' paper protocol, else rlaa)",
    )
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Write the report files and list them."""
    from anonygraph.reporting.report import write_report

    check_store(args.db)
    files = write_report(args.db, args.out, args.run, args.protocol)
    print("\n".join(f"{k}: {v}" for k, v in files.items()))  # noqa: T201
    return 0
