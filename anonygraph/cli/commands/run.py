"""``anonygraph run``: anonymize a JSONL file, resumably."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any, get_args

from anonygraph.cli.flags import (
    OptionError,
    add_common,
    add_db,
    add_engine,
    check_backends,
    context_fields,
    engine_options,
)
from anonygraph.runs.datasets import Format

if TYPE_CHECKING:
    from anonygraph.runs.summary import RunSummary

WAITING_EXIT = 3
"""Exit code of `run` and `review` when records wait for a review or are not
(all) anonymized."""


def add_parser(sub: Any) -> None:
    """Add ``run``: every method's flags, the files, the store."""
    parser = sub.add_parser("run", help="anonymize a JSONL file, resumably")
    add_common(parser)
    parser.add_argument("--input", required=True, help="JSONL: id, text or comments")
    parser.add_argument(
        "--output", required=True, help="JSONL written as records finish"
    )
    add_db(parser)
    parser.add_argument(
        "--format",
        default="jsonl",
        choices=get_args(Format),
        help="input format: ours, or a shared data set's (labels are kept)",
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="records at once (on each Ray worker with --engine ray)",
    )
    add_engine(parser)
    parser.add_argument(
        "--run-id", default="", help="name of the run (default: derived)"
    )
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument(
        "--force",
        action="store_true",
        help="start the output file afresh even if another run wrote it",
    )
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Run the batch, print its summary and exit with `run_exit_code`."""
    from anonygraph.runs.batch import run_batch
    from anonygraph.runs.options import RunOptions

    if args.concurrency < 1:
        raise OptionError("--concurrency must be at least 1")
    fields = context_fields(args)
    check_backends(args.method, fields)
    engine, ray = engine_options(args)
    options = RunOptions(
        method=args.method,
        input=args.input,
        output=args.output,
        db=args.db,
        context=fields,
        concurrency=args.concurrency,
        format=args.format,
        run_id=args.run_id,
        progress=not args.no_progress,
        force=args.force,
        trace=args.trace,
        engine=engine,
        ray=ray,
    )
    summary = asyncio.run(run_batch(options))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    if summary.waiting:
        print(  # noqa: T201
            f"  answer them: anonygraph review --run {summary.run_id} --db {args.db}",
            file=sys.stderr,
        )
    return run_exit_code(summary)


def run_exit_code(summary: RunSummary) -> int:
    """Exit code of ``run``, from what happened to the records.

    0: every record anonymized, or (checked by the rules detectors only) no
    explicit cue found; 1: a record failed or an input line was bad; 3: all
    ran, but some text is partly anonymized, unchanged, not checked or waiting
    for a review (2 is argparse's code for a bad command line).
    """
    if summary.failed or summary.bad_lines:
        return 1
    if summary.waiting:
        return WAITING_EXIT
    return 0 if summary.all_anonymized() else WAITING_EXIT
