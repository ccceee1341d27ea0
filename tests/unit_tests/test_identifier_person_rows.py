"""Identifiers a person's row, a birth word, a home label or a log key places.

Each row: a text, the kind, the span, and whether the span is found as that
kind (True) or is a look-alike that stays (False). Every class has its
counter-case: the same shape where the row is no person's, a label names a
register or a role, or a key names a machine.
"""

from __future__ import annotations

import pytest

from tests.unit_tests.test_identifier_kinds import check

ROW_IDS = [
    # A short acronym of the record's own language right before a long number.
    (
        "Member: Thandeka Nxumalo, born 04/05/1988, NPI 7730418852, mobile 7622 9013",
        "NATIONAL_ID",
        "7730418852",
        True,
    ),
    # Seven digits bare after an acronym: a register's number, not an ID.
    (
        "Member: Thandeka Nxumalo, born 04/05/1988, GMC 7730418, mobile 7622 9013",
        "NATIONAL_ID",
        "7730418",
        False,
    ),
    # The next cell after a person's name in a table: a code of their own.
    (
        "2 | Kwabena Asante | TQ7R3M8P | 024 551 7720 | Kumasi",
        "NATIONAL_ID",
        "TQ7R3M8P",
        True,
    ),
    # The same code in a row about a product stays.
    (
        "2 | Widget pack | TQ7R3M8P | 024 551 7720 | Kumasi",
        "NATIONAL_ID",
        "TQ7R3M8P",
        False,
    ),
    # Capitals glued to a code are the code's own ("code SKL4H2JX9P"), no label.
    (
        "[08:15] Otieno: nimetuma KSh 3,500, code SKL4H2JX9P",
        "NATIONAL_ID",
        "4H2JX9P",
        False,
    ),
    # A person's years in brackets are no number of theirs.
    ("Pupil: Ana Lusia Fifita (1931-2019) was honoured", "PHONE", "1931-2019", False),
    (
        "Pupil: Ana Lusia Fifita (1931-2019) was honoured",
        "NATIONAL_ID",
        "1931-2019",
        False,
    ),
    # A phone's groups right after the name, where no plan reads them.
    ("Caller: Neha Raghavan, 913 42 07.", "PHONE", "913 42 07", True),
]

ROW_ADDRESSES = [
    # A plot's number opens the home's part; the region after it stays.
    (
        "Holder: Rangi Parata, Lot 12 Kaiwaka Flats, Northland Coast — cell 655-2093",
        "ADDRESS",
        "Lot 12 Kaiwaka Flats",
        True,
    ),
    # A settlement's word names the home's place.
    (
        "Applicant: Sefo Tuilagi, Malifa village, Upolu — phone 772 3310",
        "ADDRESS",
        "Malifa village",
        True,
    ),
    # "of" leads to a quarter of a listed town.
    (
        "Applicant: Sefo Tuilagi, born 12/02/1979, of Taufusi East, Apia, tel 772 3310",
        "ADDRESS",
        "Taufusi East",
        True,
    ),
    # A role and a town, a class and a school: no home.
    (
        "Holder: Rangi Parata, Teacher, Auckland — cell 655-2093",
        "ADDRESS",
        "Teacher",
        False,
    ),
    (
        "Holder: Rangi Parata, Form 5, Kaiwaka Secondary — cell 655-2093",
        "ADDRESS",
        "Form 5",
        False,
    ),
]

BIRTH_WORDS = [
    # A birth word's short form, and the Arabic "born" of a civil record.
    ("Ward: Gregory Mensah, nasc. 21/03/1984, Rua Nova 4, Praia", "21/03/1984", True),
    ("العميل: كريم فاضل الدليمي، مواليد 1987/11/30، هاتف", "1987/11/30", True),
    # A date with no birth word and no person stays.
    ("Saída do porto: 21/03/2024 às 06h10", "21/03/2024", False),
]

