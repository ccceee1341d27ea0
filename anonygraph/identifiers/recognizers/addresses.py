"""Street addresses and postcodes in the orders countries write them.

Number first (US, UK, Ireland, Australia, Canada: "42 Elm Street", "Flat 3,
14 Mill Lane"), street first (German and Dutch "Hauptstraße 12", "Am
Weidenhof 3a"; Romance "Av. Sete de Setembro 2045", French "12 rue de la
Paix"), Indian house numbers ("H.No. 12-3-45, Banjara Hills") and Japanese
block numbers ("2-14-3 Shibuya"). Postcodes count by their national shape
where that is distinctive (UK, Canada, Ireland, the Netherlands with a
town), and otherwise only next to a town, a state or an address.
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.lookalikes import CUES as LOOKALIKE_CUE
from anonygraph.identifiers.recognizers.lookalikes import day_and_month, is_lookalike
from anonygraph.tools import kept_patterns

STREET_TYPES = (
    "Street|St|Road|Rd|Avenue|Ave|Av|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|"
    "Place|Pl|Terrace|Tce|Way|Close|Cl|Crescent|Cres|Sweep|Square|Sq|Parkway|Pkwy|"
    "Highway|Hwy|Row|Walk|Gardens|Gdns|Grove|Gr|Hill|Mews|Parade|Pde|Circle|Cir|"
    "Trail|Trl|Green|Rise|View|Park|Vale|Wharf|Quay|Esplanade|Loop|Alley|Path|"
    "Gate|Yard|Market|Broadway|Causeway|Pike|Heights|Hts|Point|Ridge|Run|Marg|"
    "Nagar|Colony|Layout|Chowk|Salai"
)
"""English (and Indian English) street types that end a number-first address."""

LEADING_TYPES = (
    "Heol|Rue|Calle|Via|Rua|Avenida|Av\\.|Avenue|Boulevard|Bd|Plaza|Piazza|Paseo|"
    "Carrer|Travessa|Alameda|Stryd|Ffordd|All[ée]e|Chemin|Impasse|Camino|Ronda|"
    "Viale|Vicolo|Corso|Estrada|Pra[çc]a|Rehov|Rechov|Sderot|Derech|Jr\\.|Jir[óo]n|"
    "Jl\\.|Jalan|Carrera|Cra\\.|Soi|ul\\.|al\\.|Ulica|Aleja|C/"
)
"""Street types written before the name, after a house number or with one after."""

GERMANIC_SUFFIXES = (
    "straße|strasse|str\\.|weg|gasse|platz|allee|ring|damm|ufer|hof|steig|pfad|"
    "chaussee|gracht|laan|plein|straat|kade|singel|dijk|markt|berg|feld|garten|"
    "gatan|gata|gade|gaten|vägen|väg|veien|vej|gränd|torget|stræde|katu|tie|"
    "kuja|polku|kaari|väylä"
)
"""Endings of German and Dutch street names."""

STREET_ENDINGS = (
    "straße|strasse|gasse|allee|chaussee|straat|gatan|vägen|veien|vej|gade|"
    "stræde|gränd|torget|caddesi|sokak|sokağı|bulvarı"
)
"""Endings and words that make a capitalized word a street's name alone
("Nørrebrogade", "Bağdat Caddesi"); "-berg" or "-feld" end surnames too."""

ORG_BEFORE = kept_patterns.compile(
    r"(?:\b(?:Inc|Corp|Ltd|LLC|LLP|GmbH|AG|plc|PLC|S\.A|B\.V|Co)\.?,?\s*|"
    r"\b(?:As Oy|Asunto Oy|Oy|Ab|Brf|BRF|A/S|ApS|ASA|AS|Sp\. z o\.o\.)\s+|"
    r"(?i:contact us|visit us|find us|our\b[\w -]{0,20}?\b(?:office|store|shop|"
    r"showroom|clinic|headquarters|hq|branch))\b[^\n]{0,20})$"
)
"""An organization right before an address: its public address, not a person's."""

CYRILLIC_TYPES = (
    "ул|улица|вул|вулиця|пр|просп|пр-т|бул|бульв|пер|пл|ш|шосе|наб|"
    "Ул|Улица|Вул|Вулиця|Просп|Бул|Бульв"  # at a line's start
)
"""Cyrillic street types written before the name (Russian, Ukrainian,
Bulgarian, Serbian), most often abbreviated with a dot."""

