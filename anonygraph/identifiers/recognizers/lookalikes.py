"""Look-alikes: numbers and strings shaped like identifiers that are not.

Versions, SKUs and order numbers, ISBNs, log timestamps, line numbers and
request ids, quantities and prices, a pet's chip or a handset's IMEI look
like phone numbers, IDs, cards or IP addresses. The recognizers of
number-shaped kinds ask `is_lookalike` before they report a candidate.
"""

from __future__ import annotations

import re

from anonygraph.tools import kept_patterns

CUES = kept_patterns.compile(
    r"(?:\b(?:order|orders|sku|ref|reference|case|ticket|invoice|inv|txn|"
    r"transaction|otp|policy|art\.?-?nr|item|model|part|serial|stock|build|"
    r"version|release|ver|isbn|issn|doi|line|lines|session|request|req|trace|"
    r"job|pid|port|tracking|badge|shipment|booking|confirmation|reservation|batch|"
    r"lot|flight|page|chapter|rule|error|err|routing|aba|swift|bic|ifsc|bsb|"
    # German compounds of a reference's noun and "-nr."/"-nummer" ("Bestellnr.")
    r"(?:bestell|auftrags|rechnungs|liefer|artikel|vorgangs|buchungs)(?:nr|nummer)|"
    r"transit|institution|track|code|issue|issues|pr|pull|bug|task|story|"
    r"claim|caso|takip|pedido|encomenda|commande|bestellung|rechnung|factura|"
    r"fatura|faktura|sipariş|kargo|envío|envio|guía|guia)\b\.?\s*(?:no\.?|number|#|id)?"
    r"\s*[:#=]?\s*#?\s*|#)$",
    re.IGNORECASE,
)
"""A cue word right before a number that makes it a reference, not a person's
(bank routing, sort, branch and transit codes are the bank's, not the holder's)."""

DEVICE_CUES = kept_patterns.compile(
    r"(?i)(?:(?<![^\W\d_])(?:imei|meid|micro-?chip|mikrochip|microcip|puce|"
    r"transponder|chip)(?:[ \t]*(?:no\.?|nr\.?|n[°º]|number|#|id|code))?"
    r"|マイクロチップ(?:番号)?|芯片(?:号|號)?)[ \t]*[:#=：]?[ \t]*$"
)
"""A device's or an animal's chip label right before a number ("IMEI",
"microchip", "マイクロチップ番号："): the number is a thing's, a pet's or a
handset's, not a person's."""

NOT_A_PERSONS = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:order|orders|invoice|inv|bill|receipt|ref|reference|"
    r"ticket|case|booking|reservation|confirmation|employee|employer|staff|"
    r"student|pupil|matricul\w*|sku|item|product|model|part|"
    r"serial|version|build|release|company|business|org|organi[sz]ation|"
    r"corporate|firm|vendor|supplier|merchant|seller|shop|store|vat|gst|"
    r"application|policy|claim|tracking|shipment|parcel|container|account|"
    r"user|username|customer|client|device|session|request|transaction|txn|"
    r"payment|report|lab|sample|batch|lot|listing|ad|job|task|event|trip|"
    r"ride|flight|game|player|gamer|guild|app|wi-?fi|apple|google|login|api|key|"
    r"token|commit|issue|"
    r"bug|message|email|chat|group|team|project|meeting|zoom|wifi|software|"
    r"product\s+key|licen[cs]e\s+key|course|class|exam|candidate|seat|room|"
    r"table|form|file|folder|request|transfer|wire|swift|routing|iban|"
    r"personalnummer|kundennummer|tax\s+invoice|pedido|factura|fatura|"
    r"faktura|rechnung|bestell\w*|sipari\w*|caso|expediente|dossier|"
    r"folio|póliza|poliza|apólice|contrat\w*|contract|factuur|profile|"
    r"línea|linea|line|hotline|helpline|call|phone|tel|whatsapp|terminal|"
    r"correlation|trace|tenant|instance|thread|node|cluster|image|asset|meter|"
    r"video|photo|post|comment|channel|station|loan|offer|quote|campaign|coupon|"
    r"voucher|promo|gift|loyalty|reward|points|sim|imei|vin|chassis|engine|"
    r"fleet|unit|site|branch|warehouse|pallet|route|delivery|consignment|"
    r"waybill|manifest|pipeline|workflow|machine|host|server|database|record\s+id|"
    r"pošiljk\w*|narudžb\w*|objednávk\w*|zamówieni\w*|zásilk\w*|przesyłk\w*|"
    r"заказ\w*|посылк\w*|отправлени\w*|накладн\w*|пратк\w*|нарачк\w*|"
    # the same things in Romance, Germanic and other languages
    r"transacci[óo]n|transa[çc][ãa]o|transazione|cliente|kunde\w*|klant\w*|"
    r"commande|bestellung|auftrag|vorgang|sendung|lieferung|bestelling|"
    r"müşteri|işlem|başvuru|talep|solicitud|solicita[çc][ãa]o|reserva|"
    r"réservation|buchung|billet|bilhete|biglietto|ordine|fattura|utente|"
    r"usuario|usuário|utilisateur|benutzer|gebruiker|dispositivo|appareil|"
    r"gerät|producto|produto|produit|artikel|modelo|modèle|série|serie|lote|"
    r"référence|referencia|referência|riferimento|empresa|entreprise|"
    r"unternehmen|firma|società|sociedad|empleado|funcionário|mitarbeiter|"
    r"salarié|dipendente|alumno|aluno|élève|schüler|étudiant|estudiante|"
    r"заявк\w*|клиент\w*|пользовател\w*|сотрудник\w*|договор\w*|счёт|счет)"
    r"(?![^\W\d_])"
)
"""Words of a label that names a thing, a business or an account: the number
after it is that thing's, not a person's ("Order ID", "Staff ID", "Company No.")."""

