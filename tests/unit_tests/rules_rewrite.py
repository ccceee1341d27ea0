"""The `rules` backend's rewrite of one text, as the method graphs ask for it."""

from __future__ import annotations

from anonygraph.llm.backends.rules import answer
from anonygraph.state.answers import Rewrite

ATTRIBUTES = (
    "age",
    "sex",
    "city_country",
    "birth_city_country",
    "occupation",
    "income_level",
    "relationship_status",
    "education",
)
"""Every attribute: the anonymizer's policy when nothing narrows it."""


def rewritten(text: str, attributes: tuple[str, ...] = ATTRIBUTES) -> str:
    """Return the rules anonymizer's rewrite of ``text`` for ``attributes``."""
    policy = [{"attribute": a} for a in attributes]
    result = answer("anonymizer", Rewrite, {"text": text, "policy": policy})
    assert isinstance(result, Rewrite)
    return result.text
