"""Passport, medical record and bank account numbers and dates of birth, by cue.

Their formats vary by issuer and carry no common check digit, so a number
counts only where the text names what it is: a cue word (in several
languages, abbreviated or spelled out, glued to a log key such as
``patient_mrn=``), at most a nationality or a "no." between cue and number.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer, digits

NUMBER_WORD = (
    r"(?:no|nr|nro|num|number|n[°º]|#|is|was|id|br|broj|№|номер|αρ|số|رقم|"
    r"شماره|namba|nomor|numer|numero|número|szám)\.?"
)
"""Words between a cue and its number ("passport no.", "MRN number is")."""

KEY_START = r"(?<![^\W_])"
"""A cue starts a word or follows an underscore (``patient_mrn=`` in a log)."""


class PassportRecognizer(CuedPatternRecognizer):
    """A passport number after "passport" in several languages.

    Issuers' formats: nine digits (US, UK), a letter and seven digits
    (India), two letters and six or seven digits (many), nine letters and
    digits (Germany). Between the cue and the number may stand a number word
    and a nationality ("pasaporte polaco EA4471923", "passport (UK) no.").
    """

    ENTITY = "PASSPORT"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "passport",
            KEY_START
            + r"(?:passport|reisepass|passeport|pasaporte|passaporte|passaporto|"
            r"paspoort|paszport|pasaport[eaiu]?|pass-?(?:nummer|numret|nr)|паспорт[а-я]*|"
            r"paso[šs]a?|пасош[а-я]*|pasport|paspor|διαβατήρι[οόα]\w*|"
            r"جواز(?:\s+(?:ال)?سفر)?|hộ\s+chiếu|pa[șş]aport|passi|pasipoti|"
            r"putovnic[aeu]|potni\s+list|vegabréf|útlevél(?:szám|száma)?|"
            r"cestovn(?:í|ího|ý|ého)\s+pas(?:u|a)?|گذرنامه|پاسپورت|דרכון|"
            r"पासपोर्ट|পাসপোর্ট|หนังสือเดินทาง|"
            # Chinese, Japanese, Korean: the number word is glued to the cue.
            r"(?:여권|旅券|パスポート|护照|護照)(?:\s?번호|番号|号码?|號碼?)?|"
            r"(?-i:PP))(?:(?<=[\u3000-\uffff])|(?![^\W_]))"
            rf"(?:[\s.-]*{NUMBER_WORD}|\s*\([^()\n]{{2,40}}\)"
            r"|\s+[a-zà-ÿ]{3,12}(?=\s+[A-Z]{0,2}\d)"
            r"|\s+[^\W\d_][^\n:\d]{0,30}?(?=:))*"  # "Passnumret som du frågade om:"
            r"\.?\s*[:：#=]?\s*"
            r"(?P<v>[A-Z]{1,2} \d{6,8}|\d\d \d\d \d{6}|\d{4} \d{6}|[A-Z0-9]{6,10})"
            r"(?![\w-])",
            0.85,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require a passport's shape: digits, or letters and three digits or more."""
        count = len(digits(value))
        if count == len(value.replace(" ", "")):
            return 6 <= count <= 10  # "45 19 738214": series and number
        return count >= 3 and len(value) <= 10 and value[:1].isalnum()


MRN_CUE = (
    r"(?:mrn|urn|uhid|uhn|nhi|chi|hosp(?:ital)?|clinic|chart|health|patient|"
    r"medical\s+record|case\s+file|ip|op|ipd|opd|expediente|prontu[áa]rio|"
    r"dossier|folder|practice|lab|reg|file|(?-i:HN|AN)|"
    r"inpatient|outpatient|admission|pt|member|患者|カルテ|診察券|"
    r"hasta|dossier\s+patient|karty\s+pacjenta|"
    r"histori[ae]\s+cl[íi]nica|hist[óo]ria\s+cl[íi]nica|cartella\s+clinica|"
    r"dossier\s+m[ée]dical|krankenakte|patientennummer)"
)
"""Words that name a hospital's or clinic's number for a patient."""

