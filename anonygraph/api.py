"""Python API: anonymize one text with any method, no files involved."""

from __future__ import annotations

import asyncio
from typing import Any

from anonygraph.graphs import GRAPHS
from anonygraph.runner import build_context
from anonygraph.runs.tracing import tracing_scope


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
    **options: Any,
) -> dict[str, Any]:
    """Async form of `anonymize`, for callers already inside an event loop."""
    if method not in GRAPHS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(GRAPHS)}")
    roles = dict(models or {})
    if "default" in roles:
        options.setdefault("default_model", roles.pop("default"))
    if roles:
        options["models"] = roles
    context = build_context(method, options)
    if getattr(context, "review", False):
        raise ValueError(
            "review=True pauses the graph until a person answers, which needs a "
            "checkpointer: compile GRAPHS[method]() with one, invoke it with a "
            "thread_id and resume it with Command(resume=ANSWER) (shapes in "
            "anonygraph.state.review; example in the README, 'Human review')"
        )
    payload = {"comments": text} if isinstance(text, list) else {"text": text}
    graph = GRAPHS[method]().compile(name=method)
    with tracing_scope(trace):
        result: dict[str, Any] = await graph.ainvoke(payload, context=context)
    return result
