"""AURA: probe the scope, mask until nothing is inferable, reconstruct and select."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

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
from anonygraph.nodes.search_agent import (
    run_search,
    search_agent,
    search_step,
    search_tools,
)
from anonygraph.state.aura import (
    AuraContext,
    CandidateTask,
    InputState,
    OutputState,
    State,
    candidate_task,
)
from anonygraph.tools.aura.leaks import still_leaking
from anonygraph.tools.aura.scope import probe_searches
from anonygraph.tools.search_tool import uses_tools


def route_after_prepare(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["search_agent", "search_step", "discover_scope", "fix_scope"]:
    """8attr skips the probe; the others search first when there is a corpus.

    The probe calls the search tool natively where the attacker's backend has
    tool calling; elsewhere it answers one structured step at a time.
    """
    if runtime.context.variant == "8attr":
        return "fix_scope"
    if not probe_searches(runtime.context):
        return "discover_scope"
    return "search_agent" if uses_tools(runtime.context) else "search_step"


def route_after_probe_agent(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["search_tools", "search_step", "discover_scope"]:
    """Run the probe's tool calls while it makes them and has searches left.

    A server that refused tool calls (search_mode auto) leaves the probe to
    the structured steps.
    """
    if state.tools_refused:
        return "search_step"
    more = state.may_call_tool_again(runtime.context.max_search_steps)
    return "search_tools" if more else "discover_scope"


def route_after_probe_step(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["run_search", "discover_scope"]:
    """Search again while the probe asks to and has steps left."""
    more = state.may_search_again(runtime.context.max_search_steps)
    return "run_search" if more else "discover_scope"


def route_after_probe_tools(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["search_agent", "discover_scope"]:
    """Give the agent another turn only while it has searches left."""
    more = state.searches_answered() < runtime.context.max_search_steps
    return "search_agent" if more else "discover_scope"


def route_after_infer_scope(
    state: State, runtime: Runtime[AuraContext]
) -> Literal["plan_suppression", "build_template"]:
    """Rewrite while A still leaks (a guess, or blacklisted words) and rounds remain."""
    leaking = still_leaking(
        state.inferences, state.blacklist, state.current, runtime.context.min_certainty
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
    builder.add_node(search_agent)
    builder.add_node(search_tools)
    builder.add_node(search_step)
    builder.add_node(run_search)
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
        "prepare",
        route_after_prepare,
        ["search_agent", "search_step", "discover_scope", "fix_scope"],
    )
    builder.add_conditional_edges(
        "search_agent",
        route_after_probe_agent,
        ["search_tools", "search_step", "discover_scope"],
    )
    builder.add_conditional_edges(
        "search_tools", route_after_probe_tools, ["search_agent", "discover_scope"]
    )
    builder.add_conditional_edges(
        "search_step", route_after_probe_step, ["run_search", "discover_scope"]
    )
    builder.add_edge("run_search", "search_step")
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
