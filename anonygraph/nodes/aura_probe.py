"""AURA phase 0: the re-identification probe (scope A, blacklist B) and profile P."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel

from anonygraph import models
from anonygraph.attributes import (
    ATTRIBUTES,
    UnknownAttributeError,
    describe_attributes,
    resolve_attributes,
)
from anonygraph.nodes.evidence import find_span
from anonygraph.nodes.search_agent import render_notes
from anonygraph.prompts.aura import (
    NO_SEARCHES,
    PROFILE_LINE,
    SCOPE_PRIOR_BASE,
    SCOPE_PRIOR_NONE,
)
from anonygraph.state.domain import (
    UTILITY_DIMENSIONS,
    BlacklistSpan,
    ProfileAnswer,
    ScopeItem,
    probe_answer_model,
)

KIND_DESCRIPTIONS: dict[str, str] = {
    "personal": "a personal attribute of the author",
    "workflow": "how the author organizes or carries out their work",
    "tool_stack": "software, instruments or equipment the author uses",
    "domain_practice": "methods or habits specific to the author's field",
    "institution": "an employer, school, lab or other body the author belongs to",
    "other": "a rare detail that narrows the author down",
}
"""Descriptions of a finding's kind, used when the probe gives none."""

RESERVED = frozenset(dir(BaseModel)) | {"identified_profile", "note"}
"""Names an answer schema cannot use for an attribute."""


def probe_searches(context: Any) -> bool:
    """Tell whether the run gave the probe something to search."""
    if not context.search_backend:
        return False
    if context.search_backend == "offline":
        return bool(context.search_index or context.search_corpus)
    return True


async def discover_scope(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Ask the attacker what could re-identify the author; check its quotes."""
    ctx = runtime.context
    base = [] if ctx.variant == "pure" else list(state.attributes)
    prior = SCOPE_PRIOR_BASE.format(attributes=describe_attributes(base))
    prompt = ctx.scope_prompt.format(
        text=state.current,
        notes=render_notes(state.search_log) if state.search_log else NO_SEARCHES,
        prior=prior if base else SCOPE_PRIOR_NONE,
        max_findings=ctx.max_findings,
    )
    answer, calls = await models.ask_structured(
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


def checked_match(page: str, search_log: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """Keep the page the probe matched only if the search results show it."""
    page = page.strip()
    if not page or any(page in entry["results"] for entry in search_log):
        return page, []
    return "", [f"probe: page {page!r} is not among the search results; dropped"]


def adaptive_scope(
    findings: list[dict[str, Any]], text: str, base: list[str], fallback: list[str]
) -> tuple[list[ScopeItem], list[BlacklistSpan], list[str]]:
    """Turn probe findings into the scope A and the blacklist B.

    A finding counts only when its quote is in ``text``; the span as written
    there joins B. A is ``base`` plus every attribute a counted finding names;
    when no finding counts it is ``fallback`` (the base attributes).

    Returns:
        A, B and the problems met (dropped quotes, the fallback).

    """
    scope = {name: _base_item(name, "base") for name in base}
    blacklist: dict[str, BlacklistSpan] = {}
    errors: list[str] = []
    for finding in findings:
        span = find_span(finding["quote"], text)
        if span is None:
            errors.append(
                f"probe: quote {finding['quote']!r} ({finding['attribute']!r}) is "
                "not in the text; dropped"
            )
            continue
        name = scope_name(finding["attribute"], finding["kind"])
        if name in ATTRIBUTES:
            item = scope.get(name) or _base_item(name, "probe")
            scope[name] = item.model_copy(update={"source": "probe"})
        elif name not in scope:
            scope[name] = ScopeItem(
                name=name,
                description=finding["description"].strip()
                or KIND_DESCRIPTIONS[finding["kind"]],
                source="probe",
                kind=finding["kind"],
            )
        blacklist.setdefault(
            span.casefold(),
            BlacklistSpan(quote=span, attribute=name, kind=finding["kind"]),
        )
    if not blacklist:
        errors.append("probe: no clue found; the scope falls back to the base ones")
        scope = {name: _base_item(name, "fallback") for name in fallback}
    return list(scope.values()), list(blacklist.values()), errors


def _base_item(name: str, source: str) -> ScopeItem:
    return ScopeItem(
        name=name,
        description=ATTRIBUTES[name].description,
        source=source,  # type: ignore[arg-type]
    )


def scope_name(label: str, kind: str) -> str:
    """Map a finding's label to a base attribute or a safe snake_case name."""
    name = re.sub(r"[^a-z0-9]+", "_", label.strip().lower()).strip("_")[:40]
    name = name.strip("_") or kind
    try:
        return resolve_attributes([name])[0]
    except UnknownAttributeError:
        pass
    if name[0].isdigit() or name.startswith("model_"):
        name = f"cue_{name}"
    return f"{name}_cue" if name in RESERVED else name


def fix_scope(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Take the base attributes as the scope A without a probe (8attr variant)."""
    scope = [_base_item(name, "base") for name in state.attributes]
    return {"scope": [item.model_dump() for item in scope], "scope_source": "fixed"}


async def profile_utility(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Ask the keeper what the text conveys, dimension by dimension (P)."""
    dimensions = "\n".join(
        PROFILE_LINE.format(dimension=name, insight=meaning)
        for name, meaning in UTILITY_DIMENSIONS.items()
    )
    prompt = runtime.context.profile_prompt.format(
        text=state.current, dimensions=dimensions
    )
    answer, calls = await models.ask_structured(
        "keeper", prompt, ProfileAnswer, runtime.context, step="profile"
    )
    profile = {name: getattr(answer, name).strip() for name in UTILITY_DIMENSIONS}
    return {"profile": profile, "calls": calls}
