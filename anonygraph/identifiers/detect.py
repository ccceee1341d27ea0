"""Find direct identifiers in a text: the analyzer's results as our kinds."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from presidio_analyzer import RecognizerResult

from anonygraph.cues.engine import Engine
from anonygraph.identifiers.birth_dates import birth_dates_beside
from anonygraph.identifiers.coordinated_names import coordinated_names
from anonygraph.identifiers.engine import LANGUAGE, analyzer
from anonygraph.identifiers.form_values import form_values
from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.kinds import KINDS, kind_of
from anonygraph.identifiers.not_persons import drop_non_persons
from anonygraph.identifiers.org_contacts import keep_org_contacts
from anonygraph.identifiers.other_scripts import names_in_other_scripts
from anonygraph.identifiers.person_rows import person_rows
from anonygraph.identifiers.person_spans import (
    chat_speakers,
    merge_addresses,
    reshape_persons,
)
from anonygraph.identifiers.public_figures import drop_public_figures
from anonygraph.identifiers.recognizers.base import iban_valid, luhn_valid
from anonygraph.identifiers.recognizers.name_checks import names_no_one
from anonygraph.identifiers.recognizers.name_slots import listed_name_in_slot
from anonygraph.identifiers.recognizers.needs import Screen
from anonygraph.tools import kept_patterns

PLACEHOLDER = kept_patterns.compile(r"\[(?:[A-Z]+_)*[A-Z]+(?:_\d+)?\]")
"""A typed placeholder already in the text (``[PERSON_1]``, ``[PLACE]``)."""

SPACY = "FilteredSpacyRecognizer"
"""Name of the recognizer that reports spaCy's PERSON entities."""

_TITLES = frozenset(
    """mr mrs ms mx miss dr prof frau herr sir madam madame monsieur mme mlle
    señora señor signora signor""".split()
)

MIN_SCORE = 0.5
"""Results below this score (a bare pattern without context) are dropped."""


def find_identifiers(
    text: str,
    *,
    kinds: Iterable[str] | None = None,
    parse: Engine | None = None,
    min_score: float = MIN_SCORE,
) -> list[Identifier]:
    """Find the direct identifiers in ``text``.

    Overlapping results are resolved so the longer span wins, then the higher
    score; spans inside a typed placeholder already in the text are skipped.

    Args:
        text: The text to scan.
        kinds: Kinds to report (default: all of `KINDS`).
        parse: The spaCy parser to read (default: the shared cached one).
        min_score: Results scored lower are dropped.

    Returns:
        Non-overlapping identifiers sorted by start offset.

    """
    wanted = frozenset(kinds or KINDS)
    if "PHONE" in wanted:
        wanted |= {"NUMBER"}  # a phone-shaped number whose kind is not settled
    if not text.strip():
        return []
    if parse is None:
        # The final check reads the text the pre-pass read when nothing was
        # rewritten: the memo answers it without a second analysis.
        return list(_find_memo(text, wanted, min_score))
    return _find(text, wanted, parse, min_score)


@lru_cache(maxsize=256)
def _find_memo(
    text: str, wanted: frozenset[str], min_score: float
) -> tuple[Identifier, ...]:
    return tuple(_find(text, wanted, None, min_score))


