"""Identifiers told by the structure around them, in texts of any language.

Each table pairs a find with a counter-case: an organization's line in a
heading or beside its name stays while a person's number beside theirs
goes; a role mailbox stays while a person's address goes.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers
from anonygraph.identifiers.recognizers.name_checks import common_words_only


def values(text: str) -> list[str]:
    """Return the text of every identifier found in ``text``."""
    return [i.text for i in find_identifiers(text)]


ORG_LINES = [
    # The heading of a letter or receipt: the organization's line.
    (
        "Rīgas Centrālā bibliotēka (filiāle), tālr. 67 037 700\nCien. Laura Bērziņa,",
        "67 037 700",
        False,
    ),
    (
        "محل الذهبي للرهونات، عمّان (هاتف المحل 06 465 9900)\nالراهن: خالد الزعبي",
        "06 465 9900",
        False,
    ),
    # A first line that is a record, not a heading: its number is a person's.
    (
        "placed by cust_id=C44 phone=+91-99001-23456 from 2405:201:c00b:41e7::1a\n"
        "retry 3/5",
        "+91-99001-23456",
        True,
    ),
    ("Call me on 0722 418 905 tonight\nThanks, Dana", "0722 418 905", True),
    # An organization's name in the number's clause.
    (
        "Note: the Residential Tenancies Board can be reached on 0818 303 037.",
        "0818 303 037",
        False,
    ),
    (
        "obveščamo vas o pregledu v Zobni ambulanti Bled (tel. 04 574 11 20).",
        "04 574 11 20",
        False,
    ),
    ("GP: Dr Rhodri Bevan, Taff Vale Surgery 01443 400 512", "01443 400 512", False),
    # A person named in the clause gives their own number.
    (
        "To appeal, call Bill Harrow (board secretary) at (512) 555-0139.",
        "(512) 555-0139",
        True,
    ),
    ("Kontakt klinik: Elira Gjoka 069 482 7731", "069 482 7731", True),
    ("Clinic visit booked. Mobile 0423 555 642.", "0423 555 642", True),
    # A letterhead's own address beside its line.
    (
        "APOTHEEK DE LINDE - Kerkplein 4, 2018 Antwerpen - 03 216 44 80\n"
        "Patiënt: Wouter Vandenbroucke",
        "03 216 44 80",
        False,
    ),
    # An organization's account named before it; the reader's account stays
    # a person's, and a bank's name is where a person keeps theirs.
    (
        "Fees: $120. Pay to club a/c 38-9014-0427915-00 ref NGATA",
        "38-9014-0427915-00",
        False,
    ),
    (
        "To complete the set-up please confirm your National Insurance number and "
        "bank details: sort code 20-45-77, account 43917285.",
        "43917285",
        True,
    ),
    ("Bank: Zanaco, account 0874 2215 3301, branch Chingola", "0874 2215 3301", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), ORG_LINES)
def test_when_a_number_stands_in_a_heading_or_beside_an_organization_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert (span in values(text)) is expected, values(text)


MAILBOXES = [
    ("Appeals: appeals@swapnest.example.com", "appeals@swapnest.example.com", False),
    (
        "escríbanme a socios@ramblafit.example.com.uy",
        "socios@ramblafit.example.com.uy",
        False,
    ),
    ("Félagið: stormur@stormur.example.is", "stormur@stormur.example.is", False),
    # A person's: a name at either end of the local part, initials aside.
    ("Email: rwhitfield@lakeviewschools.org", "rwhitfield@lakeviewschools.org", True),
    ("correo evargasm@gmail.com", "evargasm@gmail.com", True),
    ("mail me: lipecastro@gmail.com", "lipecastro@gmail.com", True),
    (
        "reach me at priya@ramanaccounting.example.com.au",
        "priya@ramanaccounting.example.com.au",
        True,
    ),
    ("email: mdw@delacroixwebb.net", "mdw@delacroixwebb.net", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), MAILBOXES)
def test_when_a_mailbox_is_one_word_no_one_carries_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert (span in values(text)) is expected, values(text)


def persons(text: str) -> list[str]:
    """Return the text of every PERSON found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


