"""Shape person finds by the layout around them: fields, labels and addresses.

A recognizer reads a name from words; the line it stands on tells more. A
name ends where its field does (a line break, a colon, a bar, a run of
spaces before the next label), a label of a value ("More photos: https…")
is no one's name, and a capitalized run inside an address (a house or
estate name, a street, a locality) is a place of that address, not a
person. A town before a state code and postcode is left as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import lru_cache

from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.recognizers.addresses import LEADING_TYPES, STREET_TYPES
from anonygraph.identifiers.recognizers.name_checks import names_no_one
from anonygraph.identifiers.recognizers.name_slots import in_person_slot
from anonygraph.tools import kept_patterns

POSSESSIVE_BEFORE = kept_patterns.compile(r"(?i)\b(?:my|your|his|her|our|their)[ \t]+$")
"""A possessive right before a word: what one owns ("my Strava"), not who."""

SPACY = "FilteredSpacyRecognizer"
"""The model's finds, which no cue introduced (a cued name may close a label)."""

FIELD_END = kept_patterns.compile(r"\n|\t| {2,}|[:|=]|[ \t][-–—][ \t]")
"""Where a field's value ends and the next field or label begins (a spaced
dash too: "Marco Ferri - sì, 2 adulti")."""

VALUE_LABEL = kept_patterns.compile(r"[ \t]*[:=][ \t]*(?:https?://|www\.|[\d@+(])")
"""A colon and a value (a link, a number, a handle) after a label."""

SENTENCE_END = r"(?<![A-Z][a-z])(?<![A-Z][a-z]{2})(?<![A-Z])[.!?]\s"
"""A full stop that ends a sentence, not an abbreviation ("No.", "Sta.")."""

ADDRESS_LABEL = kept_patterns.compile(
    r"(?i)\b(?:address|addr|adres\w*|anschrift|direcci[oó]n|endere[çc]o|indirizzo|"
    r"home|residen\w*|domicil\w*)\b[^:\n]{0,20}[:=](?:(?!" + SENTENCE_END + r").)*$"
)
"""A line's label that makes what follows it an address."""

STREET_AFTER = kept_patterns.compile(rf",?[ \t]+(?:{STREET_TYPES})\b\.?")
LEADING_FIRST = kept_patterns.compile(rf"(?i:{LEADING_TYPES})[ \t]")
HOUSE_NUMBER_BEFORE = kept_patterns.compile(
    r"(?:^|,|(?<!\d):)[ \t]*\d{1,5}[A-Za-z]?(?:[/-]\d{1,5}[A-Za-z]?)*[ \t]+$"
)
"""A house number before a street's name; a time ("21:14 ") or a commit's
hash ("5c2209f ") before a name is none."""
NUMBERED_PART_BEFORE = kept_patterns.compile(r"\d[\w/-]*,[ \t]*$")
LOCATIVE_BEFORE = kept_patterns.compile(r"(?i)\b(?:at|in|near)[ \t]+$")
STATE_AND_POSTCODE = kept_patterns.compile(r"[ \t]+[A-Z]{2,3}[ \t]+\d{3,6}\b")
CHAIN_END = kept_patterns.compile(r"[ \t]*(?:$|\n|[.;!?]|,?[ \t]*\d{3,6}\b)")

LABEL_ABBREVIATION = kept_patterns.compile(r"\.[ \t]*#?\d")
"""A full stop and a number right after a find: it closed a label's
abbreviation ("Lieferung Bestellnr. 4500178812"), not a name."""

ADDRESS_PART = "AddressPart"
"""Recognizer name of a person find retyped as part of an address."""


def _closes_chain(text: str, ident: Identifier) -> bool:
    """Tell one word that closes an address line: its town, left as text."""
    return " " not in ident.text and bool(CHAIN_END.match(text, ident.end))


FIELD = "FieldRecognizer"
"""Name of the recognizer that reads names from labelled columns and keys."""

