"""AURA's probe rules: when it searches, and how its findings become A and B."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from anonygraph.attributes import (
    ATTRIBUTES,
    UnknownAttributeError,
    resolve_attributes,
)
from anonygraph.state.aura import AuraContext, BlacklistSpan, ScopeItem
from anonygraph.tools.spans import find_span

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


def probe_searches(context: AuraContext) -> bool:
    """Tell whether the run gave the probe something to search."""
    if not context.search_backend:
        return False
    if context.search_backend == "offline":
        return bool(context.search_index or context.search_corpus)
    return True


def checked_match(page: str, search_log: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """Keep the page the probe matched only if the search results show it."""
    page = page.strip()
    if not page or any(page in entry["results"] for entry in search_log):
        return page, []
    return "", [f"probe: page {page!r} is not among the search results; dropped"]


def _plain(name: str) -> str:
    name = re.sub(r"^[a-z]+://", "", name.strip().lower())
    return name.removeprefix("www.").rstrip("/")


def reidentified(
    page: str, identity: list[str], search_log: list[dict[str, Any]]
) -> bool:
    """Tell whether the adversary named the author: AURA's re-identification.

    The page it names must be among its search results (`checked_match`) and
    name one of ``identity`` (a page or name of the author; scheme, ``www.``,
    case and a closing slash aside, one holding the other).
    """
    shown, _ = checked_match(page, search_log)
    if not shown:
        return False
    named = _plain(shown)
    return any(
        (known := _plain(who)) and (known in named or named in known)
        for who in identity
    )


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
    scope = {name: base_item(name, "base") for name in base}
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
            item = scope.get(name) or base_item(name, "probe")
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
        scope = {name: base_item(name, "fallback") for name in fallback}
    return list(scope.values()), list(blacklist.values()), errors


def base_item(name: str, source: str) -> ScopeItem:
    """Return the scope item of a base attribute, marked with its source."""
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
