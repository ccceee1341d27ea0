"""Each identifier kind's formats and contexts, each with a look-alike that stays.

One table per kind: a text, whether the span is that kind's identifier
(True) or a look-alike the detector must leave alone (False), and the span.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import IdentifierBook, find_identifiers


def kinds_of(text: str, span: str) -> set[str]:
    """Return the kinds found exactly on ``span`` in ``text``."""
    return {i.kind for i in find_identifiers(text) if i.text == span}


def check(text: str, kind: str, span: str, *, expected: bool) -> None:
    assert span in text
    if expected:
        assert kind in kinds_of(text, span)
    else:
        found = [(i.kind, i.text) for i in find_identifiers(text)]
        assert not any(span in t or t in span for k, t in found if k == kind), found


URLS = [
    (
        "The album is at https://photos.example.com/share/Zx8KpQ2mTb",
        True,
        "https://photos.example.com/share/Zx8KpQ2mTb",
    ),
    (
        "doc: docs.example.org/d/1bC9xYq3LmN0/edit",
        True,
        "docs.example.org/d/1bC9xYq3LmN0/edit",
    ),
    (
        "see my shop forum.example.net/members/kettle_queen99",
        True,
        "forum.example.net/members/kettle_queen99",
    ),
    ("my page is social.example.org/@rosa_b", True, "social.example.org/@rosa_b"),
    (
        "old homepage: university.example.edu/~jmorales",
        True,
        "university.example.edu/~jmorales",
    ),
    (
        "I post my ride logs at rides.vanessa-kraft.net/2024/alps",
        True,
        "rides.vanessa-kraft.net/2024/alps",
    ),
    (
        "File bugs at https://gitlab.com/example-group/tool/-/issues please",
        False,
        "https://gitlab.com/example-group/tool/-/issues",
    ),
    (
        "Releases: github.com/example-org/app/releases",
        False,
        "github.com/example-org/app/releases",
    ),
    (
        "Read the FAQ at shop.example.com/help/returns",
        False,
        "shop.example.com/help/returns",
    ),
    (
        "webhook url=https://hooks.example.io/t/a7c2 ok",
        False,
        "https://hooks.example.io/t/a7c2",
    ),
    ("I ordered it from bigstore.example.com last week", False, "bigstore.example.com"),
    (
        "my fave song youtube.com/watch?v=Zq3LmN8xPwA lol",
        False,
        "youtube.com/watch?v=Zq3LmN8xPwA",
    ),
    (
        "I found my answer at stackoverflow.com/questions/4471/regex",
        False,
        "stackoverflow.com/questions/4471/regex",
    ),
]


@pytest.mark.parametrize(("text", "expected", "span"), URLS)
def test_when_a_url_is_a_persons_then_it_is_found_and_an_orgs_stays(
    text: str, expected: bool, span: str
) -> None:
    check(text, "URL", span, expected=expected)


MEDICAL_RECORDS = [
    ("Patient MRN 20931187 seen today", True, "20931187"),
    ("URN: 5520148 (ward 4)", True, "5520148"),
    ("UHID KMC0091845 for the bill", True, "KMC0091845"),
    ("Hospital No. H-773021, bed 12", True, "H-773021"),
    ("OP No. OP/23/8812 at the desk", True, "OP/23/8812"),
    ("ERROR lab sync patient_mrn=QA-550193 timeout", True, "QA-550193"),
    ("Clinic record # CR88120", True, "CR88120"),
    ("We broke the record number 3021 at the race", False, "3021"),
    ("Hospital wing 4 has 2200 beds", False, "2200"),
    ("the clinic opened in 1998", False, "1998"),
]


@pytest.mark.parametrize(("text", "expected", "span"), MEDICAL_RECORDS)
def test_when_a_number_is_named_a_medical_record_then_it_is_found(
    text: str, expected: bool, span: str
) -> None:
    check(text, "MEDICAL_RECORD", span, expected=expected)


PASSPORTS = [
    ("My passport number is 498172635.", True, "498172635"),
    ("Reisepass-Nr.: CFGH47R21 gültig", True, "CFGH47R21"),
    ("pasaporte mexicano G28817734 vigente", True, "G28817734"),
    ("passport (IE) no. PA1234567", True, "PA1234567"),
    ("Indian passport: K7719203", True, "K7719203"),
    ("passport photos cost 12 euros", False, "12"),
    ("Passport renewal takes 10 weeks", False, "10"),
    ("the Passport Office is at 4 Main St", False, "4"),
]


@pytest.mark.parametrize(("text", "expected", "span"), PASSPORTS)
def test_when_a_passport_number_follows_its_cue_then_it_is_found(
    text: str, expected: bool, span: str
) -> None:
    check(text, "PASSPORT", span, expected=expected)


CARDS = [
    ("visa 4111 1111 1111 1111 declined", True, "4111 1111 1111 1111"),
    ("mc 5555-5555-5555-4444 ok", True, "5555-5555-5555-4444"),
    ("new mastercard 2223 0031 2200 3222", True, "2223 0031 2200 3222"),
    ("amex 3782 822463 10005 expired", True, "3782 822463 10005"),
    ("diners 3056 930902 5904 on file", True, "3056 930902 5904"),
    ("export_6011111111111117.csv failed", True, "6011111111111117"),
    ("invoice 4111111111111111 is paid", False, "4111111111111111"),
    ("event id 1712345678901234 logged", False, "1712345678901234"),
    ("card 4111 1111 1111 1121 (mistyped)", False, "4111 1111 1111 1121"),
]


@pytest.mark.parametrize(("text", "expected", "span"), CARDS)
def test_when_a_card_number_is_luhn_valid_in_any_grouping_then_it_is_found(
    text: str, expected: bool, span: str
) -> None:
    check(text, "CARD", span, expected=expected)


BIRTH_DATES = [
    ("D.O.B.: 14 Sep 1978", True, "14 Sep 1978"),
    ("dob=1991-11-02 status=ok", True, "1991-11-02"),
    ("Date of birth (dd/mm/yyyy): 09/10/1984", True, "09/10/1984"),
    ("born on the 3rd of May 1990", True, "3rd of May 1990"),
    ("delivered on the 3rd of May 1990", False, "3rd of May 1990"),
    ("She was born 3rd May, 1990 in Cork", True, "3rd May, 1990"),
    ("Born: Jan-05-1969", True, "Jan-05-1969"),
    ("geb. 7. März 1955 in Ulm", True, "7. März 1955"),
    ("né le 12 février 1971 à Paris", True, "12 février 1971"),
    ("fecha de nacimiento 04/07/2001", True, "04/07/2001"),
    ("The invoice date is 14 Sep 1978", False, "14 Sep 1978"),
    ("release on 2025-11-02 confirmed", False, "2025-11-02"),
]


@pytest.mark.parametrize(("text", "expected", "span"), BIRTH_DATES)
def test_when_the_text_says_a_date_is_a_birth_date_then_it_is_found(
    text: str, expected: bool, span: str
) -> None:
    check(text, "DATE_OF_BIRTH", span, expected=expected)


POSTCODES = [
    ("12 Chemin des Vignes, 13100, merci", True, "13100"),
    ("7th cross, 2nd main, Indiranagar 2nd stage, 560038.", True, "560038"),
    ("Rua das Flores 88, 01310-100)", True, "01310-100"),
    ("We sold 40 units, 5000 in total.", False, "5000"),
    ("Room 4, 2020 was a hard year.", False, "2020"),
    ("Visit our Bristol showroom: 9 Quay Street, Bristol BS1 4DZ.", False, "BS1 4DZ"),
    ("We moved: 9 Quay Street, Bristol BS1 4DZ.", True, "BS1 4DZ"),
]


@pytest.mark.parametrize(("text", "expected", "span"), POSTCODES)
def test_when_a_number_closes_an_address_then_it_is_a_postcode(
    text: str, expected: bool, span: str
) -> None:
    check(text, "POSTCODE", span, expected=expected)


ADDRESSES = [
    ("Our address changed to 77 W Fulton Ave, Denver.", True, "77 W Fulton Ave"),
    ("Our new clinic address: 77 W Fulton Ave, Denver.", False, "77 W Fulton Ave"),
    ("Drove down Route 66 in Tulsa", False, "Route 66"),
]


@pytest.mark.parametrize(("text", "expected", "span"), ADDRESSES)
def test_when_a_street_address_is_a_persons_then_it_is_found(
    text: str, expected: bool, span: str
) -> None:
    check(text, "ADDRESS", span, expected=expected)


HANDLES = [
    ("sshd: Accepted password for jbarros from 203.0.113.9 port 2201", True, "jbarros"),
    ("waiting for approval from 10am to noon", False, "approval"),
    ('open("/home/okafor_n/notes/todo.txt")', True, "okafor_n"),
    ("cp /home/shared/data.csv .", False, "shared"),
    ("event=delete by=staff:rlindqvist ok", True, "rlindqvist"),
    ("my steam id is frosty_fox_88 add me", True, "frosty_fox_88"),
    ("your order id is zx_55120 for tracking", False, "zx_55120"),
    ("ping me on discord, moonbeam#0921", True, "moonbeam#0921"),
    ("see issue#4471 and PR#120", False, "issue#4471"),
    ('"GET /profile/epeli.nakau HTTP/1.1" 200', True, "epeli.nakau"),
    ('"GET /users/v2.1 HTTP/1.1" 200', False, "v2.1"),
]


@pytest.mark.parametrize(("text", "expected", "span"), HANDLES)
def test_when_a_user_name_is_marked_as_one_then_it_is_a_handle(
    text: str, expected: bool, span: str
) -> None:
    check(text, "HANDLE", span, expected=expected)


PLATES = [
    ("my car 6TRJ244 got a ticket", True, "6TRJ244"),
    ("the van with plate changed to 4XK 791 again", True, "4XK 791"),
    ("scooter DL 3C AB 1234 parked outside", True, "DL 3C AB 1234"),
    ("bike MH 02 CD 5678 was towed", True, "MH 02 CD 5678"),
    ("SKU KT-GX500-R is out of stock", False, "GX500"),
    ("my car charger is model MP3000X", False, "MP3000X"),
    ("my car smells of COVID19 disinfectant", False, "COVID19"),
    ("the part AB12X7 ships today", False, "AB12X7"),
]


@pytest.mark.parametrize(("text", "expected", "span"), PLATES)
def test_when_a_plate_stands_near_a_vehicle_then_it_is_found(
    text: str, expected: bool, span: str
) -> None:
    check(text, "LICENSE_PLATE", span, expected=expected)


PERSONS = [
    (
        "Escalation owner: Naomi Achterberg <n.achterberg@mail.example>",
        True,
        "Naomi Achterberg",
    ),
    ("Sunny Okoro here, about my refund", True, "Sunny Okoro"),
    ("Viewing on Sunday, ask for Grant.", True, "Grant"),
    (
        "Dear Ms Oyelaran,\nthanks.\n\nBabatunde Oyelaran replied:",
        True,
        "Babatunde Oyelaran",
    ),
    ("She's such a Geordie, honestly.", False, "Geordie"),
    ("I am Irish, born in Cork.", False, "Irish"),
    ("Best,\nMin-jun Park (박민준)", True, "박민준"),
    ("I'm petrified of spiders tbh", False, "petrified"),
    ("hi im tanvi and i need a flat", True, "tanvi"),
    ("Wah lau eh, so hot today.", False, "Wah"),
    ("Hello World, contact Customer Support.", False, "World"),
    ("All set for Friday.\n– Marisol", True, "Marisol"),
    ("CURRICULUM VITAE — Oksana Lytvyn\nKyiv", True, "Oksana Lytvyn"),
    ("Referred by Dr J. Abernethy, Elm Surgery.", True, "Dr J. Abernethy"),
    (
        "Ticket 4410 | Raised by Oyinkansola Adebayo-Smith | Mobile 07700 900555",
        True,
        "Oyinkansola Adebayo-Smith",
    ),
    ("Report written by Quality Assurance Team.", False, "Quality Assurance Team"),
    ("We read 'Darwin, Wallace and Mendel' in class.", False, "Wallace"),
    ("Spare toner: Uncle DK-1150 cartridge", False, "DK"),
]


@pytest.mark.parametrize(("text", "expected", "span"), PERSONS)
def test_when_a_word_is_in_a_persons_role_then_it_is_a_name_and_otherwise_not(
    text: str, expected: bool, span: str
) -> None:
    check(text, "PERSON", span, expected=expected)


LOOKALIKES = [
    (
        "PHONE",
        "Ring the Harbourside Dental Practice, (503) 555-0142, for slots.",
        "(503) 555-0142",
    ),
    ("PHONE", "The council said ring 0345 600 1234 for bins.", "0345 600 1234"),
    ("PHONE", "wire it (routing 011000015) today", "011000015"),
    ("PHONE", "parcel code YT 55 210 448 3CN arrives", "55 210 448"),
    ("BANK_ACCOUNT", "sort code 30-94-12 at the branch", "30-94-12"),
]


@pytest.mark.parametrize(("kind", "text", "span"), LOOKALIKES)
def test_when_a_number_is_an_organizations_or_a_code_then_it_stays(
    kind: str, text: str, span: str
) -> None:
    check(text, kind, span, expected=False)


def test_when_a_lookalike_sku_ends_in_a_letter_then_the_replacement_keeps_it() -> None:
    text = "router SKU QX-BR2200-W arrived dead"
    assert IdentifierBook("placeholder").replace(text) == text


def test_when_the_same_text_is_checked_again_then_it_is_not_analysed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from anonygraph.identifiers import detect

    calls: list[str] = []
    real = detect.analyzer

    def counting(parse: object = None) -> object:
        calls.append("analyse")
        return real(parse)  # type: ignore[arg-type]

    monkeypatch.setattr(detect, "analyzer", counting)
    text = "Memo check: ring Ottoline Brisby on 07700 900871 tonight."
    first = find_identifiers(text)
    first.clear()  # a caller's list is its own: the memo keeps its copy
    second = find_identifiers(text)

    assert calls == ["analyse"]
    assert ("PHONE", "07700 900871") in [(i.kind, i.text) for i in second]


def test_when_a_known_name_is_mentioned_after_its_cue_then_the_cue_stays() -> None:
    text = "Ask Tomasz Lis (he/him) about keys, 07700 900113. Lis has them."
    names = [i.text for i in find_identifiers(text) if i.kind == "PERSON"]

    assert "Tomasz Lis" in names
    assert not any("Ask" in n for n in names)


def spans_of(text: str, kind: str) -> list[str]:
    """Return the spans of one kind found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == kind]


