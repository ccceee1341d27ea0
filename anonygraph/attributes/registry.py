"""The registry: every attribute anonygraph knows, looked up by name or alias."""

from __future__ import annotations

from collections.abc import Mapping

from anonygraph.attributes.age import AGE
from anonygraph.attributes.base import AttributeSpec
from anonygraph.attributes.categorical import RELATIONSHIP_STATUS, SEX
from anonygraph.attributes.education import EDUCATION
from anonygraph.attributes.income import INCOME_LEVEL
from anonygraph.attributes.occupation import OCCUPATION
from anonygraph.attributes.places import BIRTH_CITY_COUNTRY, CITY_COUNTRY

ATTRIBUTES: dict[str, AttributeSpec] = {
    spec.name: spec
    for spec in (
        AGE,
        SEX,
        CITY_COUNTRY,
        BIRTH_CITY_COUNTRY,
        EDUCATION,
        OCCUPATION,
        INCOME_LEVEL,
        RELATIONSHIP_STATUS,
    )
}
"""The eight default attributes of the PersonalReddit benchmark."""

DEFAULT_ATTRIBUTES: tuple[str, ...] = tuple(ATTRIBUTES)

ALIASES: dict[str, str] = {
    alias: spec.name for spec in ATTRIBUTES.values() for alias in spec.aliases
}
"""Names the shared data sets and older prompts use -> our attribute name."""


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
