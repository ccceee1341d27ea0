"""``anonygraph anonymize``: anonymize one text and print it, showing its steps."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import OptionError, add_common, context_fields


def add_parser(sub: Any) -> None:
    """Add ``anonymize``: every method's flags and the text."""
    parser = sub.add_parser("anonymize", help=COMMANDS["anonymize"])
    add_common(parser)
    parser.add_argument("text", help="the text ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print the whole result")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress on stderr (a line per step: round, step, seconds)",
    )
    parser.add_argument(
        "--slow-after",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="warn when one model answer takes longer (default 20)",
    )
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the anonymized text, or with --json the whole output state."""
    from anonygraph.api import aanonymize

    if args.slow_after <= 0:
        raise OptionError("--slow-after must be above 0")
    text = sys.stdin.read() if args.text == "-" else args.text
    fields = context_fields(args)
    result = asyncio.run(
        aanonymize(
            text,
            method=args.method,
            trace=args.trace,
            progress=None if args.quiet else _say,
            slow_seconds=args.slow_after,
            **fields,
        )
    )
    output = json.dumps(result, indent=2, ensure_ascii=False)
    print(output if args.json else result["anonymized"])  # noqa: T201
    return 0


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)  # noqa: T201
