"""IntentAnony: intents -> inference -> evidence chains -> budgets -> one rewrite."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.adversary import attack
from anonygraph.nodes.intentanony import (
    assign_budgets,
    finish_budgets,
    recognize_intents,
    rewrite,
    trace_evidence,
    verify,
)
from anonygraph.nodes.prepare import prepare
from anonygraph.nodes.review import review_budgets
from anonygraph.state.intentanony import (
    InputState,
    IntentAnonyContext,
    OutputState,
    State,
)
from anonygraph.tools.intentanony.exposure import needs_rewrite


def route_after_evidence(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["assign_budgets", "rewrite"]:
    """Budget the attributes; the paper profile's D.4 rewrite decides them itself.

    D.4 runs once per text (A.3): the paper profile always rewrites.
    """
    return "rewrite" if runtime.context.paper else "assign_budgets"


def route_after_budget(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["review_budgets", "rewrite", "finish_budgets"]:
    """Skip the rewriter when no span needs editing (and, verifying, none is over)."""
    if needs_rewrite(state.chains) or (runtime.context.verify and state.exceeded):
        return "review_budgets" if runtime.context.review else "rewrite"
    return "finish_budgets"


def route_after_review_budgets(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["rewrite", "finish_budgets"]:
    """Rewrite under the reviewed budgets, unless stopped or they ask for nothing."""
    if state.stopped_in_review():
        return "finish_budgets"
    if needs_rewrite(state.chains) or (runtime.context.verify and state.exceeded):
        return "rewrite"
    return "finish_budgets"


def route_after_rewrite(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["verify", "finish_budgets"]:
    """Single pass as in the paper unless the run asks to verify the budgets."""
    return "verify" if runtime.context.verify else "finish_budgets"


def route_after_verify(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["review_budgets", "rewrite", "finish_budgets"]:
    """Rewrite again while an attribute is over budget, at most R extra times."""
    extra_rewrites = state.round - 1
    if state.exceeded and extra_rewrites < runtime.context.max_verify_rounds:
        return "review_budgets" if runtime.context.review else "rewrite"
    return "finish_budgets"


def build_graph() -> StateGraph[State, IntentAnonyContext, InputState, OutputState]:
    """Wire IntentAnony (uncompiled): one pass, optionally verified."""
    builder = StateGraph(
        State,
        context_schema=IntentAnonyContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node(recognize_intents)
    builder.add_node(attack)
    builder.add_node(trace_evidence)
    builder.add_node(assign_budgets)
    builder.add_node(review_budgets)
    builder.add_node(rewrite)
    builder.add_node(verify)
    builder.add_node(finish_budgets)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "recognize_intents")
    builder.add_edge("recognize_intents", "attack")
    builder.add_edge("attack", "trace_evidence")
    builder.add_conditional_edges(
        "trace_evidence", route_after_evidence, ["assign_budgets", "rewrite"]
    )
    builder.add_conditional_edges(
        "assign_budgets",
        route_after_budget,
        ["review_budgets", "rewrite", "finish_budgets"],
    )
    builder.add_conditional_edges(
        "review_budgets", route_after_review_budgets, ["rewrite", "finish_budgets"]
    )
    builder.add_conditional_edges(
        "rewrite", route_after_rewrite, ["verify", "finish_budgets"]
    )
    builder.add_conditional_edges(
        "verify", route_after_verify, ["review_budgets", "rewrite", "finish_budgets"]
    )
    builder.add_edge("finish_budgets", END)
    return builder


graph: Any = build_graph().compile(name="intentanony")
