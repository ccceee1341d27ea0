"""AURA's masking stop rule: what in a text still gives the privacy scope away."""

from __future__ import annotations

from typing import Any

from anonygraph.state.aura import BlacklistSpan
from anonygraph.state.domain import AttributeInference
from anonygraph.tools.spans import find_span


def inferable(
    inferences: list[dict[str, Any]], min_certainty: int
) -> list[AttributeInference]:
    """Return the inferences that commit to a guess with enough certainty."""
    return [
        inference
        for inference in map(AttributeInference.model_validate, inferences)
        if inference.is_leak and inference.certainty >= min_certainty
    ]


def blacklisted_left(
    blacklist: list[dict[str, Any]], text: str
) -> dict[str, list[str]]:
    """Return the blacklisted spans still in ``text``, by the attribute they reveal."""
    spans: dict[str, list[str]] = {}
    for entry in map(BlacklistSpan.model_validate, blacklist):
        span = find_span(entry.quote, text)
        if span is not None:
            spans.setdefault(entry.attribute, []).append(span)
    return spans


def still_leaking(
    inferences: list[dict[str, Any]],
    blacklist: list[dict[str, Any]],
    text: str,
    min_certainty: int,
) -> bool:
    """Tell whether ``text`` still gives A away: an inference or a blacklisted span.

    A span of B still standing counts as a leak even when this round's attacker
    missed it: the probe showed that those words lead to the author.
    """
    return bool(
        inferable(inferences, min_certainty) or blacklisted_left(blacklist, text)
    )
