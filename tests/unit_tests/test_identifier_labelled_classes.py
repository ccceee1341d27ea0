"""Classes of identifiers a label, a scheme's rule or an address's layout names.

Each row: a text, the kind, the span, and whether the span is found as that
kind (True) or is a look-alike that stays (False). Numbers with a check are
computed by their scheme's rule; the look-alike is the same number one digit
off, or without its label.
"""

from __future__ import annotations

import re

import pytest

from anonygraph.identifiers.detect import name_mentions
from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.not_persons import drop_non_persons
from anonygraph.identifiers.person_spans import HOUSE_NUMBER_BEFORE, SPACY
from anonygraph.identifiers.recognizers.phones import titled
from tests.unit_tests.test_identifier_kinds import check

SCHEMES_BY_LABEL = [
    # JMBG / EMŠO: a birth date and a mod 11 digit.
    ("Tuženi: Marko Ilić, JMBG 2307971710026, Beograd", "2307971710026", True),
    ("Tuženi: Marko Ilić, JMBG 2307971710027, Beograd", "2307971710027", False),
    ("Pošiljka 2307971710026 je poslana", "2307971710026", False),
    # Bulgarian EGN, written in Cyrillic.
    ("ЕГН: 8706214524", "8706214524", True),
    ("ЕГН: 8706214525", "8706214525", False),
    # Croatian OIB.
    ("Kupac: Ana Kovač, OIB 69138042752", "69138042752", True),
    ("Kupac: Ana Kovač, OIB 69138042753", "69138042753", False),
    # Lithuanian asmens kodas and Estonian isikukood share one rule.
    ("Asmens kodas: 38706211238", "38706211238", True),
    ("Asmens kodas: 38706211239", "38706211239", False),
    # Icelandic kennitala with its dash.
    ("Kennitala: 210687-3199", "210687-3199", True),
    ("Kennitala: 210687-3189", "210687-3189", False),
    # With its dash it stands alone in a table's column; one digit off stays.
    ("4 | Jón Jónsson | 210687-3199 | ok", "210687-3199", True),
    ("4 | Jón Jónsson | 210687-3189 | ok", "210687-3189", False),
    # Kazakh IIN, labelled in Russian.
    ("ИИН 870621301232, тел.", "870621301232", True),
    ("ИИН 870621301233, тел.", "870621301233", False),
    # Ukrainian RNOKPP.
    ("РНОКПП 2987654320", "2987654320", True),
    ("РНОКПП 2987654321", "2987654321", False),
    # Iranian code melli, transliterated label.
    ("Code melli: 1234567806", "1234567806", True),
    ("Code melli: 1234567807", "1234567807", False),
    # Japanese My Number, a remark between label and number.
    ("マイナンバー (申請用): 612345678900", "612345678900", True),
    ("マイナンバー (申請用): 612345678901", "612345678901", False),
    # Taiwanese ID after its Chinese label.
    ("身分證 A123456789 請核對", "A123456789", True),
    ("身分證 A123456788 請核對", "A123456788", False),
    # Hong Kong ID: its bracketed check digit is distinctive alone.
    ("Guest HKID G123456(A) checked in", "G123456(A)", True),
    ("Guest HKID G123456(3) checked in", "G123456(3)", False),
    # Polish ID card: letters valued in the check.
    ("Dowód osobisty: ABA 323456", "ABA 323456", True),
    ("Dowód osobisty: ABA 423456", "ABA 423456", False),
    # Schemes with no check count after their label only.
    ("Client: M. Idrissi, CIN K512930 | 2 nuits", "K512930", True),
    ("Ref K512930 | 2 nuits", "K512930", False),
    ("Claimant: Ms Brown, TRN 205-771-348", "205-771-348", True),
    ("Parcel 205-771-348 delivered", "205-771-348", False),
    ("Aadhaar (for KYC): 2345 6789 0123", "2345 6789 0123", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), SCHEMES_BY_LABEL)
def test_when_a_schemes_label_and_rule_agree_then_the_number_is_a_national_id(
    text: str, span: str, expected: bool
) -> None:
    check(text, "NATIONAL_ID", span, expected=expected)


