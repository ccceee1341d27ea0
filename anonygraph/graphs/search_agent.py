"""The search agent: a loop compiled once, added as a node by AURA and the evaluator.

It calls the ``web_search`` tool natively where the attacker's backend has
tool calling, and otherwise answers one structured step at a time; a server
that refuses tool calls (search_mode auto) hands the search to the steps. It
ends when the agent stops or its searches are used up. The parent graph's
context (any `SearchOptions`) is the agent's context.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.search_agent import (
    run_search,
    search_agent,
    search_step,
    search_tools,
)
from anonygraph.state.context import SearchOptions
from anonygraph.state.search_agent import InputState, OutputState, State
from anonygraph.tools.search_tool import uses_tools


def route_start(
    state: State, runtime: Runtime[SearchOptions]
) -> Literal["search_agent", "search_step"]:
    """Call the tool natively where the attacker's backend can; else step by step."""
    return "search_agent" if uses_tools(runtime.context) else "search_step"


def route_after_search_agent(
    state: State, runtime: Runtime[SearchOptions]
) -> Literal["search_tools", "search_step", "__end__"]:
    """Run the agent's tool calls while it makes them and has searches left.

    A server that refused tool calls (search_mode auto) leaves the search to
    the structured steps.
    """
    if state.tools_refused:
        return "search_step"
    more = state.may_call_tool_again(runtime.context.max_search_steps)
    return "search_tools" if more else "__end__"


def route_after_search_tools(
    state: State, runtime: Runtime[SearchOptions]
) -> Literal["search_agent", "__end__"]:
    """Give the agent another turn only while it has searches left."""
    more = state.searches_answered() < runtime.context.max_search_steps
    return "search_agent" if more else "__end__"


def route_after_search_step(
    state: State, runtime: Runtime[SearchOptions]
) -> Literal["run_search", "__end__"]:
    """Search again while the agent asks to and has steps left."""
    more = state.may_search_again(runtime.context.max_search_steps)
    return "run_search" if more else "__end__"


def build_graph() -> StateGraph[State, SearchOptions, InputState, OutputState]:
    """Wire the search loop (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=SearchOptions,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(search_agent)
    builder.add_node(search_tools)
    builder.add_node(search_step)
    builder.add_node(run_search)
    builder.add_conditional_edges(START, route_start, ["search_agent", "search_step"])
    builder.add_conditional_edges(
        "search_agent",
        route_after_search_agent,
        ["search_tools", "search_step", END],
    )
    builder.add_conditional_edges(
        "search_tools", route_after_search_tools, ["search_agent", END]
    )
    builder.add_conditional_edges(
        "search_step", route_after_search_step, ["run_search", END]
    )
    builder.add_edge("run_search", "search_step")
    return builder


graph: Any = build_graph().compile(name="search")
"""Compiled once; a graph that searches adds it with ``add_node("search", graph)``.

Without a checkpointer of its own it uses its parent's, so a killed run
resumes inside the loop.
"""
