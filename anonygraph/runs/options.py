"""What a batch run is asked to do: its options, context, input and output paths."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import (
    BadLine,
    InputError,
    check_input_path,
    check_text,
    read_records,
)
from anonygraph.runs.ray_connect import RayOptions
from anonygraph.state.context import SERVER_FIELDS, Context
from anonygraph.state.domain import Record


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
    engine: str = "local"
    """Who works the records: ``local`` (this process) or ``ray`` (Ray workers,
    set by `ray`)."""
    ray: RayOptions = field(default_factory=RayOptions)
    """The cluster and the workers of ``engine="ray"``; unused otherwise."""


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
    key = json.dumps(
        [
            options.method,
            str(Path(options.input).resolve()),
            str(Path(options.output).resolve()),
            {k: v for k, v in options.context.items() if k not in SERVER_FIELDS},
        ],
        sort_keys=True,
        default=str,
    )
    return f"{options.method}-{hashlib.sha256(key.encode()).hexdigest()[:10]}"


RETIRED_OPTIONS: dict[str, str] = {
    "cache_db": "a batch run caches model calls in its own store (--db); from "
    "Python, run the graph inside anonygraph.runs.recorder.calls_kept_in(STORE)",
}
"""Context fields that are gone, with what replaced them."""


def build_context(method: str, values: dict[str, Any]) -> Any:
    """Build the method's `Context`, rejecting unknown options by name.

    Raises:
        ValueError: naming the option the method does not take (and, for a
            retired one, what replaced it).

    """
    context_type = GRAPHS[method]().context_schema or Context
    known = set(context_type.__dataclass_fields__)
    unknown = sorted(set(values) - known)
    for name in unknown:
        if name in RETIRED_OPTIONS:
            raise ValueError(f"option {name!r} is gone: {RETIRED_OPTIONS[name]}")
    if unknown:
        raise ValueError(f"method {method!r} takes no option(s) {', '.join(unknown)}")
    return context_type(**values)


def load_input(path: str, format: str, max_chars: int) -> list[Record | BadLine]:
    """Read the input file as records and the lines that could not be used."""
    check_input_path(path)
    if format == "jsonl":
        return list(read_records(path, max_chars=max_chars))
    from anonygraph.runs.datasets import load_records

    loaded = load_records(path, format)  # type: ignore[arg-type]
    items: list[Record | BadLine] = [
        BadLine(e.line, None, e.message) for e in loaded.errors
    ]
    for record in loaded.records:
        try:
            check_text(record.text, max_chars)
        except InputError as exc:
            items.append(BadLine(0, record.id, str(exc)))
        else:
            items.append(record)
    return items


def check_output_path(input: str, output: str) -> None:
    """Refuse an output that is the input file (also through a link) or a folder.

    Raises:
        InputError: naming both paths.
    """
    if Path(output).exists() and not Path(output).is_file():
        raise InputError(f"--output {output}: not a file (a folder?); name a file")
    same = Path(input).resolve() == Path(output).resolve()
    if not same and Path(output).exists() and Path(input).exists():
        same = os.path.samefile(input, output)
    if same:
        raise InputError(
            f"--output {output} is the input file {input}; name another output file"
        )

