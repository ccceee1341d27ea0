"""AURA: probe the scope, mask until nothing is inferable, reconstruct and select."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from anonygraph.graphs import search_agent
from anonygraph.nodes.adversary import anonymize
from anonygraph.nodes.aura import (
    build_template,
    check_candidates,
    discover_scope,
    finish_selection,
    fix_scope,
    infer_scope,
    plan_suppression,
    profile_utility,
    reconstruct,
    score_privacy,
    score_utility,
    select,
)
from anonygraph.nodes.prepare import prepare
from anonygraph.nodes.review import review_selection
from anonygraph.state.aura import AuraContext
from anonygraph.state.aura_state import (
    CandidateTask,
    InputState,
    OutputState,
    State,
    candidate_task,
)
from anonygraph.tools.aura.leaks import still_leaking
from anonygraph.tools.aura.scope import probe_searches


def route_after_prepare(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["search", "discover_scope", "fix_scope"]:
    """8attr skips the probe; the others search first when there is a corpus."""
    if runtime.context.variant == "8attr":
        return "fix_scope"
    if not probe_searches(runtime.context):
        return "discover_scope"
    return "search"


def route_after_infer_scope(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["plan_suppression", "build_template"]:
    """Rewrite while A still leaks (a guess, or blacklisted words) and rounds remain.

    Blacklisted words count only with ``blacklist_in_masking`` (the product).
    """
    leaking = still_leaking(
        state.inferences,
        state.masking_blacklist(runtime.context),
        state.current,
        runtime.context.min_certainty,
    )
    if leaking and state.round < runtime.context.mask_rounds:
        return "plan_suppression"
    return "build_template"


def route_after_rewrite(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["infer_scope", "build_template"]:
    """Attack the rewrite again until R_mask rewrites are done."""
    if state.round >= runtime.context.mask_rounds:
        return "build_template"
    return "infer_scope"


def route_after_template(
    state: State, runtime: Runtime[AuraContext]
) -> list[Send] | Literal["finish_selection"]:
    """Fan out N reconstructions; a template without masks has nothing to fill."""
    if not state.template.get("masks"):
        return "finish_selection"
    return [
        Send("reconstruct", candidate_task(state, i))
        for i in range(runtime.context.num_candidates)
    ]


def route_after_check(state: State) -> list[Send] | Literal["select"]:
    """Score every valid candidate with the attacker and the keeper at once."""
    valid = [c for c in state.candidates if not c["rejected"]]
    if not valid:
        return "select"
    return [
        Send(node, candidate_task(state, c["index"], c["text"]))
        for c in valid
        for node in ("score_privacy", "score_utility")
    ]


def route_after_select(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["review_selection", "finish_selection"]:
    """Let a person review the choice first when the run asks and there is one."""
    if runtime.context.review and state.choice.get("index") is not None:
        return "review_selection"
    return "finish_selection"


def build_graph() -> StateGraph[State, AuraContext, InputState, OutputState]:
    """Wire AURA (uncompiled): phase 0 probe, phase 1 masking, phase 2 selection."""
    builder = StateGraph(
        State,
        context_schema=AuraContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    builder.add_node(prepare)
    builder.add_node("search", search_agent.graph)
    builder.add_node(discover_scope)
    builder.add_node(fix_scope)
    builder.add_node(profile_utility)
    builder.add_node(infer_scope)
    builder.add_node(plan_suppression)
    builder.add_node(anonymize)
    builder.add_node(build_template)
    builder.add_node(reconstruct, input_schema=CandidateTask)
    builder.add_node(check_candidates)
    builder.add_node(score_privacy, input_schema=CandidateTask)
    builder.add_node(score_utility, input_schema=CandidateTask)
    builder.add_node(select)
    builder.add_node(review_selection)
    builder.add_node(finish_selection)
    builder.add_edge(START, "prepare")
    builder.add_conditional_edges(
        "prepare", route_after_prepare, ["search", "discover_scope", "fix_scope"]
    )
    builder.add_edge("search", "discover_scope")
    builder.add_edge("discover_scope", "profile_utility")
    builder.add_edge("fix_scope", "profile_utility")
    builder.add_edge("profile_utility", "infer_scope")
    builder.add_conditional_edges(
        "infer_scope", route_after_infer_scope, ["plan_suppression", "build_template"]
    )
    builder.add_edge("plan_suppression", "anonymize")
    builder.add_conditional_edges(
        "anonymize", route_after_rewrite, ["infer_scope", "build_template"]
    )
    builder.add_conditional_edges(
        "build_template", route_after_template, ["reconstruct", "finish_selection"]
    )
    builder.add_edge("reconstruct", "check_candidates")
    builder.add_conditional_edges(
        "check_candidates",
        route_after_check,
        ["score_privacy", "score_utility", "select"],
    )
    builder.add_edge("score_privacy", "select")
    builder.add_edge("score_utility", "select")
    builder.add_conditional_edges(
        "select", route_after_select, ["review_selection", "finish_selection"]
    )
    builder.add_edge("review_selection", "finish_selection")
    builder.add_edge("finish_selection", END)
    return builder


graph: Any = build_graph().compile(name="aura")
