"""The kinds of direct identifier, and Presidio's entity types mapped onto them."""

from __future__ import annotations

KINDS: tuple[str, ...] = (
    "PERSON",
    "EMAIL",
    "PHONE",
    "NATIONAL_ID",
    "CARD",
    "IBAN",
    "BANK_ACCOUNT",
    "IP_ADDRESS",
    "URL",
    "HANDLE",
    "ADDRESS",
    "POSTCODE",
    "DATE_OF_BIRTH",
    "LICENSE_PLATE",
    "PASSPORT",
    "MEDICAL_RECORD",
    "NUMBER",
)
"""Every kind the detector reports; a placeholder is ``[KIND_n]``. ``NUMBER``
is a number that must go (a phone-shaped digit run) whose kind the text does
not settle: typed so, not guessed."""

PRESIDIO_KINDS: dict[str, str] = {
    "PERSON": "PERSON",
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "CREDIT_CARD": "CARD",
    "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP_ADDRESS",
    "URL": "URL",
    "US_SSN": "NATIONAL_ID",
    "US_ITIN": "NATIONAL_ID",
    "UK_NINO": "NATIONAL_ID",
    "UK_NHS": "NATIONAL_ID",
    "IN_AADHAAR": "NATIONAL_ID",
    "IN_PAN": "NATIONAL_ID",
    "AU_TFN": "NATIONAL_ID",
    "AU_MEDICARE": "NATIONAL_ID",
    "US_BANK_NUMBER": "BANK_ACCOUNT",
    "US_PASSPORT": "PASSPORT",
    "UK_PASSPORT": "PASSPORT",
    "IN_PASSPORT": "PASSPORT",
}
"""Presidio entity type -> our kind, for the recognizers we take from Presidio."""


def kind_of(entity_type: str) -> str | None:
    """Return our kind for a Presidio or our own entity type, or None."""
    if entity_type in KINDS:
        return entity_type
    return PRESIDIO_KINDS.get(entity_type)
