"""Names marked by a form of address, a rank or a trailing honorific.

Forms of address are a closed class: each positive case puts an invented
name after (or, for trailing honorifics, before) one; each counter-case
puts the same word before a place, a phrase or a pronoun.
"""

from __future__ import annotations

import pytest

from anonygraph.identifiers import find_identifiers
from anonygraph.identifiers.recognizers.honorifics import HonorificNameRecognizer


def marked(text: str) -> list[str]:
    """Return the spans the honorific recognizer reads as names."""
    return [text[r.start : r.end] for r in HonorificNameRecognizer().analyze(text, [])]


def persons(text: str) -> list[str]:
    """Return the text of every PERSON the whole detector finds."""
    return [i.text for i in find_identifiers(text) if i.kind == "PERSON"]


NAMED = [
    ("A vizinha Dona Eulália Maranhão trouxe a chave ontem.", "Eulália Maranhão"),
    ("La llave la tiene Doña Chabela, la del segundo.", "Chabela"),
    ("Tolong hubungi Bapak Suryadarma untuk kuncinya.", "Suryadarma"),
    ("Ibu Kartikasari sudah transfer tadi pagi.", "Kartikasari"),
    ("Receipt countersigned by Shri Vasudev Anantharaman.", "Vasudev Anantharaman"),
    ("Mwalimu Odhiambo alituma barua jana.", "Odhiambo"),
    ("Klucze odebrała pani Wierzbicka w piątek.", "Wierzbicka"),
    ("Statement taken by Constable Okafor at 9 pm.", "Okafor"),
    ("Denuncia recibida por el cabo Quiñónez.", "Quiñónez"),
    ("paket diambil Rizwan bhai jam 5", "Rizwan"),
    ("anahtarı emre abim getirecek", "emre"),
    ("The form went to Watanabe-san on Friday.", "Watanabe-san"),
    # A birth name's marker before a surname.
    ("Mutter: Ilse Vogt geb. Krummenacher, wohnhaft in Chur", "Krummenacher"),
    ("Matka: Halina Zając z domu Wiśniewska", "Wiśniewska"),
    ("Adoptante: Ginette Pradel née LAMBERTIN, enseignante", "LAMBERTIN"),
]


@pytest.mark.parametrize(("text", "name"), NAMED)
def test_when_a_form_of_address_marks_a_name_then_it_is_a_person(
    text: str, name: str
) -> None:
    assert name in marked(text)
    assert any(name in p for p in persons(text)), persons(text)


UNNAMED = [
    # The form of address opens a place's name.
    ("We stayed two nights in Don Benito for the fair.", "Benito"),
    ("Flights to Cabo Verde are cheap in May.", "Verde"),
    # A common word after it: a course, an airline.
    ("Officer Training starts on Monday.", "Training"),
    ("She flew Pan Am in the seventies.", "Am"),
    # A pronoun or a greeting before a trailing kin word.
    ("My anna lives in Chennai now.", "My"),
    ("Sat Sri Akal ji, how are you all?", "Akal"),
    # A birth marker before a date or a place is "born on", "born in".
    ("Elle est née le 3 mai à Lyon.", "le"),
    ("Nacida Buenos Aires, 1990.", "Buenos"),
    # A lowercase word no name list holds before a trailing honorific.
    ("bada bhai will come later", "bada"),
    # A kin word that goes on into an e-mail address is no honorific.
    ("Write anna.kowalczyk@example.org for the keys.", "Write"),
]


@pytest.mark.parametrize(("text", "word"), UNNAMED)
def test_when_the_word_is_a_place_phrase_or_pronoun_then_it_is_no_name(
    text: str, word: str
) -> None:
    assert not any(word in m for m in marked(text))
