"""A name after a label that names a person's role, in any script, and a name column.

"Студент: Ярошевич Алеся Михайловна", "Remitente: Yuleisy del Carmen
Chirinos", "入居者氏名：宮坂 瑞穂", "المشترك: جورجيت إلياس خوري",
"ကျောင်းသားအမည် − မောင်ထက်ဝေယံ": a form line whose label is a person's
role or a name field (a compact set across the languages of the forms we
read), a colon (half- or full-width) or a spaced dash, then one to four
words with no digit that end the field. The label carries the cue, so the
value's first word need not be a listed name; the value must still look
like one: in a script with capitals each word opens with one (particles
aside), and no word is an organization's noun.

A table written as delimited lines (CSV, semicolons, tabs, bars) whose
header names a column "name" or "member" holds a person's name in that
column's cells of the same shape.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.name_checks import LETTER
from anonygraph.tools import kept_patterns

PERSON_LABELS = frozenset(
    label.strip()
    for label in """name|full name|first name|given name|surname|last name|family name|
    nombre|nombre completo|apellidos|nom|prénom|nom complet|nome|nome completo|
    cognome|naam|volledige naam|imię|nazwisko|imię i nazwisko|jméno|meno|ime|
    ime i prezime|név|nimi|navn|namn|adı|ad soyad|имя|фио|ф.и.о.|ім'я|піб|
    student|студент|студентка|ученик|ученица|pupil|élève|alumno|alumna|aluno|
    aluna|estudiante|schüler|schülerin|studente|studentessa|patient|patiente|
    paciente|paziente|пациент|пациентка|client|cliente|клиент|клиентка|customer|
    tenant|inquilino|inquilina|locataire|mieter|mieterin|sender|remitente|
    expéditeur|absender|mittente|remetente|recipient|destinatario|destinataria|
    destinataire|empfänger|destinatário|получатель|отправитель|applicant|
    solicitante|demandeur|demandeuse|antragsteller|заявитель|заявительница|
    requerente|richiedente|guardian|tutor|tutora|father|mother|padre|madre|père|
    mère|vater|mutter|pai|mãe|отец|мать|spouse|husband|wife|esposa|
    esposo|cónyuge|épouse|époux|conjoint|ehefrau|ehemann|marido|mulher|
    employee|empleado|empleada|salarié|salariée|mitarbeiter|mitarbeiterin|
    сотрудник|сотрудница|subscriber|abonné|abonnée|abonado|abonada|
    assinante|abbonato|member|miembro|membre|mitglied|участник|участница|
    passenger|pasajero|pasajera|passager|passagère|fahrgast|пассажир|guest|
    huésped|hôte|gast|гость|borrower|prestatario|emprunteur|kreditnehmer|
    заемщик|buyer|comprador|compradora|acheteur|käufer|покупатель|seller|
    vendedor|vendeur|verkäufer|продавец|witness|testigo|témoin|zeuge|свидетель|
    beneficiary|beneficiario|bénéficiaire|begünstigter|insured|asegurado|
    assuré|versicherter|policyholder|titular|titulaire|inhaber|inhaberin|
    владелец|owner|propietario|propriétaire|eigentümer|filiação|filiación|
    filiation|advisor|adviser|service advisor|technician|technicien|técnico|
    técnica|tecnico|captain|capitán|capitaine|steersman|skipper|coach|trainer|
    caller|operator|operador|opérateur|prepared by|vorname|nachname|الاسم|اسم|المشترك|
    المشتركة|العميل|العميلة|المريض|المريضة|الطالب|الطالبة|المرسل|المستلم|
    الزوج|الزوجة|الأب|الأم|المستأجر|صاحب الطلب|مقدم الطلب|שם|לקוח|מטופל|
    nama|nama lengkap|pelanggan|pasien|siswa|mahasiswa|ชื่อ|ผู้ป่วย|
    họ tên|họ và tên|tên|khách hàng|học sinh|bệnh nhân|नाम|ग्राहक|मरीज़|छात्र""".split("|")
)
"""Labels that name a person's role or a name field, lowercased (several
languages and scripts)."""

NAME_MARKS = (
    "氏名",
    "名前",
    "姓名",
    "联系人",
    "聯絡人",
    "緊急連絡先",
    "入居者",
    "契約者",
    "申請者",
    "保護者",
    "学生",
    "患者",
    "이름",
    "성명",
    "အမည်",
    "ชื่อ",
)
"""Words inside a label of a script written without spaces that make it a
name's field ("入居者氏名", "ကျောင်းသားအမည်")."""

WORD = rf"{LETTER}(?:{LETTER}|['’.-])*"
"""A word of a name: letters, apostrophes, hyphens and an initial's stop."""

