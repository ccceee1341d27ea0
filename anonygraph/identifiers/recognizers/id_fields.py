"""An ID-shaped value whose label names a person's identity document, of any scheme.

Each new country brings schemes no table lists (a register number, a
pension PIN, an ID card's number); what they share is the form: a label
that holds a word of identity (ID, identity, national, citizen, passport,
licence, patient, in several scripts) or a short acronym, then the value.
The value must look like a number someone is given (six digits or more,
maybe with letters and separators); the label decides the kind
(passport, medical record, plate, by default a national ID). A label that
names a thing, a business or an account (order, invoice, ticket, case,
booking, employee, student, company, VAT, SKU, version, in several
languages: `lookalikes.names_a_thing`) leaves its value alone: those are
look-alikes. A scheme whose digits we check keeps its check's verdict on
a value of its own shape; a label several countries share ("DNI" is
Spain's checked number and Honduras's 13 digits) leaves a value of another
shape to the generic rule.
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers import national_ids
from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer, digits
from anonygraph.identifiers.recognizers.id_schemes import (
    SCHEMES,
    IdSchemeRecognizer,
    any_number,
)
from anonygraph.identifiers.recognizers.lookalikes import (
    TIMESTAMP,
    field_label,
    is_lookalike,
    names_a_thing,
)
from anonygraph.identifiers.recognizers.national_ids import LabelledIdRecognizer
from anonygraph.tools import kept_patterns

IDENTITY_WORDS = (
    # English and the words most forms share
    r"(?-i:ID)|(?-i:Id)|identity|identification|national|citizen(?:ship)?|resident|"
    r"personal|social\s+security|social\s+insurance|insurance|tax(?:payer)?|"
    r"passport|licen[cs]e|patient|medical|health|mrn|omang|civil|"
    # Short labels forms print for a person's number ("NID 2081047731",
    # "RUC 4512873-1", "BI n.º:"), in capitals only.
    r"(?-i:NID|NIN|CNI|CNIB|CIN|RUC|RIF|DPI|DNI|NUIT|BI|NIC)|"
    # Romance, German, Dutch, Nordic, Slavic and Baltic in Latin letters
    r"identit[éeà]|identidad|identidade|identificaci[óo]n|identifica[çc][ãa]o|"
    r"identificazione|c[ée]dula|documento|carn[ée]t|pi[èe]ce|ausweis|"
    r"personalausweis|identiteit|identitet|henkilö\w*|osobn[íiý]\w*|"
    r"(?:renten|sozial)?versicherungs(?:nummer|nr)|pati[ëe]nt(?:en)?(?:nummer|nr)|"
    r"osobist\w*|asmens|isiku\w*|personas|személyi|igazolvány\w*|občiansk\w*|"
    r"občansk\w*|preukaz\w*|průkaz\w*|kitambulisho|utambulisho|cá\s+nhân|"
    # Cyrillic, Greek, Turkic, Arabic, Hebrew and Asian scripts
    r"личн\w*|удостоверени\w*|паспорт\w*|пасош\w*|идентификац\w*|регистр\w*|"
    r"ταυτότητ\w*|διαβατήρι\w*|kimlik|şəxsiyyət|shaxs\w*|vəsiqə|шиноснома\w*|"
    r"անձնագ\w*|"
    # Arabic adjectives agree with a feminine noun ("البطاقة الوطنية").
    r"هوية|الهوية|الوطنية?|القومية?|جواز|זהות|身份证|身份證|身分證|证件|證件|"
    r"個人番号|免許証|주민등록|외국인등록|여권|căn\s+cước|identitas|pengenalan|"
    r"bemor|tibbiy|paciente|prontu[áa]rio|pacjent\w*|pacient\w*|patienten\w*|"
    r"hasta\s+(?=no\b|numaras)|bệnh\s+nhân|медицинск\w*|пациент\w*|الطبي|المريض|"
    r"मरीज|रोगी|"
    # Chinese, Japanese, Korean labels glue their number word on.
    r"(?:身份证|身份證|身分證|证件|證件|病历|病歷|病案|住院|门诊|門診|患者|カルテ|診察券|"
    r"個人番号|免許証|주민등록|외국인등록|환자|车牌|車牌)"
    r"(?:号码|號碼|号|號|番号|번호|编号|編號)?"
)
"""Words that make a label name a person's identity number (case-insensitive)."""

