"""National ID numbers of more countries, each by its shape, check and label.

One table row per scheme: the number's shape, the labels that name it, the
rule its digits obey (a check digit, a birth date inside) and whether its
shape and check are distinctive enough to count without a label. A scheme
with no check digit (Indonesian NIK, Vietnamese CCCD, Latin American DNI
and cédula, a driver's licence) counts only after its label; one whose
check passes one number in ten or more needs its label too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import (
    CuedPatternRecognizer,
    digits,
    luhn_valid,
)
from anonygraph.identifiers.recognizers.lookalikes import (
    field_label,
    is_lookalike,
    names_a_thing,
)
from anonygraph.identifiers.recognizers.needs import could_match
from anonygraph.identifiers.recognizers.scheme_checks import (
    baltic_code,
    bg_egn,
    hk_hkid,
    hr_oib,
    ir_melli,
    is_date,
    is_kennitala,
    jp_my_number,
    kz_iin,
    mn_register,
    my_mykad,
    pl_id_card,
    pl_pesel,
    ro_cnp,
    ru_inn,
    ru_snils,
    se_pnr,
    sn_nin,
    sv_dui,
    tw_id,
    ua_rnokpp,
    uy_ci,
    uz_pinfl,
    weighted,
    yu_jmbg,
    za_id,
)
from anonygraph.tools import kept_patterns


def no_fnr(n: str) -> bool:
    """Norwegian fødselsnummer: a birth date (D-number: day + 40), two mod 11 digits."""
    day, month = int(n[:2]) % 40, int(n[2:4]) % 40
    if not is_date(2000, month, day):
        return False
    k1 = (11 - weighted(n, (3, 7, 6, 1, 8, 9, 4, 5, 2)) % 11) % 11
    k2 = (11 - weighted(n, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11) % 11
    return k1 == int(n[9]) and k2 == int(n[10])


def birth_ddmmyy(n: str) -> bool:
    """A number that starts with a birth date, day, month, two-digit year."""
    return is_date(2000, int(n[2:4]), int(n[:2]))


def fi_hetu(n: str) -> bool:
    """Finnish henkilötunnus: a birth date, a serial and a mod 31 check character."""
    compact = re.sub(r"[-+A-FU-Y]", "", n[:-1].upper())
    return birth_ddmmyy(compact) and (
        "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(compact) % 31] == n[-1].upper()
    )


def ean13(n: str) -> bool:
    """Swiss AHV number: an EAN-13 check digit (weights 1 and 3)."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(n[:12]))
    return (10 - total % 10) % 10 == int(n[12])


def be_nn(n: str) -> bool:
    """Belgian register number: 97 minus nine digits mod 97 (2 put before from 2000)."""
    body, key = int(n[:9]), int(n[9:])
    return key in (97 - body % 97, 97 - int("2" + n[:9]) % 97)


def tr_tc(n: str) -> bool:
    """Turkish TC Kimlik: the tenth and eleventh digits are sums of the others."""
    d = [int(c) for c in n]
    tenth = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    return d[0] != 0 and tenth == d[9] and sum(d[:10]) % 10 == d[10]


def kr_rrn(n: str) -> bool:
    """Korean resident number: a birth date, then a weighted mod 11 check digit."""
    if not is_date(2000, int(n[2:4]), int(n[4:6])):
        return False
    total = weighted(n, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5))
    return (11 - total % 11) % 10 == int(n[12])


def cl_rut(n: str) -> bool:
    """Chilean RUT: mod 11 of the digits weighted 2 to 7 from the right (10 = K)."""
    body, check = n[:-1], n[-1].upper()
    total = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(body)))
    value = 11 - total % 11
    return check == {11: "0", 10: "K"}.get(value, str(value))