SECOND_FIELD = kept_patterns.compile(rf"[ \t]*,[ \t]*{WORD}(?=[ \t]*(?:$|\n|[,;(]))")
"""A comma and a second name's word ending the field."""

ROLE_FIELD = kept_patterns.compile(
    rf"(?m)(?:^|(?<=[.;·][ ]))[ \t]*(?P<label>{LETTER}(?:{LETTER}|[.'’])*"
    rf"(?:(?:[ \t]|[ \t]?[/,][ \t]?){LETTER}+){{0,3}})"
    r"(?:[ \t]*[:：]|[ \t]+[−–—-])[ \t\u3000]*"
    rf"(?P<v>{WORD}(?:[ \u3000]{WORD}){{0,3}})"
    r"(?=[ \t\u3000]*(?:$|[,;(（、،|+/]|[ \t]{2})|[ \t]+(?:e|y|i|and|et|und)[ \t])"
)
"""A label opening a line or a sentence ("… 13/03/2026. Technicien : Yao"),
a colon or a spaced dash, and one to four words that end the field."""

PARTICLES = frozenset(
    "al el bin binti bint ibn van von de da di du del della la le dos das y e "
    "uulu kyzy ogly".split()
)
"""Lowercase words inside a name."""


class RoleLabelNameRecognizer(CuedPatternRecognizer):
    """A name after a person's role label, in any script, or in a name column."""

    ENTITY = "PERSON"

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return the field values and name cells that name a person."""
        matches = list(ROLE_FIELD.finditer(text))
        # A label that opens several lines is a chat's speaker ("العميل:
        # السلام عليكم، …"), its words the turn, not a field's name.
        labels = Counter(m.group("label").strip().lower() for m in matches)
        found = [
            self.result(
                m.start("v") + title_length(m.group("v")),
                _second_field_end(text, m),
                0.8,
                "role_label",
            )
            for m in matches
            if labels[m.group("label").strip().lower()] == 1
            and _person_label(m.group("label"))
            and _name_shape(
                text[m.start("v") : _second_field_end(text, m)].replace(",", " "),
                alone=_bracket_after(text, m.end("v")),
            )
            and (_cased(m.group("v")) or _name_field(text, m))
        ]
        found += [self.result(*s, 0.8, "name_column") for s in _column_names(text)]
        return found


TITLE = kept_patterns.compile(r"[^\W\d_]{1,4}\.[ \t]+(?=[^\W\d_])")
"""A title's abbreviation opening a value ("Ma. Cristina", "Dña. Elena")."""


def title_length(value: str) -> int:
    """Return the length of a title's abbreviation opening ``value``, or 0."""
    m = TITLE.match(value)
    return m.end() if m else 0


def _second_field_end(text: str, m: re.Match[str]) -> int:
    """Return where the value ends, over a second field a label of two names.

    "Name, Vorname: Schwarzkopf, Lioba": the label's comma says the value's
    comma parts the surname from the given name.
    """
    if "," in m.group("label"):
        rest = SECOND_FIELD.match(text, m.end("v"))
        if rest:
            return rest.end()
    return m.end("v")


def _bracket_after(text: str, end: int) -> bool:
    """Tell a value a bracket of its own details follows ("Yao (code T-07)").

    A plan's or a product's one word ("Member: Gold") takes none; a person's
    does: an extension, a staff code, a kinship ("Ion (fiul)").
    """
    return re.match(r"[ \t]*[(（]", text[end:]) is not None


def _person_label(label: str) -> bool:
    """Tell a label that names a person's role or a name field.

    A label in two languages ("Customer / العميل") or of two fields ("Name,
    Vorname") counts when one of its parts does.
    """
    parts = [" ".join(p.lower().split()).strip(".") for p in re.split(r"[/,]", label)]
    return any(
        p in PERSON_LABELS or p.split(" ")[0] in PERSON_HEADS for p in parts
    ) or any(mark in label for mark in NAME_MARKS)


PERSON_HEADS = frozenset(
    "persoană persoana persona pessoa personne person contact contacto kontakt "
    "contatto".split()
)
"""First words of a longer label that names a person ("Persoană de contact
suplimentară", "Contact person")."""


NAME_FIELDS = frozenset(
    label.strip()
    for label in """name|full name|first name|given name|surname|last name|nombre|
    nom|nome|naam|imię|nazwisko|имя|фио|الاسم|اسم|שם|nama|ชื่อ|tên|họ tên|
    họ và tên|नाम""".split("|")
)
"""Labels that name a name field itself, not a role."""


def _cased(value: str) -> bool:
    """Tell a value written in a script with capitals (Latin, Cyrillic, Greek)."""
    return any(c.isupper() for c in value)