BARE_CUES = frozenset(
    "mrn urn uhid uhn nhi hn an 患者 カルテ 診察券 krankenakte patientennummer".split()
) | {
    "historia clínica",
    "historia clinica",
    "história clínica",
    "historia clínica",
    "cartella clinica",
    "dossier médical",
    "dossier medical",
}

CONTEXT_CUES = frozenset(
    """expediente prontuário prontuario dossier folder practice lab reg file
    hn an member""".split()
)
"""Cues that name a patient's number only in a text about care."""

MEDICAL = re.compile(
    r"(?i)\b(?:clinic|clínica|clinica|klinik|hospital|patient|paciente|doctor|"
    r"gp|medical|médico|medico|health|sick|consult\w*|nurse|ward|surgery|"
    r"diagnos\w*|discharge|admission|lab\w* report|imss|nhs|prescription|"
    r"pharmacy|copay|co-pay)\b"
)
"""Words of a text about care."""


def _medical_near(text: str, start: int) -> bool:
    """Tell whether a medical word stands within 150 characters before or after."""
    return bool(MEDICAL.search(text[max(0, start - 150) : start + 150]))


"""Cues that are a medical record number by themselves (no "no." needed)."""


NUMBER_BEFORE = re.compile(
    r"(?i)\b(?:n[úu]mero|number|no\.?|nr\.?)\s+(?:de\s+|of\s+)?$"
)
"""A number word before a cue ("número de expediente", "number of the file")."""


class MedicalRecordRecognizer(CuedPatternRecognizer):
    """A medical record or patient number after its cue (MRN, UHID, Hosp No.).

    A cue that is a record number by itself (MRN, URN, UHID, NHI) may stand
    alone before the number; a wider one (hospital, clinic, patient, IP/OP,
    chart) needs its "no.", "number", "ID" or "#". A bare "record number"
    or "registration no." names no hospital (a vehicle's, a file's).
    """

    ENTITY = "MEDICAL_RECORD"
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "mrn",
            KEY_START + rf"(?P<cue>{MRN_CUE})(?P<rec>[\s._-]+(?:record|rec|file|card))?"
            # "NHI (for the club first-aid kit list): ZKT4830"
            r"(?:\s*\([^()\n]{2,40}\))?"
            rf"(?P<word>(?:[\s._-]*{NUMBER_WORD})*)"
            # "número de expediente en la clínica es EXP-…": where it is kept,
            # then "is".
            r"(?P<fill>[ \t]+[^\W\d_]+(?:[ \t]+[^\W\d_]+){0,3}?"
            r"[ \t]+(?:is|es|é|ist|est))?"
            # "hospital no. if ever needed: H0418273": a remark its colon closes.
            r"(?P<note>[ \t]+[^\W\d_]+(?:[ \t]+[^\W\d_]+){0,3}?(?=[ \t]*:))?"
            r"\s*[:#=]?\s*(?P<v>(?-i:\d{3,4}(?: \d{3,4}){1,3}(?: [A-Z]{1,2}\b)?)|"
            r"(?-i:(?:HN|AN) )?[A-Z]{0,4}[-/]?\d[\dA-Z/-]{3,14})"
            r"(?![\w-])",
            0.85,
        ),
    )

    def span(
        self, match: re.Match[str], text: str, nlp_artifacts: object
    ) -> tuple[int, int] | None:
        """Accept a bare cue, or a wider cue with its number word."""
        cue = re.sub(r"\s+", " ", match.group("cue").lower())
        if match.group("note") and not match.group("word").strip(" ._-"):
            return None  # a remark closes a label only after its number word
        if match.group("fill") and not NUMBER_BEFORE.search(
            text, max(0, match.start() - 20), match.start()
        ):
            return None  # "hospital car park is 2024": no one's number
        named = (
            match.group("word").strip(" ._-")
            or match.group("fill")
            or (
                match.group("rec")
                and match.group("rec").lower()[-4:] in ("file", "card")
            )
        )
        if cue not in BARE_CUES and not named:
            return None
        if cue in CONTEXT_CUES and not _medical_near(text, match.start()):
            return None  # "folder no. 12" in an office: a file, no patient's
        return super().span(match, text, nlp_artifacts)

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
            r"\b(?:(?:bank\s+|checking\s+|savings\s+|current\s+)?account"
            # "account on file:", "account we pay into:": a label of words.
            r"(?:(?:[ \t]+[^\W\d_]{2,10}){1,3}(?=[ \t]*:))?|acct|a/c|acc(?=\.)|"
            r"conta(?:\s+corrente|\s+poupança)?|kontonummer|konto|rekening(?:nummer)?|"
            r"compte|numéro de compte|clabe|účet|účtu|číslo účtu|cbu|"
            # "cta. corriente 0102-…", "cuenta de ahorros": Spanish accounts
            r"(?:cuenta|cta)(?:\.?\s+(?:corriente|cte|de\s+ahorros?))?|"
            r"số tài khoản|stk|普通(?:預金)?|当座(?:預金)?|口座番号|"
            r"rib|rip|bban|nuban)\b\.?"
            r"(?:\s*\([^()\n]{1,30}\))?"
            r"(?:\s+(?:no\.?|number|nr\.?|#|is|was|nha))*"
            r"(?:\s*:?\s*(?-i:[A-Z][\w&]{1,20})(?=\s+\d))?"  # the bank: "GTBank 0174…"
            r"\s*[:#]?\s*(?P<v>\d[\d .-]{4,26}\d(?:-[\dXx])?)(?![\w-]|[.,]\d)",
            0.8,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require six to twenty-four digits (a French or Maghreb RIB has 20-23)."""
        return 6 <= len(digits(value)) <= 24


class CzechAccountRecognizer(CuedPatternRecognizer):
    """A Czech or Slovak account number: the number, a slash, the bank's code.

    "192837461/0800": the shape is the country's, and counts where the text
    speaks of an account ("účet", "konto", "account") in the 120
    characters before; the bank's code after the slash is no one's.
    """

    ENTITY = "BANK_ACCOUNT"
    PATTERNS = (
        (
            "cz_account",
            r"(?<![\w/.-])(?:\d{1,6}-)?(?P<v>\d{6,10})/[0-8]\d{3}(?![\w/-])",
            0.8,
        ),
    )
    CONTEXT = re.compile(r"(?i)\b(?:účet|účtu|účtem|účty|konto|account|bank)")

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Require an account's word before the number."""
        return bool(self.CONTEXT.search(text[max(0, start - 120) : start]))


