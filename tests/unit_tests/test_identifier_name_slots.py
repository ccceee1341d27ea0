"""Where a line puts a person: a field's value, a list's item, a numbered entry.

Each class has a counter-case of the same shape that the line says is no
one: a place's or a product's label, a field that runs on, a word of the
model's vocabulary, a sentence instead of an entry.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers
from anonygraph.identifiers.person_spans import _label_names
from anonygraph.identifiers.recognizers.name_checks import (
    looks_like_name,
    title_word_length,
)
from anonygraph.identifiers.recognizers.name_slots import (
    in_person_slot,
    word_in_person_slot,
)


def span(text: str, value: str) -> tuple[str, int, int]:
    """Return ``text`` and the span of ``value`` in it."""
    start = text.index(value)
    return text, start, start + len(value)


SLOTS = [
    # A labelled field's whole value, ended by a stop, a bracket, a dash.
    ("Caisse 2, caissier : Ibrahima Ndao. Merci.", "Ibrahima Ndao", True),
    ("Responsable : Ouédraogo Awa (poste 14)", "Ouédraogo Awa", True),
    ("Invitée: Keiko Hanazawa — chambre 12", "Keiko Hanazawa", True),
    ("Contact d'urgence : Mme Yeo Aminata, 07 00 00 00", "Yeo Aminata", True),
    # An item of the field's list, earlier items with their brackets.
    ("Excused: Thandeka (sick), Lwazi.\nNext", "Lwazi", True),
    # A numbered line's first field, and another spelling in brackets.
    ("Putnici:\n2. Ostojić Vuk, rođen 1990", "Ostojić Vuk", True),
    ("Owner: Анна Иванова (Anna Ivanova), ID 44", "Anna Ivanova", True),
    ("1. Олег Ким (Oleg Kim), pasoš 7", "Oleg Kim", True),
    # Counter-cases: a place's or a product's label, a field running on,
    # a sentence with a bracket, a numbered sentence.
    ("Ville : Kaolack.\nTél", "Kaolack", False),
    ("Produit : Riz Parfumé, 25 kg", "Riz Parfumé", False),
    ("Caissier : Ibrahima Ndao a signé le reçu", "Ibrahima Ndao", False),
    ("We met Anna Ivanova (Anna) at noon.", "Anna", False),
    ("2. Ostojić Vuk said he would come", "Ostojić Vuk", False),
    ("Note that Keiko Hanazawa called.", "Keiko Hanazawa", False),
    # An earlier item with a lowercase word is an address's part: the list
    # is an address, its last item a town.
    ("Tenant: Ama Boateng, Asafo estate, Kumasi", "Kumasi", False),
    ("Present: Ana de Souza, Kofi.", "Kofi", True),
]


@pytest.mark.parametrize(("text", "value", "expected"), SLOTS)
def test_when_a_find_stands_in_a_lines_slot_then_the_slot_says_person(
    text: str, value: str, expected: bool
) -> None:
    assert in_person_slot(*span(text, value)) is expected


ONE_WORDS = [
    ("Agent : Ndikumana (guichet 2)", "Ndikumana", True),
    ("Referente: Gildo.", "Gildo", True),
    ("Apologies: Thandeka, Lwazi.\n", "Thandeka", True),
    # A word of the model's vocabulary, a town, a lowercase value.
    ("Referente: Urgent.", "Urgent", False),
    ("Lieu : Kaolack.\n", "Kaolack", False),
    ("Agent : ndikumana (guichet 2)", "ndikumana", False),
]


@pytest.mark.parametrize(("text", "value", "expected"), ONE_WORDS)
def test_when_one_word_is_a_fields_value_then_it_counts_only_as_a_name_shape(
    text: str, value: str, expected: bool
) -> None:
    assert word_in_person_slot(*span(text, value)) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Mme KABORÉ Awa", len("Mme ")),
        ("Dr Ama Owusu", len("Dr ")),
        # Two words keep their first; a word no list of titles holds stays.
        ("Don Carlos", 0),
        ("Awa KABORÉ Traoré", 0),
    ],
)
def test_when_a_title_opens_a_longer_name_then_its_length_is_told(
    value: str, expected: int
) -> None:
    assert title_word_length(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Ravi S. Menon", True),
        ("Sri K. Raman", True),
        ("Ravi SBI Menon", False),  # a bank's letters inside are no initial
        ("ACME Ltd", False),
    ],
)
def test_when_a_name_holds_an_initial_then_it_still_looks_like_a_name(
    value: str, expected: bool
) -> None:
    assert looks_like_name(value) is expected


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Rückzahlung an Vermieterin Ilse Brandauer: 400 €", "Ilse Brandauer", True),
        ("Paid to Tomas Reyes: 40 USD", "Tomas Reyes", True),
        ("More Photos: https://example.org/a", "More Photos", False),
        ("Scan the QR: 1234", "QR", False),
    ],
)
def test_when_a_full_name_closes_a_label_after_a_lowercase_word_then_it_is_named(
    text: str, value: str, expected: bool
) -> None:
    _, start, _ = span(text, value)
    assert _label_names(text, start, value) is expected


def persons(text: str) -> list[str]:
    """Return the text of every PERSON the whole detector finds."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


DETECTED = [
    # The model's find in a line not in English, in a field's slot.
    (
        "Bon de pesée n° 12, campagne 2026\nBascule n° 2, peseur : Moussa "
        "Zongo. Réclamations au 25 00 11 22.\nPoids net : 800 kg",
        "Moussa Zongo",
    ),
    # A form's value with a title before a surname in capitals.
    (
        "Fiche\nProducteur : KONÉ Issa\nSecrétaire : Mme SANOU "
        "Mariam, 70 11 22 33\nDate : 02/02/2026",
        "Mme SANOU Mariam",
    ),
]


