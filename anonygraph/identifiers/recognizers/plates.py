"""Vehicle licence plates: national shapes, any shape after a cue or near a vehicle.

UK, German, French and Indian plates have distinctive shapes. Elsewhere a
plate is a short run of capitals and digits (7ABC123, 8KZX402, CKRT 552):
it counts right after a plate cue ("plate", "rego", "Kennzeichen"), or in a
sentence about a vehicle ("my bike", "the car", "parked", "towed"). A code
glued to more of itself by a hyphen (SKU RT-AX3000-B) or after a reference
cue (model, SKU, part) is a look-alike and stays.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.lookalikes import is_lookalike
from anonygraph.tools import kept_patterns

US_STATES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO "
    "MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC"
).split()
"""US state codes, which may stand between the cue and the plate."""

_STATE = "|".join(US_STATES)

VEHICLE = kept_patterns.compile(
    r"(?i)\b(?:cars?|bikes?|motorbikes?|motorcycles?|scooters?|mopeds?|vans?|"
    r"trucks?|lorry|lorries|utes?|suv|vehicles?|whip|taxi|cab|parked|parking|"
    r"towed|drives?|driving|plates?|rego|reg|registration|kennzeichen|auto|"
    r"wagen|voiture|véhicule|vehículo|veículo|vehicul|pojazd|jármű|"
    r"coche|carro|moto|bil|bilen|bilar|gari|veicolo|автомобиль|машина|"
    # Slavic, Greek, Turkic, Baltic and other languages' vehicle words
    r"vozidl[oaeu]|vozidlom|vozilo|vozila|pojazdu|samochód|samochodu|automobil\w*|"
    r"fahrzeug\w*|pkw|kfz|όχημα|οχήματος|οχήματα|αυτοκίνητο|araç|aracı|avtomobil|"
    r"машин[аыу]|автомобил[яью]|транспорт\w*|xe|ô tô|kereta|mobil|sasakyan|"
    r"ečv|špz|spz|rz|rekisteri\w*|registreringsnummer|nummerplade|skilt)\b"
)
"""Words that make a sentence about a vehicle (a plate's context words)."""

DE_PLATE = r"(?<![\w-])(?P<v>[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} ?\d{1,4}[EH]?)(?![\w-])"
"""A German plate: district, letters, a number (B-MK 1234)."""

PLATE_SHAPE = (
    r"(?<![\w/.-])(?P<v>(?=[A-Z0-9 -]*\d)(?=[A-Z0-9 -]*[A-Z])"
    r"(?:[A-Z0-9]{5,8}|[A-Z0-9]{2,4}[ -][A-Z0-9]{2,5}(?:[ -][A-Z]{1,3})?))(?![\w/-])"
)
"""A run of capitals and digits shaped like a plate of no distinctive shape."""


METRO_PLATE = kept_patterns.compile(
    r"[A-Z][a-z]+[ \t]+Metro-[A-Z][a-z]{0,2}[ \t]+\d{2}-\d{4}"
)
"""A Bangladeshi plate: the metro, its class letter, two digit groups."""


class LicensePlateRecognizer(CuedPatternRecognizer):
    """A licence plate by its national shape, after a cue, or near a vehicle."""

    ENTITY = "LICENSE_PLATE"
    PATTERNS = (
        ("uk_plate", r"(?<![\w-])(?P<v>[A-Z]{2}\d{2} ?[A-Z]{3})(?![\w-])", 0.75),
        ("de_plate", DE_PLATE, 0.75),
        (
            "fr_plate",
            r"(?<![\w-])(?P<v>[A-HJ-NP-TV-Z]{2}-\d{3}-[A-HJ-NP-TV-Z]{2})(?![\w-])",
            0.75,
        ),
        (
            # Russian: a letter, three digits, two letters, the region
            # (the twelve Cyrillic letters that have Latin look-alikes).
            "ru_plate",
            r"(?<![\w-])(?P<v>[АВЕКМНОРСТУХ]\d{3}[АВЕКМНОРСТУХ]{2} ?\d{2,3})(?![\w-])",
            0.75,
        ),
        (
            # Bangladeshi: the metro or district, its class letter, two
            # groups of digits ("Dhaka Metro-Ga 14-2291").
            "bd_plate",
            rf"(?<![\w-])(?P<v>{METRO_PLATE.pattern})(?![\w-])",
            0.75,
        ),
        (
            "in_plate",
            r"(?<![\w-])(?P<v>[A-Z]{2}[ -]?\d{1,2}[A-Z]?[ -]?[A-Z]{1,3}[ -]?\d{4})"
            r"(?![\w-])",
            0.75,
        ),
        (
            "cued_plate",
            r"(?i:\b(?:plate|number plate|licen[cs]e plate|plate number|"
            r"reg(?:istration)?"
            r"(?: no\.?| number)?|rego|kennzeichen|"
            r"placa(?: do veículo| patente)?|patente|"
            r"immatriculation|matrícula|targa|targat[oa]|kenteken|"
            r"plaque(?: d'immatriculation)?|rekisterinumero|registreringsnummer|"
            r"registarska oznaka|tablica rejestracyjna|rendszám|"
            r"număr(?:ul)? de înmatriculare|valstybinis numeris|госномер|"
            r"номерной знак|номерний знак|plaka|biển\s+số(?:\s+xe)?|nomor\s+polisi|"
            r"plat\s+nomor|rejestracja|nr\s+rej\.?|numer\s+rejestracyjny|"
            r"ečv|špz|spz|registrační\s+značk[ay]|tablic[ae]\s+rejestracyjn\w+|"
            r"πινακίδα|αρ\.?\s+κυκλοφορίας|αριθμός\s+κυκλοφορίας|plakası|"
            r"nummerplade|numberplate|מספר\s+רכב|رقم\s+اللوحة|لوحة|پلاک|"
            r"नंबर\s+प्लेट)\b|车牌号?|車牌號?|번호판|ナンバー)\.?\s*[:：#=]?\s*"
            r"(?:is\s+)?"
            rf"(?:(?:{_STATE})\s+(?=[A-Z0-9]{{1,4}}[ -]?\d))?"
            # "KJ·TR·42": Chile prints its plates with middle dots.
            # Greek plates print the capitals Latin shares (ΙΚΒ 1234).
            r"(?P<v>[A-Z0-9ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]{1,4}"
            r"(?:[ ·-]?[A-Z0-9ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]{1,4}|\.\d{2}){1,2})\b",
            0.8,
        ),
        ("vehicle_context", PLATE_SHAPE, 0.75),
        (
            # Chinese: the province's character, the city letter, five or six.
            "cn_plate",
            r"(?<![\w])(?P<v>[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼]"
            r"[A-Z]·?[A-Z0-9]{5,6})(?![\w])",
            0.8,
        ),
    )

    def span(
        self, match: re.Match[str], text: str, nlp_artifacts: object
    ) -> tuple[int, int] | None:
        """Ask a shapeless candidate for a vehicle in its sentence."""
        if match.re.pattern == DE_PLATE:
            # German plates' numbers never start with 0 ("SAA-C03" is a
            # certificate), and a glued one ("KYC-F3") is a plate only in a
            # sentence about a vehicle.
            if re.search(r"-[A-Z]{1,2} ?0", match.group("v")):
                return None
            if " " not in match.group("v"):
                return self._in_vehicle_sentence(match, text, nlp_artifacts)
        if match.re.pattern == PLATE_SHAPE:
            return self._in_vehicle_sentence(match, text, nlp_artifacts)
        return super().span(match, text, nlp_artifacts)

    def _in_vehicle_sentence(
        self, match: re.Match[str], text: str, nlp_artifacts: object
    ) -> tuple[int, int] | None:
        """Keep a candidate only in a sentence about a vehicle."""
        start, end = match.span("v")
        sentence_start = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
        stops = [i for c in ".!?\n" if (i := text.find(c, end)) >= 0]
        sentence = text[sentence_start : min(stops, default=len(text))]
        if not VEHICLE.search(sentence):
            return None
        return super().span(match, text, nlp_artifacts)

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require letters and digits both, a plate's length, no reference cue."""
        if METRO_PLATE.fullmatch(value):
            return not is_lookalike(text, start, end)  # its town makes it long
        compact = re.sub(r"[ ·-]", "", value)
        return (
            4 <= len(compact) <= 10
            and any(c.isdigit() for c in compact)
            and any(c.isalpha() for c in compact)
            and not re.search(r"[A-Z]{5}", compact)  # a word with a number: COVID19
            and not is_lookalike(text, start, end)
            # "3511 NV Utrecht": a Dutch postcode before its town, no plate.
            and not (
                re.fullmatch(r"\d{4} ?[A-Z]{2}", value)
                and re.match(r"[ \t]+[A-Z][a-z]", text[end:])
            )
        )
