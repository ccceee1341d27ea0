"""Identifier spans on token edges, organizations' contacts left, and no-one names.

Each table pairs what must be found with a look-alike or a counter-case that
must stay: a span never cuts inside a token or a code's groups, an
organization's desk and role mailbox are its public contacts, and a
capitalized run that names a place, a desk or a column is no person.
"""

from __future__ import annotations

import re

import pytest

from anonygraph.identifiers import find_identifiers


def found(text: str) -> list[tuple[str, str]]:
    """Return the (kind, text) of every identifier found in ``text``."""
    return [(i.kind, i.text) for i in find_identifiers(text)]


EDGES = [
    ('nginx: "GET /u/dana.whitcombe/settings HTTP/2" 200', "HANDLE", None),
    ("cc @priya-r for the review, thanks", "HANDLE", "@priya-r"),
    ("Postal code: 14348-63117, Tehran", "POSTCODE", "14348-63117"),
    ("Adres: ul. Wiślana 8/14, 00-950 Warszawa", "ADDRESS", "ul. Wiślana 8/14"),
    (
        "Adress: Götgatan 64 lgh 1102, 118 26 Stockholm",
        "ADDRESS",
        "Götgatan 64 lgh 1102",
    ),
]


@pytest.mark.parametrize(("text", "kind", "span"), EDGES)
def test_when_a_find_touches_a_token_then_its_edges_are_the_tokens(
    text: str, kind: str, span: str | None
) -> None:
    finds = found(text)
    for _, value in finds:
        start = text.index(value)
        end = start + len(value)
        assert not (start and text[start - 1].isalnum()), finds
        assert not re.match(r"[-.@]?\w", text[end : end + 2]) or (
            text[end] in ".,;:" and not text[end + 1 : end + 2].isalnum()
        ), finds
    if span is not None:
        assert (kind, span) in finds


LOOKALIKE_CODES = [
    ("Sent Mon 11/23 9:14 AM from my phone", "LICENSE_PLATE"),
    ("Tracking number: 1Z 4A7 9W2 03 1842 7716, arriving Friday", "PHONE"),
    ("My blue badge (badge no. 1204 AB 92) was displayed", "POSTCODE"),
]


@pytest.mark.parametrize(("text", "kind"), LOOKALIKE_CODES)
def test_when_a_number_is_part_of_a_time_or_labelled_code_then_none_is_cut_out(
    text: str, kind: str
) -> None:
    assert not [f for f in found(text) if f[0] in (kind, "NUMBER")], found(text)


CODES_KEPT = [
    (
        "Card on file for insurance claims: 4519 2047 6603 1185",
        "CARD",
        "4519 2047 6603 1185",
    ),
    (
        "IBAN: PL52 1090 1014 0000 0712 3456 7890 12",
        "IBAN",
        "PL52 1090 1014 0000 0712 3456 7890 12",
    ),
    ("Sector 2 560102, Bengaluru. Call 0722 418 905", "PHONE", "0722 418 905"),
    (
        "Refund account (Sheba): IR33 0620 0000 0010 0324 2000 01",
        "IBAN",
        "IR33 0620 0000 0010 0324 2000 01",
    ),
]


@pytest.mark.parametrize(("text", "kind", "span"), CODES_KEPT)
def test_when_a_code_stands_whole_then_it_is_found_whole(
    text: str, kind: str, span: str
) -> None:
    assert (kind, span) in found(text)


ORG_CONTACTS = [
    (
        "a charge ($312.40 at an electronics store). Callback 404-555-0172.",
        "404-555-0172",
        True,
    ),
    (
        "INFO 2026-07-19 21:03:55 sms: OTP sent to +91 70221 48830",
        "+91 70221 48830",
        True,
    ),
    (
        "Clinic record no. TW-11832. Referred to orthopaedics. Mobile 0423 555 642.",
        "0423 555 642",
        True,
    ),
    (
        "Pracodawca: Nordlift Sp. z o.o., kadry@nordlift.example.pl",
        "kadry@nordlift.example.pl",
        False,
    ),
    (
        "Frågor? medlem@kraftverket.example.se eller 08-120 530 00",
        "08-120 530 00",
        False,
    ),
    (
        "Frågor? medlem@kraftverket.example.se eller 08-120 530 00",
        "medlem@kraftverket.example.se",
        False,
    ),
    ("Rückfragen: PI 13 Schwabing, 089 2910-0", "089 2910-0", False),
    ("Store: Walgreens #05521, (716) 874-2161", "(716) 874-2161", False),
    ("Info e prenotazioni: 06 3996 7800", "06 3996 7800", False),
    (
        "Tel.: +48 601 284 937, e-mail: kasia.wroblewska@wp.pl",
        "kasia.wroblewska@wp.pl",
        True,
    ),
    ("Tel.: +48 601 284 937, e-mail: kasia.wroblewska@wp.pl", "+48 601 284 937", True),
    ("Questions? Text me on 0722 418 905, Dana", "0722 418 905", True),
    ("22:41:07 SGT [INFO] kyc verify mobile=+65 9123 4587 ok", "+65 9123 4587", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), ORG_CONTACTS)
def test_when_a_contact_is_an_organizations_desk_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    values = [v for _, v in found(text)]
    assert (span in values) is expected, values