PASSPORT_WORDS = kept_patterns.compile(
    r"(?i)passport|pasaport|passeport|pasaporte|паспорт|пасош|διαβατήρι|جواز|여권|"
    r"шиноснома|անձնագ"
)
MEDICAL_WORDS = kept_patterns.compile(
    r"(?i)pati[ëe]nt|medical|health\s+record|mrn|bemor|tibbiy|paciente|prontu|患者|"
    r"hospital|clinic|pacjent|pacient|hasta|bệnh|медицинск|пациент|الطبي|المريض|"
    r"मरीज|रोगी|病历|病歷|病案|住院|门诊|門診|カルテ|診察券|환자"
)
PLATE_WORDS = kept_patterns.compile(r"(?i)plate|placa|πινακίδ|车牌|車牌")
"""Words of a label that type its value: a passport's, a patient's, a plate."""


NUMBER_WORD = (
    r"(?:no|nr|num|number|n[°ºo]|n\.[ ]?[°ºo]|#|№|br|broj|número|numero|numéro|nummer|"
    r"номер|дугаар|αρ|số|رقم|شماره|نمبر|code|kod|kodas|kods|card|karta|kartasi|"
    r"карт\w*|"
    r"szám|száma|číslo|č|nro|nomor|namba|nambari)\.?"
)
"""Words between a label and its value ("ID card no.", "Número de documento")."""

VALUE = (
    r"(?P<v>(?-i:[A-ZА-ЯЁΑ-Ω0-9](?:[A-ZА-ЯЁΑ-Ω0-9]|[-/. ](?=[A-ZА-ЯЁΑ-Ω0-9])){5,23})"
    r"(?:\((?-i:[0-9A-Z])\))?)"
    r"(?![\w-]|[.,/]\w)"
)
"""An ID-shaped value: capitals and digits, single separators, 6 to 24 long,
maybe with its check character in brackets ("5184273(6)")."""

LABELLED = kept_patterns.compile(
    # "居民身份證": a Chinese label glues its words on before as after.
    r"(?i)(?:(?<![^\W_])|(?<=[\u3400-\u9fff])(?=[\u3400-\u9fff]))"
    rf"(?P<label>{IDENTITY_WORDS})"
    r"(?:(?<=[\u3000-\uffff])|(?![^\W_]))"
    # "Bemor ID (tibbiy karta):", "رقم السجل (الهوية):", a remark of any length
    r"\)?(?:[ \t]*\([^()\n]{1,80}\))?"
    rf"(?:[ \t.-]*{NUMBER_WORD}(?![^\W\d_]))*"
    # "MRN at Lakeside Clinic: …": a few words close the label at its colon.
    r"(?:[ \t]+[^\W\d_][^\n:;|,()]{0,28}?(?=[ \t]*[:：#№]))?"
    # "Civil No. / الرقم المدني:": the same label in a second language.
    r"(?:[ \t]*/[ \t]*[^\W\d_][^\n:;|,()/]{0,28}?(?=[ \t]*[:：]))?"
    r"[ \t]*[:：#=№]?[ \t]*(?:(?:is|es|est|ist|é|là|:)[ \t]+)?" + VALUE
)
"""A label with an identity word, then its value."""

REPLY = kept_patterns.compile(
    r"(?m)^(?:\[[^\]\n]{1,40}\][ \t]*)?(?:[^\s:\n][^:\n]{0,30}:[ \t]*)?"
    r"(?P<v>\d(?:[ ./-]?\d){6,17}|(?-i:[A-Z]{1,2})\d{6,9})(?=[ \t]*(?:[.,!]|$))"
)
"""A chat message that is a number alone ("[08:20] Otieno: 28471936."), or a
document's series letters and number ("AT0654321")."""

ASKED = kept_patterns.compile(
    rf"(?i)(?<![^\W_])(?:{IDENTITY_WORDS})(?:(?<=[\u3000-\uffff])|(?![^\W_]))"
)
"""An identity word in the message before: the number answers for it."""

ACRONYM = kept_patterns.compile(
    r"(?<![\w.-])(?P<label>(?-i:[A-ZА-ЯЁΑ-ΩİÇŞĞÜÖ]{2,7}))(?![\w-])"
    r"(?:[ \t]*\([^()\n]{1,40}\))?"  # "РМА (ИНН):": its gloss
    # A form's field: the acronym closed by a number word or a colon ("CPU
    # 4821397", "PMID 12345678" are quantities and references).
    rf"(?:(?:[ \t.-]*(?i:{NUMBER_WORD})(?![^\W\d_]))+[ \t]*[:#=№]?|[ \t]*[:#=№])[ \t]*"
    r"(?P<v>\d(?:[ ./-]?\d){6,17})(?![\w-]|[.,/]\d)"
)
"""A short acronym as a field's label ("EPF no.", "TPIN:") before seven digits."""