LABELLED_NUMBERS = [
    # The label names an identifier other than a phone: never a phone.
    ("Identity no: 8801235111088   Race: n/a", "8801235111088", "NATIONAL_ID"),
    ("Member ID number: 4410 2287 9931", "4410 2287 9931", "NATIONAL_ID"),
    ("REGON: 192837465 | tel. below", "192837465", None),
    ("Folio: 00931457 (keep for the appeal)", "00931457", None),
    ("Ordernummer 3318-402-557 komt morgen", "3318-402-557", None),
    ("HKID 9920447188 copied", "9920447188", None),
    ("Ravi: 55018243 is the code for the gate", "55018243", None),
    ("Her pension ref is 12-004417729-3 ok", "12-004417729-3", None),
    # Counter-cases: a phone label, or a phone written like one, stays a phone.
    ("Mobile: 0412 555 019", "0412 555 019", "PHONE"),
    ("Kontakt: +49 151 2345 6789", "+49 151 2345 6789", "PHONE"),
    ("Anita: 07700 900123 is my new one", "07700 900123", "PHONE"),
    ("my new number is 07700 900412", "07700 900412", "PHONE"),
]


@pytest.mark.parametrize(("text", "span", "kind"), LABELLED_NUMBERS)
def test_when_a_label_names_a_number_then_the_label_decides_its_kind(
    text: str, span: str, kind: str | None
) -> None:
    if kind is not None:
        assert kind in kinds_of(text, span)
    if kind != "PHONE":
        assert not any(span in t or t in span for t in spans_of(text, "PHONE"))