def ar_cuil(n: str) -> bool:
    """Argentine CUIL/CUIT: a type prefix and a mod 11 check digit."""
    value = 11 - weighted(n, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return n[:2] in ("20", "23", "24", "27", "30", "33", "34") and int(n[10]) == (
        0 if value == 11 else 9 if value == 10 else value
    )


def gr_amka(n: str) -> bool:
    """Greek AMKA: a birth date and a Luhn digit."""
    return birth_ddmmyy(n) and luhn_valid(n)


def cz_rc(n: str) -> bool:
    """Czech or Slovak rodné číslo: a birth date (women's month plus 50), mod 11."""
    month = int(n[2:4]) % 50
    month = month - 20 if month > 20 else month
    if not is_date(2000, month, int(n[4:6])):
        return False
    if len(n) == 9:
        return True  # born before 1954: no check digit
    return int(n) % 11 == 0 or (int(n[:9]) % 11 == 10 and n[9] == "0")


def at_svnr(n: str) -> bool:
    """Austrian insurance number: a serial, a check digit, a birth date."""
    if not (1 <= int(n[4:6]) <= 31 and 1 <= int(n[6:8]) <= 12):
        return False
    return weighted(n, (3, 7, 9, 0, 5, 8, 4, 2, 1, 6)) % 11 == int(n[3])


def th_id(n: str) -> bool:
    """Thai citizen ID: thirteen digits, a weighted mod 11 check digit."""
    total = weighted(n, tuple(range(13, 1, -1)))
    return n[0] != "0" and (11 - total % 11) % 10 == int(n[12])


def id_nik(n: str) -> bool:
    """Indonesian NIK: a birth date (women's day plus 40) after the region code."""
    return is_date(2000, int(n[8:10]), int(n[6:8]) % 40)


def cn_ric(n: str) -> bool:
    """Chinese resident ID: a birth date and an ISO 7064 mod 11-2 check character."""
    if not is_date(int(n[6:10]), int(n[10:12]), int(n[12:14])):
        return False
    total = sum(int(d) * (2 ** (17 - i) % 11) for i, d in enumerate(n[:17]))
    return "10X98765432"[total % 11] == n[17].upper()


def ae_eid(n: str) -> bool:
    """Emirates ID: 784, a birth year and a Luhn digit."""
    return n.startswith("784") and luhn_valid(n)


def il_tz(n: str) -> bool:
    """Israeli Teudat Zehut: nine digits and a Luhn digit."""
    return luhn_valid(n.zfill(9))


def dk_cpr(n: str) -> bool:
    """Danish CPR: a birth date (the mod 11 check was dropped in 2007)."""
    return birth_ddmmyy(n)


def nz_ird(n: str) -> bool:
    """New Zealand IRD number: a weighted mod 11 check digit (or a second weighting)."""
    body, check = n[:-1].zfill(8), int(n[-1])
    for weights in ((3, 2, 7, 6, 5, 4, 3, 2), (7, 4, 3, 2, 5, 2, 7, 6)):
        value = (11 - weighted(body, weights) % 11) % 11
        if value != 10:
            return value == check
    return False


def nz_nhi(n: str) -> bool:
    """New Zealand NHI (letters, then digits): a mod 11 check digit, I and O unused."""
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    values = [letters.index(c) + 1 for c in n[:3]] + [int(d) for d in n[3:6]]
    remainder = sum(v * w for v, w in zip(values, range(7, 1, -1), strict=True)) % 11
    return remainder != 0 and (11 - remainder) % 10 == int(n[6])


def pt_nif(n: str) -> bool:
    """Portuguese NIF: a weighted mod 11 check digit (10 and 11 give 0)."""
    value = 11 - weighted(n, tuple(range(9, 1, -1))) % 11
    return (0 if value >= 10 else value) == int(n[8])


def eg_nid(n: str) -> bool:
    """Egyptian national ID: century, birth date and governorate code up front."""
    century = {"2": 1900, "3": 2000}.get(n[0])
    governorate = int(n[7:9])
    return (
        century is not None
        and is_date(century + int(n[1:3]), int(n[3:5]), int(n[5:7]))
        and (1 <= governorate <= 4 or 11 <= governorate <= 35 or governorate == 88)
    )


def lk_nic(n: str) -> bool:
    """Sri Lankan NIC (old form): the day of the year, plus 500 for a woman."""
    day = int(n[2:5]) % 500
    return 1 <= day <= 366


def any_number(n: str) -> bool:
    """Accept what the label names (a scheme with no check)."""
    return True


@dataclass(frozen=True)
class Scheme:
    """One national ID scheme: its shape, its labels, its rule."""

    name: str
    shape: str
    """The number as written (separators allowed where the scheme prints them)."""
    check: Callable[[str], bool]
    """The rule its digits obey (given the digits, and a final letter if any)."""
    labels: str = ""
    """Labels that name it (a regular expression, matched case-insensitively)."""
    bare: bool = False
    """Whether its shape and check count without a label."""


SCHEMES: tuple[Scheme, ...] = (
    Scheme("no_fnr", r"\d{6} ?\d{5}", no_fnr, r"f[øo]dselsnummer|f\.?nr|fnr", True),
    Scheme("dk_cpr", r"\d{6}-?\d{4}", dk_cpr, r"cpr(?:-?n(?:r|ummer))?"),
    Scheme(
        "fi_hetu", r"\d{6}[-+A-FU-Y]\d{3}[\dA-Y]", fi_hetu, r"hetu|henkilötunnus", True
    ),
    Scheme(
        "ch_ahv", r"756\.?\d{4}\.?\d{4}\.?\d{2}", ean13, r"ahv|avs|avs-nr|ahv-nr", True
    ),
    Scheme(
        "be_nn",
        r"\d{2}\.\d{2}\.\d{2}[-. ]\d{3}[. ]\d{2}|\d{11}",
        be_nn,
        r"rijksregisternr|rijksregisternummer|insz|niss|numéro national|"
        r"n° national|national number",
    ),
    Scheme(
        "tr_tc",
        r"[1-9]\d{10}",
        tr_tc,
        r"tc(?: kimlik)?(?: no)?|tckn|kimlik(?: no)?",
        True,
    ),
    Scheme(
        "kr_rrn",
        r"\d{6}-[1-8]\d{6}",
        kr_rrn,
        r"rrn|주민등록번호|resident registration",
        True,
    ),
    Scheme(
        "cl_rut",
        r"\d{1,2}\.\d{3}\.\d{3}-[\dkK]|\d{7,8}-[\dkK]",
        cl_rut,
        r"rut|run|rol único tributario",
    ),
    Scheme("ar_cuil", r"(?:2[0347]|3[034])-\d{8}-\d|\d{11}", ar_cuil, r"cuil|cuit"),
    Scheme("gr_amka", r"\d{11}", gr_amka, r"amka|αμκα"),
    Scheme(
        "cz_rc", r"\d{6}/\d{3,4}", cz_rc, r"r\.?\s?č\.?|rodné číslo|rodne cislo", True
    ),
    Scheme(
        "at_svnr",
        r"\d{4} ?\d{6}",
        at_svnr,
        r"sv-?nr|svnr|vsnr|sozialversicherungsnummer|versicherungsnummer",
    ),
    Scheme("th_id", r"\d-\d{4}-\d{5}-\d{2}-\d|\d{13}", th_id, r"thai id|บัตรประชาชน"),
    Scheme("th_id_dashed", r"\d-\d{4}-\d{5}-\d{2}-\d", th_id, "", True),
    Scheme("id_nik", r"\d{16}", id_nik, r"nik"),
    Scheme("cn_ric", r"\d{17}[\dXx]", cn_ric, r"身份证(?:号码?)?|resident id", True),
    Scheme("ae_eid", r"784-?\d{4}-?\d{7}-?\d", ae_eid, r"emirates id|eid", True),
    Scheme("nz_ird", r"\d{2,3}-?\d{3}-?\d{3}", nz_ird, r"ird(?: (?:no|number))?"),
    Scheme("mx_nss", r"\d{11}", luhn_valid, r"nss|número de seguridad social"),
    Scheme("ph_philhealth", r"\d{2}-\d{9}-\d", any_number, r"philhealth"),
    Scheme("nz_nhi", r"[A-HJ-NP-Z]{3}\d{4}", nz_nhi, r"nhi(?: (?:no|number))?"),
    Scheme("pt_nif", r"\d{9}", pt_nif, r"nif|n\.?º? de contribuinte|contribuinte"),
    Scheme("eg_nid", r"[23]\d{13}", eg_nid, r"national id|الرقم القومي|nid"),
    Scheme("gh_card", r"GHA-\d{9}-\d", any_number, "", True),
    Scheme(
        "il_tz",
        r"\d{8,9}",
        il_tz,
        r"teudat zehut|t\.z\.?|ת\.?ז\.?|תעודת זהות",
    ),
    Scheme("vn_cccd", r"\d{12}|\d{9}", any_number, r"cccd|cmnd|căn cước(?: công dân)?"),
    Scheme(
        "latam_id",
        r"\d{1,3}(?:\.\d{3}){2,3}|\d{7,10}",
        any_number,
        r"dni|d\.n\.i\.?|c\.?c\.?|cédula(?: de ciudadanía)?|cedula|c\.i\.|"
        r"carn[eé] de extranjer[ií]a",
    ),
    Scheme(
        "driver_licence",
        r"[A-Z]\d{3}-?\d{4}-?\d{4}-?\d{2}|[A-Z0-9]{1,3}[0-9][A-Z0-9-]{4,16}",
        any_number,
        r"driver'?s licen[cs]e(?: (?:no\.?|number|#))?|dl(?: no\.?| #)?|"
        r"führerschein(?:-?nr\.?)?|permis de conduire|licencia de conducir",
    ),
    Scheme(
        "yu_jmbg",
        r"\d{13}",
        yu_jmbg,
        r"jmbg|emšo|emso|јмбг|ембг|матични број|матичен број",
        # A birth date (day, month, three digits of the year) and a mod 11
        # digit: about one 13-digit number in 1,500 passes by chance.
        True,
    ),
    Scheme("bg_egn", r"\d{10}", bg_egn, r"egn|егн|единен граждански номер"),
    Scheme("hr_oib", r"\d{11}", hr_oib, r"oib"),
    Scheme(
        "baltic_code",
        r"[1-6]\d{10}",
        baltic_code,
        r"asmens kodas|a\.\s?k\.|isikukood|personas kods",
    ),
    Scheme("is_kennitala", r"\d{6}-?\d{4}", is_kennitala, r"kennitala|kt\.?"),
    # Written with its dash, a date, a check digit and a century digit that
    # all agree are distinctive enough alone (a table's column).
    Scheme("is_kennitala_dashed", r"\d{6}-\d{4}", is_kennitala, "", True),
    Scheme("kz_iin", r"\d{12}", kz_iin, r"iin|иин|жсн"),
    Scheme(
        "ua_rnokpp",
        r"\d{10}",
        ua_rnokpp,
        r"рнокпп|іпн|ідентифікаційний (?:код|номер)|rnokpp",
    ),
    Scheme(
        "ir_melli",
        r"\d{10}|\d{3}-\d{6}-\d",
        ir_melli,
        r"kod-?e?[ -]melli|code-?e?[ -]melli|melli code|national code|"
        r"کد ?ملی|شماره ملی",
    ),
    Scheme(
        "jp_my_number",
        r"\d{4} ?\d{4} ?\d{4}",
        jp_my_number,
        r"マイナンバー|個人番号|my number",
    ),
    Scheme(
        "my_mykad",
        r"\d{6}-?\d{2}-?\d{4}",
        my_mykad,
        r"mykad|no\.? k/p|kad pengenalan|i/?c(?: no\.?| number)?|nric",
    ),
    Scheme(
        "tw_id",
        r"[A-Z][12]\d{8}",
        tw_id,
        r"身[分份]證(?:字號|號碼)?|國民身[分份]證|national id(?: no\.?)?|id no\.?",
    ),
    Scheme(
        "hk_hkid",
        r"[A-Z]{1,2}\d{6}\(?[\dA]\)?",
        hk_hkid,
        r"hkid|hong kong id(?:entity card)?|身[分份]證(?:號碼)?|香港身[分份]證",
    ),
    Scheme("hk_hkid_bare", r"[A-Z]{1,2}\d{6}\([\dA]\)", hk_hkid, "", True),
    Scheme(
        "pl_id_card",
        r"[A-Z]{3} ?\d{6}",
        pl_id_card,
        r"dowód osobisty|dowodu osobistego|dowód|nr dowodu|seria i numer dowodu",
    ),
    Scheme(
        "in_aadhaar_labelled",
        r"[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}",
        any_number,
        r"aadhaar|aadhar|आधार|uidai",
    ),
    Scheme(
        "cin",
        r"[A-Z]{1,2}\d{5,6}|\d{8,10}",
        any_number,
        r"cin|cni|cnie|c\.i\.n\.?|carte d'identité(?: nationale)?|"
        r"بطاقة التعريف(?: الوطنية)?",
    ),
    Scheme(
        # The reserved example prefixes (QQ…) are left out of the bare
        # recognizer's shape; after its label the number is still someone's.
        "uk_nino_labelled",
        r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]",
        any_number,
        r"national insurance(?: number| no\.?)?|ni (?:number|no\.?)|nino",
    ),
    # Two Cyrillic letters (where registered), a birth date, a serial.
    Scheme(
        "mn_register",
        r"[А-ЯЁӨҮ]{2} ?\d{8}",
        mn_register,
        r"регистр(?:ийн)?(?: дугаар)?|рд",
        True,
    ),
    Scheme("uz_pinfl", r"[1-6]\d{13}", uz_pinfl, r"jshshir|жшшир|pinfl|пинфл"),
    Scheme(
        "zm_nrc",
        r"\d{6}/\d{2}/\d",
        any_number,
        r"nrc(?: (?:no\.?|number))?|national registration card",
    ),
    Scheme(
        "ph_philsys",
        r"\d{4}-\d{4}-\d{4}-\d{4}|\d{16}",
        any_number,
        r"philsys(?: card)?(?: (?:no\.?|number))?|psn|pcn|philid",
    ),
    Scheme(
        "sn_nin",
        r"[12] ?\d{3} ?\d{4} ?\d{5}",
        sn_nin,
        r"cni|nin|carte nationale d'identit[ée]|carte d'identit[ée]",
    ),
    Scheme(
        "gr_adt",
        r"[Α-ΩA-Z]{1,2}[ -]?\d{6}|\d{6,8}",
        any_number,
        r"α\.?δ\.?τ\.?|(?:αριθμός )?δελτίου ταυτότητας|ταυτότητα",
    ),
    Scheme(
        "az_fin", r"(?=[0-9A-Z]*\d[0-9A-Z]*\d)[0-9A-Z]{7}", any_number, r"f[iİı]n|фин"
    ),
    Scheme("uy_ci", r"\d\.?\d{3}\.?\d{3}-\d", uy_ci, r"cédula|cedula|c\.i\.|ci"),
    Scheme("do_cedula", r"\d{3}-\d{7}-\d", luhn_valid, r"cédula|cedula"),
    # Sri Lankan NIC, old form: birth year, day of the year (women plus 500), V or X.
    Scheme("lk_nic", r"\d{9}[VvXx]", lk_nic, r"nic(?: no\.?)?|national identity card"),
    # Checked and dated schemes rare enough by chance to stand alone.
    Scheme("ro_cnp", r"[1-9]\d{12}", ro_cnp, r"cnp|cod numeric personal", True),
    Scheme("za_id", r"\d{13}", za_id, r"(?:sa|rsa|south african) id", True),
    Scheme("pl_pesel", r"\d{11}", pl_pesel, r"pesel"),
    Scheme("se_pnr", r"(?:19|20)?\d{6}[-+]?\d{4}", se_pnr, r"personnummer|pnr"),
    Scheme("se_pnr_dashed", r"\d{6}[-+]\d{4}", se_pnr, "", True),
    Scheme("sv_dui", r"\d{8}-?\d", sv_dui, r"dui"),
    Scheme("ru_snils", r"\d{3}-\d{3}-\d{3}[ -]\d{2}", ru_snils, r"снилс|snils", True),
    Scheme("ru_inn", r"\d{12}", ru_inn, r"инн|inn"),
    # Shapes no other number takes: Pakistan's CNIC, Venezuela's cédula.
    Scheme("pk_cnic", r"\d{5}-\d{7}-\d", any_number, "", True),
    Scheme("ve_ci", r"[VE]-?\d{1,2}\.\d{3}\.\d{3}", any_number, "", True),
    # A Nigerian pension PIN: its prefix and twelve digits (RSA PIN).
    Scheme("ng_rsa_pin", r"PEN\d{12}", any_number, "", True),
    Scheme(
        "jm_trn",
        r"\d{3}-?\d{3}-?\d{3}",
        any_number,
        r"trn|taxpayer registration number",
    ),
)
"""Every scheme this recognizer reads; labels are matched case-insensitively."""

