"""SEAL: teacher trajectories for distillation, and one model's self-refinement.

Two graphs share the steps. ``seal_trajectory`` (Algorithm 1, step 1) plays a
teacher per role: judge x_t against x_0, infer from x_t, record s_t, revise
from the inferences, until T rewrites or nothing is inferable. ``seal``
(section 4.3) plays one distilled model in every role and rewrites from both its
inferences and its utility judgement; a rewrite judged under the user's
utility floor is dropped and the previous text returned.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from anonygraph.nodes.adversary import attack
from anonygraph.nodes.prepare import prepare
from anonygraph.nodes.seal import assess, finish_refinement, record, revert, revise
from anonygraph.state.seal import (
    InputState,
    OutputState,
    SealContext,
    State,
    TrajectoryContext,
)


def route_after_record(
    state: State, runtime: Runtime[TrajectoryContext]
) -> Literal["revise", "finish_refinement"]:
    """Stop once nothing is inferable or T rewrites were tried.

    Self-refinement's paper profile runs its T iterations
    (``stop_when_nothing_inferred`` off); trajectories keep the stop (Section 3).
    """
    stop = getattr(runtime.context, "stop_when_nothing_inferred", True)
    if (stop and state.infers_nothing()) or (
        state.round >= runtime.context.max_iterations
    ):
        return "finish_refinement"
    return "revise"


def route_after_revise(
    state: State, runtime: Runtime[TrajectoryContext]
) -> Literal["assess", "revise", "finish_refinement"]:
    """Judge an accepted rewrite; try a refused one again while rounds are left."""
    if not state.rejected:
        return "assess"
    if state.round >= runtime.context.max_iterations:
        return "finish_refinement"
    return "revise"


def route_after_assess(
    state: State, runtime: Runtime[SealContext]
) -> Literal["attack", "revert"]:
    """Drop a rewrite whose utility fell under the user's floor."""
    if state.round > 0 and state.utility_score() < runtime.context.min_utility:
        return "revert"
    return "attack"


def build_trajectory_graph() -> StateGraph[
    State, TrajectoryContext, InputState, OutputState
]:
    """Wire trajectory synthesis with teacher models (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=TrajectoryContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node(assess)
    builder.add_node(attack)
    builder.add_node(record)
    builder.add_node(revise)
    builder.add_node(finish_refinement)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "assess")
    builder.add_edge("assess", "attack")
    builder.add_edge("attack", "record")
    builder.add_conditional_edges(
        "record", route_after_record, ["revise", "finish_refinement"]
    )
    builder.add_conditional_edges(
        "revise", route_after_revise, ["assess", "revise", "finish_refinement"]
    )
    builder.add_edge("finish_refinement", END)
    return builder


def build_graph() -> StateGraph[State, SealContext, InputState, OutputState]:
    """Wire self-refinement with one model in every role (uncompiled)."""
    builder = StateGraph(
        State,
        context_schema=SealContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node(assess)
    builder.add_node(attack)
    builder.add_node(record)
    builder.add_node(revise)
    builder.add_node(revert)
    builder.add_node(finish_refinement)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "assess")
    builder.add_conditional_edges("assess", route_after_assess, ["attack", "revert"])
    builder.add_edge("attack", "record")
    builder.add_conditional_edges(
        "record", route_after_record, ["revise", "finish_refinement"]
    )
    builder.add_conditional_edges(
        "revise", route_after_revise, ["assess", "revise", "finish_refinement"]
    )
    builder.add_edge("revert", "finish_refinement")
    builder.add_edge("finish_refinement", END)
    return builder


graph: Any = build_graph().compile(name="seal")
trajectory_graph: Any = build_trajectory_graph().compile(name="seal_trajectory")
