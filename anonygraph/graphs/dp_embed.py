"""DP-Embed-Invert: placeholders, then noised embeddings inverted back to text."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.dp_embed import account, keep_chunks, perturb, split, stitch
from anonygraph.nodes.prepare import prepare
from anonygraph.state.dp_embed import DpEmbedContext, InputState, OutputState, State


def route_after_split(
    state: State, runtime: Runtime[DpEmbedContext]
) -> Literal["account", "keep_chunks"]:
    """Redaction alone (``redact_only``) keeps the chunks and claims no DP."""
    return "keep_chunks" if runtime.context.redact_only else "account"


def route_after_account(state: State) -> Literal["perturb", "stitch"]:
    """Skip the models when nothing but placeholders and punctuation is left."""
    return "perturb" if state.chunk_texts() else "stitch"


def build_graph() -> StateGraph[State, DpEmbedContext, InputState, OutputState]:
    """Wire split -> account -> perturb -> stitch (uncompiled).

    With ``redact_only`` the chunks skip the mechanism: split -> keep_chunks
    -> stitch.
    """
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
    builder.add_node(keep_chunks)
    builder.add_node(stitch)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "split")
    builder.add_conditional_edges(
        "split", route_after_split, ["account", "keep_chunks"]
    )
    builder.add_conditional_edges("account", route_after_account, ["perturb", "stitch"])
    builder.add_edge("perturb", "stitch")
    builder.add_edge("keep_chunks", "stitch")
    builder.add_edge("stitch", END)
    return builder


graph: Any = build_graph().compile(name="dp-embed")
