"""Where a line puts a person's name: a field's value, a list's entry, a spelling.

The model's PERSON finds in a text not in English are mostly capitalized
nouns, so the checks that drop them ask for two words or a listed name. The
line's structure says more than the words: a find that is the whole value of
a "Label: value" field ("Agent : Ndikumana (guichet 2)", "caissier :
Ibrahima Ndao."), an item of such a field's list ("Excused: Thandeka,
Lwazi."), the whole of a numbered line's first field ("2. Ostojić Vuk, born
…") or another spelling in brackets of such a value ("Owner: Анна Иванова
(Anna Ivanova)") stands where a form puts a person. A label that names an
organization, a place, a product or a category
(`form_names.NOT_A_PERSON_LABEL`: "Ville:", "Produit:") says its value is
none.
"""

from __future__ import annotations

from anonygraph.identifiers.recognizers.form_names import NOT_A_PERSON_LABEL
from anonygraph.identifiers.recognizers.name_checks import PARTICLES, titles
from anonygraph.tools import kept_patterns

FIELD_VALUE_END = kept_patterns.compile(
    r"[ \t]*(?:$|\n|[,;(（·]|\.(?:\s|$)|[ \t][-–—][ \t])"
)
"""What ends a field's value right after a find: the line's end, a comma, a
bracket, a middle dot, a sentence's stop or a spaced dash."""

LABELLED_BEFORE = kept_patterns.compile(
    r"(?:^|[.;·,][ \t]+)[ \t]*(?P<label>[^\W\d_](?:[^\W\d_]|['’.()_-])*"
    r"(?:(?:[ \t]+|[ \t]*/[ \t]*)[^\W\d_](?:[^\W\d_]|['’.()-])*){0,4})"
    r"[ \t]*[:：][ \t]*"
    r"(?P<title>(?:[^\W\d_]{1,6}\.?[ \t]+)??)"
    r"(?P<items>(?:[^\W\d_](?:[^\W\d_]|['’ .-]){0,40}"
    r"(?:[ \t]*[(（][^()（）\n]{0,40}[)）])?,[ \t]*){0,4})$"
)
"""A label and its colon before a find, on the find's line: a title may
stand between ("Secrétaire : Mme …"), and items of the value's list before
it, each a run of words with its bracket of details ("Excused: Thandeka (sick), …")."""

BRACKETED = kept_patterns.compile(r"[(（][^()（）\n]*[)）]")
"""An item's bracket of details ("Thandeka (sick)")."""

LOWER_WORD = kept_patterns.compile(r"(?<![\w'’-])[a-z][\w'’-]*")
"""A word in lowercase; no name's word unless it is a particle ("de")."""

LINE_CLOSE = kept_patterns.compile(r"[ \t]*(?:$|\n|[(（])")
"""A field's value closing its line, or a bracket of its details after it."""

NUMBERED_BEFORE = kept_patterns.compile(r"^[ \t]*\d{1,2}[.)][ \t]+$")
"""A numbered line's number before a find ("3. ", "2) ")."""

VALUE_BEFORE_BRACKET = kept_patterns.compile(r"[ \t]*[(（]$")
"""The bracket that opens before another spelling of a name."""


def labelled_value(text: str, start: int, end: int) -> bool:
    """Tell a find that is a labelled field's whole value or an item of its list.

    Args:
        text: The text the find is in.
        start: Where the find starts.
        end: Where the find ends.

    Returns:
        True when a label of up to five words (no organization's, place's
        or product's) and a colon open the find's line or sentence before
        it, a title or earlier items of the list aside, and the field ends
        right after it.

    """
    if not FIELD_VALUE_END.match(text, end):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    before = LABELLED_BEFORE.search(text[line_start:start])
    if before is None:
        return False
    title = before.group("title").strip().rstrip(".").lower()
    if title and title not in titles():
        return False
    # "Applicant: Sefo Tuilagi, Malifa village, Upolu": an earlier item
    # with a lowercase word ("village", "rue") is an address's part, and the
    # list is an address, not a list of names.
    items = BRACKETED.sub("", before.group("items")).split(",")
    lower = (w.group() for item in items for w in LOWER_WORD.finditer(item))
    if any(word not in PARTICLES for word in lower):
        return False
    return not NOT_A_PERSON_LABEL.search(before.group("label"))


def numbered_entry(text: str, start: int, end: int) -> bool:
    """Tell a find that is the first field of a numbered line ("2. Ana Lima, …")."""
    line_start = text.rfind("\n", 0, start) + 1
    return bool(
        NUMBERED_BEFORE.match(text[line_start:start])
        and FIELD_VALUE_END.match(text, end)
    )


def bracketed_spelling(text: str, start: int, end: int) -> bool:
    """Tell a find in brackets after a field's value: the name spelled again.

    "Owner: Анна Иванова (Anna Ivanova)", "1. Олег Ким (Oleg Kim)": the
    bracket closes right after the find, and what stands before it, letters
    only, is a labelled field's value or a numbered line's first field.
    """
    if not text.startswith((")", "）"), end):
        return False
    bracket = VALUE_BEFORE_BRACKET.search(text, 0, start)
    if bracket is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    value_end = bracket.start()
    value_start = value_end
    while value_start > line_start and text[value_start - 1] not in ":：.\n":
        value_start -= 1
    value = text[value_start:value_end]
    if not value.strip() or any(c.isdigit() for c in value):
        return False
    value_start += len(value) - len(value.lstrip())
    return labelled_value(text, value_start, value_end) or numbered_entry(
        text, value_start, value_end
    )


def in_person_slot(text: str, start: int, end: int) -> bool:
    """Tell a find that the line's structure puts where a person stands."""
    return (
        labelled_value(text, start, end)
        or numbered_entry(text, start, end)
        or bracketed_spelling(text, start, end)
    )


def word_in_person_slot(text: str, start: int, end: int) -> bool:
    """Tell one word in title case that stands where the line puts a person.

    The model's one-word find in a text not in English counts there when it
    is no word of the model's English vocabulary (unless a name list holds
    it) and no town of the gazetteer ("Ort: Speyer").
    """
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        model_words,
    )

    word = text[start:end]
    if not (word.isalpha() and word.istitle() and len(word) >= 3):
        return False
    if word.lower() in model_words() and fold(word) not in known_names():
        return False
    return gazetteer().get(fold(word)) is None and in_person_slot(text, start, end)


def listed_name_in_slot(text: str, start: int, end: int) -> bool:
    """Tell a find that closes its line in a slot, its first word a listed name.

    "Sponsor: Omar Haddad": the field says whose name it is, not a topic the
    text discusses; a bank or a firm in the same slot ("Банк: Сбербанк
    России") opens with no listed name, and a name the line goes on about
    ("Next time: Ingrid Solberg, 240 pages") may be a work's author.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    words = text[start:end].split()
    return (
        bool(words)
        and LINE_CLOSE.match(text, end) is not None
        and fold(words[0]) in known_names()
        and in_person_slot(text, start, end)
    )
