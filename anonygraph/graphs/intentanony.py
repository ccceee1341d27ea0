"""IntentAnony: intents -> inference -> evidence chains -> budgets -> one rewrite."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.attack import attack
from anonygraph.nodes.budget import assign_budgets, needs_rewrite
from anonygraph.nodes.evidence import trace_evidence
from anonygraph.nodes.intent import recognize_intents
from anonygraph.nodes.lifecycle import prepare
from anonygraph.nodes.rewrite import finish, rewrite
from anonygraph.nodes.verify import verify
from anonygraph.state.intentanony import (
    InputState,
    IntentAnonyContext,
    OutputState,
    State,
)


def route_after_budget(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["rewrite", "finish"]:
    """Skip the rewriter when no span needs editing (and, verifying, none is over)."""
    if needs_rewrite(state.chains) or (runtime.context.verify and state.exceeded):
        return "rewrite"
    return "finish"


def route_after_rewrite(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["verify", "finish"]:
    """Single pass as in the paper unless the run asks to verify the budgets."""
    return "verify" if runtime.context.verify else "finish"


def route_after_verify(
    state: State, runtime: Runtime[IntentAnonyContext]
) -> Literal["rewrite", "finish"]:
    """Rewrite again while an attribute is over budget, at most R extra times."""
    extra_rewrites = state.round - 1
    if state.exceeded and extra_rewrites < runtime.context.max_verify_rounds:
        return "rewrite"
    return "finish"


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
    builder.add_node(rewrite)
    builder.add_node(verify)
    builder.add_node(finish)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "recognize_intents")
    builder.add_edge("recognize_intents", "attack")
    builder.add_edge("attack", "trace_evidence")
    builder.add_edge("trace_evidence", "assign_budgets")
    builder.add_conditional_edges(
        "assign_budgets", route_after_budget, ["rewrite", "finish"]
    )
    builder.add_conditional_edges("rewrite", route_after_rewrite, ["verify", "finish"])
    builder.add_conditional_edges("verify", route_after_verify, ["rewrite", "finish"])
    builder.add_edge("finish", END)
    return builder


graph: Any = build_graph().compile(name="intentanony")
