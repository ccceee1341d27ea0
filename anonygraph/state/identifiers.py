"""Run parameters of the identifier pre-pass (`anonygraph.identifiers`)."""

from __future__ import annotations

from dataclasses import dataclass, field

IDENTIFIER_MODES: tuple[str, ...] = ("placeholder", "surrogate", "keep")
"""How the product profile replaces direct identifiers before any model step."""


@dataclass(kw_only=True)
class IdentifierOptions:
    """The identifier pre-pass: replaced before any model (local or remote) reads."""

    identifiers: str = field(
        default="placeholder",
        metadata={
            "description": "Direct identifiers (names, e-mails, phones, IDs, "
            "cards, IBANs, IPs, handles, addresses, dates of birth, plates...) "
            "before the first step: placeholder ([PERSON_1], numbered per "
            "record and the same across its comments), surrogate (a realistic "
            "fake of the same kind, the same for the same value within a run) "
            "or keep (left in place: the outcome then lists them as leaks). "
            "Not in the paper profile.",
            "choices": IDENTIFIER_MODES,
        },
    )

    keep_mapping: bool = field(
        default=False,
        metadata={
            "description": "Keep each record's identifier mapping (replacement "
            "-> original) in the run store (0600), for `export` or a restore; "
            "never written to the output."
        },
    )

    identifier_seed: int = field(
        default=0,
        metadata={
            "description": "Seed of the surrogates; 0: drawn from the run's id, "
            "so the fakes are stable within a run and differ between runs."
        },
    )