LABELLED = frozenset({FIELD, "RoleLabelNameRecognizer"})
"""Recognizers whose label or column header says the span is a name."""


def reshape_persons(text: str, found: list[Identifier]) -> list[Identifier]:
    """Cut person finds to their field, drop labels and towns, make places addresses.

    Args:
        text: The text the finds are in.
        found: All finds of the analysis (persons and the rest).

    Returns:
        The finds with person spans cut, dropped or retyped as ADDRESS.

    """
    addresses = [i.start for i in found if i.kind == "ADDRESS"]
    shaped: list[Identifier] = []
    for ident in found:
        if ident.kind != "PERSON":
            shaped.append(ident)
            continue
        cut = _within_field(text, ident)
        if cut is None or _before_org_suffix(text, cut.end):
            continue
        if cut.recognizer == SPACY and (
            POSSESSIVE_BEFORE.search(text, 0, cut.start)
            or POSSESSIVE_BEFORE.match(cut.text.split()[0] + " ")
        ):
            continue  # "My Strava is …": a thing of one's own, no one's name
        if cut.recognizer in LABELLED:
            shaped.append(cut)  # a column or key labelled as a name says so
            continue
        cut = _without_shared_title(text, cut)
        if not cut.text[:1].isalpha():
            continue  # "‰. Bearbeitender Beamter": a unit's sign, no name's letter
        if names_no_one(cut.text) or LABEL_ABBREVIATION.match(text, cut.end):
            continue  # "Java House", "The Board", "Bestellnr. 4500…": no one
        if cut.recognizer == SPACY and " " not in cut.text and _no_one(text, cut):
            continue
        if cut.recognizer == SPACY and _on_header_line(text, cut):
            continue
        if (
            cut.recognizer == SPACY
            and " " in cut.text
            and _place_first(cut)
            and not in_person_slot(text, cut.start, cut.end)
        ):
            continue  # "Dhaka Metro-Ga 14-2291": a plate's region, no one
        cut = _without_paired_word(text, cut)
        kind_or_none = _place_kind(text, cut, addresses)
        if kind_or_none == "TOWN":
            continue
        if kind_or_none == "ADDRESS" and _closes_chain(text, cut):
            continue  # "…, Unit 1204, Atlanta": the town closing the address
        if kind_or_none == "ADDRESS":
            end = cut.end
            street = STREET_AFTER.match(text, end)
            if street:
                end = street.end()
            cut = replace(
                cut,
                kind="ADDRESS",
                end=end,
                text=text[cut.start : end],
                recognizer=ADDRESS_PART,
            )
        shaped.append(cut)
    return shaped


def _no_one(text: str, ident: Identifier) -> bool:
    """Tell one word the model took for a person that names no one.

    A kin word with its possessive ("For Mum's birthday"); a town of the
    gazetteer that no Faker locale lists as a given name or surname ("I
    born for Nnewi", "born up Camborne"); or the text's first word, set off
    by a comma, a "!" or a lowercase word after it, said nowhere else and
    listed as no one's name ("Howzit bru,", "Howdy,", "Brah,"): a greeting.
    A name Faker lists keeps the model's reading ("Siobhán, call me").
    """
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        relation_words,
    )

    word = re.sub(r"['’]s$", "", ident.text)
    if word.lower() in relation_words():
        return True
    if fold(word) in known_names():
        return False
    if gazetteer().get(fold(word)) is not None:
        return True
    return (
        not text[: ident.start].strip()
        and GREETING_AFTER.match(text, ident.end) is not None
        and len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text)) == 1
    )


def _place_first(ident: Identifier) -> bool:
    """Tell a run that opens with a town of the gazetteer no one is named after."""
    from anonygraph.cues.places import fold, gazetteer
    from anonygraph.identifiers.recognizers.name_checks import known_names

    word = fold(ident.text.split()[0])
    return word not in known_names() and gazetteer().get(word) is not None


