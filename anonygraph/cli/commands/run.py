"""``anonygraph run``: anonymize a JSONL file or a table, resumably."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any, get_args

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import (
    OptionError,
    add_common,
    add_db,
    add_engine,
    check_backends,
    context_fields,
    engine_options,
)
from anonygraph.runs.io.datasets import Format

if TYPE_CHECKING:
    from anonygraph.runs.options import RunOptions
    from anonygraph.runs.summary import RunSummary

WAITING_EXIT = 3
"""Exit code of `run` and `review` when records wait for a review or are not
(all) anonymized."""


def add_parser(sub: Any) -> None:
    """Add ``run``: every method's flags, the files, the store."""
    parser = sub.add_parser("run", help=COMMANDS["run"])
    add_common(parser)
    parser.add_argument(
        "--input",
        required=True,
        help="JSONL (id, text or comments), or a table: .csv, .parquet, or a folder "
        "(a Hugging Face dataset saved with save_to_disk, or data files)",
    )
    parser.add_argument(
        "--output",
        required=True,
        help="JSONL written as records finish; for a table input, the same kind "
        "of table (or the kind its name says) written at the end",
    )
    add_table_flags(parser)
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
    from anonygraph.runs.engines.batch import run_batch

    summary = asyncio.run(run_batch(run_options(args)))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    if summary.waiting:
        print(  # noqa: T201
            f"  answer them: anonygraph review --run {summary.run_id} --db {args.db}",
            file=sys.stderr,
        )
    return run_exit_code(summary)


def add_table_flags(parser: argparse.ArgumentParser) -> None:
    """Add the flags of a table input: its columns, its split, the added columns."""
    group = parser.add_argument_group("tables (a .csv, .parquet or dataset input)")
    group.add_argument(
        "--text-column", default="text", help="the column to anonymize (default text)"
    )
    group.add_argument(
        "--id-column", help="the column of ids (default: the row number, from 0)"
    )
    group.add_argument(
        "--comments-column",
        help="a column of lists of one author's comments, read instead of the text "
        "column (in a CSV, a JSON list)",
    )
    group.add_argument("--split", help="the split of a dataset with several")
    group.add_argument(
        "--output-columns",
        metavar="COLUMN=NAME,...",
        help="names of the added columns anonymized, outcome, leaks_left, problem "
        "(e.g. anonymized=body_anon)",
    )


def table_options(args: argparse.Namespace, input: str, format: str) -> Any:
    """Return the `TableOptions` the flags give; refuse them for a JSONL input.

    Raises:
        OptionError: naming the flag given for an input that is no table.
    """
    from anonygraph.runs.io.table_output import (
        OutputColumns,
        TableOptions,
        parse_output_columns,
    )
    from anonygraph.runs.io.tables import TableColumns
    from anonygraph.runs.options import is_table_input

    if not is_table_input(input, format):
        given = [
            flag
            for flag, value in (
                ("--text-column", args.text_column != "text"),
                ("--id-column", args.id_column),
                ("--comments-column", args.comments_column),
                ("--split", args.split),
                ("--output-columns", args.output_columns),
            )
            if value
        ]
        if given:
            raise OptionError(
                f"{', '.join(given)}: options of a table input (.csv, .parquet or "
                f"a dataset folder); --input {input} is read as {format}"
            )
        return TableOptions()
    out = (
        parse_output_columns(args.output_columns)
        if args.output_columns
        else OutputColumns()
    )
    columns = TableColumns(
        text=args.text_column, id=args.id_column, comments=args.comments_column
    )
    return TableOptions(columns=columns, split=args.split, output_columns=out)


def run_options(args: argparse.Namespace) -> RunOptions:
    """Build the run's options from the command line (``run`` and ``preview``).

    Raises:
        OptionError: for a flag that does not fit.
    """
    from anonygraph.runs.options import RunOptions

    if args.concurrency < 1:
        raise OptionError("--concurrency must be at least 1")
    fields = context_fields(args)
    check_backends(args.method, fields)
    engine, ray = engine_options(args)
    return RunOptions(
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
        table=table_options(args, args.input, args.format),
        engine=engine,
        ray=ray,
    )


def run_exit_code(summary: RunSummary) -> int:
    """Exit code of ``run``, from what happened to the records.

    0: every record anonymized, or (checked by the rules only) scrubbed;
    1: a record failed or an input line was bad; 3: all
    ran, but some text is partly anonymized, unchanged, not checked or waiting
    for a review (2 is argparse's code for a bad command line).
    """
    if summary.failed or summary.bad_lines:
        return 1
    if summary.waiting:
        return WAITING_EXIT
    return 0 if summary.all_anonymized() else WAITING_EXIT
