"""Names after a person's role label in any script; the model's non-English headings.

Each table pairs a person's name found by its label, its column or the
line around it with a counter-case: a chat's speaker turn, a product
column, a heading or a product in a line not in English.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers


def persons(text: str) -> list[str]:
    """Return the text of every PERSON found in ``text``."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


ROLE_LABELS = [
    (
        "x\nСтудент: Ярошевич Алеся Михайловна, группа АГ-21",
        "Ярошевич Алеся Михайловна",
    ),
    (
        "x\nRemitente: Yuleisy del Carmen Chirinos, C.I. V-18734562",
        "Yuleisy del Carmen",
    ),
    ("x\n入居者氏名：宮坂 瑞穂（みやさか みずほ）\n生年月日：1994年", "宮坂 瑞穂"),
    ("x\nالمشترك: جورجيت إلياس خوري\nالهاتف: 03 418 276", "جورجيت إلياس خوري"),
    ("x\nကျောင်းသားအမည် − မောင်ထက်ဝေယံ\nx", "မောင်ထက်ဝေယံ"),
    ("Borrower: Ma. Cristina Dela Cruz-Villanueva\nMobile: 0917", "Cristina Dela"),
    ("x\nName, Vorname: Schwarzkopf, Lioba\nGeburtsort: Kitzingen", "Lioba"),
    ("x\nCustomer / العميل: سالم بن حمد الحارثي (Salim)\nx", "سالم بن حمد الحارثي"),
    ("Retrait prévu : 13/03/2026. Technicien : Yao (code T-07).", "Yao"),
    ("x\nPersoană de contact suplimentară: Ion (fiul), 068 305 911.", "Ion"),
    (
        "team_id,member,role,email\nT-031,Aizhan Toktogulova,lead,a@b.example.kg\n"
        "T-031,Saltanat,design,s@c.example.ru",
        "Saltanat",
    ),
]


@pytest.mark.parametrize(("text", "span"), ROLE_LABELS)
def test_when_a_role_label_or_a_name_column_presents_a_name_then_it_is_a_person(
    text: str, span: str
) -> None:
    assert any(span in p for p in persons(text)), persons(text)


NOT_NAMES = [
    # A label that opens several lines is a chat's speaker: the turn is no name.
    (
        "العميل: السلام عليكم، اشتريت غسالة\nالموظف: وعليكم السلام\n"
        "العميل: إذا كان فيه استرداد، الحساب",
        "السلام عليكم",
    ),
    ("name;price;sku\nKettle Deluxe;49.00;KT-200", "Kettle Deluxe"),
    ("Member: Gold\nRenewal: 2026-04-01", "Gold"),
    ("Technician: Dyson\nModel: V11", "Dyson"),
    ("Client: Universidade Kwanza Sul\nTel: 222 000 111", "Universidade Kwanza Sul"),
]


@pytest.mark.parametrize(("text", "span"), NOT_NAMES)
def test_when_a_label_presents_no_name_then_it_is_no_person(
    text: str, span: str
) -> None:
    assert not any(span in p or p in span for p in persons(text)), persons(text)


FOREIGN_LINES = [
    (
        "Ziua Națională a Vinului 2026 — Fișă de înregistrare expozant\n"
        "Persoană fizică: Vasilisa Ciobanu",
        "Ziua Națională",
    ),
    ("REMESAS ORINOCO EXPRESS · Comprobante de envío #RX-88301947\nx", "Comprobante"),
    (
        "x\nProduse: Rară Neagră 2022 (0,75 l, 180 lei), "
        "Fetească Albă 2024 (240 sticle).",
        "Rară Neagră",
    ),
]


@pytest.mark.parametrize(("text", "span"), FOREIGN_LINES)
def test_when_the_model_reads_a_heading_not_in_english_then_it_is_no_person(
    text: str, span: str
) -> None:
    assert not any(span in p for p in persons(text)), persons(text)


PERSONS_IN_FOREIGN_LINES = [
    (
        "De una parte, D. Íñigo Etxeberria Zubizarreta, mayor de edad, con DNI "
        "12345678Z, en adelante el arrendatario.",
        "Etxeberria Zubizarreta",
    ),
    (
        "Savollar: +998 71 200 55 00. Shifokoringiz Rustam Yusupov sizga "
        "+998 90 123 45 67 raqamidan qo'ng'iroq qiladi.",
        "Rustam",
    ),
    ("Gate 2, 6-10 am: Bikash Shrestha (9841234567), kitchen", "Bikash Shrestha"),
]


@pytest.mark.parametrize(("text", "span"), PERSONS_IN_FOREIGN_LINES)
def test_when_a_title_or_a_contact_stands_by_a_foreign_name_then_it_is_a_person(
    text: str, span: str
) -> None:
    assert any(span in p for p in persons(text)), persons(text)


def test_when_a_street_word_precedes_the_models_name_then_it_goes_as_the_address() -> (
    None
):
    text = (
        "entre el Sr. Osvaldo Benítez, domiciliado en Calle Mcal. Estigarribia 1520 "
        "c/ Tomás Romero Pereira, Encarnación, tel. (0985) 612 447."
    )
    found = [(i.kind, i.text) for i in find_identifiers(text)]
    assert not any(k == "PERSON" and "Romero" in t for k, t in found), found
    assert any(k == "ADDRESS" and "Romero" in t for k, t in found), found


@pytest.mark.parametrize(
    ("text", "bracket", "expected"),
    [
        ("x\n緊急連絡先：宮坂 浩司（父）090-6218-4457", "父", False),
        ("x\n入居者氏名：宮坂 瑞穂（みやさか みずほ）\nx", "みやさか みずほ", True),
    ],
)
def test_when_a_bracket_after_a_name_holds_one_letter_then_it_is_no_name(
    text: str, bracket: str, expected: bool
) -> None:
    assert (bracket in persons(text)) is expected, persons(text)
