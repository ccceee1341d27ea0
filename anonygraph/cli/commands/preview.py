"""``anonygraph preview``: the first records of an input anonymized; nothing stored."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any, get_args

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.commands.run import add_table_flags, table_options
from anonygraph.cli.flags import (
    OptionError,
    add_common,
    check_backends,
    context_fields,
)
from anonygraph.runs.io.datasets import Format

if TYPE_CHECKING:
    from anonygraph.runs.engines.preview import Preview


def add_parser(sub: Any) -> None:
    """Add ``preview``: ``run``'s method and input flags, and how many records."""
    parser = sub.add_parser(
        "preview",
        help=COMMANDS["preview"],
    )
    add_common(parser)
    parser.add_argument("--input", required=True, help="as for run: JSONL or a table")
    parser.add_argument(
        "-n", "--records", type=int, default=3, help="records to show (default 3)"
    )
    parser.add_argument(
        "--format", default="jsonl", choices=get_args(Format), help="as for run"
    )
    add_table_flags(parser)
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print each record's diff, outcome and cost; 1 when one failed or was bad."""
    from anonygraph.runs.engines.preview import preview_run
    from anonygraph.runs.options import RunOptions

    if args.records < 1:
        raise OptionError("--records must be at least 1")
    fields = context_fields(args)
    check_backends(args.method, fields)
    options = RunOptions(
        method=args.method,
        input=args.input,
        output="",
        context=fields,
        format=args.format,
        progress=False,
        table=table_options(args, args.input, args.format),
    )
    previews, bad = asyncio.run(preview_run(options, args.records))
    for line in bad:
        print(f"bad input {line}", file=sys.stderr)  # noqa: T201
    color = sys.stdout.isatty()
    for shown in previews:
        print(render(shown, color))  # noqa: T201
    print(  # noqa: T201
        f"preview of {len(previews)} record(s) with {args.method}; nothing stored",
        file=sys.stderr,
    )
    failed = any(p.error for p in previews)
    return 1 if failed or bad or not previews else 0


def render(shown: Preview, color: bool = False) -> str:
    """Render one previewed record: outcome and cost, then its word diff."""
    from anonygraph.tools.text_diff import changed_words, render_terminal, word_diff

    cost = shown.cost
    head = (
        f"record {shown.record.id}: {shown.outcome} · {cost['calls']} model "
        f"call(s), {cost['tokens_in']} tokens in, {cost['tokens_out']} tokens out, "
        f"{cost['seconds']:.1f} s ({cost['model_seconds']:.1f} s in models)"
    )
    if shown.error:
        return f"{head}\n  failed: {shown.error}"
    pieces = word_diff(shown.record.text, str(shown.result.get("anonymized", "")))
    removed, inserted = changed_words(pieces)
    lines = [
        head,
        f"  {removed} word(s) removed, {inserted} inserted:",
        "  " + render_terminal(pieces, color).replace("\n", "\n  "),
    ]
    if shown.result.get("leaks"):
        lines.append(f"  leaks left: {', '.join(map(str, shown.result['leaks']))}")
    return "\n".join(lines)