PAIRED_TITLES = kept_patterns.compile(
    r"(?i)\b(?:mr|mrs|ms|dr|herr|frau|sr|sra|m|mme)\.?[ \t]+(?:and|&|und|y|et|e)[ \t]+$"
)
"""A title and "and" before a second title ("Mr. and Mrs. Delgado")."""

TITLE_FIRST = kept_patterns.compile(
    r"(?i)(?:mrs|mr|ms|dr|frau|herr|sra|sr|mme)\.?[ \t]+(?=\w)"
)


def _without_shared_title(text: str, ident: Identifier) -> Identifier:
    """Leave a couple's titles in the text: "Dear Mr. and Mrs. [PERSON_1]".

    With its own title replaced, "Mr. and" would be left before a
    placeholder; the surname is the couple's identifier.
    """
    title = TITLE_FIRST.match(ident.text)
    if title is None or not PAIRED_TITLES.search(text, 0, ident.start):
        return ident
    start = ident.start + title.end()
    return replace(ident, start=start, text=text[start : ident.end])


CELL_BREAK = kept_patterns.compile(r"\t| {2,}|\|")
"""What separates a table's cells on a line."""


def _on_header_line(text: str, ident: Identifier) -> bool:
    """Tell a find on a table's header line ("Description    Qty   Amount").

    The line splits into two cells or more, and each is one capitalized
    word: column headings, not a person's name.
    """
    line_start = text.rfind("\n", 0, ident.start) + 1
    line_end = text.find("\n", ident.end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    cells = [c.strip() for c in CELL_BREAK.split(line) if c.strip()]
    return len(cells) >= 2 and all(
        re.fullmatch(r"[A-ZÀ-Þ][^\W\d_]*\.?", c) for c in cells
    )


GREETING_AFTER = kept_patterns.compile(r"[ \t]*(?:[,!]|[a-z])")
"""What follows a greeting that opens a text: a comma, a "!", a lowercase word."""


def _without_paired_word(text: str, ident: Identifier) -> Identifier:
    """Leave out the last word of a long name that "&" pairs with the next word.

    "Dai Roberts Plumbing & Heating": the word before "&" goes with the one
    after it (a trade), not with the name.
    """
    if ident.kind != "PERSON" or ident.text.count(" ") < 2:
        return ident
    if not re.match(r"[ \t]+&[ \t]+[A-Z]", text[ident.end :]):
        return ident
    end = ident.start + ident.text.rindex(" ")
    return replace(ident, end=end, text=text[ident.start : end])


def _before_org_suffix(text: str, end: int) -> bool:
    """Tell a name followed by a company's legal form ("Dijkstra Bouw B.V.")."""
    from anonygraph.identifiers.recognizers.name_checks import LEGAL_FORMS, ORG_WORDS

    # One space: a run of spaces parts a form's fields ("… Tremblay   Co-owner:").
    after = re.match(r" ([\w./]+)(?![\w-])", text[end:])
    if after and after.group(1).replace(".", "").lower() in ORG_WORDS:
        return True
    # "Azulejaria Moderna, Lda.": a legal form after a comma; an org word
    # there is a person's role ("Ana Lima, Clinic Director").
    after = re.match(r",[ \t]*([\w.]+)(?![\w-])", text[end:])
    return bool(after and after.group(1).replace(".", "").lower() in LEGAL_FORMS)


def _within_field(text: str, ident: Identifier) -> Identifier | None:
    """Cut a person's span at its field's end; drop a label or a lone letter."""
    start, value = ident.start, ident.text
    for part in FIELD_END.split(value):
        offset = value.find(part)
        part_start = start + offset
        stripped = part.strip(" \t\"'“”‘’")
        if not stripped:
            continue
        part_start += part.index(stripped[0])
        part_end = part_start + len(stripped)
        if re.match(r"[ \t]*[:=]", text[part_end:]) and part_end < ident.end - 1:
            continue  # "… Geburtsdatum:", 'target="…': a label or a key
        if (
            ident.recognizer == SPACY
            and VALUE_LABEL.match(text, part_end)
            and not _label_names(text, part_start, stripped)
        ):
            return None  # "More photos: https://…": a label, no name
        if (
            re.search(r"(?:^|\s)[A-Z]$", stripped)
            and " " in stripped
            and not (ident.recognizer != SPACY and text.startswith(".", part_end))
        ):
            # "Batch B", "Block C": a word and a letter, no name; a form's
            # "Le greffier: Moussa K." ends on an initial.
            return None
        return replace(ident, start=part_start, end=part_end, text=stripped)
    return None


LABEL_WORD = kept_patterns.compile(r"(?<![^\W\d_])[a-zà-ÿ]{2,}[ \t]")
"""A lowercase word inside a label: a preposition ties a name to it."""


def _label_names(text: str, start: int, value: str) -> bool:
    """Tell a full name that closes a label after a lowercase word.

    "Rückzahlung an Vermieterin Ilse Brandauer: 400 €", "Paid to Ana
    Lima: 40": the label says what goes to whom, the name is the person's.
    """
    line_start = text.rfind("\n", 0, start) + 1
    words = value.split()
    return (
        len(words) >= 2
        and all(w[:1].isupper() and not w.isupper() for w in words)
        and LABEL_WORD.search(text, line_start, start) is not None
    )


LONG_NUMBER = kept_patterns.compile(r"\d(?:[ ]?\d){5,}")
"""Six digits or more: an account or an ID between a label and a find."""


def _address_labelled(prior: str) -> bool:
    """Tell a find that an address label governs on its line.

    "Domiciliation: LU28 0019 …, titulaire Luc Wagner-Schmit": an account
    number between the label and the find is the label's value; the name
    after it is its holder's, no place.
    """
    m = ADDRESS_LABEL.search(prior)
    return m is not None and not LONG_NUMBER.search(prior, m.start())


@lru_cache(maxsize=1)
def _person_openers() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Return the patterns of a title opening a find and of a person's label."""
    from anonygraph.identifiers.recognizers.name_checks import HONORIFICS
    from anonygraph.identifiers.recognizers.names import LABEL

    return (
        kept_patterns.compile(rf"{HONORIFICS}[ \t]"),
        kept_patterns.compile(rf"[ \t]*{LABEL}"),
    )


def _place_kind(text: str, ident: Identifier, addresses: list[int]) -> str | None:
    """Tell a person find that is part of an address ("ADDRESS") or a town."""
    line_start = text.rfind("\n", 0, ident.start) + 1
    prior = text[line_start : ident.start]
    titled, labelled = _person_openers()
    if titled.match(ident.text) or labelled.match(prior):
        # "Preneur: M. Luc Wagner-Schmit", "Partner at same address: Will
        # Mitchell": a title, or a label that names a person, opens it.
        return None
    if STATE_AND_POSTCODE.match(text, ident.end):
        return "TOWN"  # "Wollongong NSW 2500"
    if (
        STREET_AFTER.match(text, ident.end)
        or LEADING_FIRST.match(ident.text)
        or HOUSE_NUMBER_BEFORE.search(prior)
        or NUMBERED_PART_BEFORE.search(prior)
        or _address_labelled(prior)
    ):
        return "ADDRESS"
    after = re.match(r",[ \t]*", text[ident.end :])
    if after and ident.end + after.end() in addresses and LOCATIVE_BEFORE.search(prior):
        return "ADDRESS"  # "at Ty Coch, 5 Heol y Felin": the house's name
    return None


def merge_addresses(text: str, found: list[Identifier]) -> list[Identifier]:
    """Join address parts that only a comma separates into one address.

    "Noor Manzil, Kurla West" read as two places of one address line is one
    address, and one placeholder reads better than two in a row.
    """
    merged: list[Identifier] = []
    shaped = [_without_paired_word(text, _with_units(text, i, found)) for i in found]
    for ident in shaped:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.kind == "ADDRESS"
            and ident.kind in ("ADDRESS", "POSTCODE", "NUMBER")
            and FLAT_AFTER.fullmatch(text[last.end : ident.end])
        ):
            # "Götgatan 64 lgh 1102": the flat's number, not a postcode
            merged[-1] = replace(last, end=ident.end, text=text[last.start : ident.end])
            continue
        if (
            last is not None
            and ident.kind == last.kind == "ADDRESS"
            and re.fullmatch(r",[ \t]*", text[last.end : ident.start])
        ):
            merged[-1] = replace(last, end=ident.end, text=text[last.start : ident.end])
            continue
        merged.append(ident)
    return _postcodes_after_towns(text, merged)


