"""Identifiers found by their form: any scheme after an identity label, dates of birth
by a birth word or the record's layout, plates near a vehicle word, more schemes.

Each row: a text, the span, and whether the span is found as the kind
(True) or is a look-alike that stays (False). Checked numbers are computed
by their scheme's rule; the look-alike is one digit off, or the same
number under a label that names a thing or a business.
"""

from __future__ import annotations

import pytest

from tests.unit_tests.test_identifier_kinds import check

SCHEMES = [
    # North Macedonian ЕМБГ (the JMBG rule, Cyrillic label).
    ("Од: Марија Стојановска, ЕМБГ 0806993455118", "0806993455118", True),
    ("Од: Марија Стојановска, ЕМБГ 0806993455119", "0806993455119", False),
    # Its birth date and mod 11 digit are rare enough by chance to stand alone,
    # except after a thing's label.
    ("Marija Stojanovska (0806993455118), Skopje", "0806993455118", True),
    ("Pošiljka 0806993455118 je poslana", "0806993455118", False),
    # Mongolian register number: two letters and a birth date, alone too.
    ("Регистрийн дугаар: УБ95031214", "УБ95031214", True),
    ("Хүсэлт УБ95331214 бүртгэгдсэн", "УБ95331214", False),
    # Uzbek PINFL: sex and century, a birth date.
    ("JSHSHIR 41503920260017", "41503920260017", True),
    ("JSHSHIR 41513920260017", "41513920260017", False),
    # Zambian NRC and PhilSys after their labels; bare, they stay.
    ("NRC No.: 284913/10/1", "284913/10/1", True),
    ("Batch 284913/10/1 shipped", "284913/10/1", False),
    ("PhilSys No.: 4218-6630-9174-0528", "4218-6630-9174-0528", True),
    # Senegalese NIN: a sex digit and a birth year inside.
    ("CNI enregistrée: 2 751 1990 04183.", "2 751 1990 04183", True),
    # Of the scheme's shape, its rule decides (1850 is no birth year); of
    # another shape, the label makes it an ID all the same.
    ("CNI enregistrée: 2 751 1850 04183.", "2 751 1850 04183", False),
    ("CNI enregistrée: 3 751 1990 04183.", "3 751 1990 04183", True),
    # Greek or Cypriot ΑΔΤ, Azerbaijani FİN.
    ("Οδηγός: Ανδρέας Χαραλάμπους, ΑΔΤ 0981734, τηλ.", "0981734", True),
    ("Sürücü: Leyla Məmmədova, FİN 5ZK8R2M", "5ZK8R2M", True),
    ("Sürücü: Leyla Məmmədova, kamera 5ZK8R2M", "5ZK8R2M", False),
    # Uruguayan and Dominican cédulas, each with its check digit.
    ("Mi cédula es 4.567.123-6. Gracias", "4.567.123-6", True),
    ("Mi cédula es 4.567.123-7. Gracias", "4.567.123-7", False),
    ("cédula 001-1234547-5 a nombre de Yesenia", "001-1234547-5", True),
    # A Nigerian pension PIN stands alone.
    ("pension statement (RSA PEN100418273645) to my e-mail", "PEN100418273645", True),
    # Sri Lankan NIC, old form: the day of the year (women plus 500).
    ("Sri Lanka NIC 901234567V", "901234567V", True),
    ("Sri Lanka NIC 909234567V", "909234567V", False),
    # Checked and dated schemes that stand alone, and their one-digit-off twins.
    ("Ion Popescu, 1850312123457, Cluj", "1850312123457", True),
    ("Ion Popescu, 1850312123458, Cluj", "1850312123458", False),
    ("Thabo Nkosi 8804125005089 Soweto", "8804125005089", True),
    ("Thabo Nkosi 8804125005088 Soweto", "8804125005088", False),
    ("kund 811218-9876 ringde", "811218-9876", True),
    ("kund 811218-9875 ringde", "811218-9875", False),
    ("PESEL: 87062112342", "87062112342", True),
    ("PESEL: 87062112343", "87062112343", False),
    ("DUI 01234567-8", "01234567-8", True),
    ("CNIC 35202-1234567-1 (Lahore)", "35202-1234567-1", True),
    ("Cliente: José Pérez, V-12.345.678", "V-12.345.678", True),
    ("EAN 4006381333931", "4006381333931", False),
    # Russian SNILS (mod 101) alone, and the personal INN after its label.
    ("СНИЛС: 148-203-765 58", "148-203-765 58", True),
    ("Номер 148-203-765 57 в базе", "148-203-765 57", False),
    ("ИНН 770708389324", "770708389324", True),
    ("ИНН 770708389325", "770708389325", False),
    # A remark between the label and its number.
    ("Medicare (proof of residency): 2953 18477 1", "2953 18477 1", True),
    ("SIN (for income verification only): 519-372-049", "519-372-049", True),
    ("SIN (for income verification only): 519-372-048", "519-372-048", False),
    (
        "SIN (only needed for the seniors' tax credit receipt — RL-19): 271 840 696",
        "271 840 696",
        True,
    ),
    (
        "SIN (only needed for the seniors' tax credit receipt — RL-19): 271 840 697",
        "271 840 697",
        False,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), SCHEMES)