def _find(
    text: str, wanted: frozenset[str], parse: Engine | None, min_score: float
) -> list[Identifier]:
    """Analyse ``text`` (see `find_identifiers`)."""
    results = analyzer(parse).analyze(text=text, language=LANGUAGE)
    taken = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
    found: list[Identifier] = []
    for result in results:
        kind = kind_of(result.entity_type)
        if kind is None or kind not in wanted or result.score < min_score:
            continue
        start, end = _trim(text, result.start, result.end)
        if end <= start or any(s < end and start < e for s, e in taken):
            continue
        metadata = result.recognition_metadata or {}
        found.append(
            Identifier(
                kind=kind,
                start=start,
                end=end,
                text=text[start:end],
                score=float(result.score),
                recognizer=str(metadata.get(RecognizerResult.RECOGNIZER_NAME_KEY, "")),
            )
        )
    if "PERSON" in wanted:
        found += [
            i
            for i in chat_speakers(text)
            if not any(s < i.end and i.start < e for s, e in taken)
        ]
    found = [b for i in found if (b := on_boundaries(text, i)) is not None]
    chosen = _non_overlapping(_without_topics(text, reshape_persons(text, found)))
    chosen = drop_public_figures(text, drop_non_persons(text, chosen))
    if "PERSON" in wanted:
        chosen = _non_overlapping(chosen + coordinated_names(text, chosen))
    if "PERSON" in wanted:
        # A span a cue found too (a chat's speaker) counts as cued.
        cued_spans = {
            (i.start, i.end)
            for i in found
            if i.kind == "PERSON" and i.recognizer != SPACY
        }
        # Twice: a mention widened over given names ("Caoimhe" before "Mac
        # Giolla Phádraig") gives words of its own to find again.
        for _ in range(2):
            names = [i.text for i in chosen if i.kind == "PERSON"]
            cued = [
                i.text
                for i in chosen
                if i.kind == "PERSON"
                and (i.recognizer != SPACY or (i.start, i.end) in cued_spans)
            ]
            chosen = _non_overlapping(
                chosen + name_mentions(text, names, taken, lowercase_from=cued)
            )
        chosen = _non_overlapping(chosen + names_in_other_scripts(text, chosen))
        chosen = _joined_persons(text, chosen)
    # An organization's own line is no one's: it neither stays a find nor
    # ties a date beside it to a person.
    chosen = keep_org_contacts(text, chosen)
    if "DATE_OF_BIRTH" in wanted:
        chosen = _non_overlapping(chosen + birth_dates_beside(text, chosen))
    for rule in (form_values, person_rows):
        chosen = _non_overlapping(
            chosen + [i for i in rule(text, chosen) if i.kind in wanted]
        )
    return merge_addresses(text, chosen)


def _joined_persons(text: str, found: list[Identifier]) -> list[Identifier]:
    """Join two person finds that only a space parts into one.

    "Shri" (after "Father:") and "R. Raghunathan" (a mention) are one name;
    two placeholders in a row ("[PERSON_2] [PERSON_3]") would say two.
    """
    joined: list[Identifier] = []
    for ident in found:
        last = joined[-1] if joined else None
        if (
            last is not None
            and ident.kind == last.kind == "PERSON"
            and text[last.end : ident.start] == " "
        ):
            joined[-1] = replace(last, end=ident.end, text=text[last.start : ident.end])
            continue
        joined.append(ident)
    return joined


JOINERS = "-./_@+"
"""Characters that join two word characters into one token ("dana.whitcombe",
"priya-r", "14348-63117")."""

GROUP = kept_patterns.compile(r"(?=..)[A-Z0-9]*\d[A-Z0-9]*")
"""One group of a code written in spaced groups ("1Z", "4A7", "0620"); one
digit alone is a sector's or a house's number ("Sector 2 560102")."""

CLOCK = kept_patterns.compile(
    r"\d{1,2}[:.]\d\d(?:[:.]\d\d)?(?:[ \t]*[AaPp]\.?[Mm]\.?)?"
)
"""A time of day ("9:14 AM", "14.07")."""

WHOLE_ONLY = frozenset({"POSTCODE", "LICENSE_PLATE", "DATE_OF_BIRTH", "PERSON"})
"""Kinds that are never part of a longer token or code: cut inside one, a
find of these is no identifier."""


NAME_TOKEN = kept_patterns.compile(r"[^\W\d_]+(?:[-'’ ][^\W\d_]+)*")
"""A name widened to its whole words ("Min-jun"): letters, hyphens, apostrophes."""


def _joined(text: str, at: int, step: int, *, numeric: bool = False) -> bool:
    """Tell whether the character at ``at`` continues the token across an edge.

    For a number (``numeric``) a joiner continues it only into more digits
    ("14348-63117"): "export_6011….csv" holds a card number between the
    words of a file name.
    """
    if not 0 <= at < len(text):
        return False
    char = text[at]
    if char.isalnum():
        return True
    beyond = at + step
    if not 0 <= beyond < len(text) or not text[beyond].isalnum():
        return False
    if char == ":" or (numeric and char in JOINERS and char != "/"):
        # "9:14": a clock, not a label's "ID:123"; "14348-63117"
        return text[beyond].isdigit() and text[at - step].isdigit()
    if char == "/" and not numeric:  # "ul. Wiślana 8/14": house and flat
        return text[beyond].isdigit() and text[at - step].isdigit()
    return char in JOINERS and char != "/"  # "/home/okafor_n/": a path's segment


