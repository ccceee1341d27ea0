"""Names spaCy's English model gives to what the line says is something else.

On text that is not English the small English model types greetings
("Bună ziua", "Xin chào"), districts and towns after an address, courses,
schools and groups as PERSON, and ``[PERSON_1]`` then stands where the
author wrote a place or an organization. Three classes are read from the
line itself, whatever the language:

- a greeting, in one of the languages of the forms and letters we read;
- a district or town that follows a street address, only commas between
  ("Apt 12, Harbour View, Dún Laoghaire");
- the value of a form field whose label names an organization, a school, a
  course, a group or a place ("Educație: UBB Cluj, Informatică Economică");
- one word that stands where no name does: the whole of a text's first
  sentence, a greeting opening it ("Sawubona. I'm ..."), or a participle
  spelled as said, its g left out ("Fixin' to turn 45");
- a phrase of a line not in English that no listed name, title or contact
  backs ("Ziua Națională a Vinului", "Comprobante de envío");
- one word that is a language's name in Babel's data, in the languages of
  the texts we read, and in no name list ("lessons in Kirundi").

Only the model's own finds are dropped (a cue's, "Dear Ms Byrne", stays):
the span is left as the author wrote it, no other kind is guessed; only a
find right after a street's word or "domiciliada en" ("1520 c/ Tomás
Romero Pereira") is kept, as the address the text says it is.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from functools import lru_cache

from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.person_spans import SPACY
from anonygraph.tools import kept_patterns

GREETINGS = frozenset(
    g.strip()
    for g in """good morning|good afternoon|good evening|guten tag|guten morgen|
    guten abend|grüß gott|bună ziua|buna ziua|bună dimineața|bună seara|xin chào|
    xin chao|
    buenos días|buenos dias|buenas tardes|buenas noches|bom dia|boa tarde|boa noite|
    buongiorno|buon giorno|buona sera|buonasera|bonne journée|bonsoir|goedemorgen|
    goedendag|goedemiddag|god morgen|god dag|goddag|dobar dan|dobro jutro|
    dobra večer|dzień dobry|dobry wieczór|dobrý den|dobré ráno|jó napot|jó reggelt|
    selamat pagi|selamat siang|selamat sore|selamat malam|kia ora|assalamu alaikum|
    salam alaikum|as-salamu alaykum|laba diena|labdien|tere päevast|hyvää päivää|
    hyvää huomenta|góðan dag|góðan daginn|iyi günler|günaydın|habari yako|
    habari za asubuhi|mirë dita|dobar večer|dober dan|добрый день|добър ден|
    добрий день|доброе утро|добро јутро|добар дан|καλημέρα|καλησπέρα""".split("|")
)
"""Greetings of the languages we read, lowercased: a whole span that is one of
them greets, it names no one."""

PLACE_AND_BODY_LABELS = kept_patterns.compile(
    r"(?i)^(?:education|educație|educatie|educación|educação|istruzione|ausbildung|"
    r"studies|studii|studium|school|școala|școală|escuela|escola|scuola|schule|"
    r"école|university|universitate|universidad|universidade|università|college|"
    r"institution|employer|company|empresa|firma|société|società|entreprise|"
    r"organi[sz]ation|organización|organização|clinic|clínica|klinik|hospital|"
    r"hôpital|ospedale|bank|banque|banco|hotel|group|grup|grupo|gruppe|groupe|"
    r"course|curso|corso|kurs|subject|major|faculty|facultate|facultad|"
    r"department|departamento|city|town|ciudad|cidade|ville|stadt|città|oraș|"
    r"oras|district|distrito|quartier|bairro|barrio|venue|lieu|sede|event|"
    r"evento|club|klub|team|equipo|product|produit|produkt|producto|item|model|"
    r"vehicle|car|véhicule|vehículo|veículo|auto|automobile|fahrzeug|автомобиль|"
    r"машина|experience|position|job|role|title|occupation|profession|"
    r"designation|skills?|qualification|degree|language|nationality|status|"
    r"religion|category|type|plan|service|brand|marca|marque)$"
)
"""Field labels (several languages) whose value is an organization, a school,
a course, a group, a product, a vehicle, a job or a place: never a person's
name."""

LABEL = kept_patterns.compile(
    r"^[ \t]*(?P<label>[^\W\d_][^\W\d_ \t]*(?:[ \t][^\W\d_]+)?)[ \t]*:"
)
"""A line's field label: one or two words and a colon at the line's start."""

AFTER_ADDRESS = kept_patterns.compile(r"(?:,[ \t]*[^\W\d_][^,\n\d]{0,30})*,[ \t]*")
"""What stands between a street address and its district or town: commas,
with other place names of the same line between them."""


def _fold(value: str) -> str:
    return unicodedata.normalize("NFC", " ".join(value.lower().split())).strip(",.!")


def drop_non_persons(text: str, found: list[Identifier]) -> list[Identifier]:
    """Drop the PERSON finds the line shows to be a greeting, a place or a body.

    Args:
        text: The text the identifiers were found in.
        found: Non-overlapping identifiers sorted by start.

    Returns:
        ``found`` without those PERSON finds.

    """
    addresses = [i for i in found if i.kind == "ADDRESS"]
    kept = []
    for ident in found:
        if (
            ident.kind == "PERSON"
            and ident.recognizer == SPACY
            and STREET_BEFORE.search(text, 0, ident.start) is not None
        ):
            # The street or district of an address: it goes as the address's.
            kept.append(replace(ident, kind="ADDRESS"))
            continue
        if ident.kind == "PERSON" and (
            _fold(ident.text) in GREETINGS
            or (
                ident.recognizer == SPACY
                and (
                    _closes_address(text, ident, addresses)
                    or _body_field(text, ident)
                    or _where_no_name_stands(text, ident)
                    or org_named(text, ident)
                    or _demonym(ident.text)
                    or _language(ident.text)
                    or foreign_line_unknown(text, ident, found)
                )
            )
        ):
            continue
        kept.append(ident)
    return kept


def _demonym(value: str) -> bool:
    """Tell a people's name ("Lithuanian", "Kiwis"): what someone is, no one."""
    folded = _fold(value)
    return folded in _demonyms() or folded.removesuffix("s") in _demonyms()


