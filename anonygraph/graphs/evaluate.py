"""Evaluator: attack a text (optionally with web search), judge utility, score."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.evaluate import judge, prepare_eval, profile_author, score
from anonygraph.nodes.search_agent import (
    run_search,
    search_agent,
    search_step,
    search_tools,
)
from anonygraph.state.evaluate import EvalContext, InputState, OutputState, State
from anonygraph.tools.search_tool import uses_tools


def route_after_prepare(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["search_agent", "search_step", "profile_author"]:
    """Search the web first only when the run names a search backend.

    The adversary calls the search tool natively where the attacker's backend
    has tool calling; elsewhere it answers one structured step at a time.
    """
    if not runtime.context.search_backend:
        return "profile_author"
    return "search_agent" if uses_tools(runtime.context) else "search_step"


def route_after_search_agent(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["search_tools", "search_step", "profile_author"]:
    """Run the agent's tool calls while it makes them and has searches left.

    A server that refused tool calls (search_mode auto) leaves the search to
    the structured steps.
    """
    if state.tools_refused:
        return "search_step"
    more = state.may_call_tool_again(runtime.context.max_search_steps)
    return "search_tools" if more else "profile_author"


def route_after_search(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["run_search", "profile_author"]:
    """Search again while the agent asks to and has steps left."""
    more = state.may_search_again(runtime.context.max_search_steps)
    return "run_search" if more else "profile_author"


def route_after_profile(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["judge", "score"]:
    """Judge utility unless disabled or the text is the original itself."""
    if runtime.context.judge and state.text != state.original:
        return "judge"
    return "score"


def route_after_search_tools(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["search_agent", "profile_author"]:
    """Give the agent another turn only while it has searches left."""
    more = state.searches_answered() < runtime.context.max_search_steps
    return "search_agent" if more else "profile_author"


def build_graph() -> StateGraph[State, EvalContext, InputState, OutputState]:
    """Wire the evaluator (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=EvalContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare_eval)
    builder.add_node(search_agent)
    builder.add_node(search_tools)
    builder.add_node(search_step)
    builder.add_node(run_search)
    builder.add_node(profile_author)
    builder.add_node(judge)
    builder.add_node(score)
    builder.add_edge(START, "prepare_eval")
    builder.add_conditional_edges(
        "prepare_eval",
        route_after_prepare,
        ["search_agent", "search_step", "profile_author"],
    )
    builder.add_conditional_edges(
        "search_agent",
        route_after_search_agent,
        ["search_tools", "search_step", "profile_author"],
    )
    builder.add_conditional_edges(
        "search_tools", route_after_search_tools, ["search_agent", "profile_author"]
    )
    builder.add_conditional_edges(
        "search_step", route_after_search, ["run_search", "profile_author"]
    )
    builder.add_edge("run_search", "search_step")
    builder.add_conditional_edges(
        "profile_author", route_after_profile, ["judge", "score"]
    )
    builder.add_edge("judge", "score")
    builder.add_edge("score", END)
    return builder


graph: Any = build_graph().compile(name="evaluate")
