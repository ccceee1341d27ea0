"""FgAA: the adversarial loop without arbitrator; every inference is acted on."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.graphs.rlaa import route_after_anonymize, route_after_review_policy
from anonygraph.nodes.adversary import (
    anonymize,
    attack,
    finish_loop,
    forward_inferences,
)
from anonygraph.nodes.prepare import prepare
from anonygraph.nodes.review import review_policy
from anonygraph.state.context import FgaaContext
from anonygraph.state.rlaa import InputState, OutputState, State


def route_after_forward(
    state: State, runtime: Runtime[FgaaContext]
) -> Literal["review_policy", "anonymize", "finish_loop"]:
    """Stop after T rewrites, or (optionally) once the attacker guesses nothing.

    As in RLAA the loop ends after an attack, so the outcome is about the
    final text. A person reviews the forwarded inferences first when asked to.
    """
    if state.round >= runtime.context.max_iterations:
        return "finish_loop"
    if not state.policy and runtime.context.stop_when_nothing_inferred:
        return "finish_loop"
    return "review_policy" if runtime.context.review else "anonymize"


def build_graph() -> StateGraph[State, FgaaContext, InputState, OutputState]:
    """Wire the FgAA loop (uncompiled): RLAA's ablation without arbitrator."""
    builder = StateGraph(
        State,
        context_schema=FgaaContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node(attack)
    builder.add_node(forward_inferences)
    builder.add_node(review_policy)
    builder.add_node(anonymize)
    builder.add_node(finish_loop)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "attack")
    builder.add_edge("attack", "forward_inferences")
    builder.add_conditional_edges(
        "forward_inferences",
        route_after_forward,
        ["review_policy", "anonymize", "finish_loop"],
    )
    builder.add_conditional_edges(
        "review_policy", route_after_review_policy, ["anonymize", "finish_loop"]
    )
    builder.add_conditional_edges(
        "anonymize", route_after_anonymize, ["attack", "finish_loop"]
    )
    builder.add_edge("finish_loop", END)
    return builder


graph: Any = build_graph().compile(name="fgaa")