@lru_cache(maxsize=1)
def _demonyms() -> frozenset[str]:
    from anonygraph.cues.places import demonyms

    return frozenset(_fold(word) for word in demonyms())


LANGUAGE_LOCALES = (
    "en de fr es pt it nl da nb sv is fi et lv lt pl cs sk hu ro hr sr sl sq el "
    "bg ru uk tr id ms vi sw mi"
).split()
"""The locales of the letters and forms we read, in whose words Babel (CLDR)
names the world's languages ("Kirundi" in Swahili, Dutch and Spanish)."""


def _language(value: str) -> bool:
    """Tell one word that is a language's name and no one's ("Kirundi").

    A name some Faker locale lists keeps the model's reading: "Cheyenne" and
    "Miranda" are languages' names and people's.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    word = _fold(value)
    return " " not in word and word in _languages() and fold(value) not in known_names()


@lru_cache(maxsize=1)
def _languages() -> frozenset[str]:
    from babel import Locale

    return frozenset(
        _fold(name)
        for locale in LANGUAGE_LOCALES
        for name in Locale(locale).languages.values()
    )


ORG_RUN = kept_patterns.compile(
    r"(?:(?<![^ \t])(?:[^\W\d_a-zà-ÿ][\w'’-]*|d[eiau]|del|della|van|von|der|la|le)"
    r"[ ]){0,3}$"
)
"""Up to three words joined by single spaces before a find, none lowercase
but a particle: the run of its name ("Klub Renang" before "Tirta Sleman",
"Banque du" before "Cap Bon")."""


def org_named(text: str, ident: Identifier) -> bool:
    """Tell a find whose name's run an organization noun heads.

    "Gimnasio Rambla Fit", "Rīgas Centrālā bibliotēka", "Klub Renang Tirta
    Sleman": a word of the find, of the three words before it or the word
    right after it opens with a stem of an organization's noun
    (`org_contacts.ORG_HEADS`: a gym, a library, a clinic, in their
    cognates), and is no given name or surname some Faker locale lists
    ("Storey", "Boardman" are people's).
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.org_contacts import ORG_HEADS
    from anonygraph.identifiers.recognizers.name_checks import known_names

    line_start = text.rfind("\n", 0, ident.start) + 1
    before = ORG_RUN.search(text, line_start, ident.start)
    after = re.match(r"[ ]([^\W\d_][\w'’-]*)", text[ident.end :])
    words = ident.text.split() + (before.group(0).split() if before else [])
    words += [after.group(1)] if after else []
    return any(ORG_HEADS.match(w) and fold(w) not in known_names() for w in words)


STREET_BEFORE = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:c/|esq\.|esquina|calle|avda?\.|avenida|rua|jl\.|jalan|"
    r"domiciliad[oa][ \t]+en|domicilio[ \t]+en|resident[ea][ \t]+en)[ \t]*$"
)
"""A street's word, the Spanish "c/" (the cross street) or "domiciliada en"
right before a find: the name is a street's or a district's, named for
someone ("… 1520 c/ Tomás Romero Pereira", "domiciliada en Barrio San
Pedro"), and goes as part of the address."""


