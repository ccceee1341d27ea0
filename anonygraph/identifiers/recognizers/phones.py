"""Phone numbers of any country, read by the ``phonenumbers`` library.

A digit run shaped like a phone number is parsed as an international number
(``+44 …``) or in each region's national format; it counts when one region
says it is a valid number, or a possible one with a trunk or country prefix.
Look-alikes (order and case numbers, dates, versions, IDs after their cue
word) and an organization's public line (toll-free and shared-cost numbers,
"call our front desk", a hotline) are left alone.
"""

from __future__ import annotations

import re
from typing import Any

import phonenumbers
from phonenumbers import PhoneNumberType
from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import (
    CuedPatternRecognizer,
    before,
    digits,
)
from anonygraph.identifiers.recognizers.lookalikes import is_lookalike
from anonygraph.tools import kept_patterns

# phonenumbers compiles its metadata's patterns through re's cache of 512,
# which this package's own patterns push them out of: measured 6 ms a text
# of recompiling on the identifier held-out sets. Keep them (9.0.43 has the
# switch; an older release recompiles as before).
getattr(phonenumbers, "enable_pattern_cache", lambda: None)()

REGIONS = (
    "US",
    "GB",
    "DE",
    "FR",
    "ES",
    "IT",
    "NL",
    "IN",
    "JP",
    "AU",
    "CA",
    "BR",
    "MX",
    "IE",
    "NZ",
    "ZA",
    "NG",
    "KE",
    "SG",
    "VN",
    "PH",
    "CN",
    "KR",
    "SE",
    "CH",
    "AT",
    "BE",
    "PL",
    "PT",
)
"""Regions whose national formats are tried (international ones always are)."""

ORG_TYPES = frozenset(
    {
        PhoneNumberType.TOLL_FREE,
        PhoneNumberType.PREMIUM_RATE,
        PhoneNumberType.SHARED_COST,
        PhoneNumberType.UAN,
    }
)
"""Number types an organization publishes, not a person."""

ORG_CUE = kept_patterns.compile(
    r"(?:\bour\b[\w\s-]{0,25}|hotline|helpline|help line|customer (?:service|care|"
    r"support)|switchboard|reception|front desk|main line|office line|"
    r"support line|call centre|call center|dial-in|dial in|toll-free|toll free|"
    r"enquiries|inquiries|box office|bookings|reservations|depot)"
    r"[\s:,-]*(?:at|on|is|number)?[\s:]*$",
)
"""Words before a number that make it an organization's public line."""

ORG_AFTER = kept_patterns.compile(
    r"^\s*\((?:switchboard|main line|reception|office|hotline|helpline|toll[- ]free|"
    r"front desk|customer service)\)",
    re.IGNORECASE,
)
"""A note after a number that makes it an organization's line."""

ORG_PREFIXES = (
    "0800",
    "0808",
    "0500",
    "0845",
    "0844",
    "0843",
    "0870",
    "0871",
    "0300",
    "0330",
    "0333",
    "0343",
    "0344",
    "0345",
    "0370",
    "0371",
    "0372",
    "0373",
    "0120",
    "0570",
    "0180",
    "1800",
    "1300",
    "13",
    "0900",
    "0906",
    "0909",
)
"""National prefixes of toll-free, shared-cost and non-geographic lines."""

ID_CUE = kept_patterns.compile(
    r"\b(?:nhs|ssn|sin|tfn|medicare|bsn|aadhaar|iban|account|acct|a/c|card|"
    r"passport|mrn|nric|cpf|steuer-?id|bsb|sort code|agência|agencia|conta|"
    r"patient id|record no)\b\W{0,3}(?:(?:no|number|nr|is|ending(?: in)?)\.?"
    r"\W{0,3}){0,2}$"
)
"""An identifier cue word before a number: it is that identifier, not a phone."""