def on_boundaries(text: str, ident: Identifier) -> Identifier | None:
    """Put a find's edges on the edges of its token and of its code's groups.

    A recognizer may cut inside a token ("/u/dana" of
    "/u/dana.whitcombe/settings", "@priya" of "@priya-r", "14348" of
    "14348-63117", "14 AM" of "9:14 AM") or inside a code written in spaced
    groups ("0620 … 0324" of "IR33 0620 … 2000 01", "03 1842 7716" of
    "1Z 4A7 9W2 03 1842 7716"). The find is widened to the whole token and
    every group; a time of day, or a kind that is never part of a longer
    token (a postcode, a plate, a date, a name), is dropped instead; so is
    a widened code that a label calls a reference ("Tracking number:").

    Args:
        text: The text the find is in.
        ident: The find.

    Returns:
        The find with its edges on token and group edges, or None.

    """
    from anonygraph.identifiers.recognizers.lookalikes import is_lookalike

    start, end = ident.start, ident.end
    numeric = not any(c.isalpha() for c in ident.text)
    while _joined(text, start - 1, -1, numeric=numeric):
        start -= 1
    while _joined(text, end, 1, numeric=numeric):
        end += 1
    token = text[start:end]
    if (start, end) != (ident.start, ident.end) and (
        CLOCK.fullmatch(token)
        or (ident.kind == "PERSON" and not NAME_TOKEN.fullmatch(token))
        or (ident.kind in WHOLE_ONLY and not re.fullmatch(r"[\d -]+", token))
    ):
        return None  # "9:[14 AM]", a name inside a path: no identifier
    grouped = start, end
    # An address is never a group of a spaced code ("4410 198.51.100.23": a
    # log line's number, then its client).
    if (
        ident.kind != "IP_ADDRESS"
        and not any(c.islower() for c in ident.text)
        and any(c.isdigit() for c in ident.text)
    ):
        # Spaced groups on either side: "IR33 " before, " 2000 01" after.
        while m := re.search(r"(?<![\w.,/-])([A-Z0-9]+) $", text[:start]):
            if not (GROUP.fullmatch(m.group(1)) or _between_groups(text, m.start(1))):
                break
            start = m.start(1)
        while m := re.match(r" ([A-Z0-9]+)(?![\w@/-]|[.,:]\w)", text[end:]):
            if not (GROUP.fullmatch(m.group(1)) or _between_groups(text, end + 1)):
                break
            end += m.end(1)
    if (start, end) != grouped and (
        ident.kind in WHOLE_ONLY
        or re.search(r"\d[:.]\d\d[ \t]*[AaPp][Mm]", text[start:end])
        or is_lookalike(text, start, end)
    ):
        return None  # "1Z 4A7 9W2 [03 1842 7716]": part of a longer code
    if (start, end) == (ident.start, ident.end):
        return ident
    kind = _widened_kind(text[start:end], ident.kind)
    return replace(ident, kind=kind, start=start, end=end, text=text[start:end])


def _widened_kind(value: str, kind: str) -> str:
    """Type a code widened over its groups by its own check, if it has one.

    "4519 2047 6603" read as an Aadhaar number is the start of the card
    "4519 2047 6603 1185"; "0620 … 2000 01" is the body of an IBAN.
    """
    if iban_valid(value):
        return "IBAN"
    number = re.sub(r"[ -]", "", value)
    if number.isdigit() and 13 <= len(number) <= 19 and luhn_valid(number):
        return "CARD"
    return kind


def _between_groups(text: str, at: int) -> bool:
    """Tell capitals of one to three letters between two digit groups ("1204 AB 92")."""
    m = re.match(r"[A-Z]{1,3}(?= \d)", text[at:])
    return bool(m) and bool(re.search(r"\d $", text[:at]))


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop whitespace and closing punctuation a recognizer took at the edges."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ".,;:!?)'\""):
        if text[end - 1] == ")" and text.count("(", start, end) > text.count(
            ")", start, end - 1
        ):
            break  # "K480213(6)": the value's own bracket closes
        end -= 1
    return start, end


