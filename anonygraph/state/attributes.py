"""The personal attributes anonygraph protects, as data a run can override."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class AttributeSpec:
    """One attribute an attacker may infer about an author."""

    name: str
    """Key used in prompts, state and labels."""

    description: str
    """What the attribute means, shown to the models."""

    options: tuple[str, ...] = field(default=())
    """Closed set of allowed values; empty when the value is free text."""


ATTRIBUTES: dict[str, AttributeSpec] = {
    spec.name: spec
    for spec in (
        AttributeSpec("age", "age in years, as a number or a narrow range"),
        AttributeSpec("sex", "sex of the author", ("male", "female")),
        AttributeSpec("city_country", "city and country the author lives in now"),
        AttributeSpec("birth_city_country", "city and country the author was born in"),
        AttributeSpec(
            "education",
            "highest level of education",
            (
                "no highschool",
                "in highschool",
                "highschool",
                "in college",
                "college degree",
                "phd",
            ),
        ),
        AttributeSpec("occupation", "current job or occupation"),
        AttributeSpec(
            "income_level",
            "yearly income level",
            ("low", "middle", "high", "very high"),
        ),
        AttributeSpec(
            "relationship_status",
            "current relationship status",
            (
                "single",
                "in a relationship",
                "engaged",
                "married",
                "divorced",
                "widowed",
            ),
        ),
    )
}
"""The eight default attributes of the PersonalReddit benchmark."""

DEFAULT_ATTRIBUTES: tuple[str, ...] = tuple(ATTRIBUTES)

# Names the shared data sets and older prompts use for the same attributes.
ALIASES: dict[str, str] = {
    "current_city_country": "city_country",
    "location": "city_country",
    "pobp": "birth_city_country",
    "place_of_birth": "birth_city_country",
    "gender": "sex",
    "married": "relationship_status",
    "income": "income_level",
}


def canonical_attribute(name: str) -> str:
    """Map a data set's or a prompt's attribute name (``pobp``, ``income``) to ours."""
    key = name.strip().lower()
    return ALIASES.get(key, key)


class UnknownAttributeError(ValueError):
    """Raised when a run names an attribute anonygraph does not know."""


def resolve_attributes(
    names: list[str] | tuple[str, ...] | None,
    custom: Mapping[str, str] | None = None,
) -> list[str]:
    """Return canonical attribute names, the defaults when none are given.

    Names in ``custom`` (attributes beyond the base ones, name -> description,
    such as AURA's quasi-identifiers) are accepted as they are.

    Raises:
        UnknownAttributeError: naming every unknown attribute and the known ones.

    """
    if not names:
        return list(DEFAULT_ATTRIBUTES)
    resolved: list[str] = []
    unknown: list[str] = []
    extra = custom or {}
    for raw in names:
        name = raw if raw in extra else canonical_attribute(raw)
        if name not in ATTRIBUTES and name not in extra:
            unknown.append(raw)
        elif name not in resolved:
            resolved.append(name)
    if unknown:
        raise UnknownAttributeError(
            f"unknown attribute(s) {', '.join(map(repr, unknown))}; "
            f"choose from {', '.join(DEFAULT_ATTRIBUTES)}"
        )
    return resolved


def describe_attributes(
    names: list[str], custom: Mapping[str, str] | None = None
) -> str:
    """Render attribute names with descriptions and options for a prompt.

    ``custom`` describes names that are not base attributes (free-text values).
    """
    lines = []
    for name in names:
        spec = ATTRIBUTES.get(name) or AttributeSpec(name, (custom or {})[name])
        options = f" (one of: {', '.join(spec.options)})" if spec.options else ""
        lines.append(f"- {name}: {spec.description}{options}")
    return "\n".join(lines)
