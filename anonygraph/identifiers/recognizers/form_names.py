"""A name as a form's value, read off the form's shape, not off its label's words.

A record of several "Label: value" lines is a form. Its labels come in
every language ("Fahrlehrer", "Gudfeðgar", "Име", "Conducteur", "旧所有者"),
and no list of person labels keeps up with them; the values do not: a
field whose whole value is two to four capitalized words, none a word of
the language model's vocabulary, an organization's noun, a place of the
gazetteer or a number, holds a person's name ("Fahrlehrer: Momo Akgül",
"Conducteur: Issoufou Garba Boubacar"). A label that names an
organization, a place, a product or a course ("Company:", "Ville:",
"Fahrzeug:") says its value is none.

A label may open a sentence inside a line ("… Counted by: T. Mokoena.")
and carry a number ("Adoptant 1:"); a surname in capitals counts beside
given names in title case ("KPODAR Edem Yaovi"), all capitals do not.

One word says less: it counts when a name list holds it and, if it is a
word of the model's vocabulary too, a bracket of details follows ("Handed
over to: Desmond (nights)").

In a script without capitals the value's shape tells less: two or three
short words in an East Asian or Ethiopic script ("旧所有者：大河内 蓮"),
or in another caseless script when a name list knows the first word.

`labelled_names` reads one labelled line alone and asks a name list for the
value's first word; this module asks the record to be a form instead, so a
name no list holds counts there.
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import RecognizerResult

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.name_checks import LETTER, title_word_length
from anonygraph.identifiers.recognizers.role_labels import title_length
from anonygraph.tools import kept_patterns

WORD = rf"{LETTER}(?:{LETTER}|['’.-])*"
"""A word of a value: letters, apostrophes, hyphens and an initial's stop."""

FORM_LINE = kept_patterns.compile(
    rf"(?m)(?:^|(?<=[.;·][ ]))[ \t]*(?P<label>{LETTER}(?:{LETTER}|[.'’()])*"
    rf"(?:(?:[ \t]|[ \t]?[/,][ \t]?){LETTER}(?:{LETTER}|[.'’()])*){{0,4}}"
    r"(?:[ \t]+\d{1,2})?)"
    r"[ \t]*[:：][ \t\u3000]*(?=(?P<rest>[^\n]*))"
)
"""A line opening with a label of one to five words and a colon."""

FIELD_END = r"[ \t\u3000]*(?:\n|$|[,;(（、،|·]|[ \t][-–—][ \t]|[ \t]{2}|\.[ \t]*$)"
"""What ends a field: the line, a comma, a bracket, a middle dot, a spaced
dash, a wide gap or the line's last full stop."""

VALUE = kept_patterns.compile(
    rf"(?P<v>{WORD}(?:[ \u3000]{WORD}){{1,3}})"
    rf"(?={FIELD_END})"
)
"""Two to four words that end the field."""

FORM_SCORE = 0.86
"""Above spaCy's PERSON score (0.85): the analyzer keeps one result of a span,
and the form's cue must stand, or a name the model found too reads as a
topic's (see `detect._without_topics`)."""

ONE_WORD = kept_patterns.compile(rf"(?P<v>{WORD})(?P<end>{FIELD_END})")
"""One word that ends the field."""

MIN_FORM_LINES = 3
"""Labelled lines a record needs to be a form."""

NOT_A_PERSON_LABEL = kept_patterns.compile(
    r"(?i)\b(?:compan\w*|firm\w*|empresa|soci[ée]t[ée]|societ[àa]|organi[sz]\w*|"
    r"employer|arbeitgeber|employeur|empleador|bank|banque|banco|hotel|h[ôo]tel|"
    r"school|schule|[ée]cole|escuela|escola|scuola|universit\w*|college|course|"
    r"cours|curso|corso|kurs|subject|th[eè]me|topic|city|town|ville|stadt|ort|"
    r"ciudad|cidade|citt[àa]|village|district|region|r[ée]gion|province|"
    r"country|pays|pa[ií]s|land|state|[ée]tat|estado|venue|lieu|place|location|"
    r"destination|origin|route|station|airport|a[ée]roport|hospital|clinic|"
    r"product|produit|produkt|producto|item|article|artikel|model|mod[eè]le|"
    r"modell|brand|marca|marque|marke|vehicle|v[ée]hicule|veh[ií]culo|"
    r"fahrzeug|car|auto|title|titre|t[ií]tulo|titel|subject|objet|asunto|"
    r"betreff|oggetto|re|event|[ée]v[ée]nement|evento|plan|tariff?|tarif|"
    r"service|servi[cç]o|servizio|dienst|status|statut|estado|type|typ|tipo|"
    r"category|cat[ée]gorie|categor[ií]a|kategorie|language|langue|idioma|"
    r"sprache|nationality|nationalit[ée]|nacionalidad|religion|occupation|"
    r"profession|beruf|job|position|poste|cargo|role|r[oô]le|department|"
    r"d[ée]partement|departamento|abteilung|team|[ée]quipe|equipo|club|group|"
    r"groupe|grupo|gruppe|address|adresse|direcci[oó]n|endere[çc]o|indirizzo|"
    r"anschrift|morada|domicil\w*|residen\w*|wohnort|street|rue|calle|rua|via|stra[ßs]e|branch|agence|agencia|"
    r"filiale|office|bureau|oficina|b[üu]ro|project|projet|proyecto|projekt|"
    r"house|haus|maison|casa|lavoro|arbeit|travail|trabajo|автомобиль|машина|"
    r"компания|организация|город|адрес|место|предприятие|"
    r"author|autor|autorin|auteur|autore|artist|artiste|composer|band|"
    r"illustrator|performer)\b"
    r"|^(?:from|de|von|to|an|para|[àa]|cc|bcc|re|sender|recipient)$"
)
"""Label words (several languages) whose value is an organization, a place,
a product, a subject or a category, a work's public author, or a message's
header: never a name read off its shape alone (role_labels reads "From: Ana
Lima" by its own rules)."""

