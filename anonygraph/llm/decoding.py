"""Decoding settings per role: one typed table, looked up by role name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

ROLES: tuple[str, ...] = (
    "attacker",
    "arbitrator",
    "anonymizer",
    "judge",
    "intent",
    "evidence",
    "rewriter",
    "reconstructor",
    "keeper",
    "validator",
)
"""Every role a graph step asks a model in (``--model ROLE=SPEC``)."""


@dataclass(frozen=True)
class Decoding:
    """How a role's model decodes: the sampling and length settings it is sent."""

    temperature: float
    top_p: float | None
    """None: the backend's own default."""
    max_tokens: int

    @property
    def deterministic(self) -> bool:
        """Tell whether the same request always gets the same answer (greedy)."""
        return self.temperature == 0


DecodingTable = Mapping[str, Decoding]
"""Role -> decoding settings."""

# RLAA table 5 for attacker, arbitrator and anonymizer; deterministic judging roles.
ROLE_DECODING: DecodingTable = MappingProxyType(
    {
        "attacker": Decoding(0.1, 0.9, 1024),
        "arbitrator": Decoding(0.0, None, 1024),
        "anonymizer": Decoding(0.5, 0.9, 512),
        "judge": Decoding(0.0, None, 512),
        # IntentAnony table 6: its stages decode at temperature 0.1, top-p 1.0.
        "intent": Decoding(0.1, 1.0, 512),
        "evidence": Decoding(0.1, 1.0, 2048),
        "rewriter": Decoding(0.1, 1.0, 2048),
        "reconstructor": Decoding(0.7, 0.9, 512),
        "keeper": Decoding(0.0, None, 512),
        "validator": Decoding(0.0, None, 64),
    }
)
"""The default table; a role it does not name decodes as ``judge``."""

FALLBACK_ROLE = "judge"
"""The row a role missing from a table takes."""


def decoding_for(role: str, table: DecodingTable | None = None) -> Decoding:
    """Return ``role``'s decoding settings from ``table`` (``judge``'s if absent).

    Without a table: `ROLE_DECODING`, read at call time.
    """
    rows = ROLE_DECODING if table is None else table
    return rows.get(role) or rows[FALLBACK_ROLE]
