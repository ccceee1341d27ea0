"""Decoding settings per role: one typed table, looked up by role name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def _paper(rows: Mapping[str, Decoding]) -> DecodingTable:
    # Where a paper is silent a role keeps the product's row (the facts files
    # in tests/data/papers mark those as silent).
    return MappingProxyType({**ROLE_DECODING, **rows})


_RLAA_TABLE_5 = {
    "attacker": Decoding(0.1, 0.9, 1024),
    "arbitrator": Decoding(0.0, None, 1024),
    "anonymizer": Decoding(0.5, 0.9, 512),
}
_SEAL_A2 = Decoding(0.1, 1.0, 0)  # tokens: silent (filled from the product row)
_INTENTANONY_TABLE_6 = Decoding(0.1, 1.0, 8192)

PAPER_DECODING: Mapping[str, DecodingTable] = MappingProxyType(
    {
        # RLAA Appendix C, table 5; FgAA runs on the same settings (table 2).
        "rlaa": _paper(_RLAA_TABLE_5),
        "fgaa": _paper(_RLAA_TABLE_5),
        # SEAL A.2: every teacher call at temperature 0.1, top-p 1.0.
        "seal": _paper(
            {
                role: Decoding(
                    _SEAL_A2.temperature, _SEAL_A2.top_p, ROLE_DECODING[role].max_tokens
                )
                for role in ("attacker", "anonymizer", "judge")
            }
        ),
        # IntentAnony table 6: 0.1 / 1.0 / 8192 at every stage, validator 0.0.
        "intentanony": _paper(
            {
                **{
                    role: _INTENTANONY_TABLE_6
                    for role in ("intent", "attacker", "evidence", "rewriter", "judge")
                },
                "validator": Decoding(0.0, 1.0, 8192),
            }
        ),
    }
)
"""Method -> its paper's per-role decoding (the paper profile's table)."""

DECODING_KEYS: tuple[str, ...] = ("temperature", "top_p", "max_tokens")
"""What a ``ROLE.KEY=VALUE`` override may set."""


def with_overrides(table: DecodingTable, overrides: Sequence[str]) -> DecodingTable:
    """Return ``table`` with ``ROLE.KEY=VALUE`` overrides applied.

    Raises:
        ValueError: naming the override that does not parse, its role or key.
    """
    if not overrides:
        return table
    rows = dict(table)
    for item in overrides:
        target, sep, value = item.partition("=")
        role, dot, key = target.strip().partition(".")
        if not sep or not dot or key not in DECODING_KEYS or role not in ROLES:
            raise ValueError(
                f"decoding {item!r}: write ROLE.KEY=VALUE with ROLE one of "
                f"{', '.join(ROLES)} and KEY one of {', '.join(DECODING_KEYS)}"
            )
        row = decoding_for(role, rows)
        try:
            rows[role] = _set(row, key, value.strip())
        except ValueError:
            raise ValueError(f"decoding {item!r}: {key} takes a number") from None
    return MappingProxyType(rows)


def _set(row: Decoding, key: str, text: str) -> Decoding:
    if key == "temperature":
        return Decoding(float(text), row.top_p, row.max_tokens)
    if key == "top_p":
        top_p = None if text.lower() in ("none", "null", "") else float(text)
        return Decoding(row.temperature, top_p, row.max_tokens)
    return Decoding(row.temperature, row.top_p, int(text))
