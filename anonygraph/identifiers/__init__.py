"""Direct identifiers: find them, replace them before any model sees the text.

Names, e-mails, phone numbers of any country, national and tax IDs, payment
cards, IBANs and bank accounts, IP addresses, personal URLs and handles,
street addresses, postcodes, dates of birth, licence plates, passport and
medical record numbers. One Presidio ``AnalyzerEngine`` on the spaCy pipeline
the cue detectors load (one parse per text), with Presidio's checksum- and
context-validated recognizers plus our own for what it lacks
(`anonygraph.identifiers.recognizers`). Look-alikes (versions, SKUs, order
numbers, ISBNs, log timestamps, recipe quantities, an organization's public
contact, a famous person discussed as a topic) are left alone.

Entry points: `find_identifiers` finds them, `IdentifierBook` replaces them
(typed numbered placeholders, seeded surrogates, or keep) and restores them.
"""

from __future__ import annotations

from anonygraph.tools.spacy_import import import_presidio_analyzer

import_presidio_analyzer()  # before any module below imports it: no torch

from anonygraph.identifiers.detect import PLACEHOLDER, find_identifiers
from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.kinds import KINDS
from anonygraph.identifiers.replacement import (
    MODES,
    IdentifierBook,
    Mode,
    parse_mode,
)

__all__ = [
    "KINDS",
    "MODES",
    "PLACEHOLDER",
    "Identifier",
    "IdentifierBook",
    "Mode",
    "find_identifiers",
    "parse_mode",
]