WORD = r"[A-ZÀ-Þ][\w'’.-]*"
NO_STOP = r"[A-ZÀ-Þ](?:[\w'’-]{0,3}\.|[\w'’-]*(?!\.))"
"""A word in a street's name: a dot only after an abbreviation ("Gral."); "Via
Etnea. Soak 4" ends the street at the sentence's stop."""
UNIT = r"(?:,?\s*(?:Unit|Apt\.?|Apartment|Suite|Ste\.?|Flat|#)\s*[\w-]+)?"
UNITS_AFTER = (
    r"(?:,?[ \t]+(?:No|Nomor|Số)\.?:?[ \t]*\d{1,5}[A-Za-z]?|"
    r",?[ \t]+(?i:apto|apt|dpto|depto|piso|boîte|bte|lgh|int|flat|unit|suite)\b\.?"
    r"[ \t]*\w{1,5}|[ \t]+m\.[ \t]*\d{1,4}|,\d{1,2}(?=[ \t]+No\b)|"
    r",[ \t]*\d{1,2}[º°ª](?:[ \t]*\d{1,2}[º°ª]|[ \t]+[A-Z]\b)?)*"
)
"""A flat, floor or door after a street and number ("apt 9", "Dpto. 4", "3º 2ª")."""
CAP = r"[A-ZÀ-ÞĀ-ŽĐƠƯẠ-Ỹ]"
"""A capital of the Latin scripts (Vietnamese and Central European letters too)."""

NAMED_STREET = (
    rf"(?<![\w.-]){CAP}[^\W\d_]*\.?"
    rf"(?:[ \t]+(?:{CAP}[^\W\d_]*|[^\W\d_A-Z]{{2,}})\.?){{0,3}}"
    r"[ \t]+\d{1,4}[A-Za-z]?(?:[-/]\d{1,4})?"
    r"(?:,?[ \t]+(?i:stan|ap|apt|app|apto|lgh|kv|flat|unit|et)\.?[ \t]*\d{1,4})*"
)
"""A street's name (any words, no street type needed) and its house number,
with a flat after ("Ilica 142", "Bulevar oslobođenja 88, stan 14")."""

TOWN_CODE = (
    r"(?:[A-Z]{1,2}-)?(?!(?:19|20)\d\d\b)(?:\d{4,6}|\d{2}-\d{3}|\d{3} \d{2})"
    rf"[ \t]+{CAP}[^\W\d_]+"
    rf"(?:[ \t-]{CAP}?[^\W\d_]+){{0,2}}[ \t]*(?=[,;\n)|]|$)"
)
"""A postcode (maybe after a country letter, "LT-03153") and the town closing
its segment of the line: what makes the words before it a street address."""


