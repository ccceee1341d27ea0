"""Command line: ``anonygraph run | review | anonymize | eval | report | ...``.

Each subcommand is a module of `anonygraph.cli.commands` that adds its parser
and sets its ``func``; the flags that set `Context` fields are generated from
them (`anonygraph.cli.flags`).
"""

from __future__ import annotations

import argparse
import gc
import sys
from typing import NoReturn

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import OptionError
from anonygraph.inputs import InputError
from anonygraph.llm import ModelSpecError
from anonygraph.runs.store.locks import RunLockedError
from anonygraph.runs.store.sql import DB_ERRORS

__all__ = ["build_parser", "main", "run"]


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser: one subparser per module of `COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="anonygraph", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``anonygraph`` command."""
    parser = build_parser()
    parser.add_argument(
        "--trace",
        action="store_true",
        help="send LangSmith traces (off otherwise, whatever the environment says)",
    )
    args = parser.parse_args(argv)
    from anonygraph.runs.tracing import tracing_scope

    try:
        with tracing_scope(args.trace, process_wide=True):
            return int(args.func(args))
    except (OptionError, InputError, ModelSpecError, ValueError, RunLockedError) as exc:
        print(f"anonygraph {args.command}: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    except (OSError, *DB_ERRORS) as exc:  # type: ignore[misc]
        # A missing, read-only or full file or folder: one line, not a traceback.
        where = getattr(exc, "filename", None) or getattr(args, "db", "")
        print(  # noqa: T201
            f"anonygraph {args.command}: cannot use {where}: {exc}; check the "
            "path exists and is writable",
            file=sys.stderr,
        )
        return 2


def run(argv: list[str] | None = None) -> NoReturn:
    """The ``anonygraph`` command: `main`, then exit without a last cycle sweep.

    By the time `main` returns everything is written and closed. Python's exit
    would still search every object for reference cycles while it unloads the
    modules, about half a second with LangGraph loaded (measured on a 2-core
    box): a cost every command pays. Frozen objects are
    skipped by that search, and the operating system frees the memory anyway.
    """
    code = main(argv)
    gc.freeze()
    sys.exit(code)