NOT_PERSONS = [
    # A word capitalized because it opens its sentence, no one's name.
    ("Your mobile: 012-338 9461.\nSalary will be credited on Friday.", "Salary"),
    ("Quiet household. Landlord is Deshawn Pruitt, call 0722 418 905", "Landlord"),
    # A name an organization noun heads, in any language.
    (
        "Asunto: Baja de socio - Gimnasio Rambla Fit\nHola, soy Flor.",
        "Gimnasio Rambla Fit",
    ),
    (
        "Rīgas Centrālā bibliotēka, tālr. 67 037 700\nCien. Laura Bērziņa,",
        "Rīgas Centrālā",
    ),
    (
        "Banque du Cap Bon - Avis de virement\nCompte: TN59 1000 6035 1835 9847 8831",
        "Cap Bon",
    ),
    # A verb or a particle after a greeting; a party's letter.
    ("Hola, soy Florencia Techera, socia nº 20931.", "soy"),
    ("soy milk is 2 euros", "milk"),
    ("GET /api/v2/invoices/100482 -> returns invoice of tenant B\nLeaked", "B"),
]


@pytest.mark.parametrize(("text", "span"), NOT_PERSONS)
def test_when_the_structure_says_a_word_names_no_one_then_it_is_no_person(
    text: str, span: str
) -> None:
    assert span not in persons(text)


STILL_PERSONS = [
    ("Hola, soy Florencia Techera, socia nº 20931.", "Florencia Techera"),
    ("Hola! Soy Marta, llámame al 0722 418 905", "Marta"),
    ("Rose said she would call. Call 0722 418 905", "Rose"),
    ("hey priya, call 0722 418 905", "priya"),
    # A title or a person's label opens the line: a person, not an address.
    (
        "Address: 14 Kowhai Street, Ōtaki 5512\n"
        "Partner at same address: Will Mitchell.",
        "Will Mitchell",
    ),
    ("Police n° HAB-2027\nPreneur: M. Luc Wagner-Schmit\n", "M. Luc Wagner-Schmit"),
    # An account between an address label and the name: its holder's name.
    (
        "Preneur: M. Luc Wagner-Schmit\n"
        "Domiciliation: LU28 0019 4006 4475 0000, titulaire Luc Wagner-Schmit",
        "Luc Wagner-Schmit",
    ),
]


@pytest.mark.parametrize(("text", "span"), STILL_PERSONS)
def test_when_a_name_stands_beside_such_words_then_it_is_still_a_person(
    text: str, span: str
) -> None:
    assert span in persons(text)