class StreetAddressRecognizer(CuedPatternRecognizer):
    """A street address: house number and street, in any of the orders above."""

    ENTITY = "ADDRESS"
    PATTERNS = (
        (
            "number_first",
            r"(?<![\w/.-])(?P<v>(?:(?:Flat|Apt\.?|Apartment|Unit|Suite)\s+\w+,\s*)?"
            r"\d{1,5}[A-Za-z]?(?:[-/]\d{1,4})?,?\s+"
            rf"(?:(?:{WORD}|\d+(?:st|nd|rd|th))\s+){{0,4}}(?:{STREET_TYPES})\b\.?"
            rf"(?:\s+(?:NE|NW|SE|SW|N|S|E|W)\b)?{UNIT})",
            0.8,
        ),
        (
            "number_then_leading_type",
            r"(?<![\w/.-])(?P<v>\d{1,5}[A-Za-z]?(?:\s+(?:bis|ter|quater))?,?\s+"
            rf"(?i:{LEADING_TYPES})\s+(?:(?:[a-zà-ÿ]{{1,3}}|{WORD})\s+){{0,4}}{WORD})",
            0.8,
        ),
        (
            "type_then_number",
            # "C/ de Sant Pere Més Alt, 27": a comma before a short house number.
            rf"(?<![\w.])(?P<v>(?:{LEADING_TYPES})\s+(?:(?:[a-zà-ÿ]{{1,3}}|{NO_STOP})"
            r"(?:\s+|,\s+(?=\d{1,3}(?!\d)))){0,5}\d{1,5}[A-Za-z]?\b"
            # "Calle 93 # 14-20" (the crossing street and door), "Km 5,6".
            r"(?:[ \t]*#[ \t]*\d{1,3}[A-Z]?-\d{1,3}|,\d{1,2}(?![\d º°ª]))?"
            rf"{UNITS_AFTER})",
            0.8,
        ),
        (
            "germanic",
            rf"\b(?P<v>(?:(?:Am|An der|Auf dem|Im|In der|Zum|Zur|Op de|Aan de)\s+)?"
            rf"[A-ZÄÖÜ][\wäöüß-]*(?:{GERMANIC_SUFFIXES})\s+\d{{1,4}}"
            r"(?:\s?[a-zA-Z](?:\s\d{1,3}(?=,))?\b)?(?:/\d{1,4}\b)?)",
            0.8,
        ),
        (
            # "Bornaische Straße 58", "Kaiser-Wilhelm-Ring 3": the street
            # type as a word of its own after the name.
            "germanic_spaced",
            r"\b(?!(?:Die|Der|Das|Den|Dem|Des|Eine?|Jede|Diese|De|Het|Een)\b)"
            r"(?P<v>[A-ZÄÖÜ][\wäöüß-]*[ -](?:Straße|Strasse|Str\.|Weg|Allee|Platz|"
            r"Gasse|Ring|Damm|Ufer|Chaussee|Laan|Straat|Gatan|Vägen)"
            r"\s+\d{1,4}\s?[a-zA-Z]?(?:/\d{1,4})?)(?![\w-])",
            0.8,
        ),
        (
            "germanic_phrase",
            r"\b(?P<v>(?:Am|An der|Auf dem|Im|In der|Zum|Zur)\s+[A-ZÄÖÜ][\wäöüß-]+\s+"
            r"\d{1,4}\s?[a-z]?)\b",
            0.7,
        ),
        (
            "indian_house",
            r"\b(?P<v>(?i:h\.?\s?no\.?|house\s+no\.?|flat\s+no\.?|plot\s+no\.?|"
            r"door\s+no\.?|d\.?\s?no\.?)\s*[\w/-]*\d[\w/-]*"
            r"(?:,\s*(?:(?:(?:No|Sector|Sec|Block|Phase|Stage|Pocket)\.?\s*\d+[A-Z]?|"
            r"[A-Z][\w-]*)\s?){1,5})?)",
            0.8,
        ),
        (
            "indian_cross_main",
            r"(?<![\w/.-])(?P<v>\d{1,3}(?:st|nd|rd|th)\s+(?i:cross|main)"
            r"(?:\s+(?i:road|rd))?(?:,\s*(?:\d{1,3}(?:st|nd|rd|th)\s+(?i:cross|main)|"
            r"(?i:no\.?)\s*\d{1,5}|[A-Z][a-z]+(?:\s+\d{1,2}(?:st|nd|rd|th)\s+"
            r"(?i:block|stage|phase|sector))?))*)",
            0.8,
        ),
        (
            # "Bağdat Caddesi No: 318 D: 5": Turkish streets, door and flat.
            "turkish",
            rf"\b(?P<v>(?:{WORD}\s){{1,3}}(?:Caddesi|Cad\.|Sokak|Sokağı|Sk\.|"
            r"Bulvarı|Blv\.)\s+No\s*:?\s*\d{1,5}[A-Z]?(?:\s*(?:D|Daire|Kat)\s*:?\s*\d{1,4})*)",
            0.8,
        ),
        (
            # "Vinohradská 1543/38": Czech and Slovak street adjectives, a
            # house number with its street number after a slash.
            "czech",
            rf"(?<![\w.])(?P<v>{CAP}[^\W\d_]*(?:sk[áé]|ck[áé]|ová|ého|ní)\s+"
            r"\d{1,5}(?:/\d{1,4}[a-z]?)?)(?![\w/])",
            0.75,
        ),
        (
            # "Θησέως 112, 176 71 Καλλιθέα": a Greek street, its number and a
            # Greek postcode after it.
            "greek",
            r"(?P<v>[Α-Ω][α-ωά-ώϊϋΐΰ]+(?:\s[Α-Ω][α-ωά-ώϊϋΐΰ]+)?\s+\d{1,4}[Α-Ωα-ω]?)"
            r"(?=,\s*(?:\d{3}\s?\d{2}\b|$))",
            0.8,
        ),
        (
            # "Số 27 ngõ 64 Nguyễn Lương Bằng": a Vietnamese house number,
            # its alleys, then the street's name.
            "vietnamese",
            r"(?P<v>(?i:số)\s+\d{1,5}[A-Za-z]?(?:[/,]?\s*(?:ngõ|ngách|hẻm|kiệt)\s+\d{1,4})*"
            rf"\s+(?:(?:đường|phố)\s+)?{CAP}[^\W\d_]*(?:\s{CAP}[^\W\d_]*){{0,3}})",
            0.8,
        ),
        (
            # "Ilica 142;10000 Zagreb": a street with no street word is one
            # when its postcode and town follow it.
            "before_postcode",
            rf"(?P<v>{NAMED_STREET})(?=[ \t]*[,;][ \t]*{TOWN_CODE})",
            0.75,
        ),
        (
            "po_box",
            r"\b(?P<v>(?:P\.?\s?O\.?\s?Box|Postfach|Apartado|Caixa Postal|"
            r"Boîte postale)"
            r"\s+\d{1,6})\b",
            0.8,
        ),
        (
            # "Villa 23, Street 14B": Gulf addresses number the street too.
            "numbered_street",
            r"\b(?P<v>(?:Villa|House|Building|Bldg\.?|Flat|Office)\s+\d{1,5}[A-Z]?,\s*"
            r"(?:Street|St\.?|Road|Rd\.?|Sikka|Lane)\s+\d{1,4}[A-Z]?)\b",
            0.8,
        ),
        (
            # "99/45 Moo 3, Soi Ramkhamhaeng 24": Thai house, village, lane.
            "thai",
            r"(?<![\w/.-])(?P<v>\d{1,4}(?:/\d{1,4})?\s+(?:Moo|M\.)\s*\d{1,3}"
            rf"(?:,?\s+Soi\s+{WORD}(?:\s+{WORD})*(?:\s+\d{{1,3}})?)?"
            rf"(?:,?\s+(?:Thanon|Road|Rd\.?)\s+{WORD})?)",
            0.8,
        ),
        (
            "japanese_block",
            r"(?<![\w./:-])(?P<v>\d{1,2}-\d{1,2}(?:-\d{1,3})?\s+"
            r"[A-Z][a-z]+(?:-[A-Z]?[a-z]+)*)",
            0.75,
        ),
        (
            "japanese_block_after",
            r"\b(?P<v>[A-Z][a-z]+(?:-[a-z]+)?\s+\d{1,2}-\d{1,2}-\d{1,3})(?![\w-])",
            0.7,
        ),
        (
            # "ул. Профсоюзная, д. 84, кв. 117", "вул. Сумська, 71, кв. 12":
            # a Cyrillic street type, the name, the house, the flat.
            "cyrillic",
            rf"(?<![\w.])(?P<v>(?:{CYRILLIC_TYPES})\.?[ \t]*[„«\"]?"
            r"[А-ЯЁІЇЄҐЂЈЉЊЋЏ][\w'’-]*"
            r"(?:[ \t]+[\w'’-]+){0,3}[“»\"]?,?[ \t]*(?:(?:д|буд|б)\.|№)?[ \t]*"
            r"\d{1,4}[а-яa-z]?(?:/\d{1,3})?"
            r"(?:,?[ \t]*(?:кв|корп|стр|ет|ап|оф|под|эт|стан)\.?[ \t]*\d{1,4})*)",
            0.8,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Reject a measure that borrowed a street word ("3 Way"), an org's address."""
        if ORG_BEFORE.search(text[max(0, start - 40) : start]):
            return False
        if LOOKALIKE_CUE.search(value.split()[0] + " "):
            return False  # "Order 5, 10000 Units": a reference's number
        if day_and_month(value):
            return False  # "6-10 July": days of a month, no street
        return not re.match(r"\d+\s+(?:Way|Park|View|Point|Run|Gate|Green)\b$", value)


ADDRESS_LABEL = kept_patterns.compile(
    # "العميل: العنوان: …": a field's label after the line's own
    r"(?im)^[ \t]*"
    r"(?:[^\W\d_][^:：\n|;]{0,20}[:：][ \t]*(?=[^\W\d_][^:：\n]{0,40}[:：]))?"
    r"(?P<label>[^\W\d_][^:：−\n|;]{0,40}?)[ \t]*[:：−][ \t]*"
    r"(?P<value>[^\n|;]+)"
)
"""A field at a line's start: its label, a colon, its value up to the line's end."""

ADDRESS_WORD = kept_patterns.compile(
    r"(?i)\b(?:address|addr|adresse|adres|adresa|adresă|dirección|direccion|"
    r"endereço|morada|indirizzo|anschrift|osoite|cím|lakcím|heimilisfang|naslov|"
    r"adresas|aadress|adrese|адрес|адреса|адресa|residencia|residência|residence|"
    r"domicilio|domicílio|wohnort|суроға|хаяг|ünvan|διεύθυνση|მისამართი|"
    r"հասցե)(?!\w)|"
    # Scripts that glue a word on ("現住所", "العنوان", "နေရပ်လိပ်စာ")
    r"住所|地址|주소|عنوان|نشانی|လိပ်စာ|អាសយដ្ឋាន"
)
"""A word of an address label, in the languages of the forms we read."""

NOT_HOME_LABEL = kept_patterns.compile(
    r"(?i)\b(?:ip|mac|e-?mail|mail|web|server|bind|listen|wallet|url|host|"
    r"office|company|registered|business|store|shop|clinic|hotel|school|our|"
    r"head|branch|return|ip-адрес)\b"
)
"""Label words of an address that is no one's home (a machine's, an org's)."""


class LabelledAddressRecognizer(CuedPatternRecognizer):
    """A home address after its label in any layout the street patterns lack.

    "Address: Khiaban-e Vali-ye Asr, Kuche-ye Tavanir, Pelak 22, Vahed 5,
    Tehran": the label says what the value is, whatever its country's order.
    The value runs to its last comma-separated part holding a number (the
    town after it stays); without a number, its parts before the last
    (a hamlet, a named quarter not in the gazetteer: "Kotu Layout,
    Kanifing"). A value the street patterns already read, a town and its
    country alone, and a machine's or an organization's address are left
    to the others.
    """

    ENTITY = "ADDRESS"

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: object = None
    ) -> list[RecognizerResult]:
        """Return the labelled address values no street pattern reads."""
        results = []
        for m in ADDRESS_LABEL.finditer(text):
            label = m.group("label")
            if not _home_label(label) or NOT_HOME_LABEL.search(label):
                continue
            if ORG_BEFORE.search(label + " "):
                continue
            span = _numbered_part(text, m.start("value"), m.end("value"))
            if span is not None:
                results.append(self.result(*span, 0.7, "labelled_address"))
        return results


PART_BREAK = kept_patterns.compile(r"[,،၊]")
"""What parts an address's value: a comma, an Arabic or a Burmese one."""

SETTLEMENT = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:village|aldea|caser[ií]o|bairro|barrio|kampung|desa|"
    r"quartier|hameau|dorf|selo|село|köy|gaun|kijiji|estate|community|layout|"
    r"compound|township|settlement|barangay|purok|sitio|colonia|kebele|mahalle|"
    r"mohalla|kampong|kg)(?![^\W\d_])"
)
"""Words of a hamlet or a neighbourhood, where homes have no number."""


