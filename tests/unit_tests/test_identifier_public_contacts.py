"""An organization's contacts under its letterhead or marked public stay; a person's go.

Each table pairs an organization's address, line, site or role mailbox
with a counter-case where the same shape is a person's.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers


def values(text: str) -> list[str]:
    """Return the text of every identifier found in ``text``."""
    return [i.text for i in find_identifiers(text)]


LETTERHEADS = [
    (
        "Harlan & Voss Tax Services — 2026 Client Intake\n"
        "Office: 880 Commerce Street, Suite 210, Tulsa, OK 74103 · (918) 555-0142\n\n"
        "Taxpayer: Dorsey Quinlan Whitcombe\nCell: (539) 204-7781",
        ["880 Commerce Street", "(918) 555-0142"],
        False,
    ),
    (
        "SUNVELD ENERGY (PVT) LTD — QUOTATION Q-2026-0319\n"
        "12 Kelvin Road North, Graniteside, Harare · +263 242 751 880\n"
        "Customer: Mrs Tendai Chikomba-Mutasa",
        ["12 Kelvin Road North", "+263 242 751 880"],
        False,
    ),
    # The customer's own lines under the letterhead stay a person's.
    (
        "SUNVELD ENERGY (PVT) LTD — QUOTATION Q-2026-0319\n"
        "Customer: Mrs Tendai Chikomba-Mutasa\n"
        "Site: 27 Bannockburn Drive, Borrowdale, Harare · +263 77 318 4902",
        ["27 Bannockburn Drive", "+263 77 318 4902"],
        True,
    ),
    # A name alone on the first line heads a person's own letter.
    (
        "Maria Lopez\n12 Elm Street, Springfield\n(415) 555-0188\n\nDear Sir,\nI write",
        ["(415) 555-0188"],
        True,
    ),
    # A writer's own line is never a letterhead's.
    (
        "Renovation quote\nMy mobile: 0412 555 019\n\nThanks, see below.",
        ["0412 555 019"],
        True,
    ),
]


@pytest.mark.parametrize(("text", "spans", "expected"), LETTERHEADS)
def test_when_a_contact_stands_in_a_letterhead_then_it_stays(
    text: str, spans: list[str], expected: bool
) -> None:
    found = values(text)
    for span in spans:
        assert any(span in v for v in found) is expected, found


PUBLIC_MARKS = [
    ("Pickup at the mas camp, 31 Ariapita Ave (public). Bring ID.", "31 Ariapita Ave"),
    (
        "Tue 14:02\nlog\n# public contact in footer: +679 672 0045. SKU SB-8FT.",
        "+679 672 0045",
    ),
    (
        "[10:11] Արտաշատ Carpets (public): մեր հեռախոսը 010 55 23 70, "
        "կայք artashat-carpets.example.am",
        "010 55 23 70",
    ),
]


@pytest.mark.parametrize(("text", "span"), PUBLIC_MARKS)
def test_when_the_line_marks_a_contact_public_then_it_stays(
    text: str, span: str
) -> None:
    assert not any(span in v for v in values(text)), values(text)


def test_when_public_speaks_of_the_writers_own_number_then_it_goes() -> None:
    found = values("Not public, my mobile is 0412 555 019, keep it to yourself.")
    assert "0412 555 019" in found


MAILBOXES = [
    ("To: counciltax@eastlothian-demo.example.gov.uk", False),
    ("write to camp.admin@porgera-demo.example.pg today", False),
    ("entries: teuila.races@samoa-tourism-demo.example.ws", False),
    ("Contact customer.relations@skypearl.example.qa", False),
    ("Apply to grants@agrifund.example.zm by May", False),
    # A person's name beside a role word keeps the mailbox theirs.
    ("write to maria.sales@shop.example.com today", True),
    ("ask jane.support@shop.example.com", True),
    ("Email: dqwhitcombe79@gmail.example.com", True),
]


@pytest.mark.parametrize(("text", "expected"), MAILBOXES)
def test_when_a_mailbox_is_made_of_role_words_then_it_stays(
    text: str, expected: bool
) -> None:
    mailbox = next(w for w in text.split() if "@" in w)
    assert (mailbox in values(text)) is expected, values(text)