PERSON_FIELDS = [
    # A name ends where its field does, and a label is nobody.
    ("Name: Ingrid Solberg    Fødselsdato: 03.04.1988", "Ingrid Solberg", True),
    ("Insured: Kofi Boateng   Policy: P-22", "Kofi Boateng", True),
    ('event=login name="Lena Fischer" ok=1', "Lena Fischer", True),
    ("Father's name: K. Raghavan Nair\nCity: Kochi", "K. Raghavan Nair", True),
    ("Spouse: Tomasz Wróbel", "Tomasz Wróbel", True),
    ("Payable t.n.v. J. van der Berg, o.v.v. ref", "J. van der Berg", True),
    # Counter-cases.
    ("More pictures: https://example.org/flat", "More pictures", False),
    ("Cohort: Group C, 2020", "Group C", False),
    ("Aan: Brouwer Techniek B.V., afdeling inkoop", "Brouwer Techniek", False),
    ("CLINIC SUMMARY - LAB RESULTS\nPatient: Rosa Lind", "LAB", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), PERSON_FIELDS)
def test_when_a_name_stands_in_a_field_then_it_ends_with_the_field(
    text: str, span: str, expected: bool
) -> None:
    check(text, "PERSON", span, expected=expected)


CHAT_SPEAKERS = [
    ("[7:15 AM] Amara: are you coming\n[7:16 AM] Kwame: yes", "Amara", True),
    (
        "[19:02, 3/4/2026] tito ben: dala mo na\n[19:03, 3/4/2026] ana: oo",
        "tito ben",
        True,
    ),
    ("Ines: hello there\nTeo: hi\nInes: ok then", "Teo", True),
    # Counter-case: a form's labels each stand once.
    ("Name: Ana Ruiz\nCity: Lisbon\nPhone: +351 912 345 678", "City", False),
    # Counter-cases: labels repeated among lines that open with none.
    (
        "commit 1a2b3c\nAuthor: Ola Berg <ola@x.example>\nDate:   Mon Jan 5\n\n"
        "    tidy imports\n\ncommit 4d5e6f\nAuthor: Ola Berg <ola@x.example>\n"
        "Date:   Sun Jan 4\n\n    first cut",
        "Author",
        False,
    ),
    (
        "jobs:\n  - name: nightly\n    image: base:1.2\n  - name: weekly\n"
        "    image: base:1.3\n    retries: 2",
        "image",
        False,
    ),
    (
        "Item: Oak shelf, £40\nItem: Brass hook, £6\nDelivery: Friday 9-11\n"
        "Thank you for shopping with us.\nReturns within 30 days.",
        "Item",
        False,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), CHAT_SPEAKERS)