PERSONS_OWN = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:national|nationale|nacional|citizen\w*|identity|"
    r"identit[éeà]|identidad|identidade|identifica[çc][ãa]o|identificaci[óo]n|"
    r"social\s+security|pati[ëe]nt\w*|pacient\w*|paciente|"
    r"pacjent\w*|medical|médical|médico|clinical|cl[íi]nic[ao]|hospital)"
    r"(?![^\W\d_])"
)
"""Words that make a label a person's own number whatever else it says
("Matricule national", where a bare "matricule" is a pupil's)."""


def names_a_thing(label: str) -> bool:
    """Tell whether a field's label names a thing's or a business's number."""
    return bool(NOT_A_PERSONS.search(label)) and not PERSONS_OWN.search(label)


SEGMENT_BREAK = kept_patterns.compile(r"[\n;|,]|[ \t]{2,}|\.[ \t]")
"""What ends one field before the next on a form line."""


def field_label(text: str, label_start: int, value_start: int) -> str:
    """Return the label of the field whose value starts at ``value_start``.

    The label runs from where its field begins (the line, a separator, a
    gap of spaces, within 40 characters before ``label_start``) to the value.
    """
    window_start = max(0, label_start - 40)
    breaks = [m.end() for m in SEGMENT_BREAK.finditer(text, window_start, label_start)]
    return text[breaks[-1] if breaks else window_start : value_start]


CODE_AFTER = kept_patterns.compile(r"^ \d{0,3}[A-Z]{1,4}\b")
"""Capitals glued to digits right after a number ("RM 41 882 905 7GB"): the
number is the middle of a parcel or reference code."""

CODE_BEFORE = kept_patterns.compile(r"\b[A-Z]{1,4} $")
"""Capitals right before a number, which ``CODE_AFTER`` closes."""

UNIT_AFTER = kept_patterns.compile(
    r"^[ \t]*(?:%|°|km|mi|kg|g|mg|ml|l|cm|mm|m|ft|in|lbs?|oz|cups?|tbsp|tsp|"
    r"minutes?|mins?|hours?|hrs?|seconds?|secs?|ms|days?|weeks?|years?|"
    r"tiles|px|kb|mb|gb|tb|req|rpm|mph|kph|pcs|units|items|x)\b",
    re.IGNORECASE,
)
"""A unit right after a number: a quantity."""

VERSION = kept_patterns.compile(r"(?:^|[^\w.])v?\d+(?:\.\d+){1,3}(?:[-+.]\w+)*$")
"""A dotted version number (1.4.0, v2.3.14, 3.4.2-beta)."""

TIMESTAMP = kept_patterns.compile(
    r"^(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?)$"
)
"""An ISO date or a clock time."""

ISBN = kept_patterns.compile(r"^97[89][- ]?\d{1,5}[- ]?\d{1,7}[- ]?\d{1,7}[- ]?\d$")
"""An ISBN-13 with or without hyphens."""


def is_lookalike(text: str, start: int, end: int, *, dotted: bool = True) -> bool:
    """Tell whether ``text[start:end]`` is a reference number, version or quantity.

    ``dotted=False`` says the caller knows the dots are a phone number's.
    """
    value = text[start:end]
    if TIMESTAMP.match(value) or ISBN.match(value):
        return True
    if dotted and "." in value and VERSION.search(text[max(0, start - 2) : end]):
        return True
    # A price: a currency sign before the number.
    if text[max(0, start - 1) : start] in ("$", "£", "€", "¥"):
        return True
    if CUES.search(text[max(0, start - 40) : start]):
        return True
    if DEVICE_CUES.search(text[max(0, start - 30) : start]):
        return True
    if CODE_AFTER.match(text[end : end + 8]) and CODE_BEFORE.search(
        text[max(0, start - 6) : start]
    ):
        return True
    return bool(UNIT_AFTER.match(text[end : end + 12]))


def day_and_month(value: str) -> bool:
    """Tell a number (or a range) and a month's name alone ("6-10 July")."""
    from anonygraph.identifiers.recognizers.documents import DateOfBirthRecognizer

    words = value.split()
    return len(words) == 2 and bool(
        re.fullmatch(DateOfBirthRecognizer.MONTH, words[1], re.IGNORECASE)
    )
