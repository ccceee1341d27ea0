"""A person's form fields whose label no rule knows, typed by the value's shape.

Each row: a form, the span, and whether the span is found as the kind
(True) or stays (False). The labels are words no label table lists
("Sünnipäevake", "Elukohtur", "Tunnuskood"), so only the value's shape
and the lines above it (a person's name or ID) decide; the look-alikes
are the same shapes under an event's, a thing's or an office's label, or
in a form about no one.
"""

from __future__ import annotations

from datetime import date

import pytest

from anonygraph.identifiers.form_values import form_values
from anonygraph.identifiers.identifier import Identifier
from tests.unit_tests.test_identifier_kinds import check

NAME = "Name: Liisbet Kaarmann-Oja\n"

BIRTH_DATES = [
    (NAME + "Sünnipäevake: 17.02.1983\n", "17.02.1983", True),
    (NAME + "Gimsdag: 4 hurrimánuður 1979\n", "4 hurrimánuður 1979", True),
    (NAME + "Kelder: Loka 5, 1991\n", "Loka 5, 1991", True),
    (NAME + "Sünnipäevake: 1983-02-17, Pärnu\n", "1983-02-17", True),
    # A time of day beside it: an appointment's.
    (NAME + "Vastuvõtt: 17.02.1983 14:30\n", "17.02.1983", False),
    # A label that names an event (an issue, an expiry), in English words.
    (NAME + "Issued: 17.02.1983\n", "17.02.1983", False),
    # Ahead of today: an expiry or a booking.
    (NAME + "Kehtiv: 17.02.2041\n", "17.02.2041", False),
    # The person's second date is an event's (a baptism after the birth).
    (
        NAME + "Sünnipäevake: 17.02.1983\nRistitud: 30.04.1983\n",
        "30.04.1983",
        False,
    ),
    # A form about no one: a shop's stock sheet.
    ("Kaubanimi: tee\nSaabunud: 17.02.1983\n", "17.02.1983", False),
    # Without a colon, words lead to an adult's birth date on its own line.
    (NAME + "Sündinud Viljandis 17.02.1983\n", "17.02.1983", True),
    # ... but not to a recent date, nor to one a sentence goes on after.
    (NAME + "Saabus Viljandisse 17.02.2025\n", "17.02.2025", False),
    (NAME + "Kolis 17.02.1983 Tartusse ja jäi\n", "17.02.1983", False),
]

ADDRESSES = [
    (
        NAME + "Elukohtur: Vana-Tänava 14-3, Haapsalu, 90502\n",
        "Vana-Tänava 14-3, Haapsalu, 90502",
        True,
    ),
    (
        NAME + "Kodunurk: Mwinyi kitalu 27, Mbezi Beach, Dar es Salaam\n",
        "Mwinyi kitalu 27, Mbezi Beach, Dar es Salaam",
        True,
    ),
    # After the person's name and a contract's code on the same line.
    (
        "Name: Liisbet Kaarmann-Oja, leping KL-TRT-00419, Ülikooli 18, Pärnu 80010\n",
        "Ülikooli 18, Pärnu 80010",
        True,
    ),
    # A list of product versions is no address.
    (
        NAME + "Oskused: Django 5, Vue 3, Kotlin 2\n",
        "Django 5, Vue 3, Kotlin 2",
        False,
    ),
    # Quantities and a price.
    (
        NAME + "Tellimus: 3 lauda, 12 tooli, 240 kg\n",
        "3 lauda, 12 tooli, 240 kg",
        False,
    ),
    # An organization's seat under an office label.
    (
        NAME + "Office: Harbour Works Ltd, 9 Quay Road, Tallinn\n",
        "Harbour Works Ltd, 9 Quay Road, Tallinn",
        False,
    ),
]

CODES = [
    (NAME + "Tunnuskood: QX7305518\n", "QX7305518", True),
    (NAME + "Isikunumber kaart: 58 2204 7719\n", "58 2204 7719", True),
    # A thing's number ("Order"), a price, a version, a reference's letters.
    (NAME + "Order no.: 58220477\n", "58220477", False),
    (NAME + "Hind: 74 500 XOF\n", "74 500 XOF", False),
    (NAME + "Tarkvara: 12.4.0811\n", "12.4.0811", False),
    (NAME + "Viide: HRB/KLT/2026/4410\n", "HRB/KLT/2026/4410", False),
    # Short groups: a phone's or a file's.
    (NAME + "Kontor: 27 55 81 90\n", "27 55 81 90", False),
    # A form about no one.
    ("Toode: tee\nTunnuskood: QX7305518\n", "QX7305518", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), BIRTH_DATES)
def test_when_a_past_date_is_the_first_under_a_persons_name_then_it_is_a_dob(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "DATE_OF_BIRTH", span, expected=expected)


@pytest.mark.parametrize(("text", "span", "expected"), ADDRESSES)
def test_when_numbered_parts_end_in_a_place_under_a_name_then_it_is_an_address(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "ADDRESS", span, expected=expected)


@pytest.mark.parametrize(("text", "span", "expected"), CODES)
def test_when_one_code_stands_under_a_persons_name_then_it_is_an_id(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "NATIONAL_ID", span, expected=expected)


CLAUSES = [
    ("Name: Aurelio Pintacuda, venuto al mondo il 05/08/1961.", "05/08/1961", True),
    (
        "Name: Kristjan Møller-Vang, føddur 14.09.1977, býr í Klaksvík.",
        "14.09.1977",
        True,
    ),
    # A clause that names an event: a wedding, an employment.
    ("Name: Aurelio Pintacuda, married on 05/08/1991, in Bari.", "05/08/1991", False),
    ("Name: Aurelio Pintacuda, employed since 05/08/1991.", "05/08/1991", False),
]


@pytest.mark.parametrize(("text", "span", "expected"), CLAUSES)
def test_when_a_clause_of_a_persons_sentence_leads_to_a_date_then_events_stay(
    text: str, span: str, *, expected: bool
) -> None:
    check(text, "DATE_OF_BIRTH", span, expected=expected)


def test_when_the_year_is_less_than_one_back_then_the_date_is_no_birth() -> None:
    text = "Name: Liisbet Kaarmann-Oja\nSündinud: 02.03.2030\n"
    person = Identifier("PERSON", 6, 26, text[6:26], 0.85, "test")
    on_the_day = form_values(text, [person], today=date(2030, 6, 1))
    a_year_on = form_values(text, [person], today=date(2031, 6, 1))
    assert [i.kind for i in on_the_day] == []
    assert [(i.kind, i.text) for i in a_year_on] == [("DATE_OF_BIRTH", "02.03.2030")]