def _name_field(text: str, m: re.Match[str]) -> bool:
    """Tell an uncased value the label, its place or a listed name makes a name.

    A script without capitals shows no name by its letters: the label must
    name a name field ("الاسم", "氏名", "ကျောင်းသားအမည်"), the value be a
    full name that is all the rest of its line ("المشترك: جورجيت إلياس
    خوري"; "العميل: إذا كان فيه استرداد، الحساب …" runs on), or its first
    word a name some Faker locale lists.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    label, value = m.group("label"), m.group("v")
    folded = " ".join(label.lower().split()).strip(".")
    whole = re.match(r"[ \t\u3000]*(?:$|\n|[(（])", text[m.end("v") :])
    return (
        folded in NAME_FIELDS
        or any(mark in label for mark in NAME_MARKS)
        or (len(value.split()) >= 2 and whole is not None)
        or fold(value.split()[0]) in known_names()
    )


def _name_shape(value: str, *, alone: bool = True) -> bool:
    """Tell a value whose words may be a person's name.

    In a script with capitals each word but a particle opens with one; no
    word is an organization's noun ("Universidade", "Clinic"). A word of
    Latin letters alone must be a listed name and the value no place of the
    gazetteer ("To: Santa Monica") unless ``alone`` (a column headed "member"
    or a bracket of details after it says so): "Member: Gold" names a plan.
    """
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.org_contacts import ORG_HEADS
    from anonygraph.identifiers.recognizers.name_checks import (
        ORG_WORDS,
        PLACE_AND_ROLE_WORDS,
        known_names,
    )

    words = value.split()
    for word in words:
        lowered = word.lower().strip(".")
        if (
            ORG_HEADS.match(word)
            or lowered in ORG_WORDS
            or lowered in PLACE_AND_ROLE_WORDS
            or (word[0].islower() and lowered not in PARTICLES)
        ):
            return False
    if words[0].islower() or (not alone and gazetteer().get(fold(value)) is not None):
        return False
    # One word in Latin letters may be a plan's or a product's name ("Member:
    # Gold"): only a listed given name or surname counts alone.
    latin = all(ord(c) <= 0x24F for c in value if c.isalpha())
    return alone or not (latin and len(words) == 1 and fold(value) not in known_names())


NAME_HEADERS = frozenset(
    h.strip()
    for h in """name|full name|fullname|member|member name|nombre|nom|nome|naam|
    imię|имя|фио|participant|participante|teilnehmer|student|patient|client|
    customer|employee|guest|passenger|parent|guardian|father|mother|spouse""".split("|")
)
"""Column headers whose cells hold a person's name."""

GENERIC_HEADERS = frozenset("name nombre nom nome naam".split())
"""Headers that may name a product's column as well as a person's."""

CONTACT_HEADERS = frozenset(
    """email e-mail mail phone telephone tel mobile cell whatsapp dob birth date
    birthday birth date gender age address""".split()
) | {"birth date", "date of birth"}
"""Headers of a person's columns: beside them a bare "name" is a person's."""

CELL = kept_patterns.compile(r"[^\W\d_][^\W\d_'’.-]*(?: [^\W\d_][^\W\d_'’.-]*){0,3}")
"""A cell of one to four words with no digit."""


def _column_names(text: str) -> list[tuple[int, int]]:
    """Return the cells under a header that names a column of names.

    "team_id,member,role,email" over "T-031,Aizhan Toktogulova,lead,…":
    the header's cell "member" marks its column; each later line of as many
    cells or more holds a name there when the cell has the shape of one.
    """
    found: list[tuple[int, int]] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for index, header in enumerate(lines):
        delimiter = next((d for d in ",;\t|" if header.count(d) >= 2), None)
        if delimiter is None:
            continue
        heads = [h.strip().lower().replace("_", " ") for h in header.split(delimiter)]
        columns = [i for i, h in enumerate(heads) if h in NAME_HEADERS]
        if not columns:
            continue
        # "name;price;sku" lists products: a bare "name" needs a person's
        # column beside it (an e-mail, a phone, a birth date).
        if all(heads[i] in GENERIC_HEADERS for i in columns) and not any(
            h in CONTACT_HEADERS for h in heads
        ):
            break
        for row_index in range(index + 1, len(lines)):
            row = lines[row_index]
            cells = row.split(delimiter)
            if len(cells) < len(heads):
                break
            for column in columns:
                start = offsets[row_index] + sum(len(c) + 1 for c in cells[:column])
                value = cells[column].strip()
                if CELL.fullmatch(value) and _name_shape(value):
                    begin = start + cells[column].index(value)
                    found.append((begin, begin + len(value)))
        break
    return found
