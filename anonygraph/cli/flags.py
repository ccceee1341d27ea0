"""Flags generated from the `Context` fields they set, and options commands share.

A method's `Context` field becomes a flag (``max_iterations`` -> ``--max-iterations``)
with its description and default as help and its ``choices`` metadata as the
argparse choices, so adding a field to a `Context` adds its flag everywhere
that `Context` is run from: ``run`` and ``anonymize`` (every method's
`Context`) and ``eval`` (`EvalContext`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# Light modules only: a command's parser is built before anything runs.
from anonygraph.state.contexts import context_classes
from anonygraph.state.profile import Spelling


class OptionError(ValueError):
    """A command-line option with a value anonygraph cannot use."""


FLAG_ALIASES: dict[str, tuple[str, ...]] = {
    "num_candidates": ("--candidates",),
    "max_verify_rounds": ("--verify-rounds",),
    "cache_mode": ("--cache",),
    "search_backend": ("--search",),
}
"""Shorter spellings that keep working next to a field's generated flag."""

DEDICATED = frozenset({"default_model", "models", "attributes"})
"""Fields with an option of their own (--model, --attributes)."""

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

MODEL_HELP = (
    "model per role (attacker, arbitrator, anonymizer, ...) or default=SPEC; "
    "SPEC: rules, local, llamacpp:PATH.gguf, ollama:NAME[@URL], openai:NAME[@URL], "
    "hf:ID. local is the embedded 135M model, for trying the pipeline: minutes "
    "per text on 2 cores, most of its rewrites refused by the acceptance checks; "
    "intentanony, aura and seal need a capable model named "
    "(e.g. default=ollama:qwen2.5:7b)"
)

DB_HELP = (
    "run store: a SQLite file (0600), or postgresql://USER@HOST:PORT/DB, which "
    "every node of a Ray cluster reaches (default: $ANONYGRAPH_DB, else "
    "runs.sqlite)"
)


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


# The store every command reads or writes ------------------------------------


def default_db() -> str:
    """The store every command uses unless --db names one (backend chosen here)."""
    return os.environ.get("ANONYGRAPH_DB") or "runs.sqlite"


def add_db(parser: argparse.ArgumentParser) -> None:
    """Add ``--db``, the run store, defaulting to $ANONYGRAPH_DB or runs.sqlite."""
    parser.add_argument("--db", default=default_db(), help=DB_HELP)


def check_store(location: str) -> None:
    """Refuse a SQLite store that does not exist (a command that only reads it).

    Raises:
        OptionError: naming the path.
    """
    from anonygraph.runs.store.sql import is_postgres

    if not is_postgres(location) and not Path(location).is_file():
        raise OptionError(f"--db {location}: no such run store; check the path")


# The engine: this process, or a Ray cluster ------------------------------------


def add_engine(parser: argparse.ArgumentParser) -> None:
    """Add ``--engine`` and a flag per `RayOptions` field that names one."""
    from anonygraph.runs.engines.ray_connect import RayOptions
    from anonygraph.runs.options import ENGINES

    group = parser.add_argument_group(
        "engine", "where the records run: this process, or the workers of a Ray "
        "cluster (pip install 'anonygraph[ray]')",
    )  # fmt: skip
    group.add_argument(
        "--engine",
        choices=ENGINES,
        default="local",
        help="local: this process; ray: Ray workers (flags below). Default: local.",
    )
    for f in dataclasses.fields(RayOptions):
        if "flag" not in f.metadata:
            continue
        kind = str(f.type).split(" | ")[0]
        convert = {"int": int, "float": float}.get(kind, str)
        metavar = {"int": "N", "float": "X"}.get(kind, "ADDR")
        group.add_argument(
            f.metadata["flag"],
            dest=f"ray_{f.name}",
            type=convert,
            default=None,
            metavar=metavar,
            help=f"--engine ray: {f.metadata['description']}. "
            f"Default: {f.default if f.default is not None else 'none'}.",
        )


def engine_options(args: argparse.Namespace) -> tuple[str, Any]:
    """Return the engine and its `RayOptions` from the flags of `add_engine`.

    Raises:
        OptionError: for a Ray flag without ``--engine ray``, or a value Ray
            cannot take.
    """
    from anonygraph.runs.engines.ray_connect import (
        RayEngineError,
        RayOptions,
        check_engine_options,
    )

    flags = {
        f.name: f.metadata["flag"]
        for f in dataclasses.fields(RayOptions)
        if "flag" in f.metadata
    }
    given = {
        name: getattr(args, f"ray_{name}")
        for name in flags
        if getattr(args, f"ray_{name}", None) is not None
    }
    if args.engine != "ray" and given:
        named = ", ".join(flags[name] for name in given)
        raise OptionError(f"{named}: an option of --engine ray; add --engine ray")
    ray = RayOptions(**given)
    try:
        check_engine_options(ray)
    except RayEngineError as exc:
        raise OptionError(str(exc)) from exc
    return args.engine, ray


