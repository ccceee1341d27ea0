"""IntentAnony's exposure rules: governance table G, eq. 6 budgets, span actions."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from pydantic import ValidationError

from anonygraph.attributes import UnknownAttributeError
from anonygraph.state.domain import AttributeInference
from anonygraph.state.intentanony import (
    LEVELS,
    EvidenceChain,
    ExposureBudget,
    ExposureTable,
    Intent,
    IntentAnonyContext,
)

MAX_CERTAINTY: dict[str, int] = {"L0": 5, "L1": 4, "L2": 3, "L3": 2, "BAN": 1}
"""Eq. 7 made checkable: the highest attacker certainty (1-5) a level tolerates.

L0 tolerates a stated attribute (5); L1 an indirect inference (4) but not a
stated value; L2 a plausible guess (3); L3 a weak hunch (2); BAN only a wild
guess (1), the certainty an attacker gives when the text holds nothing.
"""

SPAN_ACTIONS: dict[str, tuple[str, str]] = {
    # level: (action on a non-intent span, action on an intent-relevant span)
    "L0": ("keep", "keep"),
    "L1": ("generalize", "keep"),
    "L2": ("generalize", "keep"),
    "L3": ("remove", "generalize"),
    "BAN": ("remove", "remove"),
}
"""Section 3.4: non-intent evidence is attenuated as soon as the budget binds;
intent-relevant evidence is kept verbatim until L3 (generalized) or BAN
(removed)."""

ACTION_ORDER: dict[str, int] = {"keep": 0, "generalize": 1, "remove": 2}
"""When spans of several chains coincide, the strictest action wins."""


class ExposureTableError(ValueError):
    """An exposure table or level option anonygraph cannot use."""


def check_level(value: str, option: str) -> str:
    """Return ``value`` as a level name.

    Raises:
        ExposureTableError: naming the option and the accepted levels.

    """
    if value not in LEVELS:
        raise ExposureTableError(
            f"{option}={value!r} is not a level; use one of {', '.join(LEVELS)}"
        )
    return value


def load_table(context: IntentAnonyContext) -> ExposureTable:
    """Read the run's exposure table: inline, from its file, or the shipped one.

    Raises:
        ExposureTableError: for a missing or malformed table, naming its origin.

    """
    origin = "exposure_table_inline"
    try:
        if context.exposure_table_inline:
            data = context.exposure_table_inline
        elif context.exposure_table:
            origin = context.exposure_table
            with open(origin, encoding="utf-8") as handle:
                data = json.load(handle)
        else:
            origin = "the shipped exposure_table.json"
            shipped = resources.files("anonygraph") / "data" / "exposure_table.json"
            data = json.loads(shipped.read_text(encoding="utf-8"))
        return ExposureTable.model_validate(data)
    except (OSError, json.JSONDecodeError) as exc:
        raise ExposureTableError(f"exposure table {origin}: {exc}") from exc
    except (ValidationError, UnknownAttributeError) as exc:
        raise ExposureTableError(f"exposure table {origin} is invalid: {exc}") from exc


def counted_intents(intents: list[dict[str, Any]], threshold: float) -> list[Intent]:
    """Return the recognized intents I(x): those weighing at least ``threshold``."""
    return [
        intent
        for intent in map(Intent.model_validate, intents)
        if intent.weight > 0 and intent.weight >= threshold
    ]


def strictest(levels: list[str]) -> str:
    """Return the most restrictive level: eq. 6's minimum over allowed exposure."""
    return max(levels, key=LEVELS.index)


def effective_budget(
    attribute: str,
    scene: str,
    counted: list[Intent],
    table: ExposureTable,
    default_level: str,
) -> ExposureBudget:
    """Apply eq. 6: the strictest G(scene, I, attribute) over the counted intents."""
    if not counted:
        return ExposureBudget(
            attribute=attribute,
            level=default_level,  # type: ignore[arg-type]
            max_certainty=MAX_CERTAINTY[default_level],
            source="no_intent",
        )
    by_intent: dict[str, str] = {}
    defaulted: list[str] = []
    for intent in counted:
        level = table.lookup(scene, intent.code, attribute)
        if level is None:
            defaulted.append(intent.code)
        by_intent[intent.code] = level or default_level
    level = strictest(list(by_intent.values()))
    return ExposureBudget(
        attribute=attribute,
        level=level,  # type: ignore[arg-type]
        max_certainty=MAX_CERTAINTY[level],
        source="table",
        by_intent=by_intent,  # type: ignore[arg-type]
        defaulted=defaulted,
    )


def mark_chain(
    chain: EvidenceChain, budget: ExposureBudget, counted: list[Intent]
) -> EvidenceChain:
    """Mark each step intent-relevant or not and give it its action."""
    codes = {intent.code for intent in counted}
    steps = []
    for step in chain.steps:
        relevant = step.intent in codes
        action = SPAN_ACTIONS[budget.level][1 if relevant else 0]
        steps.append(
            step.model_copy(update={"intent_relevant": relevant, "action": action})
        )
    return chain.model_copy(update={"steps": steps})


def over_budget(
    inferences: list[AttributeInference], budgets: list[ExposureBudget]
) -> list[dict[str, Any]]:
    """List the attributes an attacker infers more surely than their budget allows."""
    limits = {b.attribute: b for b in budgets}
    return [
        {
            "attribute": i.attribute,
            "level": limits[i.attribute].level,
            "certainty": i.certainty,
            "max_certainty": limits[i.attribute].max_certainty,
            "guesses": i.guesses,
            "reasoning": i.reasoning,
        }
        for i in inferences
        if i.is_leak
        and i.attribute in limits
        and i.certainty > limits[i.attribute].max_certainty
    ]


def needs_rewrite(chains: list[dict[str, Any]]) -> bool:
    """Tell whether some evidence span must be generalized or removed."""
    return any(s["action"] != "keep" for c in chains for s in c["steps"])


def budgets_for(
    attributes: list[str],
    scene: str,
    counted: list[Intent],
    context: IntentAnonyContext,
) -> list[ExposureBudget]:
    """Return each attribute's budget: the run's fixed level, else eq. 6."""
    default = check_level(context.default_level, "default_level")
    if context.privacy_level:
        fixed = check_level(context.privacy_level, "privacy_level")
        return [
            ExposureBudget(
                attribute=a,
                level=fixed,  # type: ignore[arg-type]
                max_certainty=MAX_CERTAINTY[fixed],
                source="privacy_level",
            )
            for a in attributes
        ]
    table = load_table(context)
    return [effective_budget(a, scene, counted, table, default) for a in attributes]


def budget_notes(
    budgets: list[ExposureBudget], scene: str, context: IntentAnonyContext
) -> list[str]:
    """Report the defaults a budget fell back on (no intent, no table entry)."""
    default = context.default_level
    if any(b.source == "no_intent" for b in budgets):
        return [
            f"no intent reached the weight threshold {context.intent_threshold}: "
            f"every attribute gets the default level {default} and no evidence "
            "is intent-relevant"
        ]
    return [
        f"exposure table has no level for {b.attribute} under "
        f"{', '.join(b.defaulted)} (scene {scene!r}): default level {default} used"
        for b in budgets
        if b.defaulted
    ]
