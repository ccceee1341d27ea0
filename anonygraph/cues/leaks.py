"""A model-free privacy measure: the explicit-cue leak rate per attribute.

A labelled record leaks an attribute when its text still holds the label
(the age as a number, the city of a place label, the occupation or a status
word as written) or an exact cue the detectors tie to that attribute (a
stated age, a city, a salary, "my husband"). Coarse cues ("in my thirties",
a country) do not count: they are what generalization leaves on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from anonygraph.cues import detect_cues

# Option labels that are ordinary words of any text say nothing when found.
_LABEL_TEXT_SKIPPED = frozenset({"sex", "income_level"})


@dataclass(frozen=True)
class LeakRate:
    """How many labelled records still leak one attribute explicitly."""

    attribute: str
    labelled: int
    leaked: int

    @property
    def rate(self) -> float:
        """Share of labelled records that leak, 0-1 (0.0 when none labelled)."""
        return self.leaked / self.labelled if self.labelled else 0.0


def _label_in_text(attribute: str, label: str, text: str) -> bool:
    if attribute in _LABEL_TEXT_SKIPPED or not label.strip():
        return False
    needle = label
    if attribute in ("city_country", "birth_city_country"):
        needle = label.split(",")[0]
    needle = needle.strip()
    if len(needle) < 2:
        return False
    return (
        re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", text, re.IGNORECASE) is not None
    )


def leaked_attributes(text: str, labels: Mapping[str, Any]) -> dict[str, str]:
    """Return attribute -> why it still leaks, for each labelled attribute that does.

    Args:
        text: The (anonymized) text.
        labels: Ground truth keyed by canonical attribute name (``age``,
            ``city_country``, ...); empty values are skipped.

    """
    cues = detect_cues(text)
    reasons: dict[str, str] = {}
    for attribute, value in labels.items():
        if value is None or str(value).strip() == "":
            continue
        label = str(value)
        if _label_in_text(attribute, label, text):
            reasons[attribute] = f"label {label!r} is in the text"
            continue
        exact = [c for c in cues if c.attribute == attribute and c.exact]
        if exact:
            reasons[attribute] = f"explicit cue {exact[0].quote!r} ({exact[0].kind})"
    return reasons


def explicit_leak_rates(
    records: Iterable[tuple[str, Mapping[str, Any]]],
) -> dict[str, LeakRate]:
    """Return the explicit-cue leak rate per attribute over labelled records.

    Args:
        records: (text, labels) pairs; labels keyed by canonical attribute.

    Returns:
        Attribute -> `LeakRate`, for every attribute some record labels.

    """
    labelled: dict[str, int] = {}
    leaked: dict[str, int] = {}
    for text, labels in records:
        leaks = leaked_attributes(text, labels)
        for attribute, value in labels.items():
            if value is None or str(value).strip() == "":
                continue
            labelled[attribute] = labelled.get(attribute, 0) + 1
            leaked[attribute] = leaked.get(attribute, 0) + (attribute in leaks)
    return {
        name: LeakRate(name, labelled[name], leaked[name]) for name in sorted(labelled)
    }