FLAT_AFTER = kept_patterns.compile(
    r"(?i),?[ \t]+(?:lgh|apt|apartment|flat|unit|suite|ste|m|kv|whg|wohnung|top|"
    r"dpto|depto|piso|int|leil)\.?[ \t]*[A-Z]?\d{1,5}[A-Z]?"
)
"""A flat's or unit's number written after the street and house number."""

TOWN_AND_CODE = kept_patterns.compile(
    r"\.?,[ \t]*(?P<town>(?:[^\W\d_][\w'’.-]*[ \t]+){1,3})(?P<v>\d{4,6})"
    r"(?=[ \t]*(?:$|[\n,;)|]|\.(?!\d)))"
)
"""A town and a postcode right after an address ("…, Pasig City 1600")."""


def _postcodes_after_towns(text: str, found: list[Identifier]) -> list[Identifier]:
    """Add the postcode that follows an address's town, where none was found."""
    extra: list[Identifier] = []
    for ident in found:
        if ident.kind != "ADDRESS":
            continue
        m = TOWN_AND_CODE.match(text, ident.end)
        if (
            m
            and all(w[0].isupper() for w in m["town"].split())
            and not any(o.start < m.end() and m.start() < o.end for o in found)
        ):
            start, end = m.span("v")
            extra.append(
                replace(ident, kind="POSTCODE", start=start, end=end, text=m["v"])
            )
    return sorted(found + extra, key=lambda i: i.start)