def _unnumbered_part(start: int, value: str) -> tuple[int, int] | None:
    """Return a home's places without a number, up to its last part, or None.

    "Aldea Chemal, caserío Los Pinos, …, Huehuetenango", "Dzomi village,
    Punakha Dzongkhag": three parts or more, or a hamlet's word before the
    last part, place the home; the last part (the region or town) stays.
    "Lagos, Nigeria" is a town only, and stays.
    """
    body = value.rstrip()
    if (paren := body.find("(")) > 0:
        body = body[:paren].rstrip()  # "Savai'i (near the EFKS church)"
    parts = PART_BREAK.split(body)
    if len(parts) < 2 or not all(p.strip() for p in parts):
        return None
    if len(parts) < 3 and not SETTLEMENT.search(parts[0]):
        # "Kotu Layout, Kanifing": a named quarter; "Lagos, Nigeria" is a
        # town and its country, "Baş mühendis, Ar-Ge" a title, no home.
        if _known_place(parts[0]) or not all(w[0].isupper() for w in parts[0].split()):
            return None
    kept = len(body) - len(parts[-1]) - 1
    return start, start + len(body[:kept].rstrip())


def _home_label(label: str) -> bool:
    """Tell a label that names a home's place, accents aside ("Adrès", "Village")."""
    from anonygraph.cues.places import fold

    return bool(
        ADDRESS_WORD.search(label)
        or ADDRESS_WORD.search(fold(label))
        or SETTLEMENT.fullmatch(label.strip())
        or label.strip().lower() == "home"
    )