NOT_PERSONS_CODES = frozenset(
    """VAT CVR KVK ICO IČO DIC DIČ NIPC NIPT CNPJ ABN ACN ARBN UEN GST GSTIN EIN BRN
    CRN UID SIRET SIREN RCS NZBN REGON KRS ORG PNR IMEI IMSI ICCID MAC UPC EAN GTIN HS
    CNK PBS BSB IFSC SWIFT BIC ABA USI EXP LOT REF PO SKU INV ORD FN HRB HRA RC ISBN
    ISSN DOI CVE GHSA PR SN QTY TEL FAX MOB GSM OTP CVV ATM POS TID MID ARN UTR UPI
    TXN NEFT RTGS IMPS AWB BL HAWB MAWB CN ID KM URL IP DNS SMS MMS PIN VIN OGRN
    KPP ОГРН КПП БИН EDRPOU ЄДРПОУ ЕДРПОУ NACE SIC NAICS ICD CPT ATC NDC GMDN
    USD EUR GBP INR RM KSH AZN TL TRY FCFA XOF XAF NOK SEK DKK CHF PLN CZK HUF RON
    BGN RSD MKD BAM UAH RUB MNT UZS KZT AED SAR QAR JOD EGP MAD TND DZD NGN GHS KES
    UGX TZS ZAR ZMW BWP NAD MUR PKR LKR BDT NPR IDR MYR SGD THB VND PHP HKD CNY RMB
    JPY KRW TWD AUD NZD CAD MXN BRL ARS CLP COP PEN UYU DOP RD ДЕН
    DHL UPS USPS FEDEX TNT GLS DPD EMS MNG PTT JNE LBC TRN BCE KBO NIP ATU RFID RX
    SIA CIDR IMSS IMO MMSI DUNS PMID PMCID OCLC CAS NSN SAP ERP CRM MSISDN IATA TAN
    HTTP PDF CSV RAM CPU GPS FY KPI""".split()
)
"""Acronyms of a business's, an object's or a payment's number, and currencies."""

ORG_LINE = kept_patterns.compile(
    r"(?i)(?<![^\W_])(?:ltd|limited|gmbh|s\.r\.o|a\.s|inc|llc|llp|plc|sdn\s+bhd|pty|"
    r"s\.a|sarl|sas|ag|b\.v|n\.v|lda|ltda|oy|ab|as|aps|kft|spa|s\.p\.a|srl|"
    r"company|corporation|firm|bank|(?-i:ООО|ОАО|ЗАО|ПАО|АО|ТОО|ЖШС))(?![^\W_])"
)
"""A business named in the line: an acronym's number there is the business's
(a Russian or Kazakh firm's INN is a tax number as a person's is)."""

MONEY = kept_patterns.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d[\d.]*[.,]\d\d")
"""A sum: thousands split by commas, or cents ("5,200.00", "1.890,50")."""


CHECKED = kept_patterns.compile(
    r"(?i)(?<![^\W_])(?:"
    + "|".join(s.labels for s in SCHEMES if s.labels and s.check is not any_number)
    + r")(?![^\W_])|"
    + LabelledIdRecognizer.CHECKED.pattern.removeprefix("(?i)")
)
"""Labels of the schemes whose digits we check: their check's verdict stands."""

CHECKERS = (
    national_ids.SteuerIdRecognizer,
    national_ids.BsnRecognizer,
    national_ids.DniRecognizer,
    national_ids.MedicareAuRecognizer,
    national_ids.TfnRecognizer,
    national_ids.SinRecognizer,
    national_ids.NirRecognizer,
    national_ids.CpfRecognizer,
    national_ids.NricRecognizer,
    national_ids.PanRecognizer,
    national_ids.CodiceFiscaleRecognizer,
    national_ids.CuedSsnRecognizer,
    national_ids.PpsnRecognizer,
    national_ids.CurpRecognizer,
)
"""Our recognizers of checked schemes: a value one of them reads is theirs."""

