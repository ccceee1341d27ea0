"""Personal attributes as one registry.

Each attribute's description, options, aliases, parser and match rule live in
one module; ``is_unknown`` is the one test of a guess that names no value.
"""

from anonygraph.attributes.base import (
    AttributeSpec,
    Decision,
    Rule,
    is_unknown,
    normalize,
)
from anonygraph.attributes.registry import (
    ALIASES,
    ATTRIBUTES,
    DEFAULT_ATTRIBUTES,
    UnknownAttributeError,
    canonical_attribute,
    describe_attributes,
    resolve_attributes,
)

__all__ = [
    "ALIASES",
    "ATTRIBUTES",
    "DEFAULT_ATTRIBUTES",
    "AttributeSpec",
    "Decision",
    "Rule",
    "UnknownAttributeError",
    "canonical_attribute",
    "describe_attributes",
    "is_unknown",
    "normalize",
    "resolve_attributes",
]
