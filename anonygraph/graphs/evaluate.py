"""Evaluator: attack a text (optionally with web search), judge utility, score.

Under IntentAnony's protocol it also compares the intents of original and
rewrite (5.5).
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.graphs import search_agent
from anonygraph.nodes.evaluate import (
    compare_intents,
    judge,
    prepare_eval,
    profile_author,
    recover_facts,
    score,
)
from anonygraph.state.evaluate import EvalContext
from anonygraph.state.evaluate_state import InputState, OutputState, State


def route_after_prepare(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["search", "profile_author", "judge", "recover_facts", "score"]:
    """Search the web first only when the run names a search backend.

    Without an attacker (DP-Embed's protocol) go straight to the judge or
    the text metrics.
    """
    if not runtime.context.attack:
        return route_after_profile(state, runtime)
    if not runtime.context.search_backend:
        return "profile_author"
    return "search"


def route_after_profile(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["judge", "recover_facts", "score"]:
    """Judge utility unless disabled or the text is the original itself."""
    if runtime.context.judge and state.text != state.original:
        return "judge"
    return route_after_judge(state)


def route_after_judge(state: State) -> Literal["recover_facts", "score"]:
    """Check the record's utility facts (AURA) when it has any."""
    return "recover_facts" if any(state.facts.values()) else "score"


def route_after_score(
    state: State, runtime: Runtime[EvalContext]
) -> Literal["compare_intents", "__end__"]:
    """Compare intents when asked (IntentAnony 5.5), for a rewrite only."""
    if runtime.context.intents and state.text != state.original:
        return "compare_intents"
    return "__end__"


def build_graph() -> StateGraph[State, EvalContext, InputState, OutputState]:
    """Wire the evaluator (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=EvalContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare_eval)
    builder.add_node("search", search_agent.graph)
    builder.add_node(profile_author)
    builder.add_node(judge)
    builder.add_node(recover_facts)
    builder.add_node(score)
    builder.add_node(compare_intents)
    builder.add_edge(START, "prepare_eval")
    builder.add_conditional_edges(
        "prepare_eval",
        route_after_prepare,
        ["search", "profile_author", "judge", "recover_facts", "score"],
    )
    builder.add_edge("search", "profile_author")
    builder.add_conditional_edges(
        "profile_author", route_after_profile, ["judge", "recover_facts", "score"]
    )
    builder.add_conditional_edges(
        "judge", route_after_judge, ["recover_facts", "score"]
    )
    builder.add_edge("recover_facts", "score")
    builder.add_conditional_edges("score", route_after_score, ["compare_intents", END])
    builder.add_edge("compare_intents", END)
    return builder


graph: Any = build_graph().compile(name="evaluate")
