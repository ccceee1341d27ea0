"""An organization's contacts told by the clause, row or footer they stand in.

Each table pairs an organization's line, site, mailbox or address (or a
thing's number: a pet's chip, a handset's IMEI) with a counter-case where
the same shape is a person's and is still replaced.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers


def found_in(text: str, span: str) -> bool:
    """Tell whether a find of ``text`` holds ``span``."""
    return any(span in i.text for i in find_identifiers(text))


ORG_CLAUSE_SITES = [
    # The site or desk mailbox after the organization's name and number.
    (
        "Museo Riva - Mostra estiva\nDal 5 giugno al 6 settembre, Sala 3.\n"
        "Info e prenotazioni: 06 5550 7800, www.museoriva.example.it",
        "www.museoriva.example.it",
        False,
    ),
    (
        "Crew list\nVessel: MV Amani Grace · Agent: Pelican Freight Agency, "
        "+254 20 555 0101, ops@pelicanfreight.example.ke",
        "ops@pelicanfreight.example.ke",
        False,
    ),
    # A person in the clause makes the mailbox theirs.
    (
        "Crew list\nVessel: MV Amani Grace · Agent: Otieno Kamau, "
        "+254 722 555 010, ops@pelicanfreight.example.ke",
        "ops@pelicanfreight.example.ke",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), ORG_CLAUSE_SITES)
def test_when_a_site_follows_an_organization_in_its_clause_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


CONTACT_ROWS = [
    # A row of fields closed by a role mailbox is the organization's.
    (
        "Booking confirmed — Kowhai Cowork, Picton\n"
        "9 Quay Street, Picton 7220 · 03 555 0199 · hello@kowhaicowork.example.nz\n\n"
        "Member: Aroha Ngata\nDesk: F-12",
        "9 Quay Street",
        False,
    ),
    # The member's own row, with her own mailbox, stays hers.
    (
        "Booking confirmed — Kowhai Cowork, Picton\n\n"
        "Member: Aroha Ngata\n"
        "14 Hill Road, Blenheim 7201 · aroha.ngata@mail.example.nz\nDesk: F-12",
        "14 Hill Road",
        True,
    ),
    # A kept contact may not spell a person's name found in the text.
    (
        "Ufficio Anagrafe, Comune di Rocca\n"
        "Pratica 12 · Via Bertolli 4, Rocca · 0549 555 010 · "
        "anagrafe@rocca.example.sm\n\n"
        "Richiedente: Marta Bertolli\nTelefono: 335 555 0142",
        "Via Bertolli 4",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), CONTACT_ROWS)
def test_when_a_row_holds_an_organizations_mailbox_then_its_contacts_stay(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


ORG_NUMBERS = [
    # "The <organization>'s number", even beside a person's name.
    (
        "Tell Uncle Sione the library's number is 676 555 0123 if he asks.",
        "676 555 0123",
        False,
    ),
    ("The rowing society's number (01632 960 733) rings out.", "01632 960 733", False),
    (
        "Permits come from the harbour office 01632 960 734 on weekdays.",
        "01632 960 734",
        False,
    ),
    # A compound ending in an office's noun, a noun in a script without spaces.
    ("Anmeldung über das Sportbüro: Tel. 0711 555 0134", "0711 555 0134", False),
    ("予約：さくら歯科医院（03-5555-0123）", "03-5555-0123", False),
    # The same shapes given as a person's own line.
    (
        "Tell Uncle Sione the nurse's number is 676 555 0123 if he asks.",
        "676 555 0123",
        True,
    ),
    (
        "Permits come from Ana Lopes on 01632 960 734 on weekdays.",
        "01632 960 734",
        True,
    ),
    ("Anmeldung über Frau Ilse Brandt: Tel. 0711 555 0134", "0711 555 0134", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), ORG_NUMBERS)
def test_when_a_number_is_an_organizations_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


FOOTERS = [
    # An organization's text that closes by offering its line in a sentence.
    (
        "HARBOUR VIEW MEDICAL CENTRE\nPatient: Lena Okafor\nReview booked for 3 May.\n"
        "For changes please call 01632 960 412.",
        "01632 960 412",
        False,
    ),
    # The record's person's line after a label, or a name before the number.
    (
        "HARBOUR VIEW MEDICAL CENTRE\nPatient: Lena Okafor\nReview booked for 3 May.\n"
        "Phone: 07700 900 415",
        "07700 900 415",
        True,
    ),
    (
        "HARBOUR VIEW MEDICAL CENTRE\nPatient: Lena Okafor\nReview booked for 3 May.\n"
        "If she is late, ring Tamati, 07700 900 416.",
        "07700 900 416",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), FOOTERS)
def test_when_an_organizations_text_ends_offering_its_line_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


WEB_PIECES = [
    # A country's domain ("….me", "….my") is no writer's "me" or "my".
    (
        "INVOICE INV-2026-0412\n"
        "Kopi Lane Cowork, Level 3, Menara Seri, billing@kopilane.example.my\n"
        "Bill to: Farah Nadia binti Osman\nTel: +60 12-555 0183",
        "Level 3, Menara Seri",
        False,
    ),
    # The writer's own word on the line still makes it theirs.
    (
        "INVOICE INV-2026-0412\n"
        "My office: Level 3, Menara Seri, farah@kopilane.example.my\n"
        "Bill to: Farah Nadia binti Osman\nTel: +60 12-555 0183",
        "Level 3, Menara Seri",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), WEB_PIECES)
def test_when_a_domain_spells_an_own_word_then_the_letterhead_still_stands(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


DEVICE_NUMBERS = [
    # A pet's chip or a handset's IMEI is a thing's number.
    (
        "Hi Tom, Juniper (microchip 956000014720031) is due her booster.",
        "956000014720031",
        False,
    ),
    ("Lost: a phone, IMEI 353918053641207, black case.", "353918053641207", False),
    ("マイクロチップ番号：392141000771205", "392141000771205", False),
    # The owner's own line beside it is still theirs.
    (
        "Hi Tom, Juniper (microchip 956000014720031) is due; "
        "owner mobile +44 7700 900417.",
        "+44 7700 900417",
        True,
    ),
]


@pytest.mark.parametrize(("text", "span", "expected"), DEVICE_NUMBERS)
def test_when_a_number_follows_a_chip_or_imei_label_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


REFERENCES_AND_DATES = [
    # A German reference compound before a number; days of a month.
    ("Lieferung Bestellnr. 4500178812 erwartet KW 48", "4500178812", False),
    ("Camp: 6-10 July 2026, 9:30am drop-off at the lodge", "6-10 July", False),
    # A number an ID label names is no postcode.
    ("Claim EXP-77 - sent by Rhys Mabry (staff ID 40219)", "40219", False),
    # A person's own compound label, a street's number and name, stay found.
    ("Kundin Ilse Brandt, Telefonnr. 0171 555 0182", "0171 555 0182", True),
    ("Ship to: Ilse Brandt, 6-10 Jubilee Road, Leeds", "6-10 Jubilee Road", True),
    ("Address: 2906 Larch Dr, Boise, ID 83704   Phone: 208-555-0199", "83704", True),
]


@pytest.mark.parametrize(("text", "span", "expected"), REFERENCES_AND_DATES)
def test_when_a_number_is_a_reference_or_a_date_then_it_stays(
    text: str, span: str, expected: bool
) -> None:
    assert found_in(text, span) is expected


@pytest.mark.parametrize(
    ("text", "address"),
    [
        # A street's name ends at its sentence's stop: the next sentence's
        # number is no house number.
        ("Her bakery was on Via Ostiense. Add 3 eggs and beat well.", "Via Ostiense"),
        # Counter-cases: an abbreviation's dot stays inside the name.
        ("Post it to Calle Gral. Prim 14, Madrid.", "Calle Gral. Prim 14"),
        ("Vivo en Av. Pres. Vargas 1200, Rio.", "Av. Pres. Vargas 1200"),
    ],
)
def test_when_a_sentence_ends_after_a_street_then_the_address_ends_there(
    text: str, address: str
) -> None:
    found = [i.text for i in find_identifiers(text) if i.kind == "ADDRESS"]
    assert found == [address]