EAST_ASIAN = kept_patterns.compile(
    r"[\u1100-\u11ff\u1200-\u139f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)
"""A letter of the Hangul, Ethiopic, kana or Han scripts."""


class FormValueNameRecognizer(CuedPatternRecognizer):
    """A name as the whole value of a form's field, whatever the label says."""

    ENTITY = "PERSON"

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return the name-shaped values of a form's fields."""
        if text.count(":") + text.count("：") < MIN_FORM_LINES:
            return []
        lines = [m for m in FORM_LINE.finditer(text) if m.group("rest").strip()]
        if len(lines) < MIN_FORM_LINES:
            return []
        found: list[RecognizerResult] = []
        for line in lines:
            if NOT_A_PERSON_LABEL.search(line.group("label")):
                continue
            value = VALUE.match(text, line.start("rest"))
            if value is None:
                one = ONE_WORD.match(text, line.start("rest"))
                if one is not None and _one_name(one.group("v").rstrip("."), one):
                    start = one.start("v")
                    end = start + len(one.group("v").rstrip("."))
                    found.append(self.result(start, end, FORM_SCORE, "form_word"))
                continue
            start, end = value.span("v")
            title = title_length(value.group("v"))
            if title > 3:  # "Dr. Anna Weber"; "R. Molapo" keeps its initial
                start += title
            # "Mme SANOU Mariam": the title stays with the name, its shape
            # is read without it.
            shape_from = start + (0 if title else title_word_length(value.group("v")))
            # The line's full stop ends the field, an initial's ("Ngarta B.") not.
            if text[end - 1] == "." and len(text[start:end].split()[-1]) > 2:
                end -= 1
            if name_shaped(text[shape_from:end]):
                found.append(self.result(start, end, FORM_SCORE, "form_value"))
        return found


PARTICLES = frozenset(
    "al el bin binti bint ibn van von de da di du del della la le dos das do y e "
    "ben bat mac mc ter ten zu".split()
)
"""Lowercase words inside a name."""


def name_shaped(value: str) -> bool:
    """Tell a field's whole value that has the shape of a person's name only.

    Cased scripts: each word but a particle opens with a capital and goes on
    in lowercase (an all-capital word is a code or a firm), none is a lowercase
    word of the model's vocabulary that no name list holds ("Full Refund"),
    an organization's or a building's noun, or a month; the whole is no
    place of the gazetteer. Caseless scripts: see the module's docstring.
    """
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.org_contacts import ORG_HEADS
    from anonygraph.identifiers.recognizers.addresses import (
        LEADING_TYPES,
        STREET_TYPES,
    )
    from anonygraph.identifiers.recognizers.name_checks import (
        ORG_WORDS,
        PLACE_AND_ROLE_WORDS,
        known_names,
        model_words,
        not_names,
        street_word,
    )

    words = value.replace("\u3000", " ").split()
    if not any(c.isupper() or c.islower() for c in value):
        return _caseless_name(words)
    cased = [w for w in words if w not in PARTICLES]
    if len(cased) < 2 or words[0] in PARTICLES or words[-1] in PARTICLES:
        return False
    for word in cased:
        bare = word.strip(".")
        lowered = bare.lower().replace(".", "")  # "B.V." is "bv"
        if not word[0].isupper():
            return False
        # A word in capitals is a surname ("HOUNKPATIN Gbêtondji") when the
        # value has a word in title case too; all capitals is a code or a firm.
        if bare.isupper() and len(bare) > 1 and all(w.isupper() for w in cased):
            return False
        if len(bare) == 1:
            continue  # an initial
        if (
            ORG_HEADS.search(word)
            or lowered in ORG_WORDS
            or lowered in PLACE_AND_ROLE_WORDS
            or lowered in not_names()
            or (lowered in model_words() and fold(bare) not in known_names())
        ):
            return False
    return (
        gazetteer().get(fold(value)) is None
        and not street_word(value)
        and not re.match(rf"(?i:{LEADING_TYPES})\b", value)
        and not re.search(rf"\b(?i:{STREET_TYPES})\.?$", value)
    )


def _one_name(word: str, match: re.Match[str]) -> bool:
    """Tell a field's one-word value that is a given name or a surname.

    One word says less than two: it must be in title case, a given name or
    surname some Faker locale lists, no place of the gazetteer ("Ort:
    Speyer") and, when it is also a word of the model's vocabulary ("Rose",
    "Hope"), a bracket of the person's details must follow ("Desmond
    (nights)").
    """
    from spacy.lang.en.stop_words import STOP_WORDS

    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        model_words,
        not_names,
    )

    lowered = word.lower()
    if not (word[:1].isupper() and word[1:].islower() and len(word) >= 3):
        return False
    if (
        lowered in STOP_WORDS
        or lowered in not_names()
        or fold(word) not in known_names()
    ):
        return False
    if gazetteer().get(fold(word)) is not None:
        return False
    return lowered not in model_words() or "(" in match.group("end")


def _caseless_name(words: list[str]) -> bool:
    """Tell two or three short words of a caseless script that may be a name."""
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    if not 2 <= len(words) <= 3 or any(len(w) > 8 for w in words):
        return False
    if all(EAST_ASIAN.search(w) for w in words):
        return True
    return fold(words[0]) in known_names()
