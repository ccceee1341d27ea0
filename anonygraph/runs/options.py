"""What a batch run is asked to do: its options, context, input and output paths."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.inputs import (
    BadLine,
    InputError,
    check_input_path,
    check_text,
    read_records,
)
from anonygraph.runs.engines.ray_connect import RayOptions
from anonygraph.runs.io.table_output import TableOptions
from anonygraph.runs.io.tables import read_table, table_format
from anonygraph.state.context import SERVER_FIELDS, Context
from anonygraph.state.domain import Record
from anonygraph.state.profile import from_given


@dataclass
class RunOptions:
    """Everything a batch run needs; the CLI fills it from flags."""

    method: str
    input: str
    output: str
    db: str = "runs.sqlite"
    context: dict[str, Any] = field(default_factory=dict)
    """Fields of the method's `Context` (models, max_iterations, ...)."""
    concurrency: int = 1
    format: str = "jsonl"
    """jsonl (ours), or a shared data set format: personalreddit, profile, synthpai."""
    run_id: str = ""
    progress: bool = True
    force: bool = False
    """Start the output file afresh even when another run wrote it."""
    trace: bool = False
    """Send LangSmith traces; off otherwise, whatever the environment says."""
    table: TableOptions = field(default_factory=TableOptions)
    """Columns, split and added column names, for an input that is a table."""
    engine: str = "local"
    """Who works the records: ``local`` (this process) or ``ray`` (Ray workers,
    set by `ray`)."""
    ray: RayOptions = field(default_factory=RayOptions)
    """The cluster and the workers of ``engine="ray"``; unused otherwise."""

    @property
    def is_table(self) -> bool:
        """Tell whether the input is a table (CSV, Parquet, a dataset folder)."""
        return is_table_input(self.input, self.format)

    @property
    def writes_table(self) -> bool:
        """Tell whether the output is a table (written whole at the end)."""
        return writes_table(self.input, self.output, self.format)


def is_table_input(path: str, format: str = "jsonl") -> bool:
    """Tell whether ``path`` read as ``format`` is a table rather than JSONL."""
    return format == "jsonl" and table_format(path) is not None


def writes_table(input: str, output: str, format: str = "jsonl") -> bool:
    """Tell whether a run writes a table: its input is one and ``output`` no .jsonl."""
    return is_table_input(input, format) and Path(output).suffix.lower() != ".jsonl"


ENGINES = ("local", "ray")
"""The engines a run or an evaluation can go on."""


def check_engine(engine: str) -> None:
    """Refuse an engine that is not one of `ENGINES`.

    Raises:
        ValueError: naming the engines.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: choose from {', '.join(ENGINES)}")


def derive_run_id(options: RunOptions) -> str:
    """Name a run after what defines it, so re-running a command resumes it."""
    parts: list[Any] = [
        options.method,
        str(Path(options.input).resolve()),
        str(Path(options.output).resolve()),
        {k: v for k, v in options.context.items() if k not in SERVER_FIELDS},
    ]
    if options.is_table:
        # Other columns or another split are another run (JSONL ids unchanged).
        parts.append(options.table.to_dict())
    key = json.dumps(
        parts,
        sort_keys=True,
        default=str,
    )
    return f"{options.method}-{hashlib.sha256(key.encode()).hexdigest()[:10]}"


TABLE_PARAM = "table"
"""Key of a table run's `TableOptions` in its stored params (not a Context field)."""


def run_params(options: RunOptions, context: Any) -> dict[str, Any]:
    """What the store keeps of a run's options: its context, and its table's."""
    params: dict[str, Any] = asdict(context)
    if options.is_table:
        params[TABLE_PARAM] = options.table.to_dict()
    return params


def stored_table(run: dict[str, Any]) -> TableOptions | None:
    """Return the table options a stored run was started with (None: JSONL)."""
    params = json.loads(run.get("params") or "{}")
    values = params.get(TABLE_PARAM)
    return TableOptions.from_dict(values) if isinstance(values, dict) else None


