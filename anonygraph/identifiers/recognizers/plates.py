"""Vehicle licence plates: UK, German and Indian formats, any format after a cue."""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer

US_STATES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO "
    "MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC"
).split()
"""US state codes, which may stand between the cue and the plate."""

_STATE = "|".join(US_STATES)


class LicensePlateRecognizer(CuedPatternRecognizer):
    """A licence plate by its national shape, or any plate-like string after a cue."""

    ENTITY = "LICENSE_PLATE"
    PATTERNS = (
        ("uk_plate", r"\b(?P<v>[A-Z]{2}\d{2} ?[A-Z]{3})\b", 0.75),
        ("de_plate", r"\b(?P<v>[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} ?\d{1,4}[EH]?)\b", 0.75),
        ("fr_plate", r"\b(?P<v>[A-HJ-NP-TV-Z]{2}-\d{3}-[A-HJ-NP-TV-Z]{2})\b", 0.75),
        ("in_plate", r"\b(?P<v>[A-Z]{2}[ -]?\d{2}[ -]?[A-Z]{1,3}[ -]?\d{4})\b", 0.75),
        (
            "cued_plate",
            r"(?i:\b(?:plate|number plate|licen[cs]e plate|plate number|"
            r"reg(?:istration)?"
            r"(?: no\.?| number)?|rego|kennzeichen|placa(?: do veículo)?|"
            r"immatriculation|matrícula|targa|kenteken)\b)\s*[:#]?\s*(?:is\s+)?"
            rf"(?:(?:{_STATE})\s+(?=[A-Z0-9]{{1,4}}[ -]?\d))?"
            r"(?P<v>[A-Z0-9]{1,4}(?:[ -]?[A-Z0-9]{1,4}){1,2})\b",
            0.8,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require letters and digits both, within a plate's length."""
        compact = re.sub(r"[ -]", "", value)
        return (
            4 <= len(compact) <= 9
            and any(c.isdigit() for c in compact)
            and any(c.isalpha() for c in compact)
        )