# Models -----------------------------------------------------------------------


def add_model(parser: argparse.ArgumentParser, help_text: str = MODEL_HELP) -> None:
    """Add ``--model ROLE=SPEC`` (repeatable)."""
    parser.add_argument("--model", action="append", metavar="ROLE=SPEC", help=help_text)


def parse_models(pairs: list[str]) -> dict[str, Any]:
    """Turn ``ROLE=SPEC`` pairs into context fields; ``default=SPEC`` sets all roles.

    Raises:
        OptionError: naming the pair that is malformed, the role or the spec.

    """
    from anonygraph.llm import ROLES, ModelSpecError, check_installed

    fields: dict[str, Any] = {}
    models: dict[str, str] = {}
    for pair in pairs:
        role, sep, spec = pair.partition("=")
        if not sep:
            role, spec = "default", pair
        role = role.strip()
        try:
            check_installed(spec)
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


def check_backends(method: str, fields: dict[str, Any]) -> None:
    """Fail once, before any record, when a role's backend is not installed.

    Raises:
        OptionError: naming the spec and what to install.

    """
    from anonygraph.llm import ModelSpecError, check_installed

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
            check_installed(spec)
        except ModelSpecError as exc:
            raise OptionError(f"model {spec!r} of {method}: {exc}") from exc


# Context fields -> flags ------------------------------------------------------


def context_schemas() -> dict[str, type]:
    """Return each registered method's `Context` class, in registry order."""
    return context_classes()


def add_common(
    parser: argparse.ArgumentParser, schemas: Mapping[str, type] | None = None
) -> None:
    """Add the options `run` and `anonymize` share, and every method's flags."""
    schemas = context_schemas() if schemas is None else schemas
    parser.add_argument(
        "--method", default="rlaa" if "rlaa" in schemas else next(iter(schemas)),
        choices=sorted(schemas),
    )  # fmt: skip
    add_model(parser)
    parser.add_argument("--attributes", help="comma-separated attributes to protect")
    add_set(
        parser, "any field of the method's Context, e.g. --set min_length_ratio=0.3"
    )
    parser.add_argument(
        "--fixed-rounds",
        action="store_true",
        help="fgaa: always do T rounds, even when the attacker infers nothing",
    )
    add_method_options(parser, schemas)


