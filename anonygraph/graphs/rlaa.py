"""RLAA: attacker -> arbitrator -> anonymizer, until no leak is worth editing."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.adversary import anonymize, arbitrate, attack, finish_loop
from anonygraph.nodes.prepare import prepare
from anonygraph.nodes.review import review_policy
from anonygraph.state.context import Context
from anonygraph.state.rlaa import InputState, OutputState, State


def route_after_arbitrate(
    state: State, runtime: Runtime[Context]
) -> Literal["review_policy", "anonymize", "finish_loop"]:
    """Stop when the policy is empty (Algorithm 1, line 17) or T rewrites are done.

    In the product the loop ends after an attack, never right after a
    rewrite: the outcome is then always about the final text, at the cost of
    one attack more than Algorithm 1 when T rounds run out
    (`route_after_anonymize` ends the paper profile's loop instead).
    """
    if not state.policy or state.round >= runtime.context.max_iterations:
        return "finish_loop"
    return "review_policy" if runtime.context.review else "anonymize"


def route_after_anonymize(
    state: State, runtime: Runtime[Context]
) -> Literal["attack", "finish_loop"]:
    """Attack the rewrite; in the paper profile the T-th rewrite is returned.

    Algorithm 1 returns x(T) after the last rewrite without attacking it
    (lines 20-22); the product attacks it once more so its outcome describes
    the text written out.
    """
    context = runtime.context
    if context.paper and state.round >= context.max_iterations:
        return "finish_loop"
    return "attack"


def route_after_review_policy(state: State) -> Literal["anonymize", "finish_loop"]:
    """Rewrite with the approved or edited policy; a reviewer's stop ends the loop."""
    return "finish_loop" if state.stopped_in_review() else "anonymize"


def build_graph() -> StateGraph[State, Context, InputState, OutputState]:
    """Wire the RLAA loop (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=Context,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node(attack)
    builder.add_node(arbitrate)
    builder.add_node(review_policy)
    builder.add_node(anonymize)
    builder.add_node(finish_loop)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "attack")
    builder.add_edge("attack", "arbitrate")
    builder.add_conditional_edges(
        "arbitrate",
        route_after_arbitrate,
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


graph: Any = build_graph().compile(name="rlaa")
