"""A name beside a form of address, a rank, a birth name's marker or an honorific.

Forms of address are a closed grammatical class, listed once here across
the languages we read: "Dona Benedita", "Bapak Sutrisno", "Shri Ramesh
Kulkarni", "Mwalimu Kiprono", "pani Kowalska", "cabo Ayala", "Officer
Nuñez". The capitalized words after one are a person's name. Some
languages put the honorific after the name ("Ahsan bhai", "murat abim",
"Tanaka-san"): the word before one is a name. A birth name's marker ("née",
"geb.", "rođ.", "z domu") stands before a surname.

A word after a form of address must still look like a name: in title case,
no lowercase word of the language model's vocabulary that no name list
holds ("Officer Training"), no place of the gazetteer ("Don Benito" is a
town). A lowercase word before a trailing honorific must be a given name
some name list holds ("deepak bhaiya"; "bada bhai" is a phrase).
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.name_checks import known_names, model_words
from anonygraph.tools import kept_patterns

ADDRESS_FORMS = (
    # Portuguese, Spanish, Italian
    "Dona|Doña|Don|Dña|Srta|Sig|Sig\\.ra|Avv|"
    # Malay, Indonesian, Thai
    "Bapak|Pak|Ibu|Bu|Encik|Cik|Tuan|Puan|Haji|Hajjah|Datuk|Dato|Kak|Abang|"
    "Mbak|Khun|"
    # South Asian, Arabic and West African
    "Shri|Shree|Smt|Shrimati|Kumari|Janab|Begum|Sheikh|Shaikh|Sayyid|Ustaz|"
    "Ustadh|Alhaji|Alhaja|Hajiya|"
    # Swahili
    "Bwana|Mzee|Mwalimu|"
    # Polish, Czech, Slovak
    "Pan|Pani|Panna|"
    # Ranks of police and army (English, Spanish, Portuguese, French)
    "Officer|Constable|Sergeant|Sgt|Corporal|Cpl|Inspector|Detective|"
    "Sargento|Teniente|Tenente|Agente|Brigadier|Adjudant|Gendarme|Commissaire"
)
"""Forms of address and ranks that stand before a name (closed class)."""

TRAILING = (
    "bhai|bhaiya|bhaijaan|bhabhi|didi|sahab|saab|abi|abim|abla|ablam|"
    "bey|hanım|hanim|efendi|amca|teyze|anna|akka"
)
"""Honorifics and kin forms of address that follow a name ("ji" closes a
greeting too, "Sat Sri Akal ji"; "uncle" follows a pronoun, "My uncle")."""

TITLE_WORD = r"[A-ZÀ-ÞĀ-ŽĐ][a-zà-ÿā-žđ][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
"""A word in title case, Latin letters with their diacritics."""

BEFORE = kept_patterns.compile(
    rf"(?<![\w.'’-])(?:{ADDRESS_FORMS}|{ADDRESS_FORMS.lower()}|cabo)\.?[ \t]+"
    rf"(?P<v>{TITLE_WORD}(?:[ \t]+(?:de[ \t]+|da[ \t]+|dos[ \t]+)?{TITLE_WORD}){{0,2}})"
    r"(?![\w'’-])"
)
"""A form of address and one to three capitalized words."""

AFTER = kept_patterns.compile(
    rf"(?<![\w'’-])(?P<v>[^\W\d_][^\W\d_'’-]+)(?:[ \t]+(?:{TRAILING})"
    r"|(?P<joined>-(?:san|sama|kun|chan|sensei|ssi|nim)))(?![\w'’-]|[.@]\w)"
)
"""A word and an honorific after it ("Ahsan bhai", "Tanaka-san"); not a word
that goes on into an address ("Mail anna.schmidt@...")."""


BIRTH_NAME = kept_patterns.compile(
    r"(?<![\w.'’-])(?:née|nee|geb\.|geborene|rođ\.|rođena|rodjena|roz\.|rozená|"
    r"z[ \t]+domu|nacida|nascida|nata|po[ \t]+mężu)[ \t]+"
    rf"(?P<v>(?:{TITLE_WORD}|[A-ZÀ-ÞĀ-ŽĐ]{{2,}}(?:-[A-ZÀ-ÞĀ-ŽĐ]{{2,}})*)"
    rf"(?:[ \t]+{TITLE_WORD}){{0,2}})"
    r"(?![\w'’-])"
)
"""A birth name's marker and the surname after it ("née Arceneaux", "rođ.
Mehmedović", "née ADJOVI Rosine")."""


