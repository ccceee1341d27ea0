"""Command line: ``anonygraph run | anonymize | methods | purge``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import InputError
from anonygraph.models import ROLES, ModelSpecError, parse_spec
from anonygraph.seal_cli import add_seal_parser
from anonygraph.state.attributes import UnknownAttributeError, resolve_attributes
from anonygraph.store import RunLockedError


class OptionError(ValueError):
    """A command-line option with a value anonygraph cannot use."""


def parse_models(pairs: list[str]) -> dict[str, Any]:
    """Turn ``ROLE=SPEC`` pairs into context fields; ``default=SPEC`` sets all roles.

    Raises:
        OptionError: naming the pair that is malformed, the role or the spec.

    """
    fields: dict[str, Any] = {}
    models: dict[str, str] = {}
    for pair in pairs:
        role, sep, spec = pair.partition("=")
        if not sep:
            role, spec = "default", pair
        role = role.strip()
        try:
            parse_spec(spec)
        except ModelSpecError as exc:
            raise OptionError(f"--model {pair}: {exc}") from exc
        if role in ("default", "all"):
            fields["default_model"] = spec
        elif role in ROLES:
            models[role] = spec
        else:
            raise OptionError(
                f"--model {pair}: unknown role {role!r}; "
                f"roles: default, {', '.join(ROLES)}"
            )
    if models:
        fields["models"] = models
    return fields


def context_fields(args: argparse.Namespace) -> dict[str, Any]:
    """Collect the options that become the method's `Context`."""
    fields = parse_models(args.model or [])
    if args.attributes:
        try:
            fields["attributes"] = resolve_attributes(args.attributes.split(","))
        except UnknownAttributeError as exc:
            raise OptionError(f"--attributes: {exc}") from exc
    for name in ("max_iterations", "max_retries", "max_chars"):
        if getattr(args, name) is not None:
            fields[name] = getattr(args, name)
    if args.cache:
        fields["cache_mode"] = args.cache
    for pair in args.set or []:
        name, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"--set {pair}: expected FIELD=VALUE")
        fields[name.strip()] = coerce_option(args.method, name.strip(), value)
    # One check for a flag and its --set form.
    for name, least in (("max_iterations", 1), ("max_retries", 0), ("max_chars", 1)):
        if name in fields and fields[name] < least:
            raise OptionError(
                f"--{name.replace('_', '-')} (or --set {name}) must be at least {least}"
            )
    if args.method == "fgaa" and args.fixed_rounds:
        fields["stop_when_nothing_inferred"] = False
    method_flags = {
        "exposure_table": ("intentanony", args.exposure_table),
        "privacy_level": ("intentanony", args.privacy_level),
        "verify": ("intentanony", args.verify or None),
        "max_verify_rounds": ("intentanony", args.verify_rounds),
        "variant": ("aura", args.variant),
        "num_candidates": ("aura", args.candidates),
        "mask_rounds": ("aura", args.mask_rounds),
    }
    flag_names = {"num_candidates": "candidates", "max_verify_rounds": "verify_rounds"}
    for name, (method, value) in method_flags.items():
        if value is None:
            continue
        if args.method != method:
            flag = flag_names.get(name, name).replace("_", "-")
            raise OptionError(f"--{flag} is an option of {method}")
        fields[name] = value
    return fields


def coerce_option(method: str, name: str, value: str) -> Any:
    """Convert a ``--set`` value to the type of the method's `Context` field.

    Raises:
        OptionError: naming the field when the method has none such, or the
            value does not convert.
    """
    context_type = GRAPHS[method]().context_schema
    fields = getattr(context_type, "__dataclass_fields__", {})
    if name not in fields:
        raise OptionError(
            f"--set {name}: method {method!r} has no option {name!r}; "
            f"options: {', '.join(sorted(fields))}"
        )
    kind = str(fields[name].type)
    try:
        if kind.startswith(("dict", "list")) and value.lstrip().startswith(("{", "[")):
            return json.loads(value)
        if kind.startswith("list"):
            return [v.strip() for v in value.split(",") if v.strip()]
        if kind == "bool":
            return value.strip().lower() in ("1", "true", "yes", "on")
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
    except ValueError as exc:
        raise OptionError(f"--set {name}={value}: expected {kind}") from exc
    return value