def _known_place(part: str) -> bool:
    """Tell a part that is a town, region or country the gazetteer lists."""
    from anonygraph.cues.places import fold, gazetteer

    return fold(part.strip()) in gazetteer()


def _numbered_part(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Return the value up to its last part holding a number, or None."""
    value = text[start:end]
    stop = SENTENCE_END.search(value)
    if stop is not None:  # "Villa 48, Dakar. Votre garant M. Sarr (78 …)"
        value = value[: stop.start()]
    if re.search(r"@|://|\d+\.\d+\.\d+|^\W*\d+\W*$", value) or not re.search(
        r"[^\W\d_]\W?[^\W\d_]\W?[^\W\d_]", value
    ):
        return None
    if any(p.search(value) for _, p, _ in _ADDRESS.compiled):
        return None  # the street patterns read it, and keep its town apart
    if not re.search(r"\d", value):
        return _unnumbered_part(start, value)
    ends = []
    offset = 0
    for part in PART_BREAK.split(value):
        if re.search(r"\d", part) and part.strip():
            ends.append((offset + len(part.rstrip()), TOWN_POSTCODE.fullmatch(part)))
        offset += len(part) + 1
    # "…, Mumbai 400070": a closing postcode (and its town) is the postcode
    # recognizer's, and the town stays.
    while len(ends) > 1 and ends[-1][1]:
        ends.pop()
    if not ends or ends[-1][1]:
        return None
    return start, start + ends[-1][0]


_SHORT_TYPES = STREET_TYPES + "|" + LEADING_TYPES.replace("\\.", "")
SENTENCE_END = kept_patterns.compile(
    rf"(?:(?<![\w.])(?!(?i:{_SHORT_TYPES})\.)[^\W\d_]{{4,}}|(?<![\w.])\d{{4,6}})"
    r"\.[ \t]+(?=[^\W\d_])"  # "…, Thiès. Mon garant", "…, الكويت 46300. هاتف"
)
"""A full stop after a word of four letters or more that is no street type's
short form ("Blvd.", "Pkwy."), before a word: the address ended with its
sentence, and what follows ("Votre garant …") is no part of it."""

TOWN_POSTCODE = kept_patterns.compile(
    r"[ \t]*(?:[^\W\d_][\w .'’-]*[ \t]+)?(?:[A-Z]{1,2}-)?\d{4,6}"
    r"(?:[ \t]+[^\W\d_][\w .'’-]*)?[ \t]*"
)
"""A part of an address line that is a postcode, with its town before or after."""


CA_POSTCODE = r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d"
UK_POSTCODE = r"(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?) ?\d[ABD-HJLNP-UW-Z]{2}"
EU_PREFIXES = "A|B|BG|CH|CZ|D|DK|E|EE|F|FI|GR|H|HR|I|L|LT|LV|N|NL|P|PL|RO|S|SI|SK"
"""Country letters written before a European postcode (the old car codes)."""
AU_STATES = "NSW|VIC|QLD|WA|SA|TAS|ACT|NT"
US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|"
    "MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC|"
    "PR|VI|GU"  # the territories with ZIP codes
)


STREET_BEFORE = kept_patterns.compile(
    r"[\wäöüß.]+\s+\d{1,4}\s?[a-z]?,?\s*(?:[A-Z]\w+,?\s*)?$"
)
"""The street and number (and town) right before a postcode."""


BETWEEN = kept_patterns.compile(
    r"(?:[ \t,(#]+(?:(?i:lgh|apt|apto|dpto|depto|flat|unit|suite|piso)\.?[ \t]*\d{1,4}|"
    r"[^\W\d_][\w'’-]*|[^\W\d_]{1,5}\.|#?\d{1,3}(?:-\d{1,3})?[.º°ª]*))*"
    r"[ \t,(#]*"
)
"""What may stand between a street address and its postcode: its flat, floor
and door ("4. tv.", "apt 9", "5° B"), the district and town ("Ramat Gan")."""


def _closes_address(text: str, start: int) -> bool:
    """Tell a number that follows a street address (and a town) on its line.

    "12 allée des Ormes, 44300", "Jagtvej 141, 4. tv., 2200 København", or
    at the start of the line after the street ("Mariahilfer Straße 77/12"
    over "1060 Wien"): a street address ends within the 80 characters
    before the number, with only its flat, floor, district and town between.
    """
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:start].strip() and line_start > 0:
        line_start = text.rfind("\n", 0, line_start - 1) + 1
    line_start = max(line_start, start - 80)
    stretch = text[line_start:start].replace("\n", " ")
    for _, pattern, _ in _ADDRESS.compiled:
        for m in pattern.finditer(stretch):
            if _ADDRESS.validate(m.group("v"), text, line_start + m.start("v"), 0):
                if BETWEEN.fullmatch(stretch[m.end("v") :]):
                    return True
    street = re.search(rf"{NAMED_STREET}[ \t]*[,;][ \t]*$", stretch)
    if (
        street
        and not re.match(r"(?:19|20)\d\d\b", text[start:])
        and not LOOKALIKE_CUE.search(street.group(0).split()[0] + " ")
    ):
        return True  # "Ilica 142;" before "10000 Zagreb", not "Room 12, 2024"
    # "Ngong Road, Nairobi 00100": a street named without its number.
    return any(
        BETWEEN.fullmatch(stretch[m.end() :])
        for m in re.finditer(rf"\b[A-Z][\w'’-]+ (?:{STREET_TYPES})\b\.?", stretch)
    )


class PostcodeRecognizer(CuedPatternRecognizer):
    """A postcode by its national shape, or a number in a postcode's place."""

    ENTITY = "POSTCODE"
    AFTER_ADDRESS = (
        r",[ \t]*(?P<v>[1-9]\d{3,5}|\d{5}-\d{3,4})(?=[ \t]*(?:[).;\n]|,[ \t]|$))"
    )
    NEAR_ADDRESS = (
        r"(?<![\w.,/+-])(?P<v>\d{4,7}|\d{3} \d{2}|\d{2}-\d{3}|\d{4,5}-\d{3}|"
        r"[A-Z]\d{4}[A-Z]{3})(?![\w/-]|[.,]\d)"
        r"(?=[ \t]+[A-ZÀ-ÞΑ-ΩА-Я]|[ \t]*(?:[).,;\n]|$))"
    )
    PATTERNS = (
        ("uk", rf"\b(?P<v>{UK_POSTCODE})\b", 0.75),
        ("ca", rf"\b(?P<v>{CA_POSTCODE})\b", 0.75),
        (
            # "L-8041 Strassen", "LT-03153 Vilnius": a country's letters and
            # its postcode, then the town.
            "country_prefixed",
            rf"(?<![\w-])(?P<v>(?:{EU_PREFIXES})-\d{{4,5}})(?=[ \t]+{CAP}[^\W\d_]+"
            r"(?:[ \t-][^\W\d_]+){0,2}[ \t]*(?:[,;\n)|]|$))",
            0.75,
        ),
        ("ie", r"\b(?P<v>[AC-FHKNPRTV-Y]\d{2} ?[AC-FHKNPRTV-Y\d]{4})\b", 0.6),
        ("nl", r"\b(?P<v>[1-9]\d{3} ?[A-Z]{2})(?=\s+[A-Z][a-z])", 0.75),
        ("us_zip", rf"\b(?:{US_STATES})\s+(?P<v>\d{{5}}(?:-\d{{4}})?)\b", 0.8),
        ("au", rf"\b(?:{AU_STATES})\s+(?P<v>\d{{4}})\b", 0.8),
        (
            "town_after",
            r"(?<![\d.,-])(?P<v>\d{5})[ \t]+[A-ZÄÖÜÉ][a-zäöüßéèàíóú]+"
            r"(?:[\s-][A-Z][a-z]+)?\b",
            0.7,
        ),
        (
            "after_street",
            rf"(?i:{GERMANIC_SUFFIXES})\s+\d{{1,4}}\s?[a-z]?,\s*(?P<v>\d{{5}})\b",
            0.8,
        ),
        (
            "zip_cued",
            r"(?i:\b(?:zip(?:\s?code)?|postcode|post code|postal(?: code)?|plz|cep|"
            r"pin\s?code|pincode|pin)\b)\s*[:#=]?\s*"
            r"(?P<v>\d{3}\s?\d{2,3}(?:-\d{3,4})?)\b",
            0.8,
        ),
        ("br_cep", r"(?:\s-\s[A-Z]{2},?\s*)(?P<v>\d{5}-\d{3})\b", 0.8),
        (
            "jp",
            r"(?:〒\s?|(?:-ku|-shi|-ken|Tokyo|Osaka|Kyoto|Japan|Yokohama|Nagoya|Sapporo|Fukuoka|Kobe),?\s+)(?P<v>\d{3}-\d{4})\b",
            0.8,
        ),
        ("in_pin", r"\b[A-Z][a-z]+\s*[-–]\s*(?P<v>[1-9]\d{2}\s?\d{3})\b", 0.6),
        ("after_address", AFTER_ADDRESS, 0.8),
        ("near_address", NEAR_ADDRESS, 0.8),
        ("town_pin", r",\s*[A-Z][a-z]+\s+(?P<v>[1-9]\d{2}\s?\d{3})\b(?![.,]?\d)", 0.6),
    )

    def span(
        self, match: re.Match[str], text: str, nlp_artifacts: object
    ) -> tuple[int, int] | None:
        """Ask a bare number after a comma for a street address just before."""
        if match.re.pattern in (
            self.AFTER_ADDRESS,
            self.NEAR_ADDRESS,
        ) and (
            not _closes_address(text, match.start("v"))
            or is_lookalike(text, *match.span("v"))
        ):
            return None
        return super().span(match, text, nlp_artifacts)

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Reject a code run on from a dash or slash, or an org's postcode."""
        line = text[max(0, start - 60) : start].rpartition("\n")[2]
        if re.search(r"\b(?:Inc|Corp|Ltd|LLC|LLP|GmbH|plc|PLC)\b\.?,", line):
            return False
        street = STREET_BEFORE.search(line)
        if street and ORG_BEFORE.search(line[: street.start()]):
            return False
        if _after_org_address(text, start):
            return False
        if ID_LABEL_BEFORE.search(text, max(0, start - 12), start):
            return False  # "(staff ID 40217)": a number an ID label names
        return not re.search(r"[-/]$", text[max(0, start - 1) : start])


ID_LABEL_BEFORE = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?<!,[ \t])(?:id|no\.|nr\.|#)[ \t]*[:#]?[ \t]*$"
)
"""An identifier's label right before a number: no postcode follows it
("Boise, ID 83706" after a town's comma is Idaho's)."""


def _after_org_address(text: str, start: int) -> bool:
    """Tell a postcode that closes an organization's street address.

    "Visit our Leeds showroom: 12 Kirkstall Road, Leeds LS3 1HS": the address
    recognizer leaves the street to the organization; its postcode goes too.
    """
    line_start = max(text.rfind("\n", 0, start) + 1, start - 100)
    stretch = text[line_start:start]
    for _, pattern, _ in _ADDRESS.compiled:
        for m in pattern.finditer(stretch):
            if ORG_BEFORE.search(
                text[max(0, line_start + m.start("v") - 40) : line_start + m.start("v")]
            ) and re.fullmatch(
                r"[\s,]*(?:[A-ZÀ-Þ][\w'’-]*[\s,]*){0,3}", stretch[m.end("v") :]
            ):
                return True
    return False


_ADDRESS = StreetAddressRecognizer()
"""The street address patterns, read by `PostcodeRecognizer` for context."""