class HonorificNameRecognizer(CuedPatternRecognizer):
    """A name a form of address, a rank or a trailing honorific marks."""

    ENTITY = "PERSON"

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return the names next to a form of address."""
        found: list[RecognizerResult] = []
        for m in BEFORE.finditer(text):
            start = m.start("v")
            end = start + _name_words_end(m.group("v"))
            # "Don Benito", "Cabo Verde": the form of address opens a place.
            if end > start and not _place(text[m.start() : end]):
                found.append(self.result(start, end, 0.86, "address_form"))
        for m in BIRTH_NAME.finditer(text):
            if not _place(m.group("v")):
                found.append(self.result(*m.span("v"), 0.86, "birth_name"))
        for m in AFTER.finditer(text):
            if _before_honorific(m.group("v")):
                # "Watanabe-san" is one token: the span takes it whole.
                end = m.end() if m.group("joined") else m.end("v")
                found.append(self.result(m.start("v"), end, 0.86, "trailing_honorific"))
        return found


def _name_words_end(value: str) -> int:
    """Return where the name's words after a form of address end, 0 for none.

    The run stops before the first word that is a common word (a lowercase
    word of the model's vocabulary no name list holds): "Officer Nuñez
    Said" keeps "Nuñez". A run that is a place of the gazetteer names none.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        ORG_WORDS,
        PLACE_AND_ROLE_WORDS,
        known_names,
        model_words,
    )

    end = 0
    for word in re.finditer(r"\S+", value):
        lowered = word.group().lower()
        if lowered in {"de", "da", "dos"}:
            continue
        if (
            lowered in ORG_WORDS
            or lowered in PLACE_AND_ROLE_WORDS
            or (lowered in model_words() and fold(word.group()) not in known_names())
        ):
            break
        end = word.end()
    return 0 if end and _place(value[:end]) else end


def _place(value: str) -> bool:
    """Tell a run that is a place of the gazetteer."""
    from anonygraph.cues.places import fold, gazetteer

    return gazetteer().get(fold(value)) is not None


def _before_honorific(word: str) -> bool:
    """Tell a word before a trailing honorific that is a name.

    Capitalized: any word but a pronoun or a word that follows name cues as
    no name ("My anna"); the model's vocabulary holds too many surnames
    ("watanabe") to tell a common word. Lowercase (a chat): a given name or
    surname some name list holds ("murat abim").
    """
    from spacy.lang.en.stop_words import STOP_WORDS

    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        not_names,
    )

    lowered = word.lower()
    if lowered in STOP_WORDS or lowered in not_names():
        return False  # "My anna", "The bhai"
    if word[0].isupper() and not word.isupper():
        return True
    # The model's vocabulary holds many names in lowercase ("murat"): a
    # name list decides, a word that follows name cues as no name does not.
    return word.islower() and fold(word) in known_names()


VOCATIVE = kept_patterns.compile(
    r"[A-ZÀ-Þ][^\W\d_'’-]+(?:[ ][A-ZÀ-Þ][^\W\d_'’-]+){0,2}(?=[ \t]*(?:[,!]|\n))"
)
"""One to three capitalized words that close a greeting ("Hi Will,")."""


def vocative_end(text: str, start: int) -> int:
    """Return the length of the name a greeting's comma closes, 0 for none.

    "Hi Will,", "Dear CHIKONDI BANDA,": the words the greeting addresses,
    kept even when a word is also a verb or in capitals, if each is a name
    some Faker locale lists or no word of the model's vocabulary ("Hi
    Team,", "Dear Valued Customer," address no one by name).
    """
    from anonygraph.cues.places import fold

    m = VOCATIVE.match(text, start)
    if m is None or not all(
        fold(w) in known_names() or w.lower() not in model_words()
        for w in m.group().split()
    ):
        return 0
    return m.end() - start
