"""``anonygraph eval``: score a finished run for privacy and utility.

Every field of `EvalContext` is a flag, generated as ``run``'s are from the
methods' `Context` (``judge`` -> ``--judge/--no-judge``, ``search_backend``
-> ``--search-backend``, kept as ``--search`` too).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import (
    OptionError,
    add_db,
    add_engine,
    add_model,
    add_schema_options,
    add_set,
    context_fields,
    engine_options,
    require_model,
)
from anonygraph.state.evaluate import EvalContext

SCHEMAS: dict[str, type] = {"eval": EvalContext}
"""The one `Context` the evaluator runs with."""


def add_parser(sub: Any) -> None:
    """Add ``eval``: the run, the store, and a flag per `EvalContext` field."""
    parser = sub.add_parser("eval", help=COMMANDS["eval"])
    parser.add_argument("--run", required=True, help="run id (printed by `run`)")
    add_db(parser)
    add_model(parser, "attacker, judge, validator models (default=SPEC for all)")
    add_set(parser, "any field of EvalContext, e.g. --set judge_prompt=...")
    parser.add_argument(
        "--per-iteration", action="store_true", help="score every round"
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="texts at once (on each Ray worker with --engine ray)",
    )
    add_engine(parser)
    parser.add_argument("--no-progress", action="store_true")
    add_schema_options(parser, "eval", EvalContext)
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Score the run (resuming an evaluation with the same settings)."""
    from anonygraph.reporting.evaluation import EvalOptions, evaluate_run

    if args.concurrency < 1:
        raise OptionError("--concurrency must be at least 1")
    fields = eval_fields(args)
    # Before the run store is opened: the embedded default would take minutes
    # per text with nothing on screen.
    require_model("`eval`", "its attacker, judge and validator", fields)
    engine, ray = engine_options(args)
    options = EvalOptions(
        run_id=args.run,
        db=args.db,
        context=fields,
        per_iteration=args.per_iteration,
        concurrency=args.concurrency,
        progress=not args.no_progress,
        trace=args.trace,
        engine=engine,
        ray=ray,
    )
    summary = asyncio.run(evaluate_run(options))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    return 0 if not summary.failed else 1


def eval_fields(args: argparse.Namespace) -> dict[str, Any]:
    """Collect the `EvalContext` fields the flags set; a search index by the store.

    Raises:
        OptionError: for a bad model spec or a value below its minimum.
    """
    fields = context_fields(args, SCHEMAS)
    if fields.get("search_backend") and not fields.get("search_index"):
        fields["search_index"] = f"{args.db}.search-index"
    return fields