def test_when_a_chat_line_opens_with_a_speaker_then_the_speaker_is_a_name(
    text: str, span: str, expected: bool
) -> None:
    check(text, "PERSON", span, expected=expected)


ADDRESS_PLACES = [
    # Building, estate and locality names in an address are the address's.
    ("Home: Flat 9, Lotus Enclave, Ring Road, Pune 411001", "Lotus Enclave", False),
    ("Visit at Pen y Bryn, 3 Heol Las, Cardiff CF5 1AA", "Pen y Bryn", False),
    ("Deliver to: Ana Silva, 3/5 Wattle St, Geelong VIC 3220", "Geelong", False),
    ("Addr: Unit 5, Tower B, Maple Residences, Sta. Cruz St., Manila", "Cruz", False),
    # Counter-case: the person the parcel goes to is still a person.
    ("Deliver to: Ana Silva, 3/5 Wattle St, Geelong VIC 3220", "Ana Silva", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), ADDRESS_PLACES)
def test_when_a_place_name_stands_in_an_address_then_it_is_no_person(
    text: str, span: str, expected: bool
) -> None:
    check(text, "PERSON", span, expected=expected)


def test_when_unit_and_block_numbers_precede_an_address_then_they_are_part_of_it() -> (
    None
):
    text = "drop it at Blk 3 Lot 9, 14 Mabini Street, Imus"
    assert spans_of(text, "ADDRESS") == ["Blk 3 Lot 9, 14 Mabini Street"]


OTHER_KINDS = [
    ("Exam code DVA-C02 passed last week", "LICENSE_PLATE", "DVA-C02", False),
    ("Fill in (form ABC-D4 rev 3) please", "LICENSE_PLATE", "ABC-D4", False),
    ("My car is B-MK 4410, parked outside", "LICENSE_PLATE", "B-MK 4410", True),
    (
        "send to payroll@northwind-freight.com",
        "EMAIL",
        "payroll@northwind-freight.com",
        False,
    ),
    ("Firmware 3.10.2.7 installed on the router", "IP_ADDRESS", "3.10.2.7", False),
    ("Login from 203.0.113.77 again", "IP_ADDRESS", "203.0.113.77", True),
    ("Wage account (Zenith): 2087731945", "BANK_ACCOUNT", "2087731945", True),
    ("Dental clinic file, folder no. DC-228194", "MEDICAL_RECORD", "DC-228194", True),
    (
        "Archive box, folder no. 228194 in the basement",
        "MEDICAL_RECORD",
        "228194",
        False,
    ),
    ("Data urodzenia: 02.11.1985", "DATE_OF_BIRTH", "02.11.1985", True),
    (
        "Talk to Kwame Asante. Slides: https://kwame-talks.dev/2024",
        "URL",
        "https://kwame-talks.dev/2024",
        True,
    ),
    (
        "Write to security@acme-cache.dev; key at https://acme-cache.dev/key.asc",
        "URL",
        "https://acme-cache.dev/key.asc",
        False,
    ),
    (
        "She shared https://cal.example.com/slot/30 (her booking page)",
        "URL",
        "https://cal.example.com/slot/30",
        True,
    ),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), OTHER_KINDS)
def test_when_the_context_tells_the_kind_then_only_that_kind_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