RETIRED_OPTIONS: dict[str, str] = {
    "cache_db": "a batch run caches model calls in its own store (--db); from "
    "Python, run the graph inside anonygraph.runs.store.recorder.calls_kept_in(STORE)",
}
"""Context fields that are gone, with what replaced them."""


def context_schema(method: str) -> Any:
    """Return the method's `Context` class (`Context` when its graph names none)."""
    # Imported here: reading an input (``anonygraph detect --input``) or the
    # engines (a command's flags) should not load every method's graph.
    from anonygraph.graphs import GRAPHS, REGISTERED
    from anonygraph.state.contexts import context_class

    builder = GRAPHS[method]
    if builder is REGISTERED.get(method):
        # Without building the graph: a Ray driver runs no record, and its
        # graph's import (LangGraph, Presidio, spaCy) costs seconds of CPU
        # the workers need.
        return context_class(method)
    return _schema_of(builder)


@functools.lru_cache(maxsize=64)
def _schema_of(builder: Any) -> Any:
    # Keyed by the builder, not the name: a registry entry replaced (a test,
    # a plugin) is looked up afresh. Building a graph takes ~10 ms.
    schema: Any = builder().context_schema or Context
    return schema


def build_context(method: str, values: dict[str, Any]) -> Any:
    """Build the method's `Context` from the options given, rejecting unknown ones.

    ``values`` are what the user gave: the profile fills only the other
    fields (`from_given`).

    Raises:
        ValueError: naming the option the method does not take (and, for a
            retired one, what replaced it).
        ProfileError: for a given value the run's profile cannot honour.

    """
    context_type = context_schema(method)
    known = set(context_type.__dataclass_fields__)
    unknown = sorted(set(values) - known)
    for name in unknown:
        if name in RETIRED_OPTIONS:
            raise ValueError(f"option {name!r} is gone: {RETIRED_OPTIONS[name]}")
    if unknown:
        raise ValueError(f"method {method!r} takes no option(s) {', '.join(unknown)}")
    return from_given(context_type, values)


def load_input(
    path: str, format: str, max_chars: int, table: TableOptions | None = None
) -> list[Record | BadLine]:
    """Read the input as records and the lines (or table rows) that could not be used.

    A .csv or .parquet file or a folder (read as ``jsonl``, the default) is a
    table, read with ``table``'s columns and split (`BadRow` for a bad row).
    """
    return list(iter_input(path, format, max_chars, table))


def iter_input(
    path: str, format: str, max_chars: int, table: TableOptions | None = None
) -> Iterator[Record | BadLine]:
    """Yield `load_input`'s items one at a time (JSONL and tables are streamed)."""
    if is_table_input(path, format):
        table = table or TableOptions()
        yield from read_table(
            path, table.columns, split=table.split, max_chars=max_chars
        )
        return
    check_input_path(path)
    if format == "jsonl":
        yield from read_records(path, max_chars=max_chars)
        return
    from anonygraph.runs.io.datasets import load_records

    loaded = load_records(path, format)  # type: ignore[arg-type]
    for e in loaded.errors:
        yield BadLine(e.line, None, e.message)
    for record in loaded.records:
        try:
            check_text(record.text, max_chars)
        except InputError as exc:
            yield BadLine(0, record.id, str(exc))
        else:
            yield record


def check_output_path(input: str, output: str) -> None:
    """Refuse an output that is the input file (also through a link) or a folder.

    Raises:
        InputError: naming both paths.
    """
    folder_ok = writes_table(input, output)  # a saved dataset is a folder
    if not folder_ok and Path(output).exists() and not Path(output).is_file():
        raise InputError(f"--output {output}: not a file (a folder?); name a file")
    same = Path(input).resolve() == Path(output).resolve()
    if not same and Path(output).exists() and Path(input).exists():
        same = os.path.samefile(input, output)
    if same:
        raise InputError(
            f"--output {output} is the input file {input}; name another output file"
        )
