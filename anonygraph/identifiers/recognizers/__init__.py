"""The recognizers of every identifier kind: Presidio's, configured, and ours.

Presidio's own recognizers are taken where they validate well (checksums,
context words); ours, written as Presidio recognizers, cover what it lacks.
"""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    IbanRecognizer,
    InAadhaarRecognizer,
    InPanRecognizer,
    IpRecognizer,
    NhsRecognizer,
    PhoneRecognizer,
    SpacyRecognizer,
    UkNinoRecognizer,
    UsSsnRecognizer,
)

from anonygraph.identifiers.recognizers.email import OfflineEmailRecognizer

PHONE_REGIONS = (
    "US", "GB", "DE", "FR", "ES", "IT", "NL", "IN", "JP", "AU", "CA", "BR",
    "MX", "IE", "NZ", "ZA", "NG", "KE", "SG", "VN", "PH", "CN", "KR", "SE",
    "CH", "AT", "BE", "PL", "PT",
)
"""Regions whose national formats phonenumbers tries (international ones always)."""


def all_recognizers() -> list[EntityRecognizer]:
    """Return one instance of every recognizer the analyzer runs."""
    return [
        SpacyRecognizer(supported_entities=["PERSON"]),
        OfflineEmailRecognizer(),
        PhoneRecognizer(supported_regions=PHONE_REGIONS),
        CreditCardRecognizer(),
        IbanRecognizer(),
        IpRecognizer(),
        UsSsnRecognizer(),
        UkNinoRecognizer(),
        NhsRecognizer(),
        InAadhaarRecognizer(),
        InPanRecognizer(),
    ]
