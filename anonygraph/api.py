"""Python API: anonymize one text, a pandas DataFrame's rows or a file, any method."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import MAX_CHARS
from anonygraph.runs import collector
from anonygraph.runs.engines.progress import (
    SLOW_SECONDS,
    Say,
    invoke_with_progress,
    slow_model_note,
)
from anonygraph.runs.engines.records import graph_input
from anonygraph.runs.io.table_output import (
    OutputColumns,
    TableResult,
    check_free,
    graph_result,
    no_result,
)
from anonygraph.runs.io.tables import BadRow, TableColumns, check_names, rows_records
from anonygraph.runs.options import build_context
from anonygraph.runs.tracing import tracing_scope
from anonygraph.state.domain import Record

if TYPE_CHECKING:
    from anonygraph.runs.engines.ray_connect import RayOptions
    from anonygraph.runs.summary import RunSummary


def anonymize(
    text: str | list[str],
    method: str = "rlaa",
    models: dict[str, str] | None = None,
    *,
    trace: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """Anonymize ``text`` (or one author's comments) and return the graph's output.

    Args:
        text: the text, or a list of comments by one author.
        method: a key of `anonygraph.graphs.GRAPHS`.
        models: role -> model spec; the key ``default`` sets every other role.
        trace: send LangSmith traces; off otherwise, whatever the environment says.
        **options: fields of the method's `Context`, e.g. ``max_iterations=3``;
            not ``review`` (a paused graph needs a checkpointer, see
            `anonygraph.state.review`).

    Returns:
        The output state: ``anonymized``, ``status``, ``iterations``, ``calls``.

    """
    return asyncio.run(aanonymize(text, method, models, trace=trace, **options))


async def aanonymize(
    text: str | list[str],
    method: str = "rlaa",
    models: dict[str, str] | None = None,
    *,
    trace: bool = False,
    progress: Say | None = None,
    slow_seconds: float = SLOW_SECONDS,
    **options: Any,
) -> dict[str, Any]:
    """Async form of `anonymize`, for callers already inside an event loop.

    Args:
        text: as in `anonymize`.
        method: as in `anonymize`.
        models: as in `anonymize`.
        trace: as in `anonymize`.
        progress: called with a line per finished step (round, step, seconds),
            a note up front when a model runs in this process, and a warning
            when one answer of a role's model takes over ``slow_seconds``.
        slow_seconds: see ``progress``.
        **options: as in `anonymize`.
    """
    graph, context = compile_graph(method, models, options)
    payload = {"comments": text} if isinstance(text, list) else {"text": text}
    try:
        with tracing_scope(trace):
            if progress is None:
                result: dict[str, Any] = await graph.ainvoke(payload, context=context)
                return result
            if note := slow_model_note(context):
                progress(note)
            return await invoke_with_progress(
                graph, payload, context, progress, slow_seconds=slow_seconds
            )
    finally:
        collector.started()  # a command's start ends with its first text


def run_file(
    input: str,
    output: str,
    method: str = "rlaa",
    models: dict[str, str] | None = None,
    *,
    db: str = "runs.sqlite",
    concurrency: int = 1,
    engine: str = "local",
    ray: RayOptions | None = None,
    run_id: str = "",
    progress: bool = False,
    trace: bool = False,
    **options: Any,
) -> RunSummary:
    """Anonymize a JSONL file as ``anonygraph run`` does: resumable, in a store.

    Args:
        input: the JSONL file (``id``, ``text`` or ``comments``).
        output: the JSONL file written (each finished record once).
        method: a key of `anonygraph.graphs.GRAPHS`.
        models: role -> model spec; the key ``default`` sets every other role.
        db: the run store, a SQLite file or a ``postgresql://`` URL.
        concurrency: records at once (on each Ray worker with ``engine="ray"``).
        engine: ``local`` (this process) or ``ray`` (Ray workers).
        ray: the cluster and the workers for ``engine="ray"``
            (`anonygraph.runs.engines.ray_connect.RayOptions`; default: a local
            cluster with one worker).
        run_id: the run's name (default: derived, so a rerun resumes it).
        progress: show a progress bar on stderr.
        trace: send LangSmith traces; off otherwise.
        **options: fields of the method's `Context`, e.g. ``max_iterations=3``.

    Returns:
        The run's `RunSummary` (``report()`` renders it).
    """
    from anonygraph.runs.engines.batch import run_batch
    from anonygraph.runs.engines.ray_connect import RayOptions
    from anonygraph.runs.options import RunOptions

    run = RunOptions(
        method=method,
        input=input,
        output=output,
        db=db,
        context=_with_models(models, options),
        concurrency=concurrency,
        run_id=run_id,
        progress=progress,
        trace=trace,
        engine=engine,
        ray=ray or RayOptions(),
    )
    return asyncio.run(run_batch(run))


def _with_models(
    models: dict[str, str] | None, options: dict[str, Any]
) -> dict[str, Any]:
    """Merge ``models`` (``default`` sets every other role) into Context fields."""
    options = dict(options)
    roles = dict(models or {})
    if "default" in roles:
        options.setdefault("default_model", roles.pop("default"))
    if roles:
        options["models"] = roles
    return options


def compile_graph(
    method: str, models: dict[str, str] | None, options: dict[str, Any]
) -> tuple[Any, Any]:
    """Compile the method's graph (no checkpointer) and build its `Context`.

    Raises:
        ValueError: for an unknown method or option, or ``review=True``.
    """
    if method not in GRAPHS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(GRAPHS)}")
    context = build_context(method, _with_models(models, options))
    if getattr(context, "review", False):
        raise ValueError(
            "review=True pauses the graph until a person answers, which needs a "
            "checkpointer: compile GRAPHS[method]() with one, invoke it with a "
            "thread_id and resume it with Command(resume=ANSWER) (shapes in "
            "anonygraph.state.review; example in docs/review.md)"
        )
    return GRAPHS[method]().compile(name=method), context


def anonymize_dataframe(
    frame: Any,
    method: str = "rlaa",
    models: dict[str, str] | None = None,
    **kwargs: Any,
) -> Any:
    """Anonymize every row of a pandas DataFrame; return a copy with the results.

    See `aanonymize_dataframe` for the arguments.
    """
    return asyncio.run(aanonymize_dataframe(frame, method, models, **kwargs))


async def aanonymize_dataframe(
    frame: Any,
    method: str = "rlaa",
    models: dict[str, str] | None = None,
    *,
    text_column: str = "text",
    id_column: str | None = None,
    comments_column: str | None = None,
    output_columns: OutputColumns = OutputColumns(),
    concurrency: int = 4,
    trace: bool = False,
    **options: Any,
) -> Any:
    """Anonymize every row of a pandas DataFrame, ``concurrency`` rows at a time.

    Args:
        frame: the table; its other columns and its index are kept.
        method: a key of `anonygraph.graphs.GRAPHS`.
        models: role -> model spec; the key ``default`` sets every other role.
        text_column: the column of texts.
        id_column: the column of ids (the row number when None); ids must be
            unique.
        comments_column: a column of lists of comments by one author, read
            instead of ``text_column``; the anonymized cell is then a list.
        output_columns: names of the added columns (anonymized, outcome,
            leaks_left, problem).
        concurrency: rows anonymized at once.
        trace: send LangSmith traces; off otherwise.
        **options: fields of the method's `Context`, e.g. ``max_iterations=3``.

    Returns:
        A copy of ``frame`` with the added columns. A row that is no usable
        record (an empty or non-text cell, a duplicate id) has outcome ``bad
        input``, one whose method raised has ``failed``; both say why in
        ``problem`` and have no anonymized text.

    Raises:
        InputError: when a named column is missing or an added one exists.
        ValueError: for an unknown method or option.
    """
    columns = TableColumns(text=text_column, id=id_column, comments=comments_column)
    names = [str(c) for c in frame.columns]
    check_names("the DataFrame", names, columns)
    check_free("the DataFrame", names, output_columns)
    graph, context = compile_graph(method, models, options)
    items = rows_records(
        frame[columns.source].tolist(),
        frame[id_column].tolist() if id_column else None,
        0,
        columns,
        getattr(context, "max_chars", MAX_CHARS),
        set(),
    )
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(item: Record | BadRow) -> TableResult:
        if isinstance(item, BadRow):
            return no_result("bad input", item.reason)
        async with gate:
            try:
                result = await graph.ainvoke(graph_input(item), context=context)
            except Exception as exc:  # noqa: BLE001 - the row says why, others go on
                return no_result("failed", f"{type(exc).__name__}: {exc}")
        return graph_result(result, comments=bool(comments_column))

    with tracing_scope(trace):
        results = await asyncio.gather(*(one(item) for item in items))
    out = frame.copy()
    out[output_columns.anonymized] = [r["anonymized"] for r in results]
    out[output_columns.outcome] = [r["outcome"] for r in results]
    out[output_columns.leaks_left] = [r["leaks_left"] for r in results]
    out[output_columns.problem] = [r["problem"] for r in results]
    return out
