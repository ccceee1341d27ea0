"""AURA steps: phase 0 probe and profile, phase 1 masking, phase 2 reconstruction.

The probe's search loop is the shared search agent (graphs/search_agent.py)
and the masking rewrite the shared `anonymize` (nodes/adversary.py); the rules
these steps apply are in tools/aura/ (scope, leaks, mask_template, selection).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import llm
from anonygraph.attributes import ATTRIBUTES, describe_attributes
from anonygraph.inputs import split_comments
from anonygraph.model_requests.inference import infer_attributes
from anonygraph.prompts.aura import (
    NO_SEARCHES,
    SCOPE_PRIOR_BASE,
    SCOPE_PRIOR_NONE,
    render_dimensions,
    render_profile,
    render_scope,
    render_seeds,
)
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.search_agent import render_notes
from anonygraph.state.answers import (
    PrivacyScoreAnswer,
    ProfileAnswer,
    placeholder_key,
    probe_answer_model,
    reconstruct_answer_model,
    utility_loss_answer_model,
)
from anonygraph.state.aura import (
    UTILITY_DIMENSIONS,
    UTILITY_VERDICTS,
    AuraContext,
    BlacklistSpan,
    Candidate,
    MaskTemplate,
    ScopeItem,
)
from anonygraph.state.aura_state import CandidateTask, State
from anonygraph.state.domain import PolicyItem
from anonygraph.state.record import source_text
from anonygraph.state.review import STOPPED
from anonygraph.tools.acceptance import rejections, thresholds_from
from anonygraph.tools.aura.leaks import blacklisted_left, inferable, still_leaking
from anonygraph.tools.aura.mask_template import build_template as diff_template
from anonygraph.tools.aura.mask_template import fill_template, unfilled
from anonygraph.tools.aura.scope import adaptive_scope, base_item, checked_match
from anonygraph.tools.aura.selection import (
    candidate_problems,
    explain_choice,
    select_candidate,
)
from anonygraph.tools.spans import find_span


async def discover_scope(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Ask the attacker what could re-identify the author; check its quotes."""
    ctx = runtime.context
    base = [] if ctx.variant == "pure" else list(state.attributes)
    prior = fill(
        SCOPE_PRIOR_BASE, attributes=fence("attributes", describe_attributes(base))
    )
    notes = render_notes(state.search_log) if state.search_log else NO_SEARCHES
    prompt = fill(
        ctx.scope_prompt,
        text=fence("text", state.current),
        notes=fence("search_results", notes),
        prior=prior if base else SCOPE_PRIOR_NONE,
        max_findings=ctx.max_findings,
    )
    answer, calls = await llm.ask_structured(
        "attacker", prompt, probe_answer_model(ctx.max_findings), ctx, step="probe"
    )
    findings = [f.model_dump() for f in getattr(answer, "findings")]
    scope, blacklist, errors = adaptive_scope(
        findings[: ctx.max_findings], state.current, base, list(state.attributes)
    )
    match, problem = checked_match(getattr(answer, "matched_page"), state.search_log)
    if not state.search_log:
        errors.insert(0, "probe: no search was run; the scope comes from the text")
    return {
        "scope": [item.model_dump() for item in scope],
        "scope_source": "probe" if blacklist else "fallback",
        "attributes": [item.name for item in scope],
        "custom_attributes": {
            item.name: item.description for item in scope if item.name not in ATTRIBUTES
        },
        "blacklist": [span.model_dump() for span in blacklist],
        "probe_match": match,
        "calls": calls,
        "errors": list(dict.fromkeys(errors + problem)),
    }


