"""Command line: ``anonygraph run | review | anonymize | eval | report | ...``."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from anonygraph.attributes import UnknownAttributeError, resolve_attributes
from anonygraph.graphs import GRAPHS
from anonygraph.inputs import InputError
from anonygraph.models import ROLES, ModelSpecError, parse_spec, require_llama_cpp
from anonygraph.sql import DB_ERRORS
from anonygraph.state.context import SEARCH_MODES, SERVER_FIELDS, ModelContext
from anonygraph.store import RunLockedError
from anonygraph.training.cli import add_seal_parser

if TYPE_CHECKING:
    from anonygraph.runner import RunSummary


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
            if parse_spec(spec).backend in ("local", "llamacpp"):
                require_llama_cpp(parse_spec(spec).backend)
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


def context_fields(
    args: argparse.Namespace, schemas: Mapping[str, type] | None = None
) -> dict[str, Any]:
    """Collect the options that become the method's `Context`.

    Args:
        args: The parsed command line.
        schemas: Method -> `Context` class; default: every registered graph's.

    Raises:
        OptionError: naming the flag the method does not take or a bad value.

    """
    schemas = context_schemas() if schemas is None else schemas
    fields = parse_models(args.model or [])
    if args.attributes:
        try:
            fields["attributes"] = resolve_attributes(args.attributes.split(","))
        except UnknownAttributeError as exc:
            raise OptionError(f"--attributes: {exc}") from exc
    for name, option in method_options(schemas).items():
        value = getattr(args, name, None)
        if value is None:
            continue
        if args.method not in option.defaults:
            raise OptionError(
                f"{option.flags[-1]} is an option of {', '.join(option.defaults)}"
            )
        fields[name] = value
    for pair in args.set or []:
        name, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"--set {pair}: expected FIELD=VALUE")
        fields[name.strip()] = coerce_option(args.method, name.strip(), value)
    check_minimum(fields)
    if args.method == "fgaa" and args.fixed_rounds:
        fields["stop_when_nothing_inferred"] = False
    return fields


def check_minimum(fields: Mapping[str, Any]) -> None:
    """Refuse a count below its `MINIMUM` (one check for a flag and its --set form).

    Raises:
        OptionError: naming the flag and the least value.
    """
    for name, least in MINIMUM.items():
        if name in fields and fields[name] < least:
            raise OptionError(
                f"--{name.replace('_', '-')} (or --set {name}) must be at least {least}"
            )


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


def add_common(
    parser: argparse.ArgumentParser, schemas: Mapping[str, type] | None = None
) -> None:
    """Add the options `run` and `anonymize` share, and every method's flags."""
    schemas = context_schemas() if schemas is None else schemas
    parser.add_argument(
        "--method", default="rlaa" if "rlaa" in schemas else next(iter(schemas)),
        choices=sorted(schemas),
    )  # fmt: skip
    parser.add_argument(
        "--model",
        action="append",
        metavar="ROLE=SPEC",
        help="model per role (attacker, arbitrator, anonymizer, ...) or default=SPEC; "
        "SPEC: local, llamacpp:PATH.gguf, ollama:NAME[@URL], openai:NAME[@URL], hf:ID",
    )
    parser.add_argument("--attributes", help="comma-separated attributes to protect")
    parser.add_argument(
        "--set",
        action="append",
        metavar="FIELD=VALUE",
        help="any field of the method's Context, e.g. --set min_length_ratio=0.3",
    )
    parser.add_argument(
        "--fixed-rounds",
        action="store_true",
        help="fgaa: always do T rounds, even when the attacker infers nothing",
    )
    add_method_options(parser, schemas)


# Method flags, generated from each method's `Context` -------------------------

FLAG_ALIASES: dict[str, tuple[str, ...]] = {
    "num_candidates": ("--candidates",),
    "max_verify_rounds": ("--verify-rounds",),
    "cache_mode": ("--cache",),
}
"""Shorter spellings that keep working next to a field's generated flag."""