PERSONS = [
    (
        "Thanks for the quick fix, call 0722 418 905.\nSincerely,\nThe Board",
        "The Board",
        False,
    ),
    (
        "Thanks, call 0722 418 905 to confirm.\nBest regards,\nReception",
        "Reception",
        False,
    ),
    (
        "coffee at Java House Kimathi Street, Sat 11am? my line is +254 711 602 348",
        "Java House Kimathi Street",
        False,
    ),
    (
        "Bill to: Nurul Aisyah\nDescription          Qty   Amount\n"
        "Hot desk   1   RM 499.00",
        "Description",
        False,
    ),
    (
        "Degree: BCom Accounting, 2019-2022\nEmail: t.nkosi@gmail.com",
        "BCom Accounting",
        False,
    ),
    (
        "you read every book, i'm impressed. my line is +254 711 602 348",
        "impressed",
        False,
    ),
    (
        "Alkoholtest: 0,0 ‰. Bearbeitender Beamter: PHK, Tel. +49 1520 7731946",
        "‰. Bearbeitender Beamter",
        False,
    ),
    ("hi i'm fred, call 0722 418 905", "fred", True),
    # A lowercase complement the parse reads as a state, no one's name.
    ("I am single and will be the only tenant, call 0722 418 905", "single", False),
    ("I am priya and will be the only tenant, call 0722 418 905", "priya", True),
    ("Dear Mr. and Mrs. Delgado,\nplease call (512) 555-0139.", "Delgado", True),
    ("Declan, call me tonight at 0722 418 905", "Declan", True),
    ("hey its priya, text me 0722 418 905", "priya", True),
    ("Will Okafor called from 0722 418 905", "Will Okafor", True),
    ("Best,\nMin-jun Park (박민준)", "Min-jun Park", True),
    ("Noah (Dhaka Metro-Ga 14-2291), call 01712 345678", "Dhaka Metro-Ga", False),
    (
        "1. Giulia Bianchi + Marco Ferri - sì, 2 adulti - +39 347 218 5501",
        "Marco Ferri",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), PERSONS)
def test_when_a_capitalized_run_names_a_place_desk_or_column_then_it_is_no_person(
    text: str, span: str, expected: bool
) -> None:
    persons = [v for k, v in found(text) if k == "PERSON"]
    assert (span in persons) is expected, persons
    if not expected:  # nor retyped as another kind ("an address part")
        assert span not in [v for _, v in found(text)]


PAYROLL = (
    "id;nombre;iban\nE-1;Ana Ruiz;2038 1234 68 6000543217\n"
    "E-2;Eva Gil;ES91 2100 0418 4502 0005 1332"
)

LABELLED = [
    ("машина Lada, госномер А428МК 777, парковка", "LICENSE_PLATE", "А428МК 777"),
    (
        "Rahim will drive the white Noah (Dhaka Metro-Ga 14-2291), call 01712 345678",
        "LICENSE_PLATE",
        "Dhaka Metro-Ga 14-2291",
    ),
    (
        "joining in 5, add me on steam steamcommunity.com/id/leafontaine_fr",
        "URL",
        "steamcommunity.com/id/leafontaine_fr",
    ),
    ("Паспорт РФ: 45 19 738214, выдан 12.03.2019", "PASSPORT", "45 19 738214"),
    ("Passport (as on the IELTS booking): Z58174293", "PASSPORT", "Z58174293"),
    ("患者ID: 0004821937   病棟: 7階東", "MEDICAL_RECORD", "0004821937"),
    ("NHI (for the club first-aid kit list): ZKT4830", "MEDICAL_RECORD", "ZKT4830"),
    ("みずほ銀行 京都中央支店 普通 1284736", "BANK_ACCOUNT", "1284736"),
    (
        '{"nombre": "Carlos", "fecha_nacimiento": "1994-02-12"}',
        "DATE_OF_BIRTH",
        "1994-02-12",
    ),
    (
        '{"clabe": "012180001183598715", "plan": "basic"}',
        "BANK_ACCOUNT",
        "012180001183598715",
    ),
    (
        PAYROLL,
        "BANK_ACCOUNT",
        "2038 1234 68 6000543217",
    ),
    (
        PAYROLL,
        "IBAN",
        "ES91 2100 0418 4502 0005 1332",
    ),
    (
        "#2 | Ana Souza Lima | 318.452.907-04 | 17/03/1998 | camiseta M\n"
        "#3 | Rafael Nogueira | 704.163.528-71 | 02/11/1985 | camiseta G",
        "DATE_OF_BIRTH",
        "17/03/1998",
    ),
]


@pytest.mark.parametrize(("text", "kind", "span"), LABELLED)
def test_when_a_label_or_row_names_the_number_then_its_kind_is_found(
    text: str, kind: str, span: str
) -> None:
    assert (kind, span) in found(text)


NOT_LABELLED = [
    ("Версия А428 вышла в 2024 году", "LICENSE_PLATE"),
    ("add me to the list, docs at example.com/guide", "URL"),
    ('{"build": "2026.11.3", "port": 52214}', "DATE_OF_BIRTH"),
    (
        "| 2026-11-02 | Ana Lima | Order shipped | 2 items |\n"
        "| 2026-11-03 | Rafael Nogueira | Refund | 1 item |",
        "DATE_OF_BIRTH",
    ),
    ("Ask the passport office (open 9-5) about fees: 120 EUR", "PASSPORT"),
]


@pytest.mark.parametrize(("text", "kind"), NOT_LABELLED)
def test_when_no_label_or_row_names_a_number_then_it_is_not_that_kind(
    text: str, kind: str
) -> None:
    assert not [f for f in found(text) if f[0] == kind], found(text)
