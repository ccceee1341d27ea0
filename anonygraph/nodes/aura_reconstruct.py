"""AURA phase 2: reconstruct the template N times, score, select privacy-first."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph import models
from anonygraph.inputs import split_comments
from anonygraph.nodes.evidence import find_span, locate
from anonygraph.prompts.aura import (
    EMPTY_PROFILE,
    PROFILE_LINE,
    SEED_DROPPED,
    SEED_LINE,
    VARIATIONS,
)
from anonygraph.state.aura import CandidateTask
from anonygraph.state.domain import (
    UTILITY_VERDICTS,
    BlacklistSpan,
    Candidate,
    MaskTemplate,
    PrivacyScoreAnswer,
    ScopeItem,
    placeholder_key,
    reconstruct_answer_model,
    utility_loss_answer_model,
)
from anonygraph.tools.mask_template import fill_template, restored_spans, unfilled


def candidate_task(state: Any, index: int, text: str = "") -> CandidateTask:
    """Build what a fanned-out step for candidate ``index`` is sent."""
    return CandidateTask(
        index=index,
        variation=VARIATIONS[index % len(VARIATIONS)],
        text=text,
        template=state.template,
        scope=state.scope,
        profile=state.profile,
    )


async def reconstruct(state: CandidateTask, runtime: Runtime[Any]) -> dict[str, Any]:
    """Ask the reconstructor for one replacement per placeholder."""
    template = MaskTemplate.model_validate(state["template"])
    prompt = runtime.context.reconstruct_prompt.format(
        template=template.text,
        seeds=render_seeds(template),
        scope=render_scope(state["scope"]),
        profile=render_profile(state["profile"]),
        variation=state["variation"],
    )
    schema = reconstruct_answer_model([m.placeholder for m in template.masks])
    answer, calls = await models.ask_structured(
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


def render_seeds(template: MaskTemplate) -> str:
    """List each placeholder with what the converged rewrite put there."""
    return "\n".join(
        SEED_LINE.format(placeholder=m.placeholder, seed=m.seed)
        if m.seed.strip()
        else SEED_DROPPED.format(placeholder=m.placeholder)
        for m in template.masks
    )


def render_scope(scope: list[dict[str, Any]]) -> str:
    """List the scope A for a prompt."""
    return "\n".join(
        f"- {item.name}: {item.description}"
        for item in map(ScopeItem.model_validate, scope)
    )


def render_profile(profile: dict[str, str]) -> str:
    """List the non-empty dimensions of the profile P for a prompt."""
    lines = [
        PROFILE_LINE.format(dimension=name, insight=insight)
        for name, insight in profile.items()
        if insight.strip()
    ]
    return "\n".join(lines) or EMPTY_PROFILE


def check_candidates(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Reject candidates that leave gaps or bring back what was masked."""
    template = MaskTemplate.model_validate(state.template)
    blacklist = [BlacklistSpan.model_validate(b) for b in state.blacklist]
    checked = []
    errors = []
    for candidate in map(Candidate.model_validate, state.candidates):
        problems = candidate_problems(template, candidate.replacements, blacklist)
        checked.append({"index": candidate.index, "rejected": problems})
        errors += [f"candidate {candidate.index}: {p}" for p in problems]
    return {"candidates": checked, "errors": errors}


def candidate_problems(
    template: MaskTemplate, values: dict[str, str], blacklist: list[BlacklistSpan]
) -> list[str]:
    """Say why a candidate's replacements may not be used; [] when they may."""
    problems = []
    missing = unfilled(template, values)
    if missing:
        problems.append(f"leaves {', '.join(missing)} unfilled")
    restored = restored_spans(template, values)
    if restored:
        problems.append(f"fills {', '.join(restored)} with the original words")
    for placeholder, value in values.items():
        for entry in blacklist:
            if locate(entry.quote, value) is not None:
                problems.append(
                    f"fills {placeholder} with blacklisted words ({entry.attribute})"
                )
    return problems


async def score_privacy(state: CandidateTask, runtime: Runtime[Any]) -> dict[str, Any]:
    """Let the attacker rate a candidate: severity S and identifying details C."""
    prompt = runtime.context.privacy_prompt.format(
        text=state["text"], scope=render_scope(state["scope"])
    )
    answer, calls = await models.ask_structured(
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


async def score_utility(state: CandidateTask, runtime: Runtime[Any]) -> dict[str, Any]:
    """Let the keeper rate a candidate's utility loss L against the profile P."""
    dimensions = [name for name, insight in state["profile"].items() if insight.strip()]
    if not dimensions:
        # An empty profile has nothing to lose: no keeper call.
        return {"candidates": [{"index": state["index"], "loss": 0.0}]}
    prompt = runtime.context.utility_prompt.format(
        profile=render_profile(state["profile"]), text=state["text"]
    )
    answer, calls = await models.ask_structured(
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


def select(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
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


def select_candidate(
    candidates: list[Candidate], max_specific: int
) -> tuple[Candidate | None, str]:
    """Pick among scored valid candidates: privacy first, then utility.

    Among candidates with C <= ``max_specific`` the lowest (S, L) wins
    (rule ``within_c_max``); when there is none, the lowest (C, S, L)
    (``fewest_details``); ties go to the lower index.

    Returns:
        The winner (None when no candidate is valid and scored) and the rule.

    """
    scored = [c for c in candidates if c.scored]
    if not scored:
        return None, "no_valid_candidate"
    within = [
        c for c in scored if c.specific is not None and c.specific <= max_specific
    ]
    if within:
        return min(within, key=lambda c: (c.severity, c.loss, c.index)), "within_c_max"
    best = min(scored, key=lambda c: (c.specific, c.severity, c.loss, c.index))
    return best, "fewest_details"


def explain_choice(
    chosen: Candidate | None, rule: str, candidates: list[Candidate], max_specific: int
) -> str:
    """Say in words why ``chosen`` won, for Studio and the store."""
    if chosen is None:
        return (
            f"none of the {len(candidates)} candidates is valid; the converged "
            "text is kept"
        )
    scored = sum(c.scored for c in candidates)
    key = f"C={chosen.specific}, S={chosen.severity}, L={chosen.loss}"
    if rule == "within_c_max":
        return (
            f"candidate {chosen.index} ({key}) has the lowest (S, L) among the "
            f"valid candidates with C <= {max_specific} ({scored} valid in all)"
        )
    return (
        f"no valid candidate has C <= {max_specific}; candidate {chosen.index} "
        f"({key}) has the lowest (C, S, L) of {scored}"
    )


def finish(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Publish the chosen candidate, or the converged text when there is none."""
    index = state.choice.get("index")
    chosen = next((c for c in state.candidates if c["index"] == index), None)
    if not state.template.get("masks"):
        status = "no_masks"
    else:
        status = "selected" if chosen else "no_valid_candidate"
    text = chosen["text"] if chosen else state.current
    return {
        "anonymized": text,
        "anonymized_comments": split_comments(text, len(state.comments)),
        "status": status,
    }
