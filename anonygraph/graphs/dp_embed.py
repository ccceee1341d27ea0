"""DP-Embed-Invert: placeholders, then noised embeddings inverted back to text."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from anonygraph.nodes.dp_embed import account, perturb, split, stitch
from anonygraph.nodes.prepare import prepare
from anonygraph.state.dp_embed import DpEmbedContext, InputState, OutputState, State


def route_after_account(state: State) -> Literal["perturb", "stitch"]:
    """Skip the models when nothing but placeholders and punctuation is left."""
    return "perturb" if state.chunk_texts() else "stitch"


def build_graph() -> StateGraph[State, DpEmbedContext, InputState, OutputState]:
    """Wire split -> account -> perturb -> stitch (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=DpEmbedContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node(split)
    builder.add_node(account)
    builder.add_node(perturb)
    builder.add_node(stitch)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "split")
    builder.add_edge("split", "account")
    builder.add_conditional_edges("account", route_after_account, ["perturb", "stitch"])
    builder.add_edge("perturb", "stitch")
    builder.add_edge("stitch", END)
    return builder


graph: Any = build_graph().compile(name="dp-embed")