SCHEMES_AND_KEYS = [
    # Checked schemes: the check digit or letter decides.
    ("Her PPS number 1234567T is on file", "NATIONAL_ID", "1234567T", True),
    ("Batch code 1234567A on the label", "NATIONAL_ID", "1234567A", False),
    (
        "CURP: GODE561231HDFRRN09 for the form",
        "NATIONAL_ID",
        "GODE561231HDFRRN09",
        True,
    ),
    (
        "CLABE para depósito: 002010077777777771",
        "BANK_ACCOUNT",
        "002010077777777771",
        True,
    ),
    (
        "CLABE para depósito: 002010077777777772",
        "BANK_ACCOUNT",
        "002010077777777772",
        False,
    ),
    # A cue written as a log or query key.
    ("GET /form?bsn=111222333&step=2", "NATIONAL_ID", "111222333", True),
    ("zip=94107 postal=560451 ok", "POSTCODE", "560451", True),
    # A postcode after the town that follows an address, and a room that is not one.
    ("Lives at 8 Rimu Street, Levin 5510, since May", "POSTCODE", "5510", True),
    ("We met at 12 Elm Street, Room 2024 was booked", "POSTCODE", "2024", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), SCHEMES_AND_KEYS)
def test_when_a_scheme_checks_or_a_key_names_a_value_then_its_kind_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


LAYOUT_CASES = [
    (
        "Van: Joris Bakker, Lange Laan 4, 2011 HK Haarlem",
        "LICENSE_PLATE",
        "2011 HK",
        False,
    ),
    ("Van: Joris Bakker, Lange Laan 4, 2011 HK Haarlem", "POSTCODE", "2011 HK", True),
    ("When the ute GT 47 RX is in the drive, knock", "LICENSE_PLATE", "GT 47 RX", True),
    (
        "Contact: Nia Evans Carpentry & Joinery, 07700 900111",
        "PERSON",
        "Nia Evans",
        True,
    ),
    ("Thanks to my Fitbit I walk more. Contact: Nia Evans", "PERSON", "Fitbit", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), LAYOUT_CASES)