def test_when_a_schemes_number_follows_its_label_then_its_rule_decides(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "NATIONAL_ID", span, expected=expected)


LABELLED = [
    # A label of identity, any scheme: the label types the value.
    (
        "Records: NRIC 950417-10-5283, EPF no. 18840392, address",
        "18840392",
        "NATIONAL_ID",
        True,
    ),
    (
        "Bemor ID (tibbiy karta): MK-2026-045531",
        "MK-2026-045531",
        "MEDICAL_RECORD",
        True,
    ),
    ("MRN at Lakeside Clinic: LKC-0093417", "LKC-0093417", "MEDICAL_RECORD", True),
    ("N° de dossier patient : 20260448213", "20260448213", "MEDICAL_RECORD", True),
    ("Nr karty pacjenta: 4821397", "4821397", "MEDICAL_RECORD", True),
    ("Mã bệnh nhân: BN48213977", "BN48213977", "MEDICAL_RECORD", True),
    ("病历号：4821397", "4821397", "MEDICAL_RECORD", True),
    ("№ медицинской карты 4821397", "4821397", "MEDICAL_RECORD", True),
    ("Hasta No: 48213977", "48213977", "MEDICAL_RECORD", True),
    ("válido hasta 122026 inclusive", "122026", "MEDICAL_RECORD", False),
    ("Número de documento: 30281947", "30281947", "NATIONAL_ID", True),
    ("Carnet de identidad: 48213977 LP", "48213977", "NATIONAL_ID", True),
    ("Личный номер: 4821937", "4821937", "NATIONAL_ID", True),
    ("TPIN: 1003847291", "1003847291", "NATIONAL_ID", True),
    ("Parent: Jean Essomba, CNI 114829375, tél.", "114829375", "NATIONAL_ID", True),
    ("TAJ szám: 123 456 789", "123 456 789", "NATIONAL_ID", True),
    ("Személyi igazolvány száma: 123456AB", "123456AB", "NATIONAL_ID", True),
    ("Číslo občianskeho preukazu: EA123456", "EA123456", "NATIONAL_ID", True),
    (
        "Juma Ali, namba ya kitambulisho 19880412345678",
        "19880412345678",
        "NATIONAL_ID",
        True,
    ),
    ("Matricule national: 1982 0412 345 10", "1982 0412 345 10", "NATIONAL_ID", True),
    # Labels written many ways: a space before the colon, "n.º", two
    # languages, a remark or a gloss in brackets, no colon at all.
    ("CNI : CI002345678", "CI002345678", "NATIONAL_ID", True),
    ("BI n.º: 110100123456B", "110100123456B", "NATIONAL_ID", True),
    (
        "Bilhete de Identidade n.º: 004567823LA041",
        "004567823LA041",
        "NATIONAL_ID",
        True,
    ),
    ("Bilhete de comboio n.º: 004567823LA041", "004567823LA041", "NATIONAL_ID", False),
    ("Civil No. / الرقم المدني: 10482736", "10482736", "NATIONAL_ID", True),
    ("رقم السجل (الهوية): 000418372951", "000418372951", "NATIONAL_ID", True),
    ("РМА (ИНН): 530418276", "530418276", "NATIONAL_ID", True),
    ("ООО «Ромашка», ИНН: 7707083893", "7707083893", "NATIONAL_ID", False),
    ("NID 2081047731, passport P0731852", "2081047731", "NATIONAL_ID", True),
    ("RUC 4512873-1, domiciliado en Encarnación", "4512873-1", "NATIONAL_ID", True),
    ("Ferretería Central S.A., RUC 80012345-6", "80012345-6", "NATIONAL_ID", False),
    ("Remitente: Yuleisy, RIF V-18734562-2", "V-18734562-2", "NATIONAL_ID", True),
    ("Omang No.: 583219016", "583219016", "NATIONAL_ID", True),
    (
        "Rentenversicherungsnummer: 15 170604 S 532",
        "15 170604 S 532",
        "NATIONAL_ID",
        True,
    ),
    ("patiëntnummer 00482715", "00482715", "MEDICAL_RECORD", True),
    ("Aantal patiënten: 00482715", "00482715", "MEDICAL_RECORD", False),
    # Letters and digits mixed, four digits or more, after an identity label.
    ("NID: X3T7M2K9. Redeem at any dealer", "X3T7M2K9", "NATIONAL_ID", True),
    ("Voucher: X3T7M2K9. Redeem at any dealer", "X3T7M2K9", "NATIONAL_ID", False),
    ("NID: XT7MK2K9A", "XT7MK2K9A", "NATIONAL_ID", False),
    # A passport's series letter, then its number.
    ("Шиносномаи шаҳрвандӣ: A 04718236", "A 04718236", "PASSPORT", True),
    # A label several countries share: the checked scheme decides values of
    # its own shape, the label any other ("DNI": Spain's, Honduras's).
    ("DNI 0501-1985-07734", "0501-1985-07734", "NATIONAL_ID", True),
    ("DNI: 48213967Y", "48213967Y", "NATIONAL_ID", False),
    ("Élève: Ngono Essomba, matricule 2026071234", "2026071234", "NATIONAL_ID", False),
    # Labels of things, businesses and accounts: their numbers stay.
    ("Staff ID: 48213977", "48213977", "NATIONAL_ID", False),
    ("Student ID: 2021004417", "2021004417", "NATIONAL_ID", False),
    ("Terminal ID 48213977", "48213977", "NATIONAL_ID", False),
    ("ID de transacción: 48213977", "48213977", "NATIONAL_ID", False),
    ("Kunden-ID: 48213977", "48213977", "NATIONAL_ID", False),
    ("ID сотрудника: 48213977", "48213977", "NATIONAL_ID", False),
    ("Player ID 48213977", "48213977", "NATIONAL_ID", False),
    ("Order ID: 48213977", "48213977", "NATIONAL_ID", False),
    ("Customer ID 4821937", "4821937", "NATIONAL_ID", False),
    ("Profile ID SS-7724019", "SS-7724019", "NATIONAL_ID", False),
    ("Harlow & Finch Ltd, Company No. 09214873", "09214873", "NATIONAL_ID", False),
    ("CVR 26143926", "26143926", "NATIONAL_ID", False),
    ("PMID 12345678 in the references", "12345678", "NATIONAL_ID", False),
    ("IMO no. 9321483 (MV Nordic Star)", "9321483", "NATIONAL_ID", False),
    ("CPU 4821397 cycles", "4821397", "NATIONAL_ID", False),
    ("Kunde: ABC GmbH, ZVR 48213977", "48213977", "NATIONAL_ID", False),
    ("FACTUUR 2026-0117", "2026-0117", "NATIONAL_ID", False),
    ("La línea del IMSS 800 623 2323 atiende", "800 623 2323", "NATIONAL_ID", False),
    ("ID: 5,200.00 paid", "5,200.00", "NATIONAL_ID", False),
    ("tax code 1257L W1/M1", "1257L W1/M1", "NATIONAL_ID", False),
    ("Tax year: 2025/2026", "2025/2026", "NATIONAL_ID", False),
    (
        "Tax period: 01.01.2025-31.12.2025",
        "01.01.2025-31.12.2025",
        "NATIONAL_ID",
        False,
    ),
]


