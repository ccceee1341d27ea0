"""Acceptance checks a model's rewrite must pass before it replaces a text."""

from __future__ import annotations

MAX_GROWTH = 3.0
"""Anonymizing generalizes and trims: a rewrite far longer than its input rambles."""


def rewrite_problem(before: str, after: str, min_ratio: float) -> str | None:
    """Say why a rewrite must not replace ``before``, or None when it may."""
    if not after.strip():
        return "the anonymizer returned an empty text"
    if len(after.strip()) < min_ratio * len(before.strip()):
        return (
            f"the rewrite has {len(after.strip())} characters, under "
            f"{min_ratio:.0%} of the {len(before.strip())} it replaces"
        )
    if len(after.strip()) > MAX_GROWTH * len(before.strip()) + 200:
        return (
            f"the rewrite has {len(after.strip())} characters, over "
            f"{MAX_GROWTH:g} times the {len(before.strip())} it replaces"
        )
    if " ".join(after.split()) == " ".join(before.split()):
        return "the rewrite left the text unchanged"
    return None