def add_set(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Add ``--set FIELD=VALUE`` (repeatable): any field, prompt templates too."""
    parser.add_argument("--set", action="append", metavar="FIELD=VALUE", help=help_text)


def context_fields(
    args: argparse.Namespace, schemas: Mapping[str, type] | None = None
) -> dict[str, Any]:
    """Collect the options that become the method's `Context`.

    Args:
        args: The parsed command line; ``args.method`` names the schema (a
            command with one schema, such as ``eval``, has no ``--method``).
        schemas: Method -> `Context` class; default: every registered graph's.

    Raises:
        OptionError: naming the flag the method does not take or a bad value.

    """
    from anonygraph.attributes import UnknownAttributeError, resolve_attributes

    schemas = context_schemas() if schemas is None else schemas
    method = getattr(args, "method", None) or next(iter(schemas))
    fields = parse_models(getattr(args, "model", None) or [])
    if getattr(args, "attributes", None):
        try:
            fields["attributes"] = resolve_attributes(args.attributes.split(","))
        except UnknownAttributeError as exc:
            raise OptionError(f"--attributes: {exc}") from exc
    for name, option in method_options(schemas).items():
        value = getattr(args, name, None)
        if value is None:
            continue
        if method not in option.defaults:
            raise OptionError(
                f"{option.flags[-1]} is an option of {', '.join(option.defaults)}"
            )
        fields[name] = value
    for pair in getattr(args, "set", None) or []:
        name, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"--set {pair}: expected FIELD=VALUE")
        fields[name.strip()] = coerce_option(method, name.strip(), value, schemas)
    check_minimum(fields)
    check_capable_model(method, fields)
    if method == "fgaa" and getattr(args, "fixed_rounds", False):
        fields["stop_when_nothing_inferred"] = False
    check_profile(schemas[method], fields)
    return fields


def check_profile(
    schema: type, fields: Mapping[str, Any], spell: Spelling | None = None
) -> None:
    """Refuse, before any record, a given option the run's profile cannot honour.

    Raises:
        OptionError: one line naming the option, the profile and what to do.
    """
    profile = fields.get("profile") or os.environ.get("ANONYGRAPH_PROFILE")
    conflict = getattr(schema, "paper_conflict", None)
    if profile != "paper" or conflict is None:
        return
    error = conflict(fields)
    if error is not None:
        raise OptionError(error.spelled(spell or flag_spelling))


def flag_spelling(name: str, value: Any, role: str) -> str:
    """Spell a field and value as the command line gives them (`ProfileError`)."""
    if name == "default_model" or role:
        return f"--model {role or 'default'}={value}"
    flag = f"--{name.replace('_', '-')}"
    if isinstance(value, bool):
        return flag if value else f"--no-{flag[2:]}"
    shown = ",".join(value) if isinstance(value, list) else str(value)
    if "{" in shown or "\n" in shown or len(shown) > 60:
        return f"--set {name}=..."
    return f"{flag} {shown}"


NEEDS_A_MODEL: dict[str, str] = {
    "intentanony": "its intents, evidence chains and rewrite",
    "aura": "its probe, masks and refills",
    "seal": "its self-refinement (attack, judge, revise)",
}
"""Methods whose steps only a capable model can do, and what those steps are.

Their default role model is the embedded 135M model (`local`): it runs
for minutes per text on 2 cores and ends with the text unchanged or worse,
so these methods refuse to start on it unless a model is named (``eval``
too: `require_model`)."""

EXAMPLE_MODEL = "--model default=ollama:qwen2.5:7b"
"""The example a refusal gives of naming a capable model."""


def check_capable_model(method: str, fields: Mapping[str, Any]) -> None:
    """Refuse a method that needs a capable model when none was named.

    ``--model local`` (or ``--set default_model=local``) names the embedded
    model on purpose, to try the pipeline: that is allowed.

    Raises:
        OptionError: one line naming the model option and an example.
    """
    if method in NEEDS_A_MODEL:
        require_model(f"--method {method}", NEEDS_A_MODEL[method], fields)


def require_model(who: str, steps: str, fields: Mapping[str, Any]) -> None:
    """Refuse ``who`` (a method, a command) when no model is named for ``steps``.

    A model is named by ``--model``, ``--set default_model=`` or
    ``ANONYGRAPH_DEFAULT_MODEL``; ``local`` among them is allowed.

    Raises:
        OptionError: one line naming the model option and an example.
    """
    named = (
        fields.get("default_model")
        or fields.get("models")
        or os.environ.get("ANONYGRAPH_DEFAULT_MODEL")
    )
    if named:
        return
    raise OptionError(
        f"{who} needs a capable model for {steps} and none was named (the "
        "default, the embedded 135M model, runs for minutes to no effect): name "
        f"one, e.g. {EXAMPLE_MODEL}, or --model local to try the pipeline anyway"
    )


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


def coerce_option(
    method: str, name: str, value: str, schemas: Mapping[str, type] | None = None
) -> Any:
    """Convert a ``--set`` value to the type of the method's `Context` field.

    Raises:
        OptionError: naming the field when the method has none such, or the
            value does not convert.
    """
    context_type = (schemas or {}).get(method) or context_schemas()[method]
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
        add_flag(common, option)
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
            add_flag(group, option)


def add_schema_options(
    parser: argparse.ArgumentParser, name: str, schema: type
) -> None:
    """Add a flag per field of one `Context` (a command with no ``--method``).

    The flags are grouped by the dataclass that declares the field (the
    schema itself, then its bases: models and servers, web search, ...), each
    group described by that class's docstring.
    """
    options = method_options({name: schema})
    owners: dict[type, list[MethodOption]] = {cls: [] for cls in schema.__mro__}
    for option in options.values():
        owner = next(
            cls for cls in schema.__mro__
            if option.name in cls.__dict__.get("__annotations__", {})
        )  # fmt: skip
        owners[owner].append(option)
    for owner, own in owners.items():
        if not own:
            continue
        doc = (owner.__doc__ or "").strip().splitlines()[0]
        group = parser.add_argument_group(f"{owner.__name__} fields", doc)
        for option in own:
            add_flag(group, option)


def add_flag(group: Any, option: MethodOption) -> None:
    """Add one generated flag: its type, choices, help and defaults per method."""
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
        if "" in option.choices:
            # An empty value (off) is a choice, but `{,a,b}` reads badly.
            kwargs["metavar"] = "{" + ",".join(filter(None, option.choices)) + "}"
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