SPEAKER = kept_patterns.compile(
    r"(?m)^[ \t]*(?P<stamp>\[[^\]\n]{0,40}?\d[:.]\d\d[^\]\n]{0,30}\][ \t]*|"
    r"\d{1,2}[:.]\d\d(?:[ \t]*[AaPp][Mm])?[ \t]*[-–][ \t]*)?"
    r"(?P<loose>(?<![^\n])[ \t]*(?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4}[ \t,]+)?"
    r"\d{1,2}[:.]\d\d(?:[ \t]*[AaPp][Mm])?[ \t]+)?"
    r"(?P<v>[^\W\d_]+(?:['’-][^\W\d_]+)*(?:[ \t][^\W\d_]+(?:['’-][^\W\d_]+)*){0,2})"
    r"(?P<role>[ \t]*[(（][^()（）\n]{1,40}[)）])?"
    r"[ \t]*:[ \t]+(?=\S)"
)
"""A chat line's speaker: an optional time stamp, one to three words, an
optional bracket of the speaker's role ("Abeer (parent):"), a colon. A bare
time and date before the speaker ("10:02 Anjali:") is a looser stamp."""


def chat_speakers(text: str) -> list[Identifier]:
    """Find the speakers' names of a chat log.

    A speaker counts after a time stamp ("[9:02 PM] tita baby: …"), or, in
    a log without stamps, when the same speaker opens two lines or more,
    another speaker opens one too ("Luana: …", "Rafa: …") and speakers open
    nearly every line (a form, a header block or a config file repeats its
    labels among lines that open with none); a form's
    labels ("Name:", "Address:") each stand once and in capitals or as
    words that are no names.
    """
    from anonygraph.identifiers.recognizers.name_checks import not_names

    matches = [
        m
        for m in SPEAKER.finditer(text)
        if len(m.group("v")) >= 2
        and not any(w.isupper() and len(w) > 1 for w in m.group("v").split())
        and not any(w.lower() in not_names() for w in m.group("v").split())
        # "العميل:", "الموظف:": one Arabic word with its article is a role.
        and not re.fullmatch(r"ال[^\W\d_]+", m.group("v"))
    ]
    counts: dict[str, int] = {}
    for m in matches:
        counts[m.group("v")] = counts.get(m.group("v"), 0) + 1
    # Without stamps a chat is a text whose lines nearly all open with a
    # speaker; a form, a mail header, a commit log or a config file repeats
    # its labels too ("Author:", "name:") between lines that open with none.
    lines = [line for line in text.splitlines() if line.strip()]
    chatty = (
        len(counts) >= 2
        and max(counts.values(), default=0) >= 2
        and len(matches) >= 0.8 * len(lines)
    )
    # A bare time opens an itinerary's lines too ("09:00 Breakfast: …"):
    # it stamps a chat where two lines or more open so and the speaker is
    # no word of the model's vocabulary that no name list holds.
    loose = sum(1 for m in matches if m.group("loose")) >= 2
    # A bracket after the speaker may say a shop speaks ("Carpets (public)").
    return [
        Identifier("PERSON", *m.span("v"), m.group("v"), 0.6, "ChatSpeaker")
        for m in matches
        if not (m.group("role") and _shop_or_phrase(m.group("v"), any))
        and (m.group("stamp") or chatty or (loose and m.group("loose")))
        and not (m.group("loose") and _shop_or_phrase(m.group("v"), all))
    ]


