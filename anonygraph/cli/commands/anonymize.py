"""``anonygraph anonymize``: anonymize one text and print it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from anonygraph.cli.flags import add_common, context_fields


def add_parser(sub: Any) -> None:
    """Add ``anonymize``: every method's flags and the text."""
    parser = sub.add_parser("anonymize", help="anonymize one text and print it")
    add_common(parser)
    parser.add_argument("text", help="the text ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print the whole result")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the anonymized text, or with --json the whole output state."""
    from anonygraph.api import anonymize

    text = sys.stdin.read() if args.text == "-" else args.text
    fields = context_fields(args)
    result = anonymize(text, method=args.method, trace=args.trace, **fields)
    output = json.dumps(result, indent=2, ensure_ascii=False)
    print(output if args.json else result["anonymized"])  # noqa: T201
    return 0
