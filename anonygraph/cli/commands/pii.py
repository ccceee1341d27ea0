"""``anonygraph pii``: the identifier detector on one text, or its recognizers."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.cli.commands import COMMANDS


def add_parser(sub: Any) -> None:
    """Add ``pii``: a text, or --list-rules."""
    parser = sub.add_parser("pii", help=COMMANDS["pii"])
    parser.add_argument("text", nargs="?", help="text to redact")
    parser.add_argument(
        "--list-rules", action="store_true", help="list the recognizers"
    )
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the text with its identifiers replaced, or one recognizer per line."""
    from anonygraph.tools.dp_embed import pii

    if args.list_rules or not args.text:
        for rule in pii.list_rules():
            print("\t".join(str(v) for v in rule.values()))  # noqa: T201
        return 0
    print(pii.redact(args.text, pii.scan(args.text)))  # noqa: T201
    return 0