class PhoneNumberRecognizer(CuedPatternRecognizer):
    """Phone numbers: valid in some region, or possible with a prefix."""

    ENTITY = "PHONE"
    PATTERNS = (
        (
            "phone",
            r"(?<![\w+.,/:#-])(?:(?:\+|00)\d{1,3}[ .-]?|\(\+\d{1,3}\)[ .-]?)?"
            r"(?:\(\d{1,5}\)[ .-]?)?"
            r"\d{1,5}(?:[ .-]?\d{1,5}){1,5}(?![\w@]|[.,:/]\d|\+\w)",
            0.7,
        ),
    )

    def __init__(self) -> None:
        """Report ``NUMBER`` too: a phone-shaped number not presented as one."""
        super().__init__()
        self.supported_entities.append("NUMBER")

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return one result per phone number, scored by how sure the parse is."""
        results: list[RecognizerResult] = []
        organizations: list[Any] | None = None  # the parse's, read at the first number
        for name, pattern, score in self.compiled:
            for match in pattern.finditer(text):
                if organizations is None:
                    organizations = _organizations(nlp_artifacts)
                if _after_organization(organizations, text, match.start()):
                    continue
                verdict = _check(match, text)
                if verdict is not None:
                    sure = score if verdict == "valid" else POSSIBLE_SCORE
                    found = self.result(*match.span(), sure, name)
                    if not _presented_as_phone(text, match.start(), match.group(0)):
                        found.entity_type = "NUMBER"
                    results.append(found)
        return results


ORG_NAME_WORDS = frozenset(
    """medicine medical surgery practice pharmacy dental dentistry health
    hospital clinic centre center bank insurance""".split()
)
"""Words that make an organization's name (beside `names.ORG_WORDS`)."""

TITLES = r"(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Frau|Herr|Sr|Sra|Mme|Mlle|M)\.?[ \t]"
"""A person's title and the space after it."""


def titled(text: str, start: int) -> bool:
    """Tell a span the parse took for an organization that a person's title opens.

    "Votre agent: Mme Anouk Reuter, +352 …": the title stands right before
    the span or is its first word.
    """
    return bool(
        re.search(rf"(?<![\w.]){TITLES}+$", text[max(0, start - 8) : start])
        or re.match(TITLES, text[start:])
    )


BETWEEN_ORG_AND_NUMBER = kept_patterns.compile(
    r"[ \t,:;(–-]*(?:(?:on|at|is|tel\.?|phone|number|call)[ \t:,]*)*$", re.I
)
"""What may stand between an organization's name and its number."""


def _organizations(nlp_artifacts: Any) -> list[Any]:
    """Return the parse's organization entities, read once per text.

    spaCy builds ``doc.ents`` anew at each read: not once per number.
    """
    doc = getattr(nlp_artifacts, "tokens", None)
    return [ent for ent in getattr(doc, "ents", ()) or () if ent.label_ == "ORG"]


def _after_organization(organizations: list[Any], text: str, start: int) -> bool:
    """Tell a number that follows an organization's name as its line.

    "Follow-up at Riverside Family Medicine, (206) 555-0155": the parse's
    organization (of three words or more, or with an organization word)
    ends right before the number on its line, with at most "on", "at" or a
    comma between (a signature's company line over a number is not this).
    """
    from anonygraph.identifiers.recognizers.name_checks import ORG_WORDS

    for ent in organizations:
        if not 0 <= start - ent.end_char <= 20:
            continue
        if titled(text, ent.start_char):
            continue  # "Votre agent: Mme Anouk Reuter, +352 …": a person's line
        words = {w.lower() for w in ent.text.split()}
        named = len(words) >= 3 or words & (ORG_WORDS | ORG_NAME_WORDS)
        if named and BETWEEN_ORG_AND_NUMBER.fullmatch(text[ent.end_char : start]):
            return True
    return False


DOTTED_PHONE = kept_patterns.compile(
    r"(?:\+\d{1,3}[ .]?)?(?:\(?\d{3}\)?\.\d{3}\.\d{4}|0\d(?:\.\d\d){4})|"
    r"\+\d{1,3}[ .]?\d{1,4}(?:\.\d{2,4}){2,4}"
)
"""Dotted numbers that are phones: US 555.123.4567, French 06.12.34.56.78,
international +33.6.12.34.56 (a version or an IP address is never these)."""