DEDICATED = frozenset({"default_model", "models", "attributes", "cache_db"})
"""Fields with an option of their own (--model, --attributes) or set by the
command itself (cache_db, from --db)."""

MINIMUM = {
    "max_iterations": 1,
    "max_retries": 0,
    "max_chars": 1,
    "server_retries": 0,
    "server_backoff": 0,
    "server_max_backoff": 0,
    "request_timeout": 0.1,
    "endpoint_limit": 1,
}
"""Smallest sensible value of a count, checked for a flag and its --set form."""


@dataclasses.dataclass(frozen=True)
class MethodOption:
    """One flag generated from a `Context` field that one or more methods have."""

    name: str
    """The field name; also the argparse ``dest``."""
    kind: str
    """str, int, float, bool or list (comma-separated)."""
    description: str
    """The field's ``description`` metadata (of the first method that has it)."""
    choices: tuple[str, ...] | None
    """The field's ``choices`` metadata, if its values are a fixed set."""
    defaults: dict[str, Any]
    """Method -> the field's default there, in registry order."""

    @property
    def flags(self) -> list[str]:
        """Return the generated spelling, then any kept shorter ones."""
        return [f"--{self.name.replace('_', '-')}", *FLAG_ALIASES.get(self.name, ())]


def check_backends(method: str, fields: dict[str, Any]) -> None:
    """Fail once, before any record, when a role's backend is not installed.

    Raises:
        OptionError: naming the spec and what to install.

    """
    schema = context_schemas()[method]
    default = fields.get("default_model")
    if default is None:
        default = next(
            (
                f.default
                for f in dataclasses.fields(schema)
                if f.name == "default_model"
            ),
            "local",
        )
    for spec in {str(default), *fields.get("models", {}).values()}:
        try:
            backend = parse_spec(spec).backend
            if backend in ("local", "llamacpp"):
                require_llama_cpp(backend)
        except ModelSpecError as exc:
            raise OptionError(f"model {spec!r} of {method}: {exc}") from exc


def context_schemas() -> dict[str, type]:
    """Return each registered method's `Context` class, in registry order."""
    return {method: build().context_schema for method, build in GRAPHS.items()}


def _field_kind(f: dataclasses.Field[Any]) -> str | None:
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
    default = _field_default(f)
    if f.name in DEDICATED or kind.startswith("dict"):
        return None
    if kind.startswith("list"):
        return "list"
    if kind == "str" and "{" in str(default):
        return None  # a prompt template: too long for a flag, use --set
    return kind if kind in ("str", "int", "float", "bool") else None


def _field_default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def method_options(schemas: Mapping[str, type]) -> dict[str, MethodOption]:
    """Collect one flag per plain `Context` field over every method's schema.

    Raises:
        TypeError: if a schema is not a dataclass.

    """
    options: dict[str, MethodOption] = {}
    for method, schema in schemas.items():
        for f in dataclasses.fields(schema):
            kind = _field_kind(f)
            if kind is None:
                continue
            if f.name not in options:
                options[f.name] = MethodOption(
                    name=f.name,
                    kind=kind,
                    description=str(f.metadata.get("description", "")),
                    choices=tuple(f.metadata["choices"])
                    if "choices" in f.metadata
                    else None,
                    defaults={},
                )
            options[f.name].defaults[method] = _field_default(f)
    return options


def add_method_options(
    parser: argparse.ArgumentParser, schemas: Mapping[str, type]
) -> None:
    """Add a flag per `Context` field, grouped by the first method that has it.

    Flags every method takes come first; then one group per method, whose
    description names the flags it shares with methods listed before it.
    """
    options = method_options(schemas)
    everyone = [o for o in options.values() if len(o.defaults) == len(schemas)]
    common = parser.add_argument_group("options of every method")
    for option in everyone:
        _add_flag(common, option)
    for method, schema in schemas.items():
        own = [
            o
            for o in options.values()
            if o not in everyone and next(iter(o.defaults)) == method
        ]
        shared = [
            o.flags[0]
            for o in options.values()
            if o not in everyone and method in o.defaults and o not in own
        ]
        doc = (schema.__doc__ or "").strip().splitlines()[0]
        if shared:
            doc += f" Also takes {', '.join(shared)} (above)."
        group = parser.add_argument_group(f"--method {method}", doc)
        for option in own:
            _add_flag(group, option)


