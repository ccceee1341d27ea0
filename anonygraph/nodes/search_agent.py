"""Search loop steps shared by the web-search adversary and AURA's probe."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from anonygraph import llm
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.search_agent import render_notes
from anonygraph.state.answers import SearchStep
from anonygraph.state.context import SearchOptionsT
from anonygraph.state.search_agent import SearchAgentState
from anonygraph.tools.search import format_hits, minimal_query, search_backend
from anonygraph.tools.search_tool import web_search


async def search_step(
    state: SearchAgentState, runtime: Runtime[SearchOptionsT]
) -> dict[str, Any]:
    """Let the agent choose its next query, or stop."""
    context = runtime.context
    prompt = fill(
        context.search_step_prompt,
        goal=context.search_goal,
        text=fence("text", state.current),
        notes=fence("notes", render_notes(state.search_log)),
        steps_left=context.max_search_steps - len(state.search_log),
    )
    step, calls = await llm.ask_structured(
        "attacker", prompt, SearchStep, context, step="search_step"
    )
    query = step.query.strip() if step.action == "search" else ""
    update: dict[str, Any] = {"next_query": query, "calls": calls}
    # Agents that search for the defender (AURA's probe) send only a few
    # keywords; the adversary, whose context sets no cap, searches freely.
    max_words = context.query_max_words
    if query and max_words:
        update["next_query"], note = minimal_query(
            query,
            state.current,
            max_words=max_words,
            max_copy=context.query_max_copy,
        )
        if note:
            update["errors"] = [f"search {len(state.search_log) + 1}: {note}"]
    return update


def run_search(
    state: SearchAgentState, runtime: Runtime[SearchOptionsT]
) -> dict[str, Any]:
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


async def search_agent(
    state: SearchAgentState, runtime: Runtime[SearchOptionsT]
) -> dict[str, Any]:
    """Let the tool-calling agent take its next turn: call `web_search`, or stop.

    Its first turn must search (the loop runs only to search); later turns
    choose freely. With ``search_mode=auto``, a server that refuses the
    tool-calling request is remembered, and the search goes on in structured
    steps (``tools_refused`` routes there).
    """
    context = runtime.context
    opening = []
    if not state.search_messages:
        prompt = fill(
            context.search_agent_prompt,
            goal=context.search_goal,
            text=fence("text", state.current),
            max_searches=context.max_search_steps,
        )
        opening = [HumanMessage(prompt)]
    try:
        answer, calls = await llm.ask_with_tools(
            "attacker",
            [*state.search_messages, *opening],
            [web_search],
            context,
            step="search_agent",
            tool_choice=None if state.searches_answered() else web_search.name,
        )
    except llm.ModelServerError as exc:
        if not (exc.refused and context.search_mode == "auto"):
            raise
        settings = llm.settings_for(context, "attacker")
        note = f"{exc.url}: {exc.fault[:200]}"
        llm.remember_tools_refused(settings.spec, note)
        refusal = f"search_mode auto: tool calls refused ({note}); structured steps"
        return {"tools_refused": note, "calls": exc.calls, "errors": [refusal]}
    return {"search_messages": [*opening, answer], "calls": calls}


search_tools = ToolNode(
    [web_search], name="search_tools", messages_key="search_messages"
)
"""Run the agent's `web_search` calls; each logs its query in ``search_log``."""