@pytest.mark.parametrize(("text", "name"), DETECTED)
def test_when_the_line_puts_a_name_in_a_persons_slot_then_it_is_found(
    text: str, name: str
) -> None:
    assert name in persons(text)


NOT_DETECTED = [
    # A place's field in the same shape stays text.
    (
        "Bon de pesée n° 12, campagne 2026\nBascule n° 2, ville : Fada "
        "Ngourma. Réclamations au 25 00 11 22.\nPoids net : 800 kg",
        "Fada Ngourma",
    ),
]


@pytest.mark.parametrize(("text", "word"), NOT_DETECTED)
def test_when_a_places_field_has_a_names_shape_then_no_person_is_found(
    text: str, word: str
) -> None:
    assert not any(word in p for p in persons(text))


LANGUAGES = [
    # A language's name in Babel's data is no one (nor "French" joined to
    # it by "and"); a language's name that is also a listed name stays one.
    (
        "I teach at a primary school in Gitega. In our house we speak Kirundi "
        "and French, and my wife sells mangoes.",
        "Kirundi",
        False,
    ),
    (
        "I teach at a primary school in Gitega. In our house we speak Kirundi "
        "and French, and my wife sells mangoes.",
        "French",
        False,
    ),
    ("I'm 52, a nurse in Male. I speak Dhivehi and some Hindi.", "Dhivehi", False),
    (
        "My friend Cheyenne runs a bakery in Tulsa, call her on 918-555-0143.",
        "Cheyenne",
        True,
    ),
]


@pytest.mark.parametrize(("text", "word", "expected"), LANGUAGES)
def test_when_the_model_finds_a_languages_name_then_it_is_no_person(
    text: str, word: str, expected: bool
) -> None:
    assert (word in persons(text)) is expected


CAPITALS = [
    # A full name in capitals after a label, first word a given name.
    ("Pass data:\n  Name: MARTA OLIVARES PUIG · DNI 48213970J", "MARTA OLIVARES PUIG"),
    # A found surname written again in capitals on the same form.
    (
        "Nom : TAHRAOUI — Prénom : Yamina\nAccompagnateur : son fils Karim "
        "Tahraoui, tél. 0770 25 19 64",
        "TAHRAOUI",
    ),
]


@pytest.mark.parametrize(("text", "name"), CAPITALS)
def test_when_a_name_is_written_in_capitals_in_a_field_then_it_is_found(
    text: str, name: str
) -> None:
    assert name in persons(text)


NO_CAPITALS = [
    # Capitals that open with no given name, or a name word that is English.
    ("Ticket 4471\nStatus: ON HOLD\nPlan: GOLD PLUS\nPhone: 020 7946 0018", "ON HOLD"),
    ("Ask Will Baxter on 020 7946 0018.\nI WILL be late tomorrow.", "WILL"),
]


@pytest.mark.parametrize(("text", "word"), NO_CAPITALS)
def test_when_capitals_name_no_one_then_they_stay(text: str, word: str) -> None:
    assert word not in persons(text)


NICKNAMES = [
    # A nickname in quotes between a name's words says a person.
    ('Skipper: Anselmo "Tico" Fortes, tel. 991 2233', 'Anselmo "Tico" Fortes'),
    (
        "Conducteur : Jean-Marc « Ti Marc » Payet, né le 01/02/1980",
        "Jean-Marc « Ti Marc » Payet",
    ),
]


@pytest.mark.parametrize(("text", "name"), NICKNAMES)
def test_when_a_nickname_in_quotes_stands_inside_a_name_then_the_whole_is_found(
    text: str, name: str
) -> None:
    assert name in persons(text)


@pytest.mark.parametrize(
    "text",
    [
        'We watched Operation "Desert" Storm clips. Call 020 7946 0018.',
        'The "Big" Apple never sleeps. Call 020 7946 0018.',
    ],
)
def test_when_a_quoted_word_stands_in_a_title_then_no_person_is_found(
    text: str,
) -> None:
    assert persons(text) == []


SPELLED_AGAIN = [
    # A field's value before a bracket holding a found person's name.
    ("Branch manager: Ti Pè (Pierre Altéus)\nTel: 3344 5566", "Ti Pè", True),
    # Lowercase words before the bracket are a sentence, not a name.
    (
        "Please write to our support team (Pierre Altéus), tel 3344 5566",
        "support team",
        False,
    ),
]


@pytest.mark.parametrize(("text", "value", "expected"), SPELLED_AGAIN)
def test_when_a_value_stands_before_a_bracketed_name_then_it_is_that_person(
    text: str, value: str, expected: bool
) -> None:
    assert any(value in p for p in persons(text)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A cue inside another cue's name: "ask for" takes Karim, "cousin"
        # takes Yusra.
        (
            "If the shop is shut, ask for Karim's cousin Yusra at the counter, "
            "call 0612 345 678.",
            ["Karim's", "Yusra"],
        ),
        # The kin word with no name after it names no one more.
        (
            "If the shop is shut, ask for Karim's cousin at the counter, "
            "call 0612 345 678.",
            ["Karim's"],
        ),
    ],
)
def test_when_a_label_cue_stands_inside_another_cues_name_then_both_names_count(
    text: str, expected: list[str]
) -> None:
    assert persons(text) == expected