def _add_flag(group: Any, option: MethodOption) -> None:
    kwargs: dict[str, Any] = {"dest": option.name, "default": None}
    if option.kind == "bool":
        kwargs["action"] = argparse.BooleanOptionalAction
    elif option.kind == "list":
        kwargs.update(type=_comma_list, metavar="A,B")
    elif option.kind in ("int", "float"):
        kwargs["type"] = int if option.kind == "int" else float
        kwargs["metavar"] = "N" if option.kind == "int" else "X"
    if option.choices:
        kwargs["choices"] = option.choices
    help_text = f"{option.description} {_defaults_text(option)}".strip()
    group.add_argument(*option.flags, help=help_text.replace("%", "%%"), **kwargs)


def _comma_list(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def _defaults_text(option: MethodOption) -> str:
    by_value: dict[str, list[str]] = {}
    for method, value in option.defaults.items():
        shown = ",".join(value) if isinstance(value, list) else str(value)
        if len(shown) > 40:
            shown = shown[:37].rstrip() + "..."
        by_value.setdefault(shown or "empty", []).append(method)
    (first, _), *others = sorted(by_value.items(), key=lambda kv: -len(kv[1]))
    text = f"Default: {first}"
    for value, methods in others:
        text += f"; {', '.join(methods)}: {value}"
    return text if text.endswith(".") else text + "."


DB_HELP = (
    "run store: a SQLite file (0600), or postgresql://USER@HOST:PORT/DB for a "
    "run shared by workers on several machines (default: $ANONYGRAPH_DB, else "
    "runs.sqlite)"
)


def default_db() -> str:
    """The store every command uses unless --db names one (backend chosen here)."""
    return os.environ.get("ANONYGRAPH_DB") or "runs.sqlite"


def add_shared_run_parsers(sub: Any) -> None:
    """Add worker, status and export: the commands of runs shared over Postgres."""
    worker = sub.add_parser(
        "worker", help="work records of shared runs (Postgres store), on any machine"
    )
    worker.add_argument("--db", default=default_db(), help=DB_HELP)
    worker.add_argument("--run", help="only this run (default: any run's records)")
    worker.add_argument("--concurrency", type=int, default=1, help="records at once")
    worker.add_argument("--no-progress", action="store_true")
    status = sub.add_parser("status", help="a run's records per worker")
    status.add_argument("--db", default=default_db(), help=DB_HELP)
    status.add_argument("--run", required=True, help="run id")
    export = sub.add_parser("export", help="write a run's output JSONL from the store")
    export.add_argument("--db", default=default_db(), help=DB_HELP)
    export.add_argument("--run", required=True, help="run id")
    export.add_argument("--output", required=True, help="JSONL file to write")
    export.add_argument(
        "--force", action="store_true", help="replace a file another run wrote"
    )


def _shared_run_command(args: argparse.Namespace) -> int:
    from anonygraph import workers
    from anonygraph.store import RunStore

    if args.command == "worker":
        if args.concurrency < 1:
            raise OptionError("--concurrency must be at least 1")
        options = workers.WorkerOptions(
            db=args.db,
            run_id=args.run,
            concurrency=args.concurrency,
            progress=not args.no_progress,
        )
        summary = asyncio.run(workers.run_worker(options))
        print(summary.report(), file=sys.stderr)  # noqa: T201
        return 0 if not summary.failed else 1
    _check_store(args.db)
    db = RunStore(args.db)
    if args.command == "status":
        print(workers.render_status(db, args.run))  # noqa: T201
        return 0
    count = workers.export(db, args.run, args.output, force=args.force)
    print(f"{args.output}: {count} records of run {args.run}")  # noqa: T201
    return 0


def _check_store(location: str) -> None:
    from anonygraph.sql import is_postgres

    if not is_postgres(location) and not Path(location).is_file():
        raise OptionError(f"--db {location}: no such run store; check the path")


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser."""
    parser = argparse.ArgumentParser(prog="anonygraph", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="anonymize a JSONL file, resumably")
    add_common(run)
    run.add_argument("--input", required=True, help="JSONL: id, text or comments")
    run.add_argument("--output", required=True, help="JSONL written as records finish")
    run.add_argument("--db", default=default_db(), help=DB_HELP)
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

    review = sub.add_parser(
        "review",
        help="answer a --review run's pending reviews and resume its records",
        description="Walk the records a --review run left waiting: show the diff "
        "so far and the proposal, read a key (a: approve, e: edit, r: reject, k: "
        "skip, q: quit) and, to edit, one line of changes from standard input.",
    )
    review.add_argument("--run", required=True, help="run id (printed by `run`)")
    review.add_argument("--db", default="runs.sqlite", help="run store")

    one = sub.add_parser("anonymize", help="anonymize one text and print it")
    add_common(one)
    one.add_argument("text", help="the text ('-' reads standard input)")
    one.add_argument("--json", action="store_true", help="print the whole result")

    ev = sub.add_parser("eval", help="score a finished run for privacy and utility")
    ev.add_argument("--run", required=True, help="run id (printed by `run`)")
    ev.add_argument("--db", default=default_db(), help=DB_HELP)
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
        "--search-mode", choices=SEARCH_MODES, default="auto",
        help="auto: native tool calls where the attacker's backend has them "
        "(openai, ollama), else structured steps",
    )  # fmt: skip
    ev.add_argument(
        "--allow-web", action="store_true",
        help="opt in to sending search queries off this machine",
    )  # fmt: skip
    ev.add_argument("--concurrency", type=int, default=1)
    ev.add_argument("--no-progress", action="store_true")
    servers = ev.add_argument_group("model servers")
    options = method_options({"eval": ModelContext})
    for name in SERVER_FIELDS:
        _add_flag(servers, options[name])

    rep = sub.add_parser("report", help="tables and plots over evaluated runs")
    rep.add_argument("--db", default=default_db(), help=DB_HELP)
    rep.add_argument("--run", action="append", help="runs to include (default: all)")
    rep.add_argument("--out", default="report", help="folder for report.md/csv/png")

    show = sub.add_parser("show", help="review a run's records: diff, guesses, cost")
    show.add_argument("--db", default=default_db(), help=DB_HELP)
    show.add_argument("--run", required=True, help="run id")
    show.add_argument("--id", help="one record (default: every record)")
    show.add_argument(
        "--color", choices=["auto", "always", "never"], default="auto",
        help="mark removed words red and inserted green",
    )  # fmt: skip

    pii = sub.add_parser("pii", help="the regex PII scanner of dp-embed")
    pii.add_argument("text", nargs="?", help="text to redact")
    pii.add_argument("--list-rules", action="store_true", help="list the rules")

    add_seal_parser(sub)

    sub.add_parser("methods", help="list the methods")

    match = sub.add_parser("match", help="judge one guess against a label, with why")
    match.add_argument("--truth", required=True, help="the true value")
    match.add_argument("--guess", required=True, help="the guess to judge")
    match.add_argument("--attribute", required=True, help="e.g. occupation, pobp")

    add_shared_run_parsers(sub)

    purge = sub.add_parser("purge", help="delete a run's intermediates and checkpoints")
    purge.add_argument("--db", default=default_db(), help=DB_HELP)
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
    except (OSError, *DB_ERRORS) as exc:  # type: ignore[misc]
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

        _check_store(args.db)
        files = write_report(args.db, args.out, args.run)
        print("\n".join(f"{k}: {v}" for k, v in files.items()))  # noqa: T201
        return 0
    if args.command == "show":
        return _show(args)
    if args.command == "review":
        return _review(args)
    if args.command == "pii":
        return _pii(args)
    if args.command == "match":
        return _match(args)
    if args.command == "purge":
        return _purge(args.db, args.run)
    if args.command in ("worker", "status", "export"):
        return _shared_run_command(args)
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
    fields = context_fields(args)
    check_backends(args.method, fields)
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

    0: every record anonymized; 1: a record failed or an input line was bad;
    3: all ran, but some text is partly anonymized, unchanged, not checked or
    waiting for a review (2 is argparse's code for a bad command line).
    """
    if summary.failed or summary.bad_lines:
        return 1
    if summary.waiting:
        return WAITING_EXIT
    return 0 if summary.all_anonymized() else WAITING_EXIT


WAITING_EXIT = 3
"""Exit code of `run` and `review` when records wait for a review or are not
(all) anonymized."""


def _review(args: argparse.Namespace) -> int:
    from anonygraph.pending_reviews import review_run

    if not Path(args.db).is_file():
        raise OptionError(f"--db {args.db}: no such run store; check the path")

    def ask(prompt: str) -> str | None:
        print(prompt, end="", flush=True)  # noqa: T201
        line = sys.stdin.readline()
        return line.rstrip("\n") if line else None

    def say(line: str) -> None:
        print(line, flush=True)  # noqa: T201

    summary = asyncio.run(review_run(args.db, args.run, ask, say))
    print(summary.report(), file=sys.stderr)  # noqa: T201
    if summary.failed:
        return 1
    return WAITING_EXIT if summary.waiting else 0


def _eval(args: argparse.Namespace) -> int:
    from anonygraph.evaluation import EvalOptions, evaluate_run

    fields = parse_models(args.model or [])
    fields.update(judge=not args.no_judge, validator=args.validator)
    fields.update(semantic=args.semantic)
    for name in SERVER_FIELDS:
        if getattr(args, name, None) is not None:
            fields[name] = getattr(args, name)
    check_minimum(fields)
    if args.search:
        fields.update(
            search_backend=args.search,
            search_index=args.search_index or f"{args.db}.search-index",
            search_corpus=args.search_corpus,
            allow_web=args.allow_web,
            search_mode=args.search_mode,
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


def _show(args: argparse.Namespace) -> int:
    import os

    from anonygraph.review import record_reviews, render_review
    from anonygraph.store import RunStore

    color = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    )
    reviews = record_reviews(RunStore(args.db), args.run, args.id)
    print("\n".join(render_review(r, color=color) for r in reviews))  # noqa: T201
    return 0


def _pii(args: argparse.Namespace) -> int:
    from anonygraph.tools import pii

    if args.list_rules or not args.text:
        for rule in pii.list_rules():
            print("\t".join(str(v) for v in rule.values()))  # noqa: T201
        return 0
    print(pii.redact(args.text, pii.scan(args.text)))  # noqa: T201
    return 0


def _purge(db_path: str, run_id: str) -> int:
    from anonygraph.store import RunStore, purge_checkpoints

    _check_store(db_path)
    db = RunStore(db_path)
    if db.get_run(run_id) is None:
        raise OptionError(f"--run {run_id}: no such run in {db_path}")
    db.purge_intermediates(run_id)
    purge_checkpoints(db_path, run_id)
    return 0


def _match(args: argparse.Namespace) -> int:
    """Print the rule verdict on one guess and its reason, for checking a score."""
    from anonygraph.tools.matching import match_guess

    attribute = resolve_attributes([args.attribute])[0]
    verdict = match_guess(attribute, args.truth, args.guess)
    print(f"{verdict.outcome} ({verdict.decided_by}): {verdict.reason}")  # noqa: T201
    return 0


def run(argv: list[str] | None = None) -> NoReturn:
    """The ``anonygraph`` command: `main`, then exit without a last cycle sweep.

    By the time `main` returns everything is written and closed. Python's exit
    would still search every object for reference cycles while it unloads the
    modules, about half a second with LangGraph loaded (measured on a 2-core
    box): a cost each worker process of a shared run pays. Frozen objects are
    skipped by that search, and the operating system frees the memory anyway.
    """
    code = main(argv)
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