TOPICS = [
    # A public figure's work or feat: the name is a topic, and stays.
    (
        "Icing: 500 g sugar.\nInspired by Maggie Beer's version, though she'd "
        "add jam. Stall: $2.50. Card 4539 1488 0343 6111",
        "Maggie Beer",
        False,
    ),
    (
        "From 054-771-2083: thanks. you going to the Noa Kirel show? invoice 20417",
        "Noa Kirel",
        False,
    ),
    (
        "Mail 49 Rue X, call 0722 418 905.\nKeynote by Greta Thunberg cancelled",
        "Greta Thunberg",
        False,
    ),
    (
        "Room 2: https://github.com/sdelacroix\nKeynote: Guido van Rossum (remote)"
        " - contact via events@pydata.org",
        "Guido van Rossum",
        False,
    ),
    # A work "of" the name, or a public feat said of it.
    (
        "Email: sonam@mail.example.bt\nBook club topic for April: the novels of "
        "Kunzang Dorji and how we read.",
        "Kunzang Dorji",
        False,
    ),
    (
        "Email: sonam@mail.example.bt\nBook club topic for April: the friends of "
        "Kunzang Dorji and how we read.",
        "Kunzang Dorji",
        True,
    ),
    (
        "Mobile: 1 (868) 734-2219\nRoad march favourite this year? The section "
        "leader swears Machel Montano wins again.",
        "Machel Montano",
        False,
    ),
    (
        "Wanjiru: mine is +254 711 602 348. don't be late, Eliud Kipchoge would "
        "finish a marathon in the time you're texting lol",
        "Eliud Kipchoge",
        False,
    ),
    # A feat said of someone the writer knows, or of a name said again.
    (
        "Call 0412 555 019.\nMy cousin Tom Hale won the raffle last week.",
        "Tom Hale",
        True,
    ),
    (
        "Call 0412 555 019.\nThe section leader says Tom Hale wins again. Tom "
        "Hale lives next door.",
        "Tom Hale",
        True,
    ),
    # A private person beside an identifier, or a verb after the name.
    ("Jane Smith works at the bank, call 0722 418 905", "Jane Smith", True),
    ("Priya Sharma's phone is 0722 418 905", "Priya Sharma", True),
    (
        "Client dinner with Harriet Ashworth, £74.25, card 4539 1488 0343 6111",
        "Harriet Ashworth",
        True,
    ),
]


@pytest.mark.parametrize(("text", "name", "expected"), TOPICS)
def test_when_a_name_stands_for_a_public_figures_work_then_it_stays(
    text: str, name: str, expected: bool
) -> None:
    assert any(name in p for p in persons(text)) is expected, persons(text)


MORE_PERSONS = [
    # A hyphenated given name before a found surname is the same person's.
    (
        "Élève: Ngono Marie-Claire Essomba\nParent: Jean-Pierre Essomba, tél. 6775218",
        "Jean-Pierre Essomba",
    ),
    # A label, a name in another script, and the person's ID or phone after it.
    (
        "ΔΗΛΩΣΗ\nΟδηγός Α: Ανδρέας Χαραλάμπους, ΑΔΤ 0981734, τηλ. 99 618 247",
        "Ανδρέας Χαραλάμπους",
    ),
    ("x\nკლიენტი: ნინო ბერიძე, პირადი ნომერი 01024087316", "ნინო ბერიძე"),
    ("x\nНөхөр: Энхбаярын Төмөрбаатар (утас 8808 2741)", "Энхбаярын Төмөрбаатар"),
    (
        "x\nالعميل: فاطمة عبدالله العنزي، الرقم المدني 291051203628",
        "فاطمة عبدالله العنزي",
    ),
    ("Tarix: 11.03.2026\nSürücü: Leyla Məmmədova, FİN 5ZK8R2M", "Leyla Məmmədova"),
    # A second name that "&", "and" or "+" joins to a person's.
    (
        "Household: Tenzin Dolma & Karma Wangchuk (2 adults)\nPhone: 416-555-0138",
        "Karma Wangchuk",
    ),
]


@pytest.mark.parametrize(("text", "span"), MORE_PERSONS)
def test_when_a_label_or_a_coordinator_presents_a_name_then_it_is_a_person(
    text: str, span: str
) -> None:
    assert span in persons(text)


MORE_NOT_PERSONS = [
    # A place: a lowercase word, or no ID on its line.
    (
        "Хаяг: Баянзүрх дүүрэг, 26-р хороо, 42 тоот, Улаанбаатар 13381",
        "Баянзүрх дүүрэг",
    ),
    ("Банк: Сбербанк России, БИК 044525225", "Сбербанк России"),
    # What "&" joins to a name is a firm's word, or a verb opens the run.
    ("Call John Smith & Sons on 0722 418 905", "Sons"),
    ("Call John Smith & Sons on 0722 418 905", "Call John Smith"),
]