def test_when_the_layout_tells_a_name_or_a_code_then_its_kind_follows(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


@pytest.mark.parametrize(
    ("text", "span", "expected"),
    [
        (
            "Neue Adresse: Leipziger Straße 112, 10117 Berlin",
            "Leipziger Straße 112",
            True,
        ),
        ("Wir wohnen in der Kaiser-Wilhelm-Allee 7a.", "Kaiser-Wilhelm-Allee 7a", True),
        ("Die Straße 3 mal überqueren", "Die Straße 3", False),
    ],
)
def test_when_a_german_street_type_stands_as_its_own_word_then_it_is_an_address(
    text: str, span: str, expected: bool
) -> None:
    check(text, "ADDRESS", span, expected=expected)


NOT_PERSONS_BY_CLASS = [
    # A place after a word of place, the whole capitalized run counted.
    (
        "We fished for years outta Port Rexton, call me at 709-555-0143.",
        "Port Rexton",
        False,
    ),
    ("I keep bees in Castle Cary, telephone 01963 555 123.", "Castle Cary", False),
    # Counter-cases: a person after "with", "to" or "in with" is still one.
    (
        "We fished for years with Peter Rexton, call me at 709-555-0143.",
        "Peter Rexton",
        True,
    ),
    ("Send it to Rebecca Lindqvist, 07700 900123.", "Rebecca Lindqvist", True),
    (
        "I moved in with Daniel Okafor last year, ring 07700 900123.",
        "Daniel Okafor",
        True,
    ),
    # A kin word used as a name claims no name; the name after it is one.
    ("Grandad is poorly again, ring 07700 900123.", "Grandad", False),
    ("Mammy says I work too much. Ring 07700 900123.", "Mammy", False),
    ("Mammy Rose says I work too much. Ring 07700 900123.", "Mammy", False),
    ("Mammy Rose says I work too much. Ring 07700 900123.", "Rose", True),
    # A lab or a practice named for its street is no person.
    (
        "Bloods sent to Gamma Lab; review in 4 weeks. Ring 07700 900123.",
        "Gamma Lab",
        False,
    ),
    (
        "Bloods sent to Kofi Mensah; review in 4 weeks. Ring 07700 900123.",
        "Kofi Mensah",
        True,
    ),
    ("Læge: Klinikken Østerbrogade, 35 11 22 33", "Klinikken Østerbrogade", False),
    ("Læge: Henrik Mortensen, 35 11 22 33", "Henrik Mortensen", True),
    # A company's legal form after a comma; a role after a comma is no form.
    (
        "Cliente: Olaria Atlântica, Lda. - NIPC 500000000\nTel.: +351 912 000 111",
        "Olaria Atlântica",
        False,
    ),
    ("Contact: Dr Ana Lima, Clinic Director, 07700 900123", "Dr Ana Lima", True),
    ("Signed: Nia Evans, Co-founder, 07700 900123", "Nia Evans", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), NOT_PERSONS_BY_CLASS)
def test_when_a_place_kin_word_or_lab_stands_where_a_name_could_then_it_is_no_person(
    text: str, span: str, expected: bool
) -> None:
    check(text, "PERSON", span, expected=expected)


NATIONAL_ID_SCHEMES = [
    # Each scheme's check or label decides; a number one digit off stays.
    ("Fødselsnummer: 15038749886", "15038749886", True),
    ("Fødselsnummer: 15038749887", "15038749887", False),
    ("CPR-nr.: 120719-4510", "120719-4510", True),
    ("Bestilling 120799-4510 sendt", "120799-4510", False),
    ('form state: hetu="240684-3188" saved', "240684-3188", True),
    ("build 240684-3189 released", "240684-3189", False),
    ("M-55102;756.3012.9485.77;Zürich", "756.3012.9485.77", True),
    ("Artikel 756.3012.9485.78 im Lager", "756.3012.9485.78", False),
    ("Rijksregisternr.: 85.09.14-263.01", "85.09.14-263.01", True),
    ("Rijksregisternr.: 85.09.14-263.02", "85.09.14-263.02", False),
    ("(r.č. 886207/3220) volala", "886207/3220", True),
    ("faktura 886207/3221 zaplacena", "886207/3221", False),
    ("the gas contract on AMKA 04088513470 please", "04088513470", True),
    ("the gas contract on AMKA 04088513471 please", "04088513471", False),
    ("Herr Ebner (SV-Nr. 4288110572) rief an", "4288110572", True),
    ("Herr Ebner (SV-Nr. 4288110573) rief an", "4288110573", False),
    ("Thai ID: 1-1037-00452-18-4", "1-1037-00452-18-4", True),
    ("Part 1-1037-00452-18-5 in stock", "1-1037-00452-18-5", False),
    ("NIK: 3404075802940003", "3404075802940003", True),
    ("Kode pesanan 3404075802940003 sudah dikirim", "3404075802940003", False),
    ("刘思雨,110105198806234025,北京", "110105198806234025", True),
    ("运单 110105198806234026 已发货", "110105198806234026", False),
    ("Emirates ID: 784-1979-7841520-2", "784-1979-7841520-2", True),
    ("Ref 784-1979-7841520-3 filed", "784-1979-7841520-3", False),
    ("Mi CUIL es 27-31845206-2 y", "27-31845206-2", True),
    ("Pedido 27-31845206-3 enviado", "27-31845206-3", False),
    ("don Felipe Muñoz, RUT 16.482.739-9, domiciliado", "16.482.739-9", True),
    ("don Felipe Muñoz, RUT 16.482.739-8, domiciliado", "16.482.739-8", False),
    ("kyc rrn mismatch input=920417-2085131", "920417-2085131", True),
    ("order id 920417-2085132 shipped", "920417-2085132", False),
    ("Cliente: Juan Ospina CC 1.020.784.316", "1.020.784.316", True),
    ("Total: 1.020.784.316 pesos", "1.020.784.316", False),
    ("Estudiante: Valentina Quispe\nDNI: 74821093", "74821093", True),
    ("CCCD em là 001190024718 nếu cần", "001190024718", True),
    ("Ghana Card: GHA-718204936-5", "GHA-718204936-5", True),
    ("Driver's license: R240-5817-3392-06 (WI)", "R240-5817-3392-06", True),
    ("ACC form lodged; IRD 049-182-732 for comp", "049-182-732", True),
    ("ACC form lodged; IRD 049-182-733 for comp", "049-182-733", False),
    ("need your teudat zehut for the paperwork\nTo Avi: 314592684.", "314592684", True),
    (
        "need your teudat zehut for the paperwork\nTo Avi: 314592685.",
        "314592685",
        False,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), NATIONAL_ID_SCHEMES)
def test_when_a_national_id_schemes_check_or_label_holds_then_it_is_found(
    text: str, span: str, expected: bool
) -> None:
    check(text, "NATIONAL_ID", span, expected=expected)


FIELD_LAYOUTS = [
    # A table's header names each column's kind; a key names its value.
    (
        "name\tdob\tnhs_no\nRowan Fairbairn\t1996-05-30\t612 408 9378",
        "DATE_OF_BIRTH",
        "1996-05-30",
        True,
    ),
    (
        "name\tdob\tnhs_no\nRowan Fairbairn\t1996-05-30\t612 408 9378",
        "NATIONAL_ID",
        "612 408 9378",
        True,
    ),
    (
        "name\tdob\tnhs_no\nRowan Fairbairn\t1996-05-30\t612 408 9378",
        "PHONE",
        "612 408 9378",
        False,
    ),
    (
        "id;name;street;zip;city\n7;Nadia Brügger;Seefeldstrasse 204;8008;Zürich",
        "POSTCODE",
        "8008",
        True,
    ),
    (
        "order_id,收件人,手机,邮编\nJD-88214093117,刘思雨,138 0013 4821,100022",
        "PERSON",
        "刘思雨",
        True,
    ),
    (
        "order_id,收件人,手机,邮编\nJD-88214093117,刘思雨,138 0013 4821,100022",
        "POSTCODE",
        "100022",
        True,
    ),
    (
        'last form state: name="Kaisa Virtanen" postinumero="00530"',
        "POSTCODE",
        "00530",
        True,
    ),
    # One labelled column is no table of people; a service's name is no person.
    ("name;price;sku\nKettle Deluxe;49.00;KT-200", "PERSON", "Kettle Deluxe", False),
    ("deploy name=api-gateway replicas=3", "PERSON", "api-gateway", False),
    ("sku;qty;zip_fee\nKT-200;4;12000", "POSTCODE", "12000", False),
    ("train step=40 cp=3 sin=0.5 cell=12", "POSTCODE", "3", False),
    ("train step=40 cp=3 sin=0.5 cell=12", "NATIONAL_ID", "0.5", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), FIELD_LAYOUTS)
def test_when_a_header_or_key_labels_a_value_then_the_label_decides_its_kind(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


MORE_FORMATS = [
    # Postcodes of many shapes after a street address, on its line or below.
    ("Adresse: Tollbugata 31B, 0157 Oslo", "POSTCODE", "0157", True),
    ("Bopæl: Jagtvej 141, 4. tv., 2200 København N", "POSTCODE", "2200", True),
    ("Frau Pichlmayr\nMariahilfer Straße 77/12\n1060 Wien", "POSTCODE", "1060", True),
    (
        "Morada: Rua de Cedofeita 218, 3.º Esq., 4050-174 Porto",
        "POSTCODE",
        "4050-174",
        True,
    ),
    ("Av. Corrientes 3247, 5° B (C1193AAE) necesitamos", "POSTCODE", "C1193AAE", True),
    (
        "Dirección: Calle 93 # 14-20, Apto 502, Bogotá 110221",
        "POSTCODE",
        "110221",
        True,
    ),
    (
        "at 7/22 Wattle Grove, Collingwood VIC 3066. Order 3318-776.",
        "POSTCODE",
        "3318-776",
        False,
    ),
    ("Sold 4050 units in 2026 Porto wines", "POSTCODE", "4050", False),
    # Streets in more countries' orders.
    (
        "Adresa: Vinohradská 1543/38, 120 00 Praha 2",
        "ADDRESS",
        "Vinohradská 1543/38",
        True,
    ),
    ("Viewing at Θησέως 112, 176 71 Καλλιθέα", "ADDRESS", "Θησέως 112", True),
    (
        "adres Bağdat Caddesi No: 318 D: 5 34728",
        "ADDRESS",
        "Bağdat Caddesi No: 318 D: 5",
        True,
    ),
    (
        "flat is Rehov Bialik 27, apt 9.",
        "ADDRESS",
        "Rehov Bialik 27, apt 9",
        True,
    ),
    (
        "Khách: Số 27 ngõ 64 Nguyễn Lương Bằng, Đống Đa",
        "ADDRESS",
        "Số 27 ngõ 64 Nguyễn Lương Bằng",
        True,
    ),
    ("Omistaja As Oy Fleminginkatu 17 hoitaa", "ADDRESS", "Fleminginkatu 17", False),
    # Passports, medical records, accounts, dates of birth by their labels.
    (
        "Rm 1204: Putu Ayu Lestari (ID) - PP C 2874103 - vegetarian",
        "PASSPORT",
        "C 2874103",
        True,
    ),
    ("Meine Pass-Nr.: X7204183. Tel. folgt", "PASSPORT", "X7204183", True),
    ("Booked the PP 2024 conference", "PASSPORT", "2024", False),
    (
        "Hospital discharge summary\nHN: HN 64-028817",
        "MEDICAL_RECORD",
        "HN 64-028817",
        True,
    ),
    (
        "Clinic note. Patient: Mariam, file no. HFC-2019-04821",
        "MEDICAL_RECORD",
        "HFC-2019-04821",
        True,
    ),
    (
        "Office memo: file no. HR-2019-04821 archived",
        "MEDICAL_RECORD",
        "HR-2019-04821",
        False,
    ),
    ("Utbetaling til konto 1503.28.76444", "BANK_ACCOUNT", "1503.28.76444", True),
    ("Nový účet: 192837461/0800 (IBAN)", "BANK_ACCOUNT", "192837461", True),
    ("Meeting 192837461/0800 notes", "BANK_ACCOUNT", "192837461", False),
    (
        "el CBU es 0720128400000418735204.",
        "BANK_ACCOUNT",
        "0720128400000418735204",
        True,
    ),
    (
        "el CBU es 0720128400000418735205.",
        "BANK_ACCOUNT",
        "0720128400000418735205",
        False,
    ),
    ("His account was GTBank 0174529386.", "BANK_ACCOUNT", "0174529386", True),
    ("Født: 12. juli 2019", "DATE_OF_BIRTH", "12. juli 2019", True),
    ("Tempat/Tgl lahir: Yogyakarta, 18-02-1994", "DATE_OF_BIRTH", "18-02-1994", True),
    ("Dibuat: Yogyakarta, 18-02-1994", "DATE_OF_BIRTH", "18-02-1994", False),
    # Cards of more issuers; an account's number is no card.
    ("Dankort 5019 5537 2046 1181.", "CARD", "5019 5537 2046 1181", True),
    ("Troy 9792 0318 4456 2718 ile", "CARD", "9792 0318 4456 2718", True),
    ("A/c 50100248193754 for refunds", "CARD", "50100248193754", False),
    # A person's own site: the host is their name joined; a company's stays.
    (
        "Rasmus Kjærgaard Holm, fotograf\nhttps://rasmusholm.photo",
        "URL",
        "https://rasmusholm.photo",
        True,
    ),
    (
        "Carlsberg Byen Ejendomme A/S, see https://carlsbergbyen.dk",
        "URL",
        "https://carlsbergbyen.dk",
        False,
    ),
    (
        "Notes: https://gist.github.com/jblackwood/7c1e90ab44f2",
        "URL",
        "https://gist.github.com/jblackwood/7c1e90ab44f2",
        True,
    ),
    # Company, case and tracking numbers after their label are no phones.
    ("Org.nr. 981436296 (Fjordvern ASA)", "PHONE", "981436296", False),
    ("Company No. 09214873", "PHONE", "09214873", False),
    ("Zapsal: tomas | IČO 27193845", "PHONE", "27193845", False),
    ("kargo olursa MNG takip 7201948833", "PHONE", "7201948833", False),
    ("Y-tunnus 0118472-9", "PHONE", "0118472-9", False),
    ("Polisenummer: 7741-0093-22", "NATIONAL_ID", "7741-0093-22", False),
    ("Mobil: +47 412 08 739", "PHONE", "+47 412 08 739", True),
    # A plate after "reg." is a plate, not a postcode.
    (
        "Kjøretøy: Tesla, reg. EL 48213\nSkadedato: i dag",
        "LICENSE_PLATE",
        "EL 48213",
        True,
    ),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), MORE_FORMATS)
def test_when_a_format_has_its_label_or_place_then_its_kind_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


ORGANIZATIONS_AND_NETWORKS = [
    # An organization's role address, name or network stays; a person's goes.
    (
        "Questions: events@pydata.example.org",
        "EMAIL",
        "events@pydata.example.org",
        False,
    ),
    (
        "Write to help.maps@corp.example.com",
        "EMAIL",
        "help.maps@corp.example.com",
        False,
    ),
    (
        "Write to priya.maps@corp.example.com",
        "EMAIL",
        "priya.maps@corp.example.com",
        True,
    ),
    ("  - 10.12.0.0/16\n", "IP_ADDRESS", "10.12.0.0/16", False),
    (
        "my IPv6 prefix 2001:db8:c0de:4a00::/56 at home",
        "IP_ADDRESS",
        "2001:db8:c0de:4a00::/56",
        True,
    ),
    (
        "Author: 49699333+dependabot[bot]@users.noreply.github.com",
        "PHONE",
        "49699333",
        False,
    ),
    (
        "Author: 49699333+dependabot[bot]@users.noreply.github.com",
        "HANDLE",
        "@users.noreply.github.com",
        False,
    ),
    ("Til: Carlsberg Byen Ejendomme A/S", "PERSON", "Carlsberg Byen Ejendomme", False),
    ("Til: Mette Byen Holm, Vesterbrogade 3", "PERSON", "Mette Byen Holm", True),
]


@pytest.mark.parametrize(
    ("text", "kind", "span", "expected"), ORGANIZATIONS_AND_NETWORKS
)
def test_when_an_organization_or_network_owns_a_value_then_it_stays(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


MESSENGER_IDS_AND_PLATES = [
    ("发货人：小林 (微信 linxiaoqi_sh)", "HANDLE", "linxiaoqi_sh", True),
    ("Add me on LINE ID: ploy.chk", "HANDLE", "ploy.chk", True),
    ("Stand in line please", "HANDLE", "please", False),
    ("UPI kar diya, anjali.rao91@okicici", "HANDLE", "anjali.rao91@okicici", True),
    ("vehículo placa patente KJ·TR·42.", "LICENSE_PLATE", "KJ·TR·42", True),
    ("la patente del invento 2024 fue", "LICENSE_PLATE", "2024", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), MESSENGER_IDS_AND_PLATES)
def test_when_a_messenger_or_plate_label_names_a_value_then_it_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


RECORDS_BY_PHRASE = [
    (
        "Mi número de expediente en la clínica es EXP-14-0827719.",
        "MEDICAL_RECORD",
        "EXP-14-0827719",
        True,
    ),
    ("The hospital car park is 2024 spaces", "MEDICAL_RECORD", "2024", False),
    ("Mere Te Awa-Parata, NHI ZAC4829, GP visit", "NATIONAL_ID", "ZAC4829", True),
    ("Mere Te Awa-Parata, NHI ZAC4828, GP visit", "NATIONAL_ID", "ZAC4828", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), RECORDS_BY_PHRASE)
def test_when_a_record_number_is_named_by_a_phrase_or_scheme_then_it_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


ADDRESS_TAILS = [
    # The whole address goes, its flat, door or crossing street too; no number
    # of it is left behind or read as a phone.
    (
        "Address: H.No. 1184, Sector 70, Mohali 160071",
        "ADDRESS",
        "H.No. 1184, Sector 70",
        True,
    ),
    (
        "Residence: Villa 23, Street 14B, Al Barsha 2",
        "ADDRESS",
        "Villa 23, Street 14B, Al Barsha",
        True,
    ),
    (
        "Address: 99/45 Moo 3, Soi Ramkhamhaeng 24, Bangkok",
        "ADDRESS",
        "99/45 Moo 3, Soi Ramkhamhaeng 24",
        True,
    ),
    (
        "Dirección: Calle 93 # 14-20, Apto 502, Bogotá",
        "ADDRESS",
        "Calle 93 # 14-20, Apto 502",
        True,
    ),
    (
        "Alamat: Jl. Kaliurang Km 5,6 No. 12, Sleman",
        "ADDRESS",
        "Jl. Kaliurang Km 5,6 No. 12",
        True,
    ),
    (
        "#42, 3rd Cross, 7th Main, HSR Layout Sector 2 560102",
        "PHONE",
        "2 560102",
        False,
    ),
    (
        "#42, 3rd Cross, 7th Main, HSR Layout Sector 2 560102",
        "POSTCODE",
        "560102",
        True,
    ),
    ("Author: dependabot[bot] <bot@example.com>", "HANDLE", "dependabot", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), ADDRESS_TAILS)
def test_when_an_address_has_a_flat_door_or_sector_then_all_of_it_goes(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


BIRTH_DATES_AND_TAX_IDS = [
    ("生年月日：1990年5月3日", "DATE_OF_BIRTH", "1990年5月3日", True),
    ("생년월일: 1992. 4. 17.", "DATE_OF_BIRTH", "1992. 4. 17", True),
    ("Ngày sinh: 12/03/1990", "DATE_OF_BIRTH", "12/03/1990", True),
    ("Meeting: 1992. 4. 17. agenda", "DATE_OF_BIRTH", "1992. 4. 17", False),
    ("NIF: 238475611", "NATIONAL_ID", "238475611", True),
    ("NIF: 238475612", "NATIONAL_ID", "238475612", False),
    ("National ID: 29001011234567 on file", "NATIONAL_ID", "29001011234567", True),
    ("Order 29001011234567 shipped", "NATIONAL_ID", "29001011234567", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), BIRTH_DATES_AND_TAX_IDS)
def test_when_a_birth_date_or_tax_id_has_its_label_and_check_then_it_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)