LABEL_GAP = r"[ \t]*(?:[.:#=]|n[°ºo]\.?|nr\.?|no\.?|es|is|em là|là)?[ \t]*[:=\"]?[ \t]*"
"""What may stand between a label and its number ("CPR-nr.: ", "CUIL es ", 'hetu="')."""

LABEL_WINDOW = 100
"""Characters after a label's start that hold any label overlapping it."""

NEAR_LABELS = frozenset({"il_tz", "ph_philhealth"})
"""Schemes whose label may stand earlier in the text (one asks, the other answers)."""


class IdSchemeRecognizer(CuedPatternRecognizer):
    """National IDs of the schemes in `SCHEMES`: labelled, or bare where distinctive."""

    ENTITY = "NATIONAL_ID"
    PATTERNS = tuple(
        (s.name, rf"(?<![\w./+-])(?<!\d,)(?P<v>{s.shape})(?![\w/]|[.,-]\d)", 0.85)
        for s in SCHEMES
    )

    def __init__(self) -> None:
        """Compile the shapes and each scheme's label."""
        super().__init__()
        self.labels = {
            s.name: kept_patterns.compile(
                rf"(?i)(?<![\w])(?:{s.labels})(?![\w])(?:[ \t]*\([^()\n]{{1,24}}\))?"
                # "CNI enregistrée: …": one word on the label before its colon.
                r"(?:[ \t]+[^\W\d_]{3,14}[ \t]*:)?" + LABEL_GAP + "$"
            )
            for s in SCHEMES
            if s.labels
        }
        self.by_name = {s.name: s for s in SCHEMES}
        # A labelled-only scheme whose label is nowhere in the text has
        # nothing to find: one search for the label spares the shape's scan.
        self.anywhere = {
            s.name: kept_patterns.compile(rf"(?i)(?<![\w])(?:{s.labels})(?![\w])")
            for s in SCHEMES
            if s.labels and not s.bare
        }
        # One scan for every such label tells where any may stand; each
        # scheme then looks for its own only there (a label found inside
        # another's match starts within that match, hence the window).
        self.any_label = kept_patterns.compile(
            r"(?i)(?<![\w])(?:"
            + "|".join(s.labels for s in SCHEMES if s.labels and not s.bare)
            + r")(?![\w])"
        )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: object = None
    ) -> list[RecognizerResult]:
        """Return one result per number whose scheme's rule and label agree."""
        results: list[RecognizerResult] = []
        windows = "\n".join(
            text[m.start() : m.start() + LABEL_WINDOW]
            for m in self.any_label.finditer(text)
        )
        for name, pattern, _ in self.compiled:
            scheme = self.by_name[name]
            label = self.anywhere.get(name)
            if label is not None and not label.search(windows):
                continue
            if not could_match(pattern, text):
                continue  # e.g. fewer digits in a row than the shape holds
            for match in pattern.finditer(text):
                start, end = match.span("v")
                score = self._score(scheme, match.group("v"), text, start, end)
                if score:
                    results.append(self.result(start, end, score, name))
        return results

    def _score(
        self, scheme: Scheme, value: str, text: str, start: int, end: int
    ) -> float:
        """Return the score of a candidate of ``scheme``, or 0 to reject it."""
        compact = re.sub(r"[ .\-/]", "", value)
        if not scheme.check(compact if scheme.name != "fi_hetu" else value):
            return 0.0
        line_start = text.rfind("\n", 0, start) + 1
        label = self.labels.get(scheme.name)
        if label and label.search(text[max(line_start, start - 40) : start]):
            return 0.9
        if label and scheme.name in NEAR_LABELS:
            window = text[max(0, start - 160) : start]
            if re.search(label.pattern.removesuffix(LABEL_GAP + "$"), window):
                return 0.8
        if not scheme.bare or is_lookalike(text, start, end, dotted=False):
            return 0.0
        if names_a_thing(field_label(text, start, start)):
            return 0.0  # "Pošiljka 2307971710026": a parcel's number
        return 0.8 if len(digits(value)) >= 11 else 0.7