ADDRESSES_BY_LAYOUT = [
    # A street with no street word, then its postcode and town.
    ("Dostava: Radićeva 17;51000 Rijeka;plaćeno", "ADDRESS", "Radićeva 17", True),
    (
        "Dostava: Radićeva 17;51000 Rijeka;plaćeno",
        "POSTCODE",
        "51000",
        True,
    ),
    (
        "iz Niša, Bulevar Nemanjića 40, stan 3, 18000 Niš",
        "ADDRESS",
        "Bulevar Nemanjića 40, stan 3",
        True,
    ),
    ("Str. Mihai Eminescu 8, ap. 12, 010512 Bucureşti", "POSTCODE", "010512", True),
    ("Gedimino pr. 9-4, LT-01103 Vilnius", "ADDRESS", "Gedimino pr. 9-4", True),
    # A country's letters before its postcode, then the town.
    ("Adresse: 3, rue Haute, L-9053 Ettelbruck", "POSTCODE", "L-9053", True),
    # A Cyrillic street type, the house and the flat.
    (
        "Адрес: ул. Садовая, д. 12, кв. 40, Казань",
        "ADDRESS",
        "ул. Садовая, д. 12, кв. 40",
        True,
    ),
    (
        "2. Іван Бойко, вул. Шевченка, 8, кв. 3, дітей: 1",
        "ADDRESS",
        "вул. Шевченка, 8, кв. 3",
        True,
    ),
    ("Встреча через пр. 5 минут", "ADDRESS", "пр. 5", False),
    # An address label says what its value is, in any country's order; a
    # closing town and postcode stay apart, a machine's or an org's stays.
    (
        "Address: Kuche-ye Bahar, Pelak 7, Vahed 2, Shiraz",
        "ADDRESS",
        "Kuche-ye Bahar, Pelak 7, Vahed 2",
        True,
    ),
    ("Adresa: Sat Nou, nr. 15, Mureș", "ADDRESS", "Sat Nou, nr. 15", True),
    # The value ends with its sentence: what follows is no part of it.
    (
        "Adresse: Quartier Médina, Villa 12, Thiès. Mon garant Moussa (70 11 22 33) "
        "a payé.",
        "ADDRESS",
        "Quartier Médina, Villa 12",
        True,
    ),
    (
        "Adresse: Quartier Médina, Villa 12, Thiès. Mon garant Moussa (70 11 22 33) "
        "a payé.",
        "ADDRESS",
        "Mon garant",
        False,
    ),
    ("IP address: 203.0.113.9", "ADDRESS", "203.0.113.9", False),
    ("Office address: Block 9, Kijitonyama", "ADDRESS", "Block 9", False),
    ("Address: Nairobi", "ADDRESS", "Nairobi", False),
    # Homes without a number: three places or more, or a hamlet before the
    # region; the last part stays. A town and its country alone stay.
    (
        "Residencia: Aldea Chemal, caserío Los Pinos, Todos Santos, Huehuetenango",
        "ADDRESS",
        "Aldea Chemal, caserío Los Pinos, Todos Santos",
        True,
    ),
    (
        "Permanent address: Dzomi village, Punakha Dzongkhag; current: Thimphu",
        "ADDRESS",
        "Dzomi village",
        True,
    ),
    ("Address: Lagos, Nigeria", "ADDRESS", "Lagos", False),
    # Labels in more languages and scripts, with a full-width colon or a dash,
    # or after the line's own label ("العميل: العنوان: …").
    (
        "العميل: العنوان: الجابرية، قطعة 1، شارع 12، منزل 27، الكويت 46300. هاتف",
        "ADDRESS",
        "الجابرية، قطعة 1، شارع 12، منزل 27",
        True,
    ),
    (
        "Хаяг: Баянзүрх дүүрэг, 26-р хороо, 15-р байр, 42 тоот, Улаанбаатар",
        "ADDRESS",
        "Баянзүрх дүүрэг, 26-р хороо, 15-р байр, 42 тоот",
        True,
    ),
    (
        "მისამართი: ვაჟა-ფშაველას გამზ. 41, ბინა 12, თბილისი 0177",
        "ADDRESS",
        "ვაჟა-ფშაველას გამზ. 41, ბინა 12",
        True,
    ),
    ("Ünvan: Baş mühendis, Ar-Ge bölümü", "ADDRESS", "Baş mühendis", False),
    ("Ул. Партизанска 56-2/4, 1000 Скопје", "ADDRESS", "Ул. Партизанска 56-2/4", True),
    (
        "العنوان: بناية نصّار، الطابق الثالث، شارع مار مخايل، بيروت",
        "ADDRESS",
        "بناية نصّار، الطابق الثالث، شارع مار مخايل",
        True,
    ),
    (
        "Суроға: ш. Хуҷанд, кӯч. Ленин 63, хонаи 14",
        "ADDRESS",
        "ш. Хуҷанд, кӯч. Ленин 63, хонаи 14",
        True,
    ),
    (
        "現住所：福岡県福岡市東区箱崎三丁目12番7号",
        "ADDRESS",
        "福岡県福岡市東区箱崎三丁目12番7号",
        True,
    ),
    (
        "Address: ផ្ទះលេខ ៤៥ ផ្លូវ ២៧១ សង្កាត់ទឹកល្អក់ទី៣",
        "ADDRESS",
        "ផ្ទះលេខ ៤៥ ផ្លូវ ២៧១ សង្កាត់ទឹកល្អក់ទី៣",
        True,
    ),
    (
        "Office address: Saleaula village, Gagaemauga, Savai'i",
        "ADDRESS",
        "Saleaula village, Gagaemauga",
        False,
    ),
    # Look-alikes: a reference and a year before a capitalized word.
    ("Order 55, 10115 Units shipped;", "ADDRESS", "Order 55", False),
    ("Room 12, 2024 Annual Review", "ADDRESS", "Room 12", False),
    ("Room 12, 2024 Annual Review", "POSTCODE", "2024", False),
    ("Release D-1234 build green", "POSTCODE", "D-1234", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), ADDRESSES_BY_LAYOUT)
