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
    """Print the anonymized text, or with --json the whole output state.

    Exits as ``run`` does for a batch of this one record (`run_exit_code`):
    0 anonymized, 3 when the text is partly anonymized, unchanged or not
    checked (with a line on stderr saying so), 1 when it failed.
    """
    from anonygraph.api import aanonymize
    from anonygraph.cli.commands.run import run_exit_code
    from anonygraph.runs.summary import RunSummary, record_outcome

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
    result.pop("identifier_mapping", None)  # the originals never go out
    output = json.dumps(result, indent=2, ensure_ascii=False)
    print(output if args.json else result["anonymized"])  # noqa: T201
    outcome = record_outcome(result)
    one = RunSummary(run_id="", method=args.method, done=1, outcomes={outcome: 1})
    code = run_exit_code(one)
    if code or not args.quiet:
        # Quiet still says why the exit code is not 0.
        _say(result_line(result) + (f"; exit code {code}" if code else ""))
    return code


def result_line(result: dict[str, Any]) -> str:
    """Say in one line what happened: outcome, checker, identifiers, leaks."""
    from anonygraph.runs.summary import record_outcome

    outcome = record_outcome(result)
    if result.get("checked_by") and not result.get("leaks"):
        outcome += f" (checked by {result['checked_by']})"
    parts = [f"outcome: {outcome}"]
    if result.get("leaks"):
        parts[0] += f" (leaks left: {', '.join(result['leaks'])})"
    if result.get("identifiers"):
        kinds = ", ".join(f"{n} {k}" for k, n in result["identifiers"].items())
        parts.append(f"identifiers replaced before any model: {kinds}")
    return "; ".join(parts)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)  # noqa: T201