class CbuRecognizer(CuedPatternRecognizer):
    """Argentine CBU: 22 digits after its name, two blocks with a check digit each."""

    ENTITY = "BANK_ACCOUNT"
    PATTERNS = (("ar_cbu", r"\b(?:CBU|CVU)\b[^\d\n]{0,60}?(?P<v>\d{22})\b", 0.85),)

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the bank block (weights 7 1 3 9) and the account block (3 9 7 1)."""
        for block, weights in ((value[:8], (7, 1, 3, 9)), (value[8:], (3, 9, 7, 1))):
            total = sum(int(d) * weights[i % 4] for i, d in enumerate(block[:-1]))
            if (10 - total % 10) % 10 != int(block[-1]):
                return False
        return True


class DateOfBirthRecognizer(CuedPatternRecognizer):
    """A date where the text says it is a birth date (DOB, born on, geb., née le).

    Dates in numbers (ISO, day or month first, with ``/ . -`` or spaces),
    with a month's name in any order ("02-Feb-1997", "3rd of May 1990",
    "May 3rd, 1990") in English, German, French, Spanish, Portuguese and
    Dutch.
    """

    ENTITY = "DATE_OF_BIRTH"
    FLAGS = re.IGNORECASE
    MONTH = (
        r"(?:jan(?:uary|uar|vier|eiro)?|enero|gennaio|feb(?:ruary|ruar|rero|braio)?|"
        r"f[eé]v(?:rier)?|aprile|maggio|giugno|junho|julho|luglio|settembre|"
        r"octubre|ottobre|"
        r"fev(?:ereiro)?|mar(?:ch|s|zo|ço)?|märz|maart|apr(?:il)?|abr(?:il)?|"
        r"avr(?:il)?|ma[iy]|mei|mai(?:o)?|mayo|jun[ei]?|juin|juni?o|jul[iy]?|"
        r"juil(?:let)?|juli?o|aug(?:ust(?:us)?)?|ago(?:sto)?|ao[uû]t|"
        r"sep(?:t(?:ember|embre|iembre|embro)?)?|set(?:embro)?|oct(?:ober|obre)?|"
        r"okt(?:ober)?|out(?:ubro)?|nov(?:ember|embre|iembre|embro)?|"
        r"dec(?:ember)?|d[eé]c(?:embre)?|dez(?:ember|embro)?|dic(?:iembre)?)\.?"
    )
    DAY = r"\d{1,2}(?:st|nd|rd|th|er|º)?\.?"
    DATE = (
        r"(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/. ]\d{1,2}[-/. ]\d{2,4}|"
        rf"{DAY}(?:\s*(?:of|de)\s*|[\s-]+|/){MONTH}(?:\s*(?:de)\s*|[\s,/-]+)"
        r"\d{2,4}|"
        rf"{MONTH}[\s-]+{DAY},?[\s-]+\d{{4}}|"
        # "1990年5月3日", "1990. 5. 3.": Chinese, Japanese and Korean order.
        r"\d{4}\s?年\s?\d{1,2}\s?月\s?\d{1,2}\s?日|\d{4}\.\s?\d{1,2}\.\s?\d{1,2}\.?|"
        # "3. 5. 1991": Czech, Slovak, Hungarian and German spacing.
        r"\d{1,2}\.\s\d{1,2}\.\s?\d{4})"
    )
    PATTERNS = (
        (
            "date_of_birth",
            r"(?:(?<![^\W_])(?:d\.?\s?o\.?\s?b\.?|date\s+of\s+birth|birth\s?date|"
            r"birthday|born(?:\s+on)?|b\.|geb(?:oren)?(?:\s+am)?\.?|geburtsdatum|"
            r"geburtstag|geboortedatum|geboren\s+op|data\s+de\s+nascimento|"
            r"nascid[oa]\s+em|fecha\s+de\s+nacimiento|nacid[oa](?:\s+el)?|nacimiento|"
            # Tajik, Armenian
            r"(?:санаи\s+)?таваллуд|ծննդյան\s+(?:ամսաթիվ|օր)|ծնվել\s+է|"
            r"date\s+de\s+naissance|n[ée]e?(?:\s?\(e\))?\s+le|data\s+di\s+nascita|"
            r"nat[oa]\s+il|"
            # South Slavic, Russian, Ukrainian, Czech and Slovak, Hungarian,
            # Greek, Turkic, Arabic, Hindi, Mongolian, Baltic, Albanian, Swahili
            r"ro[đd]en[aoi]?|ro[đd]\.|рођен[аои]?|роден[аои]?|датум\s+рођења|"
            r"datum\s+ro[đd]enja|дата\s+(?:рождения|народження|на\s+раѓање)|"
            r"д\.\s?р\.|narozen[aáý]?|narodený|narodená|datum\s+narození|"
            r"dátum\s+narodenia|született|szül\.|γεννήθηκε|γενν\.|"
            r"ημερομηνία\s+γέννησης|d\.\s?t\.|doğum(?:\s+tarixi)?|"
            r"tug['ʻ‘’]ilgan\s+(?:sana|kun)|туулсан\s+(?:огноо|он)|"
            r"تاريخ\s+(?:ال)?ميلاد|تاريخ\s+الولادة|जन्म\s*(?:तिथि|तारीख)|"
            r"rojstni\s+datum|gimimo\s+data|dzimšanas\s+datums|sünniaeg|"
            r"data\s+e\s+lindjes|tarehe\s+ya\s+kuzaliwa|syntynyt|syntyi|lahir|"
            r"fecha\s+(?:de\s+)?nac\.?|f\.\s?(?:de\s+)?nac(?:imiento)?\.?|"
            r"data\s+ur\.?|data\s+nasc\.?|birth(?=\s*:)|date\s+de\s+naiss\.?|"
            r"geb\.?-?datum|sinh\s+ngày|"
            r"data\s+na[șşs]terii|n[ăa]scut[ăa]?|data\s+de\s+naixement|"
            r"datum\s+rojstva|rojen[a]?|fæðingardagur|fædd(?:ur)?|"
            r"дата\s+нараджэння|туған\s+күні|تاریخ\s+تولد|تاریخ\s+پیدائش|"
            r"תאריך\s+לידה|დაბადების\s+თარიღი|ծննդյան\s+ամսաթիվ|"
            r"जन्म\s+मिति|জন্ম\s+তারিখ|பிறந்த\s+தேதி|ranar\s+haihuwa|"
            r"usuku\s+lokuzalwa|"
            r"data\s+urodzenia|urodzon[ya]|f[öo]dd|født|f[öo]delsedatum|f[øo]dselsdato|"
            r"(?:tempat\s*/\s*)?tgl\.?\s+lahir|"
            r"syntym[äa]aika|doğum\s+tarihi|tanggal\s+lahir|petsa\s+ng\s+kapanganakan|"
            r"ngày\s+sinh|tarikh\s+lahir|วันเกิด|"
            # A birth word's short forms ("nasc.", "naiss.", "nac.") and the
            # Arabic "born (in)" of a civil record ("مواليد", "مولود").
            r"nasc(?:id[oa]|imento)?\.|naiss\.|nac\.|مواليد|مولود[ةه]?)"
            r"(?![^\W_])|生年月日|出生日期|出生年月日|出生于|出生於|생년월일|"
            # Burmese and Khmer glue their marks on: no word boundary.
            r"မွေးသက္ကရာဇ်|မွေးနေ့|ថ្ងៃខែឆ្នាំកំណើត|ថ្ងៃកំណើត)"
            # "Nacimiento del vendedor:", "birth of the child:": whose birth
            r"(?:[ \t]+(?:del?|de[ \t]+la|of(?:[ \t]+the)?|du|des)[ \t]+[^\W\d_]+)?"
            # "(dd/mm/yyyy)", "(as in passport)": a remark on the label
            r"(?:\s*\([^()\n]{1,40}\))?"
            rf"\s*[:：=\-−–—]?\s*(?:(?:is|was|on|am|le|el|em|il|the)\s+)*"
            r"(?:[A-ZÀ-Þ][^\W\d_]+(?:\s[A-ZÀ-Þ][^\W\d_]+)?,\s*)?"  # "Yogyakarta, "
            rf"(?P<v>{DATE})"
            r"(?![\w/.-]\d)",
            0.85,
        ),
        (
            # "Her date of birth on the manifest is wrong — it should be
            # 19/06/1990": the first date of an adult's year later in the
            # sentence that names a birth date.
            "date_of_birth_in_sentence",
            r"(?<![^\W_])(?:date\s+of\s+birth|d\.o\.b\.|dob|birth\s?date|"
            r"fecha\s+de\s+nacimiento|geburtsdatum|date\s+de\s+naissance|"
            r"data\s+de\s+nascimento)(?![^\W_])[^\n.!?\d]{1,60}?(?<![\w/.-])"
            rf"(?P<v>\d{{1,2}}[-/.]\d{{1,2}}[-/.](?:19\d\d|200\d|201[0-2])|"
            rf"{DAY}[ \t]+{MONTH}[ \t]+(?:19\d\d|200\d|201[0-2]))"
            r"(?![\w/.-]?\d)",
            0.8,
        ),
    )


class ClabeRecognizer(CuedPatternRecognizer):
    """Mexican CLABE: 18 digits after its name, weights 3, 7, 1 for the check digit."""

    ENTITY = "BANK_ACCOUNT"
    PATTERNS = (("mx_clabe", r"\bCLABE\b[^\d\n]{0,30}?(?P<v>\d{18})\b", 0.85),)

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Check the 18th digit."""
        total = sum(int(d) * (3, 7, 1)[i % 3] % 10 for i, d in enumerate(value[:17]))
        return (10 - total % 10) % 10 == int(value[17])
