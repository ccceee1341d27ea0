"""Attribute inference: the one attacker request every attacking step sends."""

from __future__ import annotations

from typing import Any

from anonygraph import llm
from anonygraph.attributes import describe_attributes, resolve_attributes
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.search_agent import IDENTIFY_PROMPT, render_notes
from anonygraph.state.answers import inferences_from_answer, scope_answer_model
from anonygraph.state.context import ModelContext
from anonygraph.state.paper_answers import attack_model, paper_inferences


def protected_attributes(
    attributes: list[str], context: ModelContext, custom: dict[str, str] | None = None
) -> list[str]:
    """Return the record's attributes if it names any, else the run's."""
    return resolve_attributes(attributes or context.attributes, custom or {})


def attack_request(
    template: str, text: str, attributes: list[str], custom: dict[str, str]
) -> str:
    """Fill an attack template with the text and the attributes to infer."""
    return fill(
        template,
        text=fence("text", text),
        attributes=fence("attributes", describe_attributes(attributes, custom)),
    )


async def infer_attributes(
    text: str,
    attributes: list[str],
    context: ModelContext,
    *,
    custom: dict[str, str] | None = None,
    search_log: list[dict[str, Any]] | None = None,
) -> tuple[list[dict[str, Any]], str, list[dict[str, Any]]]:
    """Ask the attacker to infer ``attributes`` from ``text``.

    After web searches (``search_log``), the attacker reads their results and
    may name the author's profile (the agentic adversary); otherwise it reads
    the text alone. A paper's ``attack_format`` asks for that paper's forced
    guesses on the base attributes (searches and custom attributes keep ours).

    Returns:
        The `AttributeInference` dicts, the profile named ('' without
        searches) and the call records (step ``attack``).

    """
    custom = custom or {}
    attributes = protected_attributes(attributes, context, custom)
    prompt = attack_request(context.attack_prompt, text, attributes, custom)
    if search_log:
        notes = fence("search_results", render_notes(search_log))
        prompt = fill(IDENTIFY_PROMPT, attack=prompt, notes=notes)
    fmt = getattr(context, "attack_format", "product")
    paper = fmt != "product" and not search_log and not custom
    schema = (
        attack_model(fmt, attributes)
        if paper
        else scope_answer_model(attributes, custom, identify=bool(search_log))
    )
    answer, calls = await llm.ask_structured(
        "attacker",
        prompt,
        schema,
        context,
        step="attack",
        facts={"text": text, "attributes": attributes},
    )
    parsed = (
        paper_inferences(fmt, answer, attributes)
        if paper
        else inferences_from_answer(answer)
    )
    inferences = [i.model_dump() for i in parsed]
    profile = str(getattr(answer, "identified_profile", "")) if search_log else ""
    return inferences, profile, calls