PRESIDIO_SHAPES = tuple(
    (
        kept_patterns.compile(rf"(?i)(?<!\w)(?:{label})(?!\w)"),
        kept_patterns.compile(shape),
    )
    for label, shape in (
        (r"ssn|social\s+security", r"\d{3}[- ]?\d{2}[- ]?\d{4}"),
        (r"nino|national\s+insurance", r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]"),
        (r"aadhaar|uid", r"\d{4}[ -]?\d{4}[ -]?\d{4}"),
        (r"nhs", r"\d{3}[ -]?\d{3}[ -]?\d{4}"),
    )
)
"""The checked schemes Presidio reads (SSN, NINO, Aadhaar, NHS): label, shape."""


def _kind(label: str) -> str:
    """Return the kind a label names (a national ID unless it says otherwise)."""
    if PASSPORT_WORDS.search(label):
        return "PASSPORT"
    if MEDICAL_WORDS.search(label):
        return "MEDICAL_RECORD"
    if PLATE_WORDS.search(label):
        return "LICENSE_PLATE"
    return "NATIONAL_ID"


DATE = kept_patterns.compile(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}")
"""A date, day or month first."""

DATED = kept_patterns.compile(
    r"(?<!\d)(?:0?[1-9]|[12]\d|3[01])[./-](?:0?[1-9]|[12]\d|3[01])[./-](?:19|20)\d\d(?!\d)"
)
"""A full date inside a value ("01.01.2025-31.12.2025": a period, no one's
number); "07-99-1983" holds no day and month, only groups of a number."""

YEARS = kept_patterns.compile(r"(?:19|20)\d\d(?:[-/](?:19|20)?\d\d)?")
"""A year or a span of years ("2025/2026", "2025-26")."""

YEAR_PART = kept_patterns.compile(r"(?:^|[-/])(?:19|20)\d\d(?:[-/]|$)")
"""A year as one part of a value ("2026-0117", "1190427/2021"): a document's
reference, numbered per year."""


MIXED = kept_patterns.compile(r"(?=(?:[A-Z]*\d){4})(?=[0-9]*[A-Z])[A-Z0-9]{8,16}")
"""A code of capitals and digits, 8 to 16 long, four digits or more, one letter."""

ACRONYM_LABEL = kept_patterns.compile(r"[A-Z]{2,5}")
"""A label in capitals: a short form businesses may share ("RUC", "RIF")."""