def _shop_or_phrase(value: str, how: Callable[[Iterable[bool]], bool]) -> bool:
    """Tell a speaker that is no person's name, by ``how`` (any or all) of its words.

    A word of the model's vocabulary no name list holds ("Breakfast",
    "Արտաշատ Carpets"), or a run of Han letters longer than a name's
    ("小綠生活館", a shop). The vocabulary holds many names in lowercase
    ("deepak"): a bare time's speaker is dropped only when all its words
    are such, a speaker with a bracket of its role when any is.
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        model_words,
    )

    return how(
        (w.lower() in model_words() and fold(w) not in known_names())
        or re.fullmatch(r"[\u3400-\u9fff]{5,}", w) is not None
        for w in value.split()
    )


UNIT_BEFORE = kept_patterns.compile(
    r"(?:^|(?<=[\s,:]))(?:[A-Z][A-Za-z]{0,4}\.?(?:[ \t]+No\.?)?[ \t]*[A-Z]?-?\d[\w/-]*"
    r"(?:,[ \t]*|[ \t]+)|[A-Z][A-Za-z]{0,4}\.[ \t]+)$"
)
UNIT_WORD_BEFORE = kept_patterns.compile(r"(?:^|(?<=[\s,:]))[A-Z][a-z]{1,4}[ \t]+$")
"""A unit word right before an address that starts with its number ("Plot ")."""
"""A unit, plot, block or house number right before an address ("Flat 304, ",
"Blk 7 ", "Hse No. 22, ", "Plot "), or an abbreviated street word ("Sta. ")."""


def _with_units(text: str, ident: Identifier, found: list[Identifier]) -> Identifier:
    """Widen an address over the unit and block numbers written before it."""
    if ident.kind != "ADDRESS":
        return ident
    line_start = text.rfind("\n", 0, ident.start) + 1
    start = ident.start
    for _ in range(4):
        m = UNIT_BEFORE.search(text, line_start, start)
        if m is None and text[start].isdigit():
            m = UNIT_WORD_BEFORE.search(text, line_start, start)
        if (
            m is None
            or m.start() == start
            or any(
                o is not ident and o.start < start and m.start() < o.end for o in found
            )
        ):
            break
        start = m.start()
    return replace(ident, start=start, text=text[start : ident.end])
