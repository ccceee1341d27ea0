"""Names read off a form's shape: a field whose whole value is a name's words.

The labels here are ones no person-label list holds; the form (three
labelled lines or more) and the value's shape carry the cue. Each
counter-case is a value of the same shape that a label or its words say
is no one: a vehicle, a place, a status, a firm.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers
from anonygraph.identifiers.recognizers.form_names import (
    FormValueNameRecognizer,
    name_shaped,
)


def names_found(text: str) -> list[str]:
    """Return the values the form recognizer reads as names."""
    return [text[r.start : r.end] for r in FormValueNameRecognizer().analyze(text, [])]


def persons(text: str) -> list[str]:
    """Return the text of every PERSON the whole detector finds."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


FORMS = [
    (
        "Anmeldung Segelkurs\nSkipperin: Wiebke Oltmanns-Rauh\n"
        "Geburtsdatum: 03.04.1991\nTelefon: 0171 2233445",
        "Wiebke Oltmanns-Rauh",
    ),
    (
        "Fiche de sortie\nAccompagnateur: Koffi Mensah Adjovi, enseignant\n"
        "Date: 12/03/2026\nTél: 90 11 22 33",
        "Koffi Mensah Adjovi",
    ),
    (
        "Наставник: Олеся Григорьевна Ткач\nГруппа: 4Б\nТелефон: 8 900 123 45 67",
        "Олеся Григорьевна Ткач",
    ),
    ("受付票\n担当者：北条 紗季\n日付：2026年3月1日\n電話：03-1234-5678", "北条 紗季"),
    (
        "Dhamini: Wanjiru Njeri Kamau (shangazi)\nTarehe: 01/02/2026\n"
        "Simu: 0722 000 111",
        "Wanjiru Njeri Kamau",
    ),
    (
        "Prüfbericht\nPrüferin: Dr. Anna-Lena Weißgerber\nDatum: 02.02.2026\n"
        "Ergebnis: bestanden",
        "Anna-Lena Weißgerber",
    ),
    # A surname in capitals beside given names, a numbered label, an initial.
    (
        "Dossier 4\nRequérant 1: KPODAR Edem Yaovi, né le 02/02/1980\n"
        "Téléphone: 90 00 00 00\nFrais: 5000 F",
        "KPODAR Edem Yaovi",
    ),
    (
        "Paid 2026-03-06. Checked: yes. Counted by: T. Mokoena.\nBales: 4\nGross: 80",
        "T. Mokoena",
    ),
    # One word: a listed name; one the model also knows as a word needs a
    # bracket of details after it.
    ("Rapport\nRéférente: Leokadia.\nDate: 02/02/2026\nSalle: 4", "Leokadia"),
    ("Shift log\nHanded over to: Desmond (nights)\nKeys: 3\nAlarm: set", "Desmond"),
    (
        "Trip log\nSigned off by: Taavi Rebane.\nHours: 6\nFuel: 40 l",
        "Taavi Rebane",
    ),
]


@pytest.mark.parametrize(("text", "name"), FORMS)
def test_when_a_form_field_holds_a_names_words_then_it_is_a_person(
    text: str, name: str
) -> None:
    assert name in names_found(text)
    assert any(name in p for p in persons(text)), persons(text)


NOT_NAMES = [
    # The label names a vehicle, a place, an employer: its value is none.
    ("Автомобиль: Lada Vesta\nЦвет: белый\nПробег: 42000 км", "Lada Vesta"),
    ("Destination: Puerto Montt\nDeparture: 06:40\nSeat: 14C", "Puerto Montt"),
    ("Employer: Harbour Lights Bakery\nStart: 2026-01-05\nHours: 30", "Harbour"),
    # Words of the language model's vocabulary: a status, an amount.
    ("Order 5521\nStatus now: Awaiting Payment\nTotal: 45.00\nRef: Q-77", "Awaiting"),
    ("Amount in words: Two Hundred\nDate: 02/02/2026\nRef: 881", "Two Hundred"),
    # A firm's legal form, in capitals with stops.
    ("Supplier ref: Dijkstra Bouw B.V.\nInvoice: 2026-114\nDue: 30 days", "B.V"),
    # A work's author is a public name, no private person's.
    (
        "Title: Cien años de soledad\nAuthor: Gabriel García Márquez\n"
        "Shelf: 4B\nCondition: good",
        "Gabriel",
    ),
    # One word that is also a common word, with no bracket after it.
    ("Order 88\nColour: Rose\nSize: 40\nQty: 2", "Rose"),
    # One word that is a town.
    ("Anmeldung\nWohnt in: Speyer\nKlasse: 7b\nTel: 06232 1234", "Speyer"),
    # A code in capitals, a street.
    ("Depot: NORTH YARD\nShift: 2\nGate: 4", "NORTH YARD"),
    ("Meeting point: Calle Mayor\nTime: 10:00\nGuide phone: 600 111 222", "Calle"),
]


@pytest.mark.parametrize(("text", "value"), NOT_NAMES)
def test_when_a_form_value_is_a_thing_place_or_phrase_then_it_is_no_name(
    text: str, value: str
) -> None:
    assert not any(value in v for v in names_found(text))


def test_when_a_record_has_fewer_than_three_labelled_lines_then_no_value_is_read() -> (
    None
):
    text = "We met at noon.\nNote: Taavi Rebane\nThe rest went well."
    assert names_found(text) == []


@pytest.mark.parametrize(
    ("value", "shaped"),
    [
        ("Momo Akgül", True),
        ("Zelia da Costa", True),
        ("Sofia da", False),  # a particle cannot end a name
        ("Full Refund", False),
        ("ACME LTD", False),
        ("大河内 蓮", True),
        ("大河内蓮", False),  # one run of Han letters: no word break to read
    ],
)
def test_when_a_value_is_checked_then_only_a_names_shape_passes(
    value: str, shaped: bool
) -> None:
    assert name_shaped(value) is shaped