NANP_TOLL_FREE = kept_patterns.compile(r"1?8(?:00|33|44|55|66|77|88)\d{7}$")
"""A North American toll-free number (1-800 ...): an organization's line."""

NANP_SHAPE = kept_patterns.compile(r"(?:\+?1[ .-])?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}")
"""A number written the North American way (555-867-5309)."""

POSSIBLE_SCORE = 0.55
"""Score of a number that is possible but not valid in any region tried."""


def _check(match: re.Match[str], text: str) -> str | None:
    """Return the verdict on one candidate in its context, or None."""
    value = match.group(0)
    number = digits(value)
    if not 7 <= len(number) <= 15:
        return None
    if "." in value and not DOTTED_PHONE.fullmatch(value):
        return None  # dotted: a version, an IP address or a date
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", value):
        return None  # a US social security number's shape
    if re.search(r"\d-\d{7,}-\d", value):
        return None  # a hyphenated ID with a long middle group (19-048271936-4)
    if re.fullmatch(r"(?:19|20)\d\d ?[-–] ?(?:19|20)\d\d", value):
        return None  # a range of years
    if re.match(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$", value):
        return None
    start, end = match.span()
    prior = before(text, start, 50)
    if (
        is_lookalike(text, start, end, dotted=False)
        or ID_CUE.search(prior)
        or ORG_CUE.search(prior)
        or ORG_AFTER.match(text[end : end + 30])
        or _on_desk_line(text, start)
        # A label that refuses even a valid number refuses any: no parse.
        or not _label_allows(text, start, value, "valid")
    ):
        return None
    verdict = _verdict(value)
    if verdict is not None and not _label_allows(text, start, value, verdict):
        return None
    return verdict


DESK_WORDS = kept_patterns.compile(
    r"(?i)(?:\b(?:questions?|queries|frågor|fragen|rückfragen|domande|preguntas|"
    r"dúvidas|vragen|spørsmål|kysymyksiä|pytania|(?<!\[)infos?(?!\])|informazioni|"
    r"informaci[oó]n|informações|prenotazioni|helpdesk|help desk|service desk|"
    r"accueil|store|shop|merchant|справки|вопросы|довідки)\b|問い合わせ|お問合せ)"
)
"""Words of a line that offer an organization's desk ("Questions?",
"Rückfragen:", "Info e prenotazioni:", "Справки"), in the languages we read
(a log's level "[INFO]" is none)."""

FIRST_PERSON = kept_patterns.compile(
    r"(?i)\b(?:me|my|mine|i|i'm|mich|mir|mein\w*|moi|mon|ma|mi|mio|mia|meu|minha|"
    r"mój|moja|mig|min|mitt)\b"
)
"""Words by which a writer offers their own number, not a desk's."""


def _on_desk_line(text: str, start: int) -> bool:
    """Tell a number on a line that offers an organization's desk or shop.

    "Frågor? medlem@… eller 08-120 530 00", "Store: Walgreens #05521,
    (716) 874-2161", "Smile Street Dental, Unit 4, …, 01 623 4410": a desk
    word, or an organization's name (a capitalized organization word),
    before the number on its line, and no word by which the writer offers
    their own number.
    """
    from anonygraph.identifiers.recognizers.name_checks import ORG_WORDS

    line_start = text.rfind("\n", 0, start) + 1
    prior = text[max(line_start, start - 80) : start]
    # The clause the number closes: a full stop ends the sentence before it.
    prior = re.split(r"\.\s", prior)[-1]
    if (
        FIRST_PERSON.search(prior)
        or re.search(r"\b(?:Mrs?|Ms|Dr)\b\.?", prior)
        or OWN_LINE.search(prior)
    ):
        return False
    if any(_desk_label(m, prior) for m in DESK_WORDS.finditer(prior)):
        return True
    return any(
        w[:1].isupper() and w.lower() in ORG_WORDS | ORG_NAME_WORDS | ORG_LINE_WORDS
        for w in re.findall(r"[^\W\d_]+", prior)
    )


OWN_LINE = kept_patterns.compile(
    r"(?i)\b(?:mobile|mobil|móvil|celular|cell|handy|whats ?app)\b[^\w]*$"
)
"""A personal line's label right before the number ("Mobile 0423 …")."""


def _desk_label(m: re.Match[str], prior: str) -> bool:
    """Tell a desk word written as a label, not a word of a sentence.

    "Rückfragen:", "Frågor?", "Store: Walgreens", "HR helpdesk 920000000":
    capitalized (a log level "INFO" aside) or right before the number; "an
    electronics store" in a sentence is no desk.
    """
    word = m.group(0)
    if word.isupper() and len(word) > 1 and word.isascii():
        return False  # "INFO 2026-07-19 …": a log level
    if not word[:1].isalpha() or not word[:1].isascii():
        return True  # "問い合わせ", "Справки": no case to tell
    return word[:1].isupper() or not prior[m.end() :].strip(" \t:")


ORG_LINE_WORDS = frozenset(
    "dental accounting hotel museum museo council parish church".split()
)
"""Capitalized words that make a line an organization's (beside `ORG_WORDS`)."""


PHONE_LABEL = kept_patterns.compile(
    r"(?i)(?:\b(?:tel|tél|tlf|mob|cel|fax|ph|hp|wa|sms|gsm|handy|zap)|phone|fono|"
    r"whats ?app|puhelin|\bruf|\bcall|\bring|\btext|ontact|ontakt|ontatt|"
    r"recapito|móvil|movil|portable|\breach)"
)
"""Words of a label that introduces a phone number, in the languages we read."""

ID_WORDS = kept_patterns.compile(
    r"(?i)\b(?:id|no|nr|nº|account|acct|a/c|konto|conto|cuenta|compte|ref|"
    r"reference|code|card|reg|order\w*|invoice|folio|file|ticket|policy|"
    r"registration|licen[cs]e|certificate|claim|caso|expediente|c[óo]digo|"
    r"tunnus|takip|org|cvr|company|firma|kvk|siren|siret|abn|acn|vat|uid)\b|"
    r"(?i:\w+(?:nummer|numero|número)\b)"
)
"""Words of a label that name an identifier other than a phone number."""

ADDRESS_UNIT = kept_patterns.compile(
    r"(?i)\b(?:sector|sec|block|blk|phase|stage|pocket|floor|plot|ward|zone)\.?[ \t]*$"
)
"""A part of an address right before a number: the number is its, not a phone's."""

ABBREVIATION = kept_patterns.compile(r"(?:^|[\s.-])[^\W\d_]{1,4}\.$")
"""A short word closed by a full stop: a label's abbreviation ("nr.", "No.")."""

FIELD_BREAK = kept_patterns.compile(r"\s{2,}|\t|[|;•]|(?<=[.!?,])\s")
"""What separates one field or clause from the next on a line."""


def _label_allows(text: str, start: int, value: str, verdict: str) -> bool:
    """Let a field's label decide whether the number after it is a phone.

    The field is the stretch of the line after the previous field's break
    (two spaces, a bar, a semicolon, a clause's comma or full stop). A label
    with a phone word lets the number be one; a label naming another
    identifier ("ID number:", "account (X):") or a code-like label right
    before it ("NSS 5419…", "KvK 8174…") makes it that identifier. Under
    any other label ("Otieno: 2847…", "check: 3827…") a number is a phone
    only when valid and written like one (a country or trunk prefix, or
    the North American shape).
    """
    line_start = text.rfind("\n", 0, start) + 1
    pieces = FIELD_BREAK.split(text[line_start:start])
    field = pieces[-1]
    if len(pieces) > 1 and not field.strip() and ABBREVIATION.search(pieces[-2]):
        # "Org.nr. 9814…", "Company No. 0921…": the full stop closed the
        # label's abbreviation, not a clause.
        field = pieces[-2] + " "
    if PHONE_LABEL.search(field):
        return True
    if ID_WORDS.search(field):
        return False
    if ADDRESS_UNIT.search(field):
        return False  # "HSR Layout Sector 2 560102": the sector's number, a PIN
    last = re.search(r"(?<![\w.-])([^\W\d_]+)\.?[ \t]*#?[ \t]*$", field)
    if last and sum(c.isupper() for c in last.group(1)) >= 2:
        return False  # an acronym or a code word right before: the ID's name
    if value.isdigit() and not value.startswith("0") and len(value) < 8:
        return False  # "till 5128830": a short code, not written as a phone
    if re.search(r"[:=][ \t]*$", field):
        return verdict == "valid" and bool(
            value.startswith(("+", "0", "(")) or NANP_SHAPE.fullmatch(value)
        )
    return True


WRITTEN_AS_PHONE = kept_patterns.compile(
    r"(?:\+|00|\()|0\d*[ .-]\d|\d{3}[.-]\d{3}[.-]\d{4}$"
)
"""How only a phone number is written: a country prefix or a bracketed area
code, a trunk 0 before digit groups (0722 418 905), or 555-123-4567."""


def _presented_as_phone(text: str, start: int, value: str) -> bool:
    """Tell a number the text itself presents as a phone number.

    A digit run that `phonenumbers` accepts in some region may be any other
    number (a PESEL, a case number, a microchip): it is typed ``PHONE`` only
    when it is written the way only phones are, or a phone word stands
    before it on its line ("Tel.", "call me on", "WhatsApp"). Otherwise it
    is still replaced, as a ``NUMBER``, which claims no more than the text
    shows.
    """
    if WRITTEN_AS_PHONE.match(value):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return bool(PHONE_LABEL.search(text[max(line_start, start - 60) : start]))


def _as_printed(parsed: phonenumbers.PhoneNumber, value: str) -> bool:
    """Tell whether a number is written exactly as its region prints it."""
    national = phonenumbers.PhoneNumberFormat.NATIONAL
    return phonenumbers.format_number(parsed, national) == value


def _verdict(value: str) -> str | None:
    """Return "valid", "possible" or None (not a person's phone number)."""
    value = (
        value.replace("(+", "+").replace(")", " ", 1)
        if value.startswith("(+")
        else value
    )
    international = value.startswith(("+", "00"))
    regions: tuple[str | None, ...] = (None,) if international else REGIONS
    candidate = "+" + value[2:] if value.startswith("00") else value
    if NANP_SHAPE.fullmatch(value) and NANP_TOLL_FREE.match(digits(value)):
        return None
    possible = False
    types = set()
    printed = [False, False]  # as a region prints a mobile, as one an org's line
    for region in regions:
        try:
            parsed = phonenumbers.parse(candidate, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            kind = phonenumbers.number_type(parsed)
            if kind not in ORG_TYPES and not digits(value).startswith(ORG_PREFIXES):
                return "valid"  # a person's number somewhere: no need to go on
            types.add(kind)
            if kind in ORG_TYPES or kind == PhoneNumberType.MOBILE:
                printed[kind in ORG_TYPES] |= _as_printed(parsed, value)
        possible = possible or phonenumbers.is_possible_number(parsed)
    if printed[0] and not printed[1]:
        # "090-6218-4457": grouped as Japan prints a mobile, not as a British
        # 0906 premium line is.
        return "valid"
    if types:
        # One region's premium line is another's mobile (09… in the UK and
        # Japan): a number is an org's when no region gives it to a person,
        # or when one calls it toll-free and it starts like such lines do.
        if types <= ORG_TYPES:
            return None
        if types & ORG_TYPES and digits(value).startswith(ORG_PREFIXES):
            return None
        return "valid"
    # A possible but unassigned number (07700 900…, the drama range, 555-…)
    # still reads as someone's number when written like one.
    if possible and (
        (international or value.startswith("0"))
        and len(digits(value)) >= 9
        or NANP_SHAPE.fullmatch(value)
    ):
        return "possible"
    return None
