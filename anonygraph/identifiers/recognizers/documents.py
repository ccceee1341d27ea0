"""Passport, medical record and bank account numbers: each after its cue word.

Their formats vary by issuer and carry no common check digit, so a number
counts only where the text names what it is.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer, digits


class PassportRecognizer(CuedPatternRecognizer):
    """A passport number after "passport (no.)" in several languages."""

    ENTITY = "PASSPORT"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "passport",
            r"\b(?:passport|reisepass|passeport|pasaporte|passaporte|passaporto|"
            r"paspoort)\b(?:\s+(?:no\.?|number|nr\.?|n[°º]|#|is))*\s*[:#]?\s*"
            r"(?P<v>[A-Z]{0,2}\d{6,9}|[A-Z]\d[A-Z0-9]{5,8})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require at least six digits (not a word after "passport")."""
        return len(digits(value)) >= 6


class MedicalRecordRecognizer(CuedPatternRecognizer):
    """A medical record or patient number after its cue (MRN, patient ID)."""

    ENTITY = "MEDICAL_RECORD"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "mrn",
            r"\b(?:mrn|medical record(?:\s+(?:no\.?|number|#))?|patient\s+(?:id|no\.?|"
            r"number|#)|(?:clinic|hospital|health|chart)\s+(?:record\s+)?(?:no\.?|"
            r"number|#)|record\s+(?:no\.?|number)|nhi|case\s+file)\s*[:#]?\s*"
            r"(?P<v>[A-Z]{0,4}-?\d[\dA-Z-]{3,14})\b",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require four digits or more."""
        return len(digits(value)) >= 4


class BankAccountRecognizer(CuedPatternRecognizer):
    """A bank account number after "account", "acct", "a/c", "conta" and the like."""

    ENTITY = "BANK_ACCOUNT"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "account",
            r"\b(?:(?:bank\s+|checking\s+|savings\s+|current\s+)?account|acct|a/c|"
            r"conta(?:\s+corrente|\s+poupança)?|kontonummer|konto|rekening(?:nummer)?|"
            r"compte|cuenta|numéro de compte)\b\.?(?:\s+(?:no\.?|number|nr\.?|#|is))*"
            r"\s*[:#]?\s*(?P<v>\d[\d -]{4,20}\d(?:-[\dXx])?)(?![\w-])",
            0.8,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require six to twenty digits."""
        return 6 <= len(digits(value)) <= 20


class DateOfBirthRecognizer(CuedPatternRecognizer):
    """A date after a birth cue (DOB, born, geboren am, data de nascimento)."""

    ENTITY = "DATE_OF_BIRTH"
    FLAGS = re.IGNORECASE
    MONTH = (
        r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
        r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
        r"januar|februar|märz|mai|juni|juli|oktober|dezember)\.?"
    )
    DATE = (
        r"(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
        rf"\d{{1,2}}(?:st|nd|rd|th)?\.?\s+{MONTH}\s+\d{{4}}|"
        rf"{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}})"
    )
    PATTERNS = (
        (
            "date_of_birth",
            r"\b(?:d\.?o\.?b\.?|date of birth|birth\s?date|birthday|born(?:\s+on)?|"
            r"geboren(?:\s+am)?|geb\.|geburtsdatum|geboortedatum|geboren op|"
            r"data de nascimento|nascid[oa] em|fecha de nacimiento|nacid[oa] el|"
            r"date de naissance|née? le|data di nascita|nat[oa] il)"
            rf"\s*[:\-]?\s*(?:is\s+|was\s+|on\s+)?(?P<v>{DATE})",
            0.85,
        ),
    )