HOME_LABELS = [
    # A named quarter without a number after a home's label; the town stays.
    ("Address: Tinkong Layout, Brikama District", "ADDRESS", "Tinkong Layout", True),
    ("Address: Accra, Ghana", "ADDRESS", "Accra", False),
    # The label in another spelling ("Adrès").
    ("Adrès: Katye Bwa Nèf #7, Jacmel", "ADDRESS", "Katye Bwa Nèf #7", True),
    # A quarter's name alone after a home's label; a company's label keeps it.
    ("Address: Sukuta North, Brikama District", "ADDRESS", "Sukuta North", True),
    (
        "Office address: Sukuta North, Brikama District",
        "ADDRESS",
        "Sukuta North",
        False,
    ),
]

LABELLED_IDS = [
    # The Arabic adjective agrees with "card": a national ID's label still.
    ("رقم البطاقة الوطنية: 198711300457", "NATIONAL_ID", "198711300457", True),
    # A Chinese label glued to the words before it, a check digit in brackets.
    ("澳門居民身份證 BIR：7308816(3)", "NATIONAL_ID", "7308816(3)", True),
    # Letters and digits in hyphenated groups after an identity label.
    ("National ID: 4Q8M-2T7X", "NATIONAL_ID", "4Q8M-2T7X", True),
    # Groups that hold no real day and month are no date.
    ("CIN: 05-03-88-1991-02-00418", "NATIONAL_ID", "05-03-88-1991-02-00418", True),
    # France's overseas NIR (three-digit department), its mod 97 key right or off.
    ("NIR 1 92 05 974 12 077 60", "NATIONAL_ID", "1 92 05 974 12 077 60", True),
    ("NIR 1 92 05 974 12 077 61", "NATIONAL_ID", "1 92 05 974 12 077 61", False),
]

LOG_ADDRESSES = [
    # A private address a log line assigns to a named user's session.
    (
        "2026-03-01T10:00:00Z gw session=aa91 user=lmensah assigned=10.9.3.44 proto=wg",
        "10.9.3.44",
        True,
    ),
    # A node's internal address beside a user's number stays.
    ("2026-03-01T10:00:00Z api INFO user_id=771 node=10.9.3.44 ok", "10.9.3.44", False),
    ("worker-2 connected to 10.12.0.5:5432 ip=10.1.1.1", "10.1.1.1", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), ROW_IDS + ROW_ADDRESSES)
