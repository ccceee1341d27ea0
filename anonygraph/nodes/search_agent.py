"""Search loop steps shared by the web-search adversary and AURA's probe."""

from __future__ import annotations

import functools
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.state.domain import SearchStep
from anonygraph.tools.search import (
    SearchBackend,
    SearchQuery,
    format_hits,
    get_backend,
    minimal_query,
)


async def search_step(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Let the agent choose its next query, or stop."""
    context = runtime.context
    prompt = context.search_step_prompt.format(
        goal=context.search_goal,
        text=state.current,
        notes=render_notes(state.search_log),
        steps_left=context.max_search_steps - len(state.search_log),
    )
    step, calls = await models.ask_structured(
        "attacker", prompt, SearchStep, context, step="search_step"
    )
    query = step.query.strip() if step.action == "search" else ""
    update: dict[str, Any] = {"next_query": query, "calls": calls}
    # Agents that search for the defender (AURA's probe) send only a few
    # keywords; the adversary, whose context sets no cap, searches freely.
    max_words = getattr(context, "query_max_words", 0)
    if query and max_words:
        update["next_query"], note = minimal_query(
            query, state.current, max_words=max_words, max_copy=context.query_max_copy
        )
        if note:
            update["errors"] = [f"search {len(state.search_log) + 1}: {note}"]
    return update


def run_search(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Send the chosen query to the run's backend and keep what came back."""
    context = runtime.context
    backend = search_backend(
        context.search_backend, context.search_index, context.search_corpus,
        context.allow_web,
    )  # fmt: skip
    hits = backend.search(state.next_query, context.search_results)
    query = {
        "query": state.next_query,
        "backend": backend.name,
        "results": format_hits(hits),
        "urls": [hit.url for hit in hits],
    }
    return {"search_log": [query], "next_query": ""}


@functools.lru_cache(maxsize=8)
def search_backend(
    name: str, index: str, corpus: str, allow_web: bool
) -> SearchBackend:
    """Build (once per process) the backend a run names.

    Raises:
        ValueError: when no backend is configured.
        WebSearchDisabledError: for a web backend without the opt-in.
    """
    if not name:
        raise ValueError(
            "web search is off for this run; set search_backend "
            "(offline with search_index, or ddgs/tavily with allow_web)"
        )
    return get_backend(
        name,  # type: ignore[arg-type]
        log_query=_no_log,
        index_path=index or None,
        corpus=corpus or None,
        allow_web=allow_web,
    )


def _no_log(query: SearchQuery) -> None:
    # Queries are kept in graph state (search_log) and stored with the run,
    # which survives resumes; the backend hook has nothing more to do.
    del query


def route_after_search_step(state: Any, runtime: Runtime[Any]) -> bool:
    """Tell whether the agent asked for one more search within its budget."""
    return bool(state.next_query) and (
        len(state.search_log) < runtime.context.max_search_steps
    )


def render_notes(search_log: list[dict[str, Any]]) -> str:
    """Render earlier queries and their results for the next prompt."""
    if not search_log:
        return "(no searches yet)"
    return "\n\n".join(
        f'Query {i}: "{entry["query"]}"\n{entry["results"]}'
        for i, entry in enumerate(search_log, 1)
    )