def _closes_address(text: str, ident: Identifier, addresses: list[Identifier]) -> bool:
    """Tell a span that follows a street address on its line, only commas between."""
    return any(
        a.end <= ident.start
        and "\n" not in text[a.end : ident.start]
        and AFTER_ADDRESS.fullmatch(text[a.end : ident.start])
        for a in addresses
    )


def _body_field(text: str, ident: Identifier) -> bool:
    """Tell a span in the value of a field whose label names no person."""
    line_start = text.rfind("\n", 0, ident.start) + 1
    label = LABEL.match(text[line_start : ident.start])
    return bool(label and PLACE_AND_BODY_LABELS.match(label.group("label").strip()))


OPENING_SENTENCE = kept_patterns.compile(r"[ \t]*[.!,]*[ \t]*(?:\n|$|[.!][ \t]+\S)")
"""What follows a word that is a text's whole first sentence: its stop, then
the next sentence or the end of the line."""

DROPPED_G = kept_patterns.compile(r"(?i)[^\W\d_]+in$")
"""A participle spelled as said ("Fixin", "goin"), before its apostrophe."""


def _where_no_name_stands(text: str, ident: Identifier) -> bool:
    """Tell one word the line puts where no one's name stands.

    The whole of the text's first sentence ("Sawubona. I'm Lindiwe") greets
    its reader; a word in "-in" with an apostrophe after it ("Fixin' to
    turn 45") is a participle. A name of two words, or one with words of
    its sentence around it ("Sawubona Lindiwe!"), is left to the model.
    """
    if " " in ident.text:
        return False
    after = text[ident.end : ident.end + 1]
    if after in ("'", "’") and DROPPED_G.fullmatch(ident.text):
        return True
    return not text[: ident.start].strip() and bool(
        OPENING_SENTENCE.match(text, ident.end)
    )


LINE_WORDS = kept_patterns.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
"""A word of a line, for its share of English function words."""

VALUE_END = kept_patterns.compile(r"[ \t]*(?:$|\n|[,;(])")
"""What ends a field's value right after a find: the line's end, a comma."""