def test_when_a_persons_row_holds_a_value_then_its_place_types_it(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


@pytest.mark.parametrize(("text", "span", "expected"), BIRTH_WORDS)
def test_when_a_birth_word_leads_to_a_date_then_it_is_a_birth_date(
    text: str, span: str, expected: bool
) -> None:
    check(text, "DATE_OF_BIRTH", span, expected=expected)


@pytest.mark.parametrize(
    ("text", "kind", "span", "expected"), HOME_LABELS + LABELLED_IDS
)
def test_when_a_label_names_a_home_or_an_identity_then_its_value_is_one(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


@pytest.mark.parametrize(("text", "span", "expected"), LOG_ADDRESSES)
def test_when_a_log_key_gives_a_user_an_internal_address_then_it_is_theirs(
    text: str, span: str, expected: bool
) -> None:
    check(text, "IP_ADDRESS", span, expected=expected)


OTHER_LAYOUTS = [
    # A patient's number after its cue, a remark closed by a colon between.
    (
        "Asthma. Her clinic no. in case of emergency: K7720391",
        "MEDICAL_RECORD",
        "K7720391",
        True,
    ),
    # The same remark without a number word names no record.
    (
        "The hospital car park opens for everyone: 2024 spaces",
        "MEDICAL_RECORD",
        "2024",
        False,
    ),
    # "acc." abbreviates an account before its number; a quantity stays.
    (
        "Bank: Standard Lesotho, acc. 9082 4417 3301",
        "BANK_ACCOUNT",
        "9082 4417 3301",
        True,
    ),
    ("Acc. 12 pcs of cable, 4410 m", "BANK_ACCOUNT", "4410", False),
    # A personal page's label with a second word joined on.
    (
        "Portfolio & samples: https://kofimensah.example.gh",
        "URL",
        "https://kofimensah.example.gh",
        True,
    ),
    (
        "Shop & prices: https://kofimensah.example.gh",
        "URL",
        "https://kofimensah.example.gh",
        False,
    ),
    # Japanese block and room numbers; the town alone stays.
    (
        "2. 佐藤 一郎 高倉町14 コーポ高倉305号室 携帯 090-0000-2222",
        "ADDRESS",
        "高倉町14 コーポ高倉305号室",
        True,
    ),
    ("会場は京都市の高倉町です。", "ADDRESS", "高倉町", False),
    # A Korean road address with its building's dong and ho; the road alone stays.
    (
        "1) 김민서 | 서울특별시 마포구 월드컵북로 21, 105동 802호",
        "ADDRESS",
        "서울특별시 마포구 월드컵북로 21, 105동 802호",
        True,
    ),
    ("도로 공사는 마포구 월드컵북로에서 진행됩니다.", "ADDRESS", "월드컵북로", False),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), OTHER_LAYOUTS)
def test_when_a_layout_shows_a_record_page_or_block_then_it_is_found(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


LETTERHEADS = [
    # A desk's one-word mailbox in an association's letterhead stays with its
    # address; the member's own mailbox below is replaced.
    (
        "Segelverein Kiel e.V. · Hafenweg 3, 24103 Kiel · buchung@svkiel.example.de\n"
        "Aufnahmeantrag 2027\n\nName: Jonas Vogt\nE-Mail: jonas.vogt@mail.example.de",
        "buchung@svkiel.example.de",
        False,
    ),
    (
        "Segelverein Kiel e.V. · Hafenweg 3, 24103 Kiel · buchung@svkiel.example.de\n"
        "Aufnahmeantrag 2027\n\nName: Jonas Vogt\nE-Mail: jonas.vogt@mail.example.de",
        "jonas.vogt@mail.example.de",
        True,
    ),
    # A person's mailbox (names joined by a dot) in a first line is theirs.
    (
        "Hafenweg Events · Hafenweg 3, 24103 Kiel · jonas.vogt@mail.example.de\n"
        "Aufnahmeantrag 2027\n\nName: Jonas Vogt\nTelefon: 0431 555 2231",
        "jonas.vogt@mail.example.de",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), LETTERHEADS)
def test_when_a_letterhead_gives_a_desks_mailbox_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    check(text, "EMAIL", span, expected=expected)


LABELLED_PHONES = [
    # A phone's label, a remark, a colon: a number no plan reads is a phone's.
    ("Tél. (Orange Money) : 70 41 28 93", "PHONE", "70 41 28 93", True),
    ("Oqarasuaat / Mobil: +299 54 81 27", "PHONE", "+299 54 81 27", True),
    # A date or an extension after the label stays.
    ("Tel: 2026-11-20", "PHONE", "2026-11-20", False),
    ("Phone: ext. 22", "PHONE", "22", False),
    # A US territory's letters before its ZIP code.
    ("Home: 12 Calle Luna, San Juan, PR 00901", "POSTCODE", "00901", True),
]


@pytest.mark.parametrize(("text", "kind", "span", "expected"), LABELLED_PHONES)
def test_when_a_label_names_a_phone_or_a_territory_then_its_number_is_one(
    text: str, kind: str, span: str, expected: bool
) -> None:
    check(text, kind, span, expected=expected)


TABLE = (
    "No | Name | Card | Phone | Village\n"
    "1 | Kwabena Asante | TQ7R3M8P | 024 551 7720 | Kumasi\n"
    '2 | Abena "Maa Abena" Owusu | 7KD2PX4M | 024 661 1180 | Ejisu\n'
    "3 | Yaw Boateng | LQ3W8R2N | 020 441 2290 | Ejisu\n"
    "4 | Drums (spare) | 12 | none | Ejisu"
)


@pytest.mark.parametrize(
    ("span", "expected"), [("7KD2PX4M", True), ("LQ3W8R2N", True), ("12", False)]
)
def test_when_a_column_holds_persons_ids_then_each_rows_code_there_is_one(
    span: str, expected: bool
) -> None:
    check(TABLE, "NATIONAL_ID", span, expected=expected)
