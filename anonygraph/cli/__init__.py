"""Command line: ``anonygraph run | review | anonymize | eval | report | ...``.

Each subcommand is a module of `anonygraph.cli.commands` that adds its parser
and sets its ``func``; the flags that set `Context` fields are generated from
them (`anonygraph.cli.flags`). Only the chosen command's module is imported:
the others are listed by name and help (`COMMANDS`).
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Collection, Sequence
from contextlib import nullcontext
from typing import NoReturn

from anonygraph.cli.commands import COMMANDS, command_module
from anonygraph.runs import collector
from anonygraph.tools.langgraph_import import defer_inits

__all__ = ["build_parser", "main", "own_process", "run"]

QUICK_STARTS = frozenset({"anonymize", "detect", "run", "serve"})
"""Commands whose collector stays quiet until their first text or record is
done, or ``serve``'s warm-up (each calls `collector.started` then; see
`anonygraph.runs.collector`)."""


def build_parser(chosen: Collection[str] | None = None) -> argparse.ArgumentParser:
    """Build the argument parser: one subparser per command of `COMMANDS`.

    Args:
        chosen: The commands whose own parsers are built (their modules
            imported); the others get a bare parser with their help line,
            enough for ``anonygraph --help``. Every command when None.
    """
    parser = argparse.ArgumentParser(
        prog="anonygraph", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in COMMANDS.items():
        if chosen is None or name in chosen:
            command_module(name).add_parser(sub)
        else:
            sub.add_parser(name, help=help_text)
    return parser


def chosen_command(argv: Sequence[str]) -> str | None:
    """Return the command ``argv`` names: its first word that is not an option.

    The top-level options (``--trace``, ``--help``) take no value, so the first
    other word is the command, or a mistyped one argparse then refuses.
    """
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``anonygraph`` command."""
    name = chosen_command(sys.argv[1:] if argv is None else argv)
    parser = build_parser([name] if name in COMMANDS else [])
    parser.add_argument(
        "--trace",
        action="store_true",
        help="send LangSmith traces (off otherwise, whatever the environment says)",
    )
    args = parser.parse_args(argv)
    from anonygraph.runs.tracing import tracing_scope

    # The guard imports LangSmith (about a second on 2 cores) to keep LangChain
    # from tracing; a command that runs no LangChain code (``detect``) says so.
    guard = (
        tracing_scope(args.trace, process_wide=True)
        if getattr(args, "uses_langchain", True)
        else nullcontext()
    )
    try:
        with guard:
            return int(args.func(args))
    except Exception as exc:
        return _one_line(args, exc)


def _one_line(args: argparse.Namespace, exc: Exception) -> int:
    """Print a command's error the user can act on as one line; re-raise others.

    The store's errors are imported here, once a command failed: they import
    the Postgres driver, which a command that succeeds may never need.
    ValueError covers OptionError, InputError and ModelSpecError.
    """
    from anonygraph.runs.store.locks import RunLockedError
    from anonygraph.runs.store.sql import db_errors

    if isinstance(exc, (ValueError, RunLockedError)):
        print(f"anonygraph {args.command}: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    if isinstance(exc, (OSError, *db_errors())):
        # A missing, read-only or full file or folder: one line, not a traceback.
        where = getattr(exc, "filename", None) or getattr(args, "db", "")
        print(  # noqa: T201
            f"anonygraph {args.command}: cannot use {where}: {exc}; check the "
            "path exists and is writable",
            file=sys.stderr,
        )
        return 2
    raise exc


def own_process(argv: Sequence[str]) -> None:
    """Set up the process the command owns for a quick start of ``argv``.

    The collector's passes stay rare until the first text is done
    (`anonygraph.runs.collector`), and the client code LangGraph's import
    brings (its server's SDK, LangSmith's API types) waits for a use that a
    command never makes (`anonygraph.tools.langgraph_import`).
    Neither applies to a program that imports the package.
    """
    if chosen_command(argv) in QUICK_STARTS:
        collector.starting()
    defer_inits()


def run(argv: list[str] | None = None) -> NoReturn:
    """The ``anonygraph`` command: `main`, then exit without a last cycle sweep.

    By the time `main` returns everything is written and closed. Python's exit
    would still search every object for reference cycles while it unloads the
    modules, about half a second with LangGraph loaded (measured on a 2-core
    box): a cost every command pays. Frozen objects are
    skipped by that search, and the operating system frees the memory anyway.
    Before it, `own_process` sets up the process for a quick start.
    """
    own_process(sys.argv[1:] if argv is None else argv)
    code = main(argv)
    gc.freeze()
    sys.exit(code)