def foreign_line_unknown(text: str, ident: Identifier, found: list[Identifier]) -> bool:
    """Tell a model's find in a line not in English that no listed name backs.

    The English model reads the capitalized words of other languages as
    names ("Ziua Națională a Vinului", "Comprobante de envío", "Produse:
    Rară Neagră 2022", "Cooking School, Luang Prabang"). In a line of three
    words or more beside the find whose English function words are fewer
    than `name_checks.ENGLISH_SHARE` of its words, a find counts only when
    one of its words is a given name or surname some Faker locale lists, or
    when the line shows a person around it: a labelled field's whole value
    ("Client : Aya Brou-Koffi"), a title before it ("D. Íñigo Etxeberria"),
    a chat's speaker before a colon, a name in brackets right after another
    person's ("(Supawadee Srisuk)"), or a contact or ID right after it or in
    its sentence while the sentence runs on after it in lowercase
    ("Bikash Shrestha (98412…)", "Rustam Yusupov sizga … qiladi").
    """
    from spacy.lang.en.stop_words import STOP_WORDS

    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        ENGLISH_SHARE,
        PARTICLES,
        known_names,
    )
    from anonygraph.identifiers.recognizers.name_slots import in_person_slot

    line_start = text.rfind("\n", 0, ident.start) + 1
    line_end = text.find("\n", ident.end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    words = [w.lower() for w in LINE_WORDS.findall(line)]
    if len(words) - len(ident.text.split()) < 3:
        return False
    if sum(w in STOP_WORDS for w in words) >= ENGLISH_SHARE * len(words):
        return False
    if any(
        fold(w) in known_names()
        for w in LINE_WORDS.findall(ident.text)
        if w.lower() not in PARTICLES  # "Comprobante de": no name's "De"
    ):
        return False
    before = text[line_start : ident.start]
    if re.search(r"[:：][ \t]*$", before) and VALUE_END.match(text, ident.end):
        return False
    if in_person_slot(text, ident.start, ident.end) or NICKNAME.search(ident.text):
        return False  # "caissier : Ibrahima Ndao.", 'Anselmo "Tico" Fortes'
    if TITLE_BEFORE.search(before) or re.match(r"[ \t]*[:：]", text[ident.end :]):
        return False
    others = [f for f in found if f is not ident]
    if any(
        f.kind == "PERSON" and re.fullmatch(r"[ \t]*[(（]", text[f.end : ident.start])
        for f in others
    ):
        return False
    if any(
        f.kind != "PERSON"
        and re.fullmatch(r"[ \t]*[(,:–-]?[ \t]*", text[ident.end : f.start])
        for f in others
        if f.start >= ident.end
    ):
        return False
    sentence_start = max(
        [line_start, *(m.end() for m in STOPS.finditer(text, 0, ident.start))]
    )
    stop = STOPS.search(text, ident.end)
    sentence_end = min(
        line_end if line_end >= 0 else len(text), stop.start() if stop else len(text)
    )
    return not (
        RUNS_ON.match(text, ident.end)
        and any(
            f.kind != "PERSON" and sentence_start <= f.start < sentence_end
            for f in others
        )
    )


TITLE_BEFORE = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:d|dña|dna|don|doña|sr|sra|srta|mr|mrs|ms|dr|herr|frau|"
    r"m|mme|mlle|sig|sig\.ra|signora|signor|pan|pani|g|ga)\.?[ \t]+"
    r"(?:[A-ZÀ-Þ][^\W\d_]*[ \t]+){0,2}$"
)
"""A title or its abbreviation before a name, given names the model left
between ("D. Íñigo" before "Etxeberria Zubizarreta")."""

RUNS_ON = kept_patterns.compile(r"(?:[ \t]+[A-ZÀ-Þ][^\W\d_]*){0,2}[ \t]+[^\W\d_A-ZÀ-Þ]")
"""The sentence going on in lowercase after a find, a surname the model left
between ("Rustam" before "Yusupov sizga")."""

NICKNAME = kept_patterns.compile(r"[^\W\d_][ ][\"“][^\W\d_]{1,15}[\"”][ ][^\W\d_]")
"""A nickname in quotes between a name's words ('Tanisha "Tee" Morrison')."""

STOPS = kept_patterns.compile(r"[.!?][ \t]+")
"""Where a sentence ends inside a line."""