def test_when_a_postcode_and_town_close_a_street_then_it_is_an_address(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


LABELLED_DOCUMENTS = [
    # A remark in brackets between a label and its value.
    ("Date of birth (as on ID): 14/03/1989", "DATE_OF_BIRTH", "14/03/1989", True),
    ("Date of issue (as on ID): 14/03/2019", "DATE_OF_BIRTH", "14/03/2019", False),
    # An account label of several words before its colon; a RIB by name.
    ("Savings account on file: 004417889120", "BANK_ACCOUNT", "004417889120", True),
    (
        "Virement RIB 10107 00175 00012345678 28",
        "BANK_ACCOUNT",
        "10107 00175 00012345678 28",
        True,
    ),
    ("Invoice on file: 004417889120", "BANK_ACCOUNT", "004417889120", False),
    # Record labels of health cards and clinical histories.
    ("Health card (BC): 9123 456 789", "MEDICAL_RECORD", "9123 456 789", True),
    ("Historia clínica: HCL-442817", "MEDICAL_RECORD", "HCL-442817", True),
    (
        "Pharmacy refill for my prescription; member ID QWX55120934",
        "MEDICAL_RECORD",
        "QWX55120934",
        True,
    ),
    # A plate after its label in other languages; a memorial plaque's year.
    ("Voiture: plaque AB 4410", "LICENSE_PLATE", "AB 4410", True),
    ("Rendszám: KLM-204", "LICENSE_PLATE", "KLM-204", True),
    ("La plaque commémorative 1918 sur le mur", "LICENSE_PLATE", "1918", False),
    # A NINO after its label, even with a reserved prefix.
    (
        "National Insurance number QQ 65 43 21 A, thanks",
        "NATIONAL_ID",
        "QQ 65 43 21 A",
        True,
    ),
    ("Form QQ 65 43 21 A attached", "NATIONAL_ID", "QQ 65 43 21 A", False),
    # A gym's or a club's member ID is no patient's record.
    ("Gym renewal: member ID 88213345", "MEDICAL_RECORD", "88213345", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), LABELLED_DOCUMENTS)
def test_when_a_documents_label_names_a_value_then_it_is_that_kind(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


def _finds(text: str, spans: list[tuple[str, str, str]]) -> list[Identifier]:
    """Build identifiers of ``(kind, span, recognizer)`` as the analyzer would."""
    found = []
    for kind, span, recognizer in spans:
        start = text.index(span)
        found.append(Identifier(kind, start, start + len(span), span, 0.85, recognizer))
    return found


NOT_PERSONS_BY_LINE = [
    # A greeting of another language is no name, whoever found it.
    ("Buenos días,\nle escribo.", "Buenos días", "ContextNameRecognizer", False),
    ("Dzień dobry\nproszę o kontakt.", "Dzień dobry", SPACY, False),
    ("Hola Buenos,\nle escribo.", "Hola Buenos", SPACY, True),
    # A district or town after a street address, commas only between.
    ("Ship to: 14 Orchard Lane, Rathmines, Dublin", "Rathmines", SPACY, False),
    ("Ship to: 14 Orchard Lane. Aoife Byrne signs", "Aoife Byrne", SPACY, True),
    # A field whose label names a school, a course or a group.
    (
        "Studii: Universitatea X, Automatică Aplicată",
        "Automatică Aplicată",
        SPACY,
        False,
    ),
    ("Grupo: Amigos Pedaleros", "Amigos Pedaleros", SPACY, False),
    ("Admin: Lucía Ferrer", "Lucía Ferrer", SPACY, True),
    # A cue's name stays even under such a label.
    ("Club: Dear Ana Ruiz", "Ana Ruiz", "ContextNameRecognizer", True),
    # One word that is a text's whole first sentence greets its reader; one
    # in "-in" before an apostrophe is a participle spelled as said.
    ("Molweni. I moved here last spring.", "Molweni", SPACY, False),
    ("Howdy. Goin' to the fair on Saturday.", "Goin", SPACY, False),
    # Counter-cases: a name with words of its sentence around it, a name
    # later in the text, a word in "-in" with no apostrophe.
    ("Molweni is my neighbour.", "Molweni", SPACY, True),
    ("We met. Molweni. Then we left.", "Molweni", SPACY, True),
    ("Ask Kevin, he knows.", "Kevin", SPACY, True),
]


@pytest.mark.parametrize(("text", "span", "recognizer", "kept"), NOT_PERSONS_BY_LINE)
def test_when_the_line_shows_a_greeting_place_or_body_then_the_span_is_no_person(
    text: str, span: str, recognizer: str, kept: bool
) -> None:
    spans = [("PERSON", span, recognizer)]
    address = re.search(r"\d+ [A-Z]\w+ Lane", text)
    if address:
        spans.insert(0, ("ADDRESS", address.group(0), "StreetAddressRecognizer"))
    found = _finds(text, spans)
    left = drop_non_persons(text, found)
    assert (found[-1] in left) is kept


CHAT_HANDLES = [
    # A user-name-shaped speaker after a chat's stamp, or opening a line of words.
    ("[09:14 PM] **sam.okoro**: running late, start without me", "sam.okoro", True),
    ("03.02.2026 08:40 aruzhan_k: где ключи от квартиры?", "aruzhan_k", True),
    ("nina_v: anyone up for the late raid tonight", "nina_v", True),
    # A log's logger (its stamp has seconds) and a config's keys stay.
    ("12:01:33 app.server: started worker pool now", "app.server", False),
    ("db.host: localhost\nlog.level: debug", "db.host", False),
    ("  oncall_email: pager@example.com", "oncall_email", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), CHAT_HANDLES)
def test_when_a_chat_speaker_is_shaped_as_a_user_name_then_it_is_a_handle(
    text: str, span: str, expected: bool
) -> None:
    check(text, "HANDLE", span, expected=expected)


NAMES_IN_FIELDS = [
    # A full name as a field's value, whatever the label's language.
    ("Sponsor: Omar Haddad\nVisa type: work", "Omar Haddad", True),
    ("Beneficiario: Lucía Ferrer", "Lucía Ferrer", True),
    ("Garant: Nikola Jurić and Ana Jurić\nUgovor br. 12", "Nikola Jurić", True),
    # A run of spaces parts two fields; "Co-" opens the next label.
    ("Owner: Grace Okafor   Co-owner: Tomás Vidal", "Grace Okafor", True),
    ("Owner: Grace Okafor   Co-owner: Tomás Vidal", "Tomás Vidal", True),
    # A nickname in quotes and Saint's "St." stand inside a name.
    (
        'Witness: Mr Dwayne "Biggs" Ellison, tel. 555-0140',
        'Mr Dwayne "Biggs" Ellison',
        True,
    ),
    ("Tenant: Mrs Mary St. John, flat 2", "Mrs Mary St. John", True),
    # A quoted word that no capitalized name word follows stays outside.
    ('Name: Ana Lima "approved" today', "Ana Lima", True),
    # "In the name of" in several languages introduces a name; its "de" stays.
    ("une carte Vitale au nom de Julie Mercier (n° 2)", "Julie Mercier", True),
    ("la tarjeta a nombre de Carmen Ruiz, vencida", "Carmen Ruiz", True),
    # A title written out in full before a full name; with one word after
    # it, a book's or a role's name stays.
    ("Madame Odile Lambert\n4 rue des Lilas", "Madame Odile Lambert", True),
    ("Madame Bovary is a novel", "Madame Bovary", False),
    # A French "M." before a name is a title.
    ("Assuré: M. Julien Faure", "M. Julien Faure", True),
    # A table row's cell holding a full name beside a contact cell.
    (
        '#3 | Marta "Tita" Souza | pago | marta.s@example.com',
        'Marta "Tita" Souza',
        True,
    ),
    ("12;Ingrid Solberg Dahl;22 33 44 55;ja", "Ingrid Solberg Dahl", True),
    # A product's cell in a row of prices and SKUs is no one's.
    ("SKU | Grace Kelly Dress | 49.99 | 1234567", "Grace Kelly Dress", False),
    # Values of job, vehicle and place fields, and a town, are no one's.
    ("Experience: Junior Designer, Print Co (2021)", "Junior Designer", False),
    ("Vehicle: Kia Rio, plate on file", "Kia Rio", False),
    ("Destination: Santa Monica", "Santa Monica", False),
    ("Age/Sex: 67/M. Aadhaar linked", "M. Aadhaar", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), NAMES_IN_FIELDS)
def test_when_a_field_holds_a_full_name_then_it_is_a_person(
    text: str, span: str, expected: bool
) -> None:
    check(text, "PERSON", span, expected=expected)


HOUSE_NUMBERS_BEFORE = [
    # What stands before a capitalized run on its line: a house number makes
    # it a street's name; a chat's time or a commit's hash does not.
    ("Ship to: 14 ", True),
    ("Flat 3, 12/4 ", True),
    ("12.11.2026 21:14 ", False),
    ("5c2209f ", False),
]


@pytest.mark.parametrize(("prior", "house"), HOUSE_NUMBERS_BEFORE)
def test_when_a_time_or_hash_stands_before_a_name_then_it_is_no_house_number(
    prior: str, house: bool
) -> None:
    assert bool(HOUSE_NUMBER_BEFORE.search(prior)) is house


MENTIONS_WIDENED = [
    # A given name's mention takes the surname after it, in any script.
    ("позже Олжас Беков напишет", "Олжас", "Олжас Беков"),
    ("later Ana Lima wrote", "Ana", "Ana Lima"),
    ("Ὅμηρος says", "Ὅμηρος", "Ὅμηρος"),
]


@pytest.mark.parametrize(("text", "name", "mention"), MENTIONS_WIDENED)
def test_when_a_name_is_mentioned_then_its_surname_after_joins_it(
    text: str, name: str, mention: str
) -> None:
    assert [i.text for i in name_mentions(text, [name])] == [mention]


TITLED_ORGS = [
    # What the parse took for an organization before a number, and where it
    # starts: a person's title before its first word makes it a person.
    ("Votre agent: Mme Anouk Reuter, +352", "Anouk Reuter", True),
    ("Votre agent: Mme Anouk Reuter, +352", "Mme Anouk Reuter", True),
    (
        "Follow-up at Riverside Family Medicine, (206)",
        "Riverside Family Medicine",
        False,
    ),
]


@pytest.mark.parametrize(("text", "org", "is_titled"), TITLED_ORGS)
def test_when_a_title_opens_a_parsed_organization_then_it_is_a_person(
    text: str, org: str, is_titled: bool
) -> None:
    assert titled(text, text.index(org)) is is_titled
