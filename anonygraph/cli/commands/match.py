"""``anonygraph match``: the evaluation rule's verdict on one guess, with its reason."""

from __future__ import annotations

import argparse
from typing import Any

from anonygraph.attributes import resolve_attributes
from anonygraph.cli.commands import COMMANDS


def add_parser(sub: Any) -> None:
    """Add ``match``: the label, the guess, the attribute."""
    parser = sub.add_parser("match", help=COMMANDS["match"])
    parser.add_argument("--truth", required=True, help="the true value")
    parser.add_argument("--guess", required=True, help="the guess to judge")
    parser.add_argument("--attribute", required=True, help="e.g. occupation, pobp")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Print the rule verdict on one guess and its reason, for checking a score."""
    from anonygraph.tools.matching import match_guess

    attribute = resolve_attributes([args.attribute])[0]
    verdict = match_guess(attribute, args.truth, args.guess)
    print(f"{verdict.outcome} ({verdict.decided_by}): {verdict.reason}")  # noqa: T201
    return 0
