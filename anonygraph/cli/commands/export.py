"""``anonygraph export``: write a run's output JSONL from the store."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import add_db, check_store


def add_parser(sub: Any) -> None:
    """Add ``export``: the store, the run, the file."""
    parser = sub.add_parser("export", help=COMMANDS["export"])
    add_db(parser)
    parser.add_argument("--run", required=True, help="run id")
    parser.add_argument("--output", required=True, help="JSONL file to write")
    parser.add_argument(
        "--mapping",
        metavar="PATH",
        help="also write the identifier mappings the run kept (--keep-mapping) "
        "to PATH (0600): replacement -> original per record; never in the output",
    )
    parser.add_argument(
        "--force", action="store_true", help="replace a file another run wrote"
    )
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Write the finished records' output lines and say how many."""
    from anonygraph.runs.io.output import export, export_mapping
    from anonygraph.runs.store import RunStore

    check_store(args.db)
    db = RunStore(args.db)
    try:
        count = export(db, args.run, args.output, force=args.force)
        kept = export_mapping(db, args.run, args.mapping) if args.mapping else 0
    finally:
        db.close()
    print(f"{args.output}: {count} records of run {args.run}")  # noqa: T201
    if args.mapping:
        print(f"{args.mapping}: identifier mappings of {kept} records")  # noqa: T201
    return 0