@pytest.mark.parametrize(("text", "span"), MORE_NOT_PERSONS)
def test_when_the_run_is_a_place_or_a_firms_word_then_it_is_no_person(
    text: str, span: str
) -> None:
    assert span not in persons(text)


TITLED_AND_LOWERCASE = [
    # A short title's abbreviation before a name Faker lists, in any language.
    ("GSM 041 628 903.\nLep pozdrav, dr. Petra Zupančič", "Petra Zupančič", True),
    ("Spoštovani g. Matej Novak,\nGSM 041 628 903.", "Matej Novak", True),
    (
        "Borrower: Ma. Cristina Dela Cruz-Villanueva\nMobile: 0917 482 3361",
        "Cristina Dela Cruz-Villanueva",
        True,
    ),
    ("Upload to e.g. Google Drive, card 4539 1488 0343 6111", "Google Drive", False),
    # A chat writes a found name in lowercase; "will" stays a word.
    (
        "[10:02] Anfitrión Ramón: Hola!\n[10:05] yesenia.m: gracias ramón!!",
        "ramón",
        True,
    ),
    ("Will Okafor called from 0722 418 905, he will call again", "will", False),
    # Only a name a cue presented: the model's misreading stays in capitals.
    (
        "Pashupati Sewa Samiti - roster\nQuestions: samiti office 01-4471122",
        "samiti",
        False,
    ),
    # A lowercase particle joins a mention only after a capitalized word.
    (
        "1. Giulia Bianchi + Marco Ferri - sì, 2 adulti - +39 347 218 5501\n"
        "Serve il CF di Giulia per il voucher: BNCGLI90A41H501X",
        "Giulia",
        True,
    ),
    (
        "1. Giulia Bianchi + Marco Ferri - sì, 2 adulti - +39 347 218 5501\n"
        "Serve il CF di Giulia per il voucher: BNCGLI90A41H501X",
        "di Giulia",
        False,
    ),
    # A title a label found and a mention of the surname are one name.
    (
        "Name: Dr. Kavya Raghunathan\nFather: Shri R. Raghunathan, mobile 98401 27735",
        "Shri R. Raghunathan",
        True,
    ),
    # A script without case: its first word must be a name Faker lists.
    (
        "x\nالعميل: إذا كان فيه استرداد، الحساب KW74 NBOK 0000 0000 0000 1000 3721 51",
        "إذا كان فيه استرداد",
        False,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), TITLED_AND_LOWERCASE)
def test_when_a_title_or_a_chats_lowercase_presents_a_name_then_it_is_found(
    text: str, span: str, expected: bool
) -> None:
    assert (span in persons(text)) is expected, persons(text)


CASELESS = [
    # The model's find in a script without capitals: a Faker name opens it.
    (
        "محادثة دعم - متجر الخليج (الخط الساخن 1888 555)\nهاتف 9663 8142",
        "محادثة دعم",
        False,
    ),
    ("المرهون: سوار ذهب عيار 21\nالهاتف: 079 614 2283", "سوار ذهب", False),
    ("الراهن: خالد محمود الزعبي\nالهاتف: 079 614 2283", "خالد محمود الزعبي", True),
    # A chat's speaker that is one Arabic word with its article is a role.
    ("العميل: السلام عليكم\nالموظف: وعليكم السلام\nالعميل: شكرا", "العميل", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), CASELESS)
def test_when_a_script_has_no_capitals_then_a_listed_name_must_open_the_find(
    text: str, span: str, expected: bool
) -> None:
    assert (span in persons(text)) is expected, persons(text)


RUNS = [
    ("Expressions Hybrid", True),
    ("de Comunicación", True),
    ("Rose Hope", False),
    ("Priya Sharma", False),
    ("da Silva Santos", False),
]


@pytest.mark.parametrize(("value", "expected"), RUNS)
def test_when_every_word_is_one_no_one_carries_then_the_run_names_no_one(
    value: str, expected: bool
) -> None:
    assert common_words_only(value) is expected