def _without_topics(text: str, found: list[Identifier]) -> list[Identifier]:
    """Drop names spaCy found in a text about them, not from or to them.

    A famous person discussed as a topic ("Barack Obama was sworn in") is
    found by spaCy alone, by full name, in a text with no other direct
    identifier; a private person's name comes with a cue (greeting,
    signature, label), beside an e-mail, phone or address, or by first name
    only ("Priya said she would call"). A later surname-only mention of a
    topic ("Obama said") goes with it.
    """
    if any(i.kind != "PERSON" for i in found):
        return found
    cued = [(i.start, i.end) for i in found if i.recognizer != SPACY]

    def uncued(i: Identifier) -> bool:  # a field's value is no topic either
        if i.recognizer != SPACY or any(s <= i.start <= i.end <= e for s, e in cued):
            return False
        return not listed_name_in_slot(text, i.start, i.end)

    from anonygraph.identifiers.recognizers.name_checks import PARTICLES

    def full(i: Identifier) -> bool:
        # "Ngũgĩ wa Thiong'o": the model may stop at a particle of the name.
        after = re.match(r" (\w+) [A-ZÀ-Þ]", text[i.end :])
        return len(i.text.split()) > 1 or bool(after and after.group(1) in PARTICLES)

    topics = [i for i in found if uncued(i) and full(i)]
    words = {w for i in topics for w in i.text.split()}
    return [i for i in found if i not in topics and not (uncued(i) and i.text in words)]


def name_mentions(
    text: str,
    names: Iterable[str],
    taken: Iterable[tuple[int, int]] = (),
    lowercase_from: Iterable[str] = (),
) -> list[Identifier]:
    """Find the mentions of known names' words in a text ("Amir" of "Amir Haddad").

    Args:
        text: The text to search.
        names: Person names found in this text or earlier ones of a record.
        taken: Spans to leave alone (placeholders already in the text).
        lowercase_from: Names a cue presented, whose words are also found
            written in lowercase ("gracias ramón!!" after "Ramón:").

    Returns:
        One PERSON identifier per whole-word mention of a name word of three
        letters or more (titles aside); overlaps with other finds are left
        to the caller.

    """
    taken = list(taken)
    extra: list[Identifier] = []
    words = {
        w
        for name in names
        for w in re.findall(r"[^\W\d_][^\W\d_'’-]*", name)
        if len(w) >= 3 and w.lower() not in _TITLES
    }
    cued = {
        w
        for name in lowercase_from
        for w in re.findall(r"[^\W\d_][^\W\d_'’-]*", name)
        if len(w) >= 3 and w.lower() not in _TITLES
    }
    alternatives = sorted(words | _case_forms(cued, words), key=len, reverse=True)
    if not alternatives:
        return extra
    # One pattern for all the words: a pattern per word filled the regex
    # cache and made other patterns compile again.
    whole_words = re.compile(
        rf"(?<![\w'’-])(?:{'|'.join(map(re.escape, alternatives))})(?![\w'’-])"
    )
    for m in whole_words.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        start = _given_names_before(text, m.start())
        end = _other_names_after(text, m.end())
        if names_no_one(text[start:end]):
            start, end = m.span()  # "Raman Accounting": the name alone
        extra.append(
            Identifier("PERSON", start, end, text[start:end], 0.6, "NameMention")
        )
    return extra


def _case_forms(cued: set[str], words: set[str]) -> set[str]:
    """Return cued name words in lowercase and all in capitals, no English word.

    A chat writes a name found elsewhere in lowercase ("gracias ramón!!"
    after "Ramón:"), a form a surname in capitals ("TAHRAOUI" beside "Karim
    Tahraoui"); "will", "ROSE" are words, not names.
    """
    from anonygraph.identifiers.recognizers.name_checks import model_words

    forms = {w.lower() for w in cued if not w.islower()}
    forms |= {w.upper() for w in words if len(w) >= 4 and not w.isupper()}
    return {w for w in forms if w.lower() not in model_words()}


_CAPITALS = "A-ZÀ-ÞА-ЯЁІЇЄҐЂЈЉЊЋЏΑ-Ω"
"""Capitals of the Latin, Cyrillic and Greek scripts."""
_TITLE_CASE = rf"[{_CAPITALS}](?:(?![{_CAPITALS}])[^\W\d_])+"
"""A word in title case: one capital, then lowercase letters ("Nguyễn",
"Сапарова", not "TK")."""