@pytest.mark.parametrize(("text", "span", "kind", "expected"), LABELLED)
def test_when_a_label_names_a_persons_identity_then_its_value_is_found(
    text: str, span: str, kind: str, *, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


BIRTH_DATES = [
    # A birth word of more languages.
    ("Dijete: Amina Hodžić, rođena 25.11.2026 u 03:40", "25.11.2026", True),
    ("Né(e) le: 21/09/2012", "21/09/2012", True),
    ("Sürücü: Leyla Məmmədova, d.t. 14.06.2001", "14.06.2001", True),
    ("Дата рождения: 03.04.1987", "03.04.1987", True),
    ("Ημερομηνία γέννησης: 12/05/1979", "12/05/1979", True),
    ("Syntynyt 12.5.1980 Tampereella", "12.5.1980", True),
    ("Fecha nac.: 12/03/1985", "12/03/1985", True),
    ("Lahir: 12-03-1985", "12-03-1985", True),
    ("Birth: 12 March 1985", "12 March 1985", True),
    ("Data nașterii: 07.11.1984", "07.11.1984", True),
    ("תאריך לידה: 02/03/1990", "02/03/1990", True),
    ("Narozena 3. 5. 1991 v Brně", "3. 5. 1991", True),
    # A date in words, a possessor between, scripts glued to their marks.
    ("Nacido: 11 de enero de 1972", "11 de enero de 1972", True),
    ("née le 3 août 1961 à Lyon", "3 août 1961", True),
    ("Nacimiento del vendedor: 30/11/1969. Testigo: Lidia", "30/11/1969", True),
    ("Entrega del vendedor: 30/11/1969. Testigo: Lidia", "30/11/1969", False),
    ("Hugo Garrido (hijo), nacido 02/02/2015.", "02/02/2015", True),
    ("Санаи таваллуд: 12.07.1993", "12.07.1993", True),
    ("Санаи шартнома: 12.07.1993", "12.07.1993", False),
    ("မွေးသက္ကရာဇ် − ၁၄.၀၃.၂၀၁၀", "၁၄.၀၃.၂၀၁၀", True),
    # Later in the sentence that names a birth date: its first adult's date.
    (
        "Her date of birth on the manifest is wrong — it should be 19/06/1990, "
        "not 19/06/2019",
        "19/06/1990",
        True,
    ),
    (
        "Her date of birth on the manifest is wrong — it should be 19/06/1990, "
        "not 19/06/2019",
        "19/06/2019",
        False,
    ),
    ("The DOB field was added to the form on 12/03/2024", "12/03/2024", False),
    # The record's layout: a full date of an adult's year right after a name or ID.
    ("Majka: Lejla Hodžić, 14.03.1984, Sarajevo", "14.03.1984", True),
    ("Parent: Jean-Pierre Essomba, CNI 114829375 (02/07/1979)", "02/07/1979", True),
    ("Ana Souza,ana.souza@gmail.com,12/03/1985", "12/03/1985", True),
    ("Date de naiss. : 12/03/1985", "12/03/1985", True),
    ("Call 0412 883 071, 12/03/2026 at 9am", "12/03/2026", False),
    # An event's date stays: a verb between, a recent year, no one beside it.
    ("Patient Anna Kowalska admitted 12/03/1990", "12/03/1990", False),
    ("Majka: Lejla Hodžić, 14.03.2025, Sarajevo", "14.03.2025", False),
    ("Barack Obama was sworn in on January 20, 2009", "January 20, 2009", False),
    ("Delivery: 14.03.1984 to the warehouse", "14.03.1984", False),
]


REPLIES = [
    # A number sent alone right after a message asking for an ID.
    (
        "[08:17] Wanjiru: nipe ID yako nikujazie form ya chama\n"
        "[08:20] Otieno: 28471936.",
        "28471936",
        "NATIONAL_ID",
        True,
    ),
    ("Clerk: passport number please\nTom: 548213977", "548213977", "PASSPORT", True),
    ("Agent: what is your order ID?\nMe: 48213977", "48213977", "NATIONAL_ID", False),
    (
        "[10:08] Carpets: Ստացողի անձնագիրն ենք պետք\n"
        "[10:09] Nare: AT0654321, շնորհակալ",
        "AT0654321",
        "PASSPORT",
        True,
    ),
    (
        "[10:08] Carpets: order code?\n[10:09] Nare: AT0654321",
        "AT0654321",
        "PASSPORT",
        False,
    ),
    ("Ana: call me when you land\nBob: 48213977", "48213977", "NATIONAL_ID", False),
]


@pytest.mark.parametrize(("text", "span", "kind", "expected"), REPLIES)
def test_when_a_chat_answers_a_question_for_an_id_with_a_number_then_it_is_found(
    text: str, span: str, kind: str, *, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


@pytest.mark.parametrize(("text", "span", "expected"), BIRTH_DATES)
def test_when_a_birth_word_or_a_record_line_ties_a_date_to_a_person_then_it_is_a_dob(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "DATE_OF_BIRTH", span, expected=expected)


PLATES = [
    ("Vozidlo: Škoda Octavia 2.0 TDI, EČV KE-582MN, stav km 48 219", "KE-582MN", True),
    ("Όχημα Α: KNP 482 (Toyota Yaris 1.5)", "KNP 482", True),
    ("IL plate on car in background reads CV 48213", "CV 48213", True),
    ("Faktúra: KE-582MN, splatná do piatku", "KE-582MN", False),
    ("Plaka: 34 ABC 123", "34 ABC 123", True),
    ("Nomor polisi B 1234 XYZ", "B 1234 XYZ", True),
    ("车牌号：京A12345", "京A12345", True),
    ("Rejestracja: KR 4X123", "KR 4X123", True),
    ("Πινακίδα: ΙΚΒ 1234", "ΙΚΒ 1234", True),
    ("Registrační značka: 1AB 2345", "1AB 2345", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), PLATES)
def test_when_a_plate_stands_near_a_vehicle_word_of_any_language_then_it_is_found(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "LICENSE_PLATE", span, expected=expected)


PASSPORTS = [
    ("Otac: Tarik Hodžić, pasoš br. B4719302", "B4719302", True),
    ("جواز سفر رقم R492817", "R492817", True),
    ("Иван Петров, паспорт 4510 123456", "4510 123456", True),
    ("护照号码：E12345678", "E12345678", True),
    ("여권번호 M12345678", "M12345678", True),
    ("Útlevélszám: BA1234567", "BA1234567", True),
    ("Číslo cestovního pasu: 41234567", "41234567", True),
    ("מספר דרכון 31234567", "31234567", True),
    ("Otac: Tarik Hodžić, predmet br. B4719302", "B4719302", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), PASSPORTS)
def test_when_a_passport_word_of_any_language_names_a_number_then_it_is_found(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "PASSPORT", span, expected=expected)


NUMBERS_OF_ANY_COUNTRY = [
    # An IBAN of a country outside Presidio's table passes mod 97, labelled
    # or not; one digit off, it fails; an institution's account stays.
    (
        "Remboursement éventuel : CI41CI1140112039471826500573",
        "IBAN",
        "CI41CI1140112039471826500573",
        True,
    ),
    (
        "للدفع بالتحويل: LB340041000000013018274655",
        "IBAN",
        "LB340041000000013018274655",
        True,
    ),
    (
        "Pay to LB340041000000013018274656 today",
        "IBAN",
        "LB340041000000013018274656",
        False,
    ),
    (
        "virement: SN08 SN01 0015 2000 0485 0000 3035.",
        "IBAN",
        "SN08 SN01 0015 2000 0485 0000 3035",
        True,
    ),
    (
        "Taxa: depósito na conta da Administração MZ70000301080213549601072",
        "IBAN",
        "MZ70000301080213549601072",
        False,
    ),
    # A phone grouped as its country prints a mobile (Japan's 090-…), not
    # as a premium line is; a Spanish current account.
    ("緊急連絡先：宮坂 浩司（父）090-6218-4457", "PHONE", "090-6218-4457", True),
    ("Premium line 09062 184457 for votes", "PHONE", "09062 184457", False),
    (
        "Banco de Venezuela, cta. corriente 0102-0488-61-0001937526",
        "BANK_ACCOUNT",
        "0102-0488-61-0001937526",
        True,
    ),
    ("cta. corriente 2026, ejercicio cerrado", "BANK_ACCOUNT", "2026", False),
    # A log line's client, after the line's number; a private one stays.
    (
        '4410 198.51.100.23 - - [07/Mar/2026:22:14:03 +1200] "GET / HTTP/1.1" 200',
        "IP_ADDRESS",
        "198.51.100.23",
        True,
    ),
    (
        '4411 10.0.4.17 - - [07/Mar/2026:22:14:09 +1200] "GET / HTTP/1.1" 200',
        "IP_ADDRESS",
        "10.0.4.17",
        False,
    ),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), NUMBERS_OF_ANY_COUNTRY)
def test_when_a_number_is_written_as_its_country_writes_it_then_it_is_found(
    text: str, kind: str, span: str, *, expected: bool
) -> None:
    check(text, kind, span, expected=expected)