def fix_scope(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Take the base attributes as the scope A without a probe (8attr variant)."""
    scope = [base_item(name, "base") for name in state.attributes]
    return {"scope": [item.model_dump() for item in scope], "scope_source": "fixed"}


async def profile_utility(
    state: State, runtime: Runtime[AuraContext]
) -> dict[str, Any]:
    """Ask the keeper what the text conveys, dimension by dimension (P)."""
    prompt = fill(
        runtime.context.profile_prompt,
        text=fence("text", state.current),
        dimensions=render_dimensions(UTILITY_DIMENSIONS),
    )
    answer, calls = await llm.ask_structured(
        "keeper", prompt, ProfileAnswer, runtime.context, step="profile"
    )
    profile = {name: getattr(answer, name).strip() for name in UTILITY_DIMENSIONS}
    return {"profile": profile, "calls": calls}


async def infer_scope(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Infer every attribute of the scope A from the current text.

    The attacker reads the text alone: the probe's search results describe
    the original and would make every round look leaky.
    """
    inferences, _, calls = await infer_attributes(
        state.current,
        state.attributes,
        runtime.context,
        custom=state.custom_attributes,
    )
    return {
        "inferences": inferences,
        "calls": [{**call, "step": "mask_attack"} for call in calls],
    }


def plan_suppression(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Tell the rewriter what is inferable and which blacklisted spans remain."""
    spans = blacklisted_left(state.masking_blacklist(runtime.context), state.current)
    policy = []
    for leak in inferable(state.inferences, runtime.context.min_certainty):
        evidence = spans.pop(leak.attribute, [])
        policy.append(
            PolicyItem(
                attribute=leak.attribute,
                action="generalize" if evidence else "address",
                evidence=evidence,
                concept=f"guessed {', '.join(leak.guesses)} because: {leak.reasoning}",
            )
        )
    policy += [
        PolicyItem(
            attribute=attribute,
            action="generalize",
            evidence=evidence,
            concept=f"these words could re-identify the author ({attribute})",
        )
        for attribute, evidence in spans.items()
    ]
    return {"policy": [item.model_dump() for item in policy]}


def build_template(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Diff the original against the converged text into a mask template."""
    template = diff_template(source_text(state), state.current)
    converged = not still_leaking(
        state.inferences,
        state.masking_blacklist(runtime.context),
        state.current,
        runtime.context.min_certainty,
    )
    update: dict[str, Any] = {
        "template": template.model_dump(),
        "mask_status": "converged" if converged else "max_rounds",
    }
    if converged:
        # The last inferences describe the converged text: keep them as a round.
        update["iterations"] = [state.snapshot(rewritten=None)]
    return update


async def reconstruct(
    state: CandidateTask, runtime: Runtime[AuraContext]
) -> dict[str, Any]:
    """Ask the reconstructor for one replacement per placeholder."""
    template = MaskTemplate.model_validate(state["template"])
    scope = render_scope([ScopeItem.model_validate(s) for s in state["scope"]])
    prompt = fill(
        runtime.context.reconstruct_prompt,
        template=fence("template", template.text),
        seeds=fence("seeds", render_seeds(template)),
        scope=fence("scope", scope),
        profile=fence("profile", render_profile(state["profile"])),
        variation=state["variation"],
    )
    schema = reconstruct_answer_model([m.placeholder for m in template.masks])
    answer, calls = await llm.ask_structured(
        "reconstructor", prompt, schema, runtime.context, step="reconstruct"
    )
    values = {
        m.placeholder: getattr(answer, placeholder_key(m.placeholder)).strip()
        for m in template.masks
    }
    candidate = Candidate(
        index=state["index"],
        variation=state["variation"],
        replacements=values,
        text=fill_template(template, values, squeeze=True),
    )
    return {"candidates": [candidate.model_dump()], "calls": calls}


def check_candidates(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Reject candidates that leave gaps, bring back masks or fail acceptance.

    The paper profile selects by S, C and L only: a candidate is refused
    there only when it leaves a placeholder unfilled (it is no text).
    """
    template = MaskTemplate.model_validate(state.template)
    paper = runtime.context.paper
    blacklist = [BlacklistSpan.model_validate(b) for b in state.blacklist]
    checked = []
    errors = []
    # The acceptance checks a refill's text must pass besides AURA's own (new
    # specifics are AURA's to judge: the blacklist and the privacy score).
    limits = replace(thresholds_from(runtime.context), check_new_specifics=False)
    original = source_text(state)
    for candidate in map(Candidate.model_validate, state.candidates):
        if paper:
            missing = unfilled(template, candidate.replacements)
            problems = [f"leaves {', '.join(missing)} unfilled"] if missing else []
        else:
            problems = candidate_problems(template, candidate.replacements, blacklist)
            problems += [
                f"{r.check}: {r.reason}"
                for r in rejections(original, candidate.text, thresholds=limits)
            ]
        checked.append({"index": candidate.index, "rejected": problems})
        errors += [f"candidate {candidate.index}: {p}" for p in problems]
    return {"candidates": checked, "errors": errors}


async def score_privacy(
    state: CandidateTask, runtime: Runtime[AuraContext]
) -> dict[str, Any]:
    """Let the attacker rate a candidate: severity S and identifying details C."""
    scope = render_scope([ScopeItem.model_validate(s) for s in state["scope"]])
    prompt = fill(
        runtime.context.privacy_prompt,
        text=fence("text", state["text"]),
        scope=fence("scope", scope),
    )
    answer, calls = await llm.ask_structured(
        "attacker", prompt, PrivacyScoreAnswer, runtime.context, step="score_privacy"
    )
    # Only details that are really in the candidate count towards C.
    details: dict[str, str] = {}
    for detail in answer.details:
        span = find_span(detail, state["text"])
        if span is not None:
            details.setdefault(span.casefold(), span)
    score = {
        "index": state["index"],
        "severity": answer.severity,
        "specific": len(details),
        "details": list(details.values()),
        "privacy_notes": answer.reasoning,
    }
    return {"candidates": [score], "calls": calls}


async def score_utility(
    state: CandidateTask, runtime: Runtime[AuraContext]
) -> dict[str, Any]:
    """Let the keeper rate a candidate's utility loss L against the profile P."""
    dimensions = [name for name, insight in state["profile"].items() if insight.strip()]
    if not dimensions:
        # An empty profile has nothing to lose: no keeper call.
        return {"candidates": [{"index": state["index"], "loss": 0.0}]}
    prompt = fill(
        runtime.context.utility_prompt,
        profile=fence("profile", render_profile(state["profile"])),
        text=fence("rewrite", state["text"]),
    )
    answer, calls = await llm.ask_structured(
        "keeper",
        prompt,
        utility_loss_answer_model(dimensions),
        runtime.context,
        step="score_utility",
    )
    verdicts = {name: str(getattr(answer, name)) for name in dimensions}
    loss = sum(UTILITY_VERDICTS[v] for v in verdicts.values()) / len(verdicts)
    score = {"index": state["index"], "loss": round(loss, 4), "dimensions": verdicts}
    return {"candidates": [score], "calls": calls}


def select(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Choose the candidate privacy-first and say why."""
    candidates = [Candidate.model_validate(c) for c in state.candidates]
    max_specific = runtime.context.max_specific
    chosen, rule = select_candidate(candidates, max_specific)
    choice = {
        "index": chosen.index if chosen else None,
        "rule": rule,
        "reason": explain_choice(chosen, rule, candidates, max_specific),
    }
    return {"choice": choice}


def finish_selection(state: State, runtime: Runtime[AuraContext]) -> dict[str, Any]:
    """Publish the chosen candidate, or the converged text when there is none."""
    index = state.choice.get("index")
    chosen = next((c for c in state.candidates if c["index"] == index), None)
    if state.stopped_in_review():
        # The reviewer turned every candidate down: the converged text stays.
        chosen, status = None, STOPPED
    elif not state.template.get("masks"):
        status = "no_masks"
    else:
        status = "selected" if chosen else "no_valid_candidate"
    text = chosen["text"] if chosen else state.current
    return {
        "anonymized": text,
        "anonymized_comments": split_comments(text, len(state.comments)),
        "status": status,
    }