def word_no_one_carries(word: str) -> bool:
    """Tell an English word of the model's vocabulary that no one is named.

    "Call", "Salary": lowercase in the pinned model's vocabulary and no
    given name or surname of any Faker locale ("Rose", "Will" are names).
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import (
        known_names,
        model_words,
    )

    return word.lower() in model_words() and fold(word) not in known_names()


def _other_names_after(text: str, end: int) -> int:
    """Widen a given name's mention over the capitalized names right after it.

    "Minh Anh" after a find of "Minh": up to three capitalized words joined
    by one space, unless they are words that are no names.
    """
    from anonygraph.identifiers.recognizers.name_checks import not_names

    for _ in range(3):
        m = re.match(rf" ({_TITLE_CASE}(?:-[^\W\d_]+)*)(?![\w'’.-]*\w)", text[end:])
        if (
            m is None
            or m.group(1).lower() in not_names() | _TITLES
            or word_no_one_carries(m.group(1))
        ):
            break
        end += m.end(1)
    return end


@lru_cache(maxsize=1)
def _cue_patterns() -> Screen:
    from anonygraph.identifiers.recognizers.names import ContextNameRecognizer

    return Screen(pattern for _, pattern, _ in ContextNameRecognizer().compiled)


def _cue_word(text: str, word_start: int, name_start: int) -> bool:
    """Tell a word that is a name cue for the name after it ("Ask", "Dear")."""
    window = max(0, word_start - 40)
    for pattern in _cue_patterns().live(text):
        for m in pattern.finditer(text, window, name_start + 1):
            if m.start() <= word_start and m.start("v") == name_start:
                return True
    return False


_NICKNAME = kept_patterns.compile(
    r"(?<![\w'’.-])([A-ZÀ-Þ][a-zà-ÿ][\w'’-]*) (['\"‘“(][A-ZÀ-Þ][\w-]*['\"’”)]) $"
)
"""A given name and a quoted or bracketed nickname before a surname."""


def _given_names_before(text: str, start: int) -> int:
    """Widen a surname's mention over the given names right before it.

    "Oluwaseun Adeyemi wrote" after "Dear Mr Adeyemi": the capitalized words
    joined to a known name word by a single space are that person's other
    names (up to three), unless they are words that are no names.
    """
    from anonygraph.identifiers.recognizers.name_checks import (
        PARTICLES,
        not_names,
        relation_words,
    )
    from anonygraph.identifiers.recognizers.names import LABEL

    for _ in range(3):
        # No pattern below takes a line break: search the name's line only.
        line = text.rfind("\n", 0, max(start - 1, 0)) + 1
        # "O. Le Goff": an initial or a particle of the name comes with it.
        joined = re.compile(
            r"(?<![\w'’.-])([A-ZÀ-Þ]\.|(?i:" + "|".join(PARTICLES) + r")) $"
        ).search(text, line, start)
        if (
            joined
            and re.match(r"[A-ZÀ-Þ]", text[start : start + 1])
            and not re.search(rf"{LABEL}$", text[:start])  # "au nom de": the cue's
            # "Sanne de Wit" joins "de"; "il CF di Giulia" does not: a
            # lowercase particle is the name's only after a capitalized word.
            and (
                not joined.group(1).islower()
                or re.search(
                    r"(?:[A-ZÀ-Þ][a-zà-ÿ][\w'’-]*|[A-ZÀ-Þ]\.)[ ]$",
                    text[: joined.start(1)],
                )
            )
        ):
            start = joined.start(1)
            continue
        # "Eustace 'Bunny' Forbes": a quoted nickname between a given name
        # and the surname is the same person's.
        nick = _NICKNAME.search(text, line, start)
        if nick and nick.group(1).lower() not in not_names():
            start = nick.start(2)
            continue
        # "Jean-Pierre", "Jun-jun": a hyphenated given name is one word.
        m = re.compile(rf"(?<![\w'’.-])({_TITLE_CASE}(?:-[^\W\d_]+)*) $").search(
            text, line, start
        )
        if (
            m is None
            or m.group(1).lower() in not_names() | _TITLES
            or word_no_one_carries(m.group(1))  # "Call John Smith": a verb
            or re.fullmatch(LABEL, m.group(0))  # "Grandma Rose": a cue word
            or m.group(1).lower() in relation_words()  # "Mammy Rose": kin
            or _cue_word(text, m.start(1), start)  # "Ask Priya": the cue's
        ):
            break
        start = m.start(1)
    return start


def _non_overlapping(found: list[Identifier]) -> list[Identifier]:
    ranked = sorted(found, key=lambda i: (-(i.end - i.start), -i.score, i.start))
    chosen: list[Identifier] = []
    for ident in ranked:
        if all(ident.end <= c.start or ident.start >= c.end for c in chosen):
            chosen.append(ident)
    return sorted(chosen, key=lambda i: i.start)