def add_common(parser: argparse.ArgumentParser) -> None:
    """Add the options `run` and `anonymize` share."""
    parser.add_argument("--method", default="rlaa", choices=sorted(GRAPHS))
    parser.add_argument(
        "--model",
        action="append",
        metavar="ROLE=SPEC",
        help="model per role (attacker, arbitrator, anonymizer, ...) or default=SPEC; "
        "SPEC: local, llamacpp:PATH.gguf, ollama:NAME[@URL], openai:NAME[@URL], hf:ID",
    )
    parser.add_argument("--attributes", help="comma-separated attributes to protect")
    parser.add_argument(
        "--max-iterations", type=int, help="T, most rounds (default 10)"
    )
    parser.add_argument(
        "--max-retries", type=int, help="retries of an unparsable answer"
    )
    parser.add_argument("--max-chars", type=int, help="longest text accepted (20000)")
    parser.add_argument(
        "--cache", choices=["off", "deterministic", "all"], help="model-call cache"
    )
    parser.add_argument(
        "--set",
        action="append",
        metavar="FIELD=VALUE",
        help="any field of the method's Context, e.g. --set min_length_ratio=0.3",
    )
    parser.add_argument("--exposure-table", help="intentanony: exposure table JSON")
    parser.add_argument(
        "--privacy-level",
        choices=["L0", "L1", "L2", "L3", "BAN"],
        help="intentanony: one exposure level for every attribute",
    )
    parser.add_argument(
        "--verify", action="store_true", help="intentanony: re-attack, rewrite again"
    )
    parser.add_argument("--verify-rounds", type=int, help="intentanony: at most R")
    parser.add_argument(
        "--variant", choices=["adaptive", "8attr", "pure"], help="aura: privacy scope"
    )
    parser.add_argument("--candidates", type=int, help="aura: N candidate refills")
    parser.add_argument("--mask-rounds", type=int, help="aura: R_mask masking rounds")
    parser.add_argument(
        "--fixed-rounds",
        action="store_true",
        help="fgaa: always do T rounds, even when the attacker infers nothing",
    )


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser."""
    parser = argparse.ArgumentParser(prog="anonygraph", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="anonymize a JSONL file, resumably")
    add_common(run)
    run.add_argument("--input", required=True, help="JSONL: id, text or comments")
    run.add_argument("--output", required=True, help="JSONL written as records finish")
    run.add_argument("--db", default="runs.sqlite", help="run store (SQLite, 0600)")
    run.add_argument(
        "--format",
        default="jsonl",
        choices=["jsonl", "personalreddit", "profile", "synthpai", "auto"],
        help="input format: ours, or a shared data set's (labels are kept)",
    )
    run.add_argument("--concurrency", type=int, default=1, help="records at once")
    run.add_argument("--run-id", default="", help="name of the run (default: derived)")
    run.add_argument("--no-progress", action="store_true")
    run.add_argument(
        "--force",
        action="store_true",
        help="start the output file afresh even if another run wrote it",
    )

    one = sub.add_parser("anonymize", help="anonymize one text and print it")
    add_common(one)
    one.add_argument("text", help="the text ('-' reads standard input)")
    one.add_argument("--json", action="store_true", help="print the whole result")

    ev = sub.add_parser("eval", help="score a finished run for privacy and utility")
    ev.add_argument("--run", required=True, help="run id (printed by `run`)")
    ev.add_argument("--db", default="runs.sqlite")
    ev.add_argument(
        "--model", action="append", metavar="ROLE=SPEC",
        help="attacker, judge, validator models (default=SPEC for all)",
    )  # fmt: skip
    ev.add_argument("--per-iteration", action="store_true", help="score every round")
    ev.add_argument("--no-judge", action="store_true", help="skip the utility judge")
    ev.add_argument(
        "--validator", action="store_true", help="LLM for undecided guesses"
    )
    ev.add_argument("--semantic", action="store_true", help="MiniLM similarity too")
    ev.add_argument(
        "--search", choices=["offline", "ddgs", "tavily"],
        help="let the attacker search (ddgs/tavily need --allow-web)",
    )  # fmt: skip
    ev.add_argument("--search-index", default="", help="offline: index file")
    ev.add_argument("--search-corpus", default="", help="offline: corpus to index")
    ev.add_argument(
        "--allow-web", action="store_true",
        help="opt in to sending search queries off this machine",
    )  # fmt: skip
    ev.add_argument("--concurrency", type=int, default=1)
    ev.add_argument("--no-progress", action="store_true")

    rep = sub.add_parser("report", help="tables and plots over evaluated runs")
    rep.add_argument("--db", default="runs.sqlite")
    rep.add_argument("--run", action="append", help="runs to include (default: all)")
    rep.add_argument("--out", default="report", help="folder for report.md/csv/png")

    pii = sub.add_parser("pii", help="the regex PII scanner of dp-embed")
    pii.add_argument("text", nargs="?", help="text to redact")
    pii.add_argument("--list-rules", action="store_true", help="list the rules")

    add_seal_parser(sub)

    sub.add_parser("methods", help="list the methods")

    purge = sub.add_parser("purge", help="delete a run's intermediates and checkpoints")
    purge.add_argument("--db", default="runs.sqlite")
    purge.add_argument("--run", required=True, help="run id")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``anonygraph`` command."""
    parser = build_parser()
    parser.add_argument(
        "--trace",
        action="store_true",
        help="send LangSmith traces (off otherwise, whatever the environment says)",
    )
    args = parser.parse_args(argv)
    from anonygraph.tracing import tracing_scope

    try:
        with tracing_scope(args.trace, process_wide=True):
            return _dispatch(args)
    except (OptionError, InputError, ModelSpecError, ValueError, RunLockedError) as exc:
        print(f"anonygraph {args.command}: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    except (OSError, sqlite3.Error) as exc:
        # A missing, read-only or full file or folder: one line, not a traceback.
        where = getattr(exc, "filename", None) or getattr(args, "db", "")
        print(  # noqa: T201
            f"anonygraph {args.command}: cannot use {where}: {exc}; check the "
            "path exists and is writable",
            file=sys.stderr,
        )
        return 2


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "seal":
        return int(args.seal_command(args))
    if args.command == "methods":
        print("\n".join(sorted(GRAPHS)))  # noqa: T201
        return 0
    if args.command == "eval":
        return _eval(args)
    if args.command == "report":
        from anonygraph.report import write_report

        if not Path(args.db).is_file():
            raise OptionError(f"--db {args.db}: no such run store; check the path")
        files = write_report(args.db, args.out, args.run)
        print("\n".join(f"{k}: {v}" for k, v in files.items()))  # noqa: T201
        return 0
    if args.command == "pii":
        return _pii(args)
    if args.command == "purge":
        return _purge(args.db, args.run)
    if args.command == "anonymize":
        from anonygraph.api import anonymize

        text = sys.stdin.read() if args.text == "-" else args.text
        fields = context_fields(args)
        result = anonymize(text, method=args.method, trace=args.trace, **fields)
        output = json.dumps(result, indent=2, ensure_ascii=False)
        print(output if args.json else result["anonymized"])  # noqa: T201
        return 0
    from anonygraph.runner import RunOptions, run_batch

    if args.concurrency < 1:
        raise OptionError("--concurrency must be at least 1")
    options = RunOptions(
        method=args.method,
        input=args.input,
        output=args.output,
        db=args.db,
        context=context_fields(args),
        concurrency=args.concurrency,
        format=args.format,
        run_id=args.run_id,
        progress=not args.no_progress,
        force=args.force,
        trace=args.trace,
    )
    summary = asyncio.run(run_batch(options))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    return 0 if not summary.failed and not summary.bad_lines else 1


def _eval(args: argparse.Namespace) -> int:
    from anonygraph.evaluation import EvalOptions, evaluate_run

    fields = parse_models(args.model or [])
    fields.update(judge=not args.no_judge, validator=args.validator)
    fields.update(semantic=args.semantic)
    if args.search:
        fields.update(
            search_backend=args.search,
            search_index=args.search_index or f"{args.db}.search-index",
            search_corpus=args.search_corpus,
            allow_web=args.allow_web,
        )
    options = EvalOptions(
        run_id=args.run,
        db=args.db,
        context=fields,
        per_iteration=args.per_iteration,
        concurrency=args.concurrency,
        progress=not args.no_progress,
        trace=args.trace,
    )
    summary = asyncio.run(evaluate_run(options))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    return 0 if not summary.failed else 1


def _pii(args: argparse.Namespace) -> int:
    from anonygraph.tools import pii

    if args.list_rules or not args.text:
        for rule in pii.list_rules():
            print("\t".join(str(v) for v in rule.values()))  # noqa: T201
        return 0
    print(pii.redact(args.text, pii.scan(args.text)))  # noqa: T201
    return 0


def _purge(db_path: str, run_id: str) -> int:
    from anonygraph.store import RunStore, checkpoint_path

    if not Path(db_path).is_file():
        raise OptionError(f"--db {db_path}: no such run store; check the path")
    db = RunStore(db_path)
    if db.get_run(run_id) is None:
        raise OptionError(f"--run {run_id}: no such run in {db_path}")
    db.purge_intermediates(run_id)
    checkpoints = checkpoint_path(db_path)
    if checkpoints.exists():
        conn = sqlite3.connect(checkpoints)
        with conn:
            for table in ("checkpoints", "writes"):
                # A prefix compare, not LIKE: a run id may hold % or _.
                prefix = f"{run_id}:"
                conn.execute(
                    f"delete from {table} where substr(thread_id, 1, ?) = ?",
                    [len(prefix), prefix],
                )
        conn.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
