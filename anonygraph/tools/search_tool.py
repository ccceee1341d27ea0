"""The search backend as a LangChain tool, for search agents that call tools.

The model sees only the ``query`` argument; the backend, the number of
results, the search budget and the query limits come from the run's context,
and the text under investigation from the graph state.
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.prebuilt import ToolRuntime
from langgraph.types import Command
from pydantic import Field

from anonygraph import llm
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.search_agent import NO_SEARCHES_LEFT, SEARCH_TOOL_REFUSED
from anonygraph.state.context import SEARCH_MODES, SearchOptions
from anonygraph.tools.search import format_hits, minimal_query, search_backend

MAX_QUERY_CHARS = 120
"""Longest query the tool takes: keywords, not passages (and a bound on decoding)."""


@tool(parse_docstring=True)
def web_search(
    query: Annotated[str, Field(max_length=MAX_QUERY_CHARS)],
    runtime: ToolRuntime[SearchOptions, Any],
) -> Command[Any]:
    """Search the web for pages matching a few keywords.

    Returns numbered results, each with its title, address and a snippet.

    Args:
        query: A short keyword query built from distinctive clues in the text
            (names, places, events, rare details), not a sentence of the text.
        runtime: The run's context and state, injected by the tool node.

    """
    context, state = runtime.context, runtime.state
    call_id = str(runtime.tool_call_id)
    number = _position(state, call_id) + 1
    query, note = query.strip(), ""
    if number > context.max_search_steps:
        note = NO_SEARCHES_LEFT
        query = ""
    elif query and context.query_max_words:
        # Agents that search for the defender (AURA's probe) send only a few
        # keywords; the adversary, whose context sets no cap, searches freely.
        query, note = minimal_query(
            query,
            _field(state, "current"),
            max_words=context.query_max_words,
            max_copy=context.query_max_copy,
        )
    update: dict[str, Any] = {"errors": [f"search {number}: {note}"] if note else []}
    if not query:
        content = fill(SEARCH_TOOL_REFUSED, reason=note or "the query was empty")
    else:
        backend = search_backend(
            context.search_backend, context.search_index, context.search_corpus,
            context.allow_web,
        )  # fmt: skip
        hits = backend.search(query, context.search_results)
        results = format_hits(hits)
        # Results are pages written by anyone: the agent reads them fenced.
        content = fence("search_results", results)
        update["search_log"] = [
            {"query": query, "backend": backend.name, "results": results,
             "urls": [hit.url for hit in hits]}
        ]  # fmt: skip
    message = ToolMessage(content, tool_call_id=call_id, name="web_search")
    return Command(update={**update, "search_messages": [message]})


def uses_tools(context: SearchOptions) -> bool:
    """Tell whether the run's search agent calls tools natively.

    ``auto`` picks tools where the attacker's backend has tool calling and its
    server has not refused a tool-calling request in this store's runs.

    Raises:
        ValueError: for a search mode other than auto, tools or structured.

    """
    mode = context.search_mode
    if mode not in SEARCH_MODES:
        raise ValueError(
            f"search_mode {mode!r} is unknown; choose one of {', '.join(SEARCH_MODES)}"
        )
    if mode != "auto":
        return mode == "tools"
    settings = llm.settings_for(context, "attacker")
    if not settings.backend.calls_tools:
        return False
    return not llm.tools_refused(settings.spec)


def _position(state: Any, call_id: str) -> int:
    # Searches answered before this call: earlier turns' tool results, then
    # the calls listed before it in the same turn (they run in parallel).
    messages = _field(state, "search_messages")
    answered = sum(isinstance(m, ToolMessage) for m in messages)
    last = messages[-1] if messages else None
    ids = [c["id"] for c in last.tool_calls] if isinstance(last, AIMessage) else []
    return answered + (ids.index(call_id) if call_id in ids else 0)


def _field(state: Any, name: str) -> Any:
    return state[name] if isinstance(state, dict) else getattr(state, name)
