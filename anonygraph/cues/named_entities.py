"""Recognizers over the NLP engine's named entities: places, landmarks, organizations.

The gazetteer and word lists know the common names; the entity recognizer
finds the rest wherever they are (islands, regions, neighbourhoods,
landmarks, schools, employers), the way Presidio and NeMo's anonymizer put
a statistical recognizer beside their pattern recognizers. spaCy's small
model confuses the kinds of proper names (a city tagged ORG, a region tagged
PERSON), so the label only proposes a span: the gazetteer, the span's own
words and the words around it decide what it is, and the parse decides the
form of its replacement.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from anonygraph.cues.boundaries import joined_names, split_at_joints
from anonygraph.cues.contract import authors_study, school_noun
from anonygraph.cues.cue import Cue, sentence_of
from anonygraph.cues.lexicon import table
from anonygraph.cues.occupations import job_words
from anonygraph.cues.person_roles import kin_words, known_name
from anonygraph.cues.place_contract import (
    LANDMARK_NOUNS,
    WORK_CONTEXT,
    apposed_kind_noun,
)
from anonygraph.cues.placeholders import placeholder
from anonygraph.cues.places import (
    LANGUAGE_BEFORE,
    LOCATIVE,
    NEARBY,
    Place,
    fold,
    gazetteer,
    place_attribute,
    replacement_for,
)
from anonygraph.tools import kept_patterns

NAME_PREFIXES = frozenset("Mc Mac De Di Da Du La Le Van Von".split())
"""Word starts after which a capital is part of a name: McAllen, DeKalb."""
NAME_WITH_PREFIX = kept_patterns.compile(
    rf"(?:{'|'.join(sorted(NAME_PREFIXES))})[A-Z][a-z]*$"
)


def brand_cased(name: str) -> bool:
    """Tell whether a word has a capital after a lower-case letter, as a brand.

    TikTok, YouTube, iPhone, PlayStation are brands; McAllen, MacLeod,
    DeKalb, LaSalle, DuPage are names of places and people.
    """
    return any(
        re.search(r"[a-z][A-Z]", word) is not None
        and NAME_WITH_PREFIX.match(word) is None
        for word in re.findall(r"[A-Za-z]+", name)
    )


PROPER_LABELS = frozenset({"GPE", "LOC", "FAC", "ORG", "PERSON", "NORP"})
"""Entity labels whose spans may be places or organizations."""

LOCATIVE_BEFORE = (LOCATIVE | {"on", "overlooks", "overlooking", "by", "under"}) - {
    "at",
    "of",
}
"""Words after which a capitalized name is a place people are in or go to
("at" and "of" also precede schools and employers)."""

EDUCATION_NAME = kept_patterns.compile(
    # Not joined by a hyphen: "Kulim Hi-Tech" is an industrial park.
    r"(?<![\w-])(?:University|Uni|College|School|Institute|Academy|High|State|Poly|"
    r"Polytechnic|Tech|Met|Conservatory|Seminary|Business School)\b",
    re.IGNORECASE,
)
EDUCATION_CONTEXT = kept_patterns.compile(
    r"\b(?:stud(?:y|ied|ying|ent|ents)|degree|graduat\w*|major(?:ing|ed)?|freshman|"
    r"sophomore|junior year|senior year|mba|phd|master'?s|bachelor'?s|semester|"
    r"campus|professor|lectures?|alma mater|enrolled|dorm|uni|tuition|postdoc|"
    r"placement|thesis|course|classes|class|university|college)\b",
    re.IGNORECASE,
)
STUDY_BEFORE = kept_patterns.compile(
    r"\b(?:degree|master'?s|bachelor'?s|phd|doctorate|diploma|mba|msc|bsc|ba|ma|"
    r"studies|studied|studying|study|qualified|trained|graduated|course)"
    r"(?:\s+(?:in|of)\s+[\w' -]{1,30}?)?\s+(?:at|from)\s+$",
    re.IGNORECASE,
)
"""A study phrase and its field right before the name: the name is a school
("my master's in social work at Makerere" is no employer, "work" there is the
field)."""
LANGUAGE_AFTER = kept_patterns.compile(
    r"^\s*(?:lessons?|class(?:es)?|teacher|tutor|course|speakers?|dialect|"
    r"grammar|words?|accent|subtitles|version|language)\b",
    re.IGNORECASE,
)


def _starts_sentence(text: str, start: int) -> bool:
    head = text[:start].rstrip(" \t\"'(“")
    return not head or head[-1] in ".!?\n:"


def _before(text: str, start: int) -> str:
    match = re.search(r"([A-Za-z']+)\W*$", text[:start])
    return match.group(1).lower() if match else ""


def _with_article(text: str, start: int) -> int:
    """Widen a span to take in a "the" right before it."""
    return start - 4 if text[max(0, start - 4) : start].lower() == "the " else start


def _is_modifier(ent: Any) -> bool:
    """Tell whether the entity modifies a noun after it ("Hobart traffic")."""
    doc = ent.doc
    if ent.end >= len(doc):
        return False
    following = doc[ent.end]
    return (
        ent.root.dep_ in ("compound", "nmod", "amod")
        and following.pos_ == "NOUN"
        and following.text[:1].islower()
    )


def detect_entities(text: str, doc: Any, taken: list[Cue]) -> list[Cue]:
    """Find places, landmarks and organizations the word lists did not.

    Args:
        text: The text ``doc`` was parsed from.
        doc: The engine's parse of ``text``.
        taken: Cues already found; an entity overlapping one is left to it.

    """
    cues: list[Cue] = []
    for ent in split_at_joints(joined_names(doc.ents)):
        start, end = ent.start_char, ent.end_char
        if text[start:end].lower().startswith("the "):
            start += 4
        if ent.label_ not in PROPER_LABELS or not text[start : start + 1].isupper():
            continue
        if _starts_sentence(text, start) and text[start:end].lower() in job_words():
            continue  # "Healthcare worker here": a capitalized common word
        if at_institution(text, start, end) and any(
            c.start == start and c.end == end and c.kind == "city" for c in taken
        ):
            # "Sophomore year at Georgetown": a university, not Guyana's capital.
            cues.append(
                organization_cue(
                    text,
                    start,
                    end,
                    sentence_of(text, start, end),
                    _before(text, start),
                )
            )
            continue
        if _overrides_small_city(text, ent, start, end, taken):
            cues.append(_unknown_place_cue(text, ent, start, end))
            continue
        # A longer name around a cue ("Marina Bay Sands" around "Marina") is
        # the entity's; a cue as long or longer keeps its span.
        if any(
            c.start < end
            and start < c.end
            and not (
                start <= c.start and c.end <= end and c.end - c.start < end - start
            )
            for c in taken
        ) or any(c.start < end and start < c.end for c in cues):
            continue
        if ent.label_ == "NORP" or _is_language(text, start, end):
            continue
        cue = _place_or_organization(text, ent, start, end)
        if cue is not None:
            cues.append(cue)
    return cues + _proper_nouns_after_at(text, doc, taken + cues)


NOT_NAMES = frozenset(
    {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
)
"""Entity labels of what no employer, school or place is ("for December")."""

KIND_UNSAID_AFTER = frozenset({"at", "from"})
"""Words after which a name's own noun does not say what the place is: one
studies "at Bunker Hill" and has a Master's "from Cave Hill" (colleges), not a
hill; after "on", "to" or "near", "Swan Street" is a street."""

PLACE_PREPOSITIONS = frozenset(
    "of on up near to by overlooking overlooks under in at from around".split()
)


def _proper_nouns_after_at(text: str, doc: Any, taken: list[Cue]) -> list[Cue]:
    """Find names the tagger missed after "at", "from", "for", "joined".

    The small model leaves some acronyms and names untagged ("my MBA at
    INSEAD", "thirty years at Station 12"); a run of proper nouns there is
    a workplace, a school or a landmark.
    """
    cues: list[Cue] = []
    i = 1
    while i < len(doc):
        token = doc[i]
        possessive_name = (
            i + 2 < len(doc)
            and doc[i + 1].text in ("'s", "’s")
            and doc[i + 2].text[:1].isupper()
            and doc[i - 1].lower_ in PLACE_PREPOSITIONS
        )  # "on top of Arthur's Seat": a landmark's name, after any place word
        if token.ent_type_ in NOT_NAMES or not (
            (token.pos_ == "PROPN" or (token.text.isupper() and len(token.text) > 1))
            and token.text[:1].isupper()
            and (
                doc[i - 1].lower_ in ("at", "from", "for", "joined") or possessive_name
            )
        ):
            i += 1
            continue
        j = i
        while (
            j + 1 < len(doc)
            and (
                doc[j + 1].pos_ == "PROPN"
                or (doc[j + 1].like_num and j == i)
                # "Helen's Bay", "Arthur's Seat": a possessive inside one name.
                or (
                    doc[j + 1].text in ("'s", "’s")
                    and j + 2 < len(doc)
                    and doc[j + 2].text[:1].isupper()
                )
                or (doc[j].text in ("'s", "’s") and doc[j + 1].text[:1].isupper())
            )
        ):
            j += 1
        start, end = token.idx, doc[j].idx + len(doc[j].text)
        i = j + 1
        if any(c.start < end and start < c.end for c in taken + cues):
            continue
        if gazetteer().get(fold(text[start:end])) is not None:
            continue  # a place the place recognizer chose not to take
        last = doc[j].lower_ if not doc[j].like_num else doc[max(i - 1, j - 1)].lower_
        if possessive_name and last not in LANDMARK_NOUNS:
            # "Arthur's Seat": a name of its own, whose kind no word says.
            attribute = place_attribute(text, start)
            cues.append(
                Cue(start, end, text[start:end], attribute, "landmark",
                    text[start:end], placeholder(attribute), 4, sure=False)
            )  # fmt: skip
            continue
        if (last in LANDMARK_NOUNS or token.lower_ in LANDMARK_NOUNS) and (
            doc[token.i - 1].lower_ not in KIND_UNSAID_AFTER
        ):
            noun = LANDMARK_NOUNS.get(last) or LANDMARK_NOUNS[token.lower_]
            cues.append(
                Cue(start, end, text[start:end], place_attribute(text, start),
                    "landmark", text[start:end], noun, 4)
            )  # fmt: skip
            continue
        if (
            last in LANDMARK_NOUNS
            or token.lower_ in LANDMARK_NOUNS
            or (
                # "Anyone else here from Kyushu?": a place unless a degree is
                # near; the gazetteer does not hold it, so where it is stays
                # unsaid.
                doc[token.i - 1].lower_ == "from"
                and not at_institution(text, start, end)
            )
        ):
            attribute = place_attribute(text, start)
            cues.append(
                Cue(start, end, text[start:end], attribute, "area", text[start:end],
                    placeholder(attribute), 4, sure=False)
            )  # fmt: skip
            continue
        sentence = sentence_of(text, start, end)
        cues.append(
            organization_cue(text, start, end, sentence, doc[token.i - 1].lower_)
        )
    return cues


def at_institution(text: str, start: int, end: int) -> bool:
    """Tell whether a name after "at"/"from" is a school or an employer."""
    sentence = sentence_of(text, start, end)
    before = _before(text, start)
    if before == "from":
        # "graduated from McGill", but "moved from Lagos for a job".
        near = text[max(0, start - 40) : start]
        return bool(re.search(r"\b(?:graduat\w*|degree|phd|mba|diploma)\b", near, re.I))
    return before in ("at", "attend", "attended") and (
        bool(EDUCATION_CONTEXT.search(sentence)) or bool(WORK_CONTEXT.search(sentence))
    )


def _overrides_small_city(
    text: str, ent: Any, start: int, end: int, taken: list[Cue]
) -> bool:
    """Tell whether a small town's name here names something bigger.

    "Tuscany" is a town of 20,000 in Canada and "Sagrada Família" a district
    of Barcelona; when the tagger does not call the span a city (GPE) and the
    town is small, or "the" stands before it (no city takes "the"), the span
    is a region or a landmark of that name.
    """
    same = [c for c in taken if c.start == start and c.end == end and c.kind == "city"]
    place = gazetteer().get(fold(text[start:end]))
    return (
        bool(same)
        and place is not None
        and _names_something_bigger(text, ent, start, place)
    )


def _names_something_bigger(text: str, ent: Any, start: int, place: Place) -> bool:
    the = text[max(0, start - 4) : start].lower() == "the "
    return the or (place.population < 100_000 and ent.label_ != "GPE")


def _is_language(text: str, start: int, end: int) -> bool:
    return bool(LANGUAGE_BEFORE.search(text[max(0, start - 20) : start])) and bool(
        LANGUAGE_AFTER.match(text[end:]) or text[start:end] in _languages()
    )


def _languages() -> frozenset[str]:
    return frozenset(row[0] for row in table("languages.tsv"))


def _place_or_organization(text: str, ent: Any, start: int, end: int) -> Cue | None:
    name = text[start:end]
    before = _before(text, start)
    if (
        before == "the"
        and text[start - 4 : start].lower() == "the "
        and ent.label_ in ("GPE", "LOC", "FAC")
        and _before(text, start - 4) in LOCATIVE_BEFORE
    ):
        # "from the Yorkshire Dales": a place's article, after a word that
        # puts someone in a place, counts as that word.
        before = _before(text, start - 4)
    if re.search(r"\bout of\s+$", text[:start], re.IGNORECASE):
        before = "in"  # "based out of Frankfurt", "trucking out of Omaha"
    sentence = sentence_of(text, start, end)
    institution_like = bool(EDUCATION_NAME.search(name))
    at_school_or_work = at_institution(text, start, end)
    place = gazetteer().get(fold(name))
    if (
        place is not None
        and place.kind == "city"
        and _names_something_bigger(text, ent, start, place)
    ):
        return _unknown_place_cue(text, ent, start, end)
    if place is not None and not institution_like and not at_school_or_work:
        if (
            ent.label_ == "PERSON"
            and before not in LOCATIVE_BEFORE
            and not (_is_modifier(ent) and place.population >= 100_000)
            and known_name(name)
        ):
            return None  # "Jordan" the person, not the country; "Nnewi" no one's
        return _place_cue(text, ent, start, end, place)
    if (ent.label_ in ("ORG", "FAC") and institution_like) or at_school_or_work:
        # People are in cities and at schools and employers ("at Deakin").
        return organization_cue(text, start, end, sentence, before)
    if ent.label_ == "ORG" and before in ("for", "with", "joined", "at", "from"):
        cue = organization_cue(text, start, end, sentence, before)
        # "9 years at Buckeye Logistics": a body the tagger names, no place.
        unsure = cue.kind == "area" and before == "at"
        return replace(cue, kind="organization", replacement="[ORG]") if unsure else cue
    if (
        ent.label_ == "ORG"
        and text[end : end + 2] in ("'s", "’s")
        and not re.match(r"['’]s\s+[A-Z]", text[end:])  # "Calton's Hill": a name
        and not (before == "" or _starts_sentence(text, start))
    ):
        # Not at a sentence's start: "Money's tight" is no company.
        return organization_cue(text, start, end, sentence, before)
    opens = not text[:start].strip() and not _landmark_noun(name)
    if (opens and (ent.label_ == "PERSON" or _is_modifier(ent))) or (
        fold(name) in kin_words()
    ):
        # "Howzit bru", "Kia ora": an unknown word opening the text is a
        # greeting as likely as a place; "Mammy vex": kin, no place.
        return None
    if before in LOCATIVE_BEFORE or _is_modifier(ent) or _landmark_noun(name):
        # An unknown name is a place only where a place can stand: "to
        # Bavaria", "on Vancouver Island"; "learned to use Reddit" is none,
        # and a capital inside a word marks a brand ("TikTok dances").
        if ent.label_ in ("GPE", "LOC", "FAC", "PERSON", "ORG") and not (
            brand_cased(name)
        ):
            return _unknown_place_cue(text, ent, start, end)
    return None


def _landmark_noun(name: str) -> str:
    words = [w for w in name.lower().split() if w not in ("the", "of")]
    return next(
        (LANDMARK_NOUNS[w] for w in (words[-1:] + words[:1]) if w in LANDMARK_NOUNS),
        "",
    )


def _place_cue(text: str, ent: Any, start: int, end: int, place: Place) -> Cue:
    modifier = _is_modifier(ent)
    if place.kind in ("region", "country") and not modifier:
        start = _with_article(text, start)
    replacement = "local" if modifier else replacement_for(place)
    if place.kind == "city" and _before(text, start) in NEARBY:
        replacement = "a city"
    return Cue(
        start,
        end,
        text[start:end],
        place_attribute(text, start),
        place.kind,
        place.value,
        replacement,
        4,
        exact=place.kind != "country",
    )


def _unknown_place_cue(text: str, ent: Any, start: int, end: int) -> Cue:
    """Return the cue of a name the gazetteer does not hold, where a place stands.

    Nothing says where such a place is, so no coarser place is sure: "works
    in the Gulf" is not "in the area", "the Bay" is no bay. It becomes the
    typed placeholder, unless a landmark's own noun follows a name ("Swan
    Street" -> "a street", true whatever the name). A name before a noun
    ("a Malayali family", "Gen-Z core") may not be a place at all: it goes and
    its noun stays ("a family"), where "local" would be a guess.
    """
    end = _name_end(ent, end)
    if _is_modifier(ent):
        noun = apposed_kind_noun(ent.doc, ent.end)
        if noun is not None:
            # "born on Taveuni, Somosomo village": the name and its noun,
            # apposed to a place, are one place; "[PLACE], village" would
            # leave its noun alone.
            end = noun.idx + len(noun.text)
            attribute = place_attribute(text, start)
            return Cue(start, end, text[start:end], attribute, "area",
                       text[start:end], placeholder(attribute), 4,
                       sure=False)  # fmt: skip
        return Cue(start, end, text[start:end], place_attribute(text, start),
                   "name_modifier", text[start:end], "", 4)  # fmt: skip
    start = _with_article(text, start)
    name = text[start:end]
    if _named_landmark(name) and _before(text, start) not in KIND_UNSAID_AFTER:
        return Cue(start, end, name, place_attribute(text, start), "landmark",
                   name, _landmark_noun(name), 4)  # fmt: skip
    attribute = place_attribute(text, start)
    kind = "landmark" if ent.label_ == "FAC" else "area"
    return Cue(start, end, name, attribute, kind, name, placeholder(attribute), 4,
               sure=False)  # fmt: skip


def _name_end(ent: Any, end: int) -> int:
    """Return where a name ends: before a number the tagger ran on into.

    "I been in the Bay five years": the entity takes "five years" with it.
    """
    for token in ent:
        if token.i > ent.start and token.like_num:
            previous = token.doc[token.i - 1]
            return min(end, int(previous.idx + len(previous)))
    return end


def _named_landmark(name: str) -> bool:
    """Tell whether a landmark's noun goes with a name ("Swan Street", "Isle of Skye").

    "the Bay", "the Valley", "the Island" alone are a region's nickname,
    not a bay, a valley or an island.
    """
    words = [w for w in name.lower().split() if w not in ("the", "of")]
    return len(words) > 1 and bool({words[0], words[-1]} & LANDMARK_NOUNS.keys())


KIND_NOUN_AFTER = kept_patterns.compile(
    r"[ \t]+(?:school|college|university|academy|institute|polytechnic|seminary|"
    r"conservatory)\b"
)
"""An institution's kind noun written in lower case after its name ("Pilling
school"): the name and its noun are one, and the noun says the kind."""


STREET_END = kept_patterns.compile(
    r"\b(?:Street|St|Road|Rd|Avenue|Ave|Lane|Boulevard|Blvd|Crescent|Terrace)\.?$"
)
"""A street's word closing a name: the name is a street's, no body's."""


def organization_cue(
    text: str,
    start: int,
    end: int,
    sentence: str,
    before: str,
    school: bool = False,
    employer: bool = False,
) -> Cue:
    """Return the cue of a school or employer named at ``start``-``end``.

    ``school`` says the caller knows it is a school ("started at Oxford"),
    ``employer`` that it is an employer ("a software engineer at Infosys").
    """
    if STREET_END.search(text, start, end):
        # "a forge off Lower High Street": a street, whatever words it holds.
        start = _with_article(text, start)
        attribute = place_attribute(text, start)
        return Cue(start, end, text[start:end], attribute, "area", text[start:end],
                   placeholder(attribute), 4, sure=False)  # fmt: skip
    kind_after = KIND_NOUN_AFTER.match(text, end)
    if kind_after:
        end = kind_after.end()  # "at Pilling school": the name and its kind
    name = text[start:end]
    # The nearest words before the name decide: "studying accounting at
    # Deakin, and working part time at Coles" names a school, then a shop.
    near = text[max(0, start - 40) : start]
    near = re.split(r"[,;.!?]|\band\b", near)[-1]
    if school or EDUCATION_NAME.search(name) or STUDY_BEFORE.search(near):
        education = True
    elif employer or WORK_CONTEXT.search(near):
        education = False
    elif EDUCATION_CONTEXT.search(near):
        education = True
    elif re.search(r"\bfor\s+$", near, re.IGNORECASE):
        # "doing deliveries for Deliveroo since graduating": one works for a
        # company; the studies elsewhere in the sentence are another clause's.
        education = False
    elif (
        EDUCATION_CONTEXT.search(sentence) or WORK_CONTEXT.search(sentence)
    ) and authors_study(sentence):
        # Only a sentence of the author's says the name is the author's
        # school or work ("Class 4B sports day is at X" names a venue); a
        # study or work word elsewhere in it does not say which the name is
        # ("an EMT with FDNY, just finished my associate's"): some body.
        education = bool(EDUCATION_CONTEXT.search(sentence)) and not re.search(
            r"\b(?:work|job|shift)\b", sentence, re.IGNORECASE
        )
        if not re.search(r"\bshift at\s*$", text[:start], re.I):
            start = _with_article(text, start)
            return Cue(start, end, text[start:end],
                       "education" if education else "occupation",
                       "organization", name, "[ORG]", 4, sure=False)  # fmt: skip
    else:
        # Nothing in the sentence says school or work: "stationed at
        # Lossiemouth" is no company. What the name is stays unsaid.
        start = _with_article(text, start)
        attribute = place_attribute(text, start)
        return Cue(start, end, text[start:end], attribute, "area", name,
                   placeholder(attribute), 4, sure=False)  # fmt: skip
    possessive = text[end : end + 2] in ("'s", "’s")
    high = re.search(r"high school", sentence, re.I) and not EDUCATION_NAME.search(name)
    noun = ("high school" if high else school_noun(name)) if education else "company"
    words = name.removeprefix("the ").removeprefix("The ").split()
    shift = before == "shift" or re.search(r"\bshift at\s*$", text[:start], re.I)
    if noun == "company" and len(words) > 1 and words[-1].istitle() and not shift:
        # "Causeway Coast and Glens Borough Council", "Lady Reading Hospital":
        # a name with a head noun of its own says what body it is, and "a
        # company" may well be false of it.
        start = _with_article(text, start)
        return Cue(start, end, text[start:end], "occupation", "organization",
                   name, "[ORG]", 4, sure=False)  # fmt: skip
    if not noun:
        # A school whose name and sentence say no kind ("Diploma from
        # NORTEC"): "a university" would be a guess.
        start = _with_article(text, start)
        return Cue(start, end, text[start:end], "education", "organization", name,
                   "[SCHOOL]", 4, sure=False)  # fmt: skip
    if shift:
        replacement = "work"
    elif possessive or before not in ("at", "for", "with", "joined", "from", "to"):
        replacement = f"the {noun}"
    else:
        replacement = f"{'an' if noun[0] in 'aeio' else 'a'} {noun}"
    return Cue(
        _with_article(text, start),
        end,
        text[_with_article(text, start) : end],
        "education" if education else "occupation",
        "organization",
        name,
        replacement,
        4,
        exact=True,
    )
