"""Evaluator: attack a text (optionally with web search), judge utility, score."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.attack import attack
from anonygraph.nodes.judge import judge
from anonygraph.nodes.score import prepare_eval, score
from anonygraph.nodes.search_agent import (
    route_after_search_step,
    run_search,
    search_step,
)
from anonygraph.state.evaluate import EvalContext, InputState, OutputState, State


def route_after_prepare(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["search_step", "attack"]:
    """Search the web first only when the run names a search backend."""
    return "search_step" if runtime.context.search_backend else "attack"


def route_after_search(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["run_search", "attack"]:
    """Search again while the agent asks to and has steps left."""
    return "run_search" if route_after_search_step(state, runtime) else "attack"


def route_after_attack(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["judge", "score"]:
    """Judge utility unless disabled or the text is the original itself."""
    if runtime.context.judge and state.text != state.original:
        return "judge"
    return "score"


def build_graph() -> StateGraph[State, EvalContext, InputState, OutputState]:
    """Wire the evaluator (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=EvalContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare_eval)
    builder.add_node(search_step)
    builder.add_node(run_search)
    builder.add_node(attack)
    builder.add_node(judge)
    builder.add_node(score)
    builder.add_edge(START, "prepare_eval")
    builder.add_conditional_edges(
        "prepare_eval", route_after_prepare, ["search_step", "attack"]
    )
    builder.add_conditional_edges(
        "search_step", route_after_search, ["run_search", "attack"]
    )
    builder.add_edge("run_search", "search_step")
    builder.add_conditional_edges("attack", route_after_attack, ["judge", "score"])
    builder.add_edge("judge", "score")
    builder.add_edge("score", END)
    return builder


graph: Any = build_graph().compile(name="evaluate")