def _org_line(text: str, at: int) -> bool:
    """Tell whether the line of ``at`` names a business (its number is the firm's)."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line_end = line_end if line_end >= 0 else len(text)
    return bool(ORG_LINE.search(text, line_start, line_end))


def _own_groups(value: str) -> str:
    """Keep a value's spaced groups while they are digits ("48213977 LP": the first).

    A code in one group ("AB123456") keeps only itself; a series of one or
    two letters before its digits ("A 04718236") is the number's own.
    """
    groups = value.split(" ")
    kept = groups[:1]
    if len(groups) > 1 and len(kept[0]) <= 2 and kept[0].isalpha():
        if not groups[1].isdigit():
            return value
        kept = [f"{kept[0]} {groups[1]}"]
        groups = groups[1:]
    for group in groups[1:]:
        if not (group.isdigit() and kept[-1].isdigit()):
            break
        kept.append(group)
    return " ".join(kept)


def _id_shaped(value: str, *, mixed: bool = False) -> bool:
    """Tell whether a value is a number someone is given, not a date, sum or address.

    After an identity label (``mixed``), a code of letters and digits eight
    long with four digits or more is one too ("NID: X3T7M2K9").
    """
    if mixed and MIXED.fullmatch(value.replace("-", "")):  # "7K2P-9A4M"
        return True
    if len(digits(value)) < 6 or re.fullmatch(r"\d+(?:\.\d+){3}(?:/\d+)?", value):
        return False
    if TIMESTAMP.match(value) or DATE.fullmatch(value) or DATED.search(value):
        return False
    if YEARS.fullmatch(value):
        return False  # "Tax year: 2025/2026"
    if MONEY.fullmatch(value):
        return False
    # "2 adults 1 child": spaced groups of a number are digits only.
    groups = value.split()
    if len(groups) == 2 and len(groups[0]) <= 2 and groups[0].isalpha():
        groups = groups[1:]  # "A 04718236": a series, then the number
    return all(g.isdigit() for g in groups) or len(groups) == 1


class IdFieldRecognizer(CuedPatternRecognizer):
    """ID-shaped values after a label of identity, or after a short acronym."""

    ENTITY = "NATIONAL_ID"
    SCORE = 0.6
    """Below a checked scheme's score: where a scheme types the number, it wins."""

    def __init__(self) -> None:
        """Report the kinds a label may name."""
        super().__init__()
        # A checker's shape (its own label inside, or distinctive alone),
        # and each checked scheme's shape with the label that names it.
        self.shapes: list[tuple[re.Pattern[str] | None, re.Pattern[str]]] = [
            (None, p) for c in CHECKERS for _, p, _ in c().compiled
        ]
        schemes = IdSchemeRecognizer()
        for name, pattern, _ in schemes.compiled:
            scheme = schemes.by_name[name]
            if scheme.check is not any_number and scheme.labels:
                named = kept_patterns.compile(rf"(?i)(?<!\w)(?:{scheme.labels})(?!\w)")
                self.shapes.append((named, pattern))
        self.supported_entities = [
            "NATIONAL_ID",
            "PASSPORT",
            "MEDICAL_RECORD",
            "LICENSE_PLATE",
        ]

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return the values of identity labels and acronyms that fit an ID's shape."""
        results: list[RecognizerResult] = []
        for match in LABELLED.finditer(text):
            start, end = match.span("v")
            value = _own_groups(match.group("v"))
            end = start + len(value)
            label = field_label(text, match.start(), start)
            if (
                not _id_shaped(value, mixed=True)
                or names_a_thing(label)
                or self._checked_elsewhere(text, label, start, end)
                or is_lookalike(text, start, end, dotted=False)
                or (
                    ACRONYM_LABEL.fullmatch(match.group("label"))
                    and _org_line(text, start)
                )
            ):
                continue
            results.append(self._typed(_kind(label), start, end, "identity_label"))
        results += self._replies(text)
        for match in ACRONYM.finditer(text):
            start, end = match.span("v")
            if not self._acronym_fits(match, text):
                continue
            results.append(self._typed("NATIONAL_ID", start, end, "acronym_label"))
        return results

    def _checked_elsewhere(self, text: str, label: str, start: int, end: int) -> bool:
        """Tell whether a checked scheme the label names reads the value as its own.

        That scheme's check then decides alone; a value of another shape
        ("DNI 0501-1985-07734", Honduras's, not Spain's) is left to this rule.
        """
        if not CHECKED.search(label):
            return False
        value = text[start:end]
        if any(n.search(label) and v.fullmatch(value) for n, v in PRESIDIO_SHAPES):
            return True
        line_start = text.rfind("\n", 0, start) + 1
        window = text[line_start : end + 1]
        for named, pattern in self.shapes:
            if named is not None and not named.search(label):
                continue
            for match in pattern.finditer(window):
                at = match.start("v") if "v" in pattern.groupindex else match.start()
                if line_start + at == start:
                    return True
        return False

    def _replies(self, text: str) -> list[RecognizerResult]:
        """Find a number sent alone right after a message that asks for an ID."""
        results: list[RecognizerResult] = []
        for match in REPLY.finditer(text):
            start, end = match.span("v")
            line_start = text.rfind("\n", 0, start)
            if line_start <= 0:
                continue
            asked = text[text.rfind("\n", 0, line_start) + 1 : line_start]
            word = ASKED.search(asked)
            if word is None:
                continue
            # The words around the identity word, not the whole message
            # ("nipe ID yako nikujazie form ya chama": the form is not the ID's).
            near = asked[max(0, word.start() - 25) : word.end() + 15]
            if (
                names_a_thing(near)
                or not _id_shaped(match.group("v"))
                or is_lookalike(text, start, end, dotted=False)
            ):
                continue
            results.append(self._typed(_kind(near), start, end, "asked_for"))
        return results

    def _acronym_fits(self, match: re.Match[str], text: str) -> bool:
        """Accept an acronym no business uses, in a line that names no business."""
        acronym = match.group("label").upper()
        if acronym in NOT_PERSONS_CODES or acronym.lower() in ("no", "nr"):
            return False
        start, end = match.span("v")
        label = field_label(text, match.start(), start)
        if any(w in NOT_PERSONS_CODES for w in re.findall(r"\w+", label.upper())):
            return False  # "UID ATU 6471 9022": a business's code before
        if YEAR_PART.search(match.group("v")):
            return False
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line = text[line_start : line_end if line_end >= 0 else len(text)]
        return (
            _id_shaped(match.group("v"))
            and not ORG_LINE.search(line)
            and not names_a_thing(label)
            and not self._checked_elsewhere(text, label, start, end)
            and not is_lookalike(text, start, end, dotted=False)
        )

    def _typed(self, kind: str, start: int, end: int, pattern: str) -> RecognizerResult:
        result = self.result(start, end, self.SCORE, pattern)
        result.entity_type = kind
        return result
