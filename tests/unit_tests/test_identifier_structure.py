"""Identifiers told by the structure around them, in texts of any language.

Each table pairs a find with a counter-case: an organization's line in a
heading or beside its name stays while a person's number beside theirs
goes; a role mailbox stays while a person's address goes.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers


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
