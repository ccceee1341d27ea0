"""The contract of a rules replacement: a concrete value only where a source settles it.

A detector reads a span as a place, an age or a school; the coarser form it
writes (a country, "in my fifties", "a university") is a new statement. This
module holds the sources that may settle such a statement, in one place, so
that every detector's cue is judged by the same rules:

Places:
    A name is no place where its sentence uses it as a person
    (`used_as_person`): the subject of a clause with "from" and a group after
    it ("Dallas from HR will present"), the one a "who" asks about ("idk
    who Nevada is"), a name after a kin word ("Uncle Denver"), or a given
    name owning a thing ("Chelsea's place"). A name is a place only where
    its sentence puts a place (`in_place_role`: a preposition's object, a
    noun's modifier, a fragment); out of that role, a name a person may
    carry or one apposed to a common noun is someone ("Phoenix dropped 14",
    "meet Toledo, the collie": `named_as_someone`). A text that never speaks of
    its author (no first-person word, no subject left out, no cue of a trait:
    a timetable, a forecast, a council report, a sentence said of a name)
    holds no place of the author's (`speaks_of_author`: "mine" counts only as
    a pronoun, a one-word heading is no verb, and an obituary's fragments
    after a clause about its subject are that person's); a trait its clause
    says of a name or of "she" ("Moira Doherty, 63") is no word about the
    author, and a text about no one keeps every word it has.
Rewrites:
    A replacement brings no first-person word its span lacks into a clause
    whose subject is someone else ("Dolly Parton ... after finishing high
    school" stays; `without_borrowed_first_person`).
Ages:
    A number set beside someone other than the author, as an apposition to a
    clause's subject in a sentence with no first-person word ("Councillor
    X, 54, said"), is that person's age, not the author's (`others_age`).
Schools:
    The kind of institution is what the name says it is (a college stays "a
    college"); a name with no such word is the typed placeholder, whatever
    degree its sentence speaks of (`school_noun`). A study word elsewhere in
    a sentence that holds no first-person word ("Class 4B sports day is at
    X") makes X no school of the author's (`authors_study`).
Places further (`anonygraph.cues.place_contract`):
    Which countries the text names, whose a place is, what kind a name says,
    a route's ends, and where the author works.
Jobs (`held_by_named_other`, `residence_reading`, `named_subject`):
    A title is the author's only in a frame that states the author's job (the
    author as subject of a copula or a work verb, "as X", "X by trade", a
    fragment): one apposed to someone named ("Coach Dale, 61, a retired
    plumber") or equated with a subject who is not a pronoun of the author
    ("Okonkwo is a wrestler and farmer") is that person's and stays; one
    apposed to a description of the author with a place after it ("a
    woman, resident in St. George's") may be where the author lives, and
    becomes the typed placeholder.

Where a source is missing, the caller writes the attribute's typed
placeholder, or leaves the span as written when it is someone else's.
"""

from __future__ import annotations

import re
from typing import Any

from anonygraph.cues import author_words
from anonygraph.cues.ages import RELATIVE_SUBJECT
from anonygraph.cues.cue import Cue
from anonygraph.cues.place_contract import in_english, named_person
from anonygraph.tools import kept_patterns

_PLACE_ATTRIBUTES = frozenset({"city_country", "birth_city_country"})
_SELF_ATTRIBUTES = frozenset(
    {"age", "sex", "occupation", "relationship_status", "income_level"}
)
"""Attributes whose cue, found anywhere, says the text is about its author."""
_PEOPLE = frozenset({"demonym", "person"})
"""Place-attribute cue kinds that name people: a nationality ("Fellow Canucks")
is the author's trait, and a name read as a person goes as a person."""
_THINGS = frozenset({"amount", "organization", "institution"})
"""Cue kinds that name a thing, not a trait of a person: an amount with no pay
frame around it, a named employer, school or bank."""

_FIRST_WORD = kept_patterns.compile(
    r"(?<![\w'])(?:[Ii]|[Ii]'m|im|[Ii]'ve|[Ii]'d|[Ii]'ll|[Mm]e|[Mm]y|[Mm]ine|"
    r"[Mm]yself|[Ww]e|[Ww]e're|us|[Oo]ur|[Oo]urs)(?![\w'])"
)
"""The author's words; case matters only where a name is spelled so ("US")."""
_WORD = kept_patterns.compile(r"[\w']+")

INSTITUTION_NOUNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        kept_patterns.compile(r"\b(?:University|Uni|Univ|State|Met)\b", re.I),
        "university",
    ),
    (kept_patterns.compile(r"\bHigh\b"), "high school"),
    (
        kept_patterns.compile(
            r"(?<![\w-])(?:College|Polytechnic|Poly|Tech|Technical)\b", re.I
        ),
        "college",
    ),
    (kept_patterns.compile(r"\bInstitute\b", re.I), "institute"),
    (kept_patterns.compile(r"\b(?:School|Academy)\b", re.I), "school"),
    (kept_patterns.compile(r"\bConservatory\b", re.I), "conservatory"),
    (kept_patterns.compile(r"\bSeminary\b", re.I), "seminary"),
)
"""The kind of institution a name states of itself, first match first ("Ohio
State" and "Cardiff Met" are universities; "Kigali Technical College" a
college)."""


def speaks_of_author(doc: Any, cues: list[Cue]) -> bool:
    """Tell whether the text speaks of its author at all.

    A first-person word anywhere, a cue of a trait only a person has (an
    age, a job, a partner, a nationality), a verb whose subject is left out
    ("Moved to Houston"), or one sentence not said of a name says it does.
    A text of several sentences with places alone, in no person ("Kitwe to
    Ndola express bus, weekdays: ... Adult fare K45."), or one sentence said
    of a name ("The Bank of Ghana raised its rate in Accra"), states where a
    bus, the weather or someone else goes, not where its author is.
    """
    if any(_author_token(t) for t in doc):
        return True
    if not in_english(doc):
        # Words of another language ("Mimi ni msee wa 22", "je live à
        # Longueuil") hold first persons this test cannot read.
        return True
    if any(_subjectless(sentence.root) for sentence in doc.sents):
        return True  # "Moved from Lagos to Houston in 2019": the author moved
    # One sentence with no person ("Hobart traffic is a joke") is a comment
    # its author posts about their own place, unless it is said of someone
    # or something named ("The Reserve Bank of New Zealand cut the rate");
    # a text of several, none of them the author's, is a notice about no one.
    sentences = list(doc.sents)
    if not sentences or (len(sentences) < 2 and not _named_subject(sentences[0].root)):
        return True  # an empty text has nothing to keep from its author
    # A bare amount ("seats cost Rs. 1,500") is a price as often as a pay,
    # and a named bank or firm is a thing a report speaks of.
    # A trait said of someone else ("Harbourmaster Colm Devlin, who has
    # worked the slipway", "she became the first woman to") is theirs.
    return any(
        (c.attribute in _SELF_ATTRIBUTES and c.kind not in _THINGS or c.kind in _PEOPLE)
        and not _of_someone_else(doc, c)
        for c in cues
    )


def _author_token(token: Any) -> bool:
    """Tell a word of the author's, read with its part of speech.

    "mine" and "us" are the author only as pronouns: "the mine museum" and
    "a US firm" name a pit and a country.
    """
    if _FIRST_WORD.fullmatch(token.text) is None:
        return False
    return token.lower_ not in _HOMOGRAPHS or token.pos_ == "PRON"


_HOMOGRAPHS = frozenset({"mine", "us"})
"""Words of the author's that are also nouns or names."""


def _of_someone_else(doc: Any, cue: Cue) -> bool:
    """Tell a cue its clause says of someone other than the author.

    In a sentence with no first-person word, a span apposed to a name
    ("Moira Doherty, 63") or in a clause whose subject is a name or a
    pronoun of the second or third person ("She served as an MP") is that
    person's.
    """
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or any(t.lower_ in author_words.ANY for t in span.sent):
        return False
    token = span.root
    for _ in range(12):  # a clause's subject is a few heads up at most
        if token.dep_ == "appos" and _third_person(token.head):
            return True  # "Moira Doherty, 63": said of the name
        subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            subject = subjects[0]
            if span.start <= subject.i < span.end:
                # "The man, who has run river trips, was flown ...": the span
                # is the subject, a person named by a noun, not the author.
                return subject.pos_ == "NOUN" and _third_person(subject)
            return _third_person(subject)
        if token.head.i == token.i:
            # No subject up to the root: the author left out, unless the text
            # is about someone else ("She was a teacher. Mother of Ann, 61, a
            # midwife."): a fragment after it goes on describing them.
            return _about_third_person(doc, token.sent)
        token = token.head
    return False


def _about_third_person(doc: Any, fragment: Any) -> bool:
    """Tell a text with no word of its author's whose earlier clause is someone's.

    An obituary or a profile names its subject in a clause ("X died", "she
    was"), and its verbless fragments after it go on with that person; a
    bio of fragments alone ("Nurse, mum of two, Leeds") is the author's.
    """
    if any(t.lower_ in author_words.ANY for t in doc):
        return False
    return any(
        s.end <= fragment.start
        and any(
            c.dep_ in ("nsubj", "nsubjpass") and _third_person(c)
            for t in s
            if t.pos_ in ("VERB", "AUX")
            for c in t.children
        )
        for s in doc.sents
    )


_THIRD_DETERMINERS = frozenset({"the", "this", "that"})
"""Determiners of a noun phrase that names someone, in a sentence with no
first-person word (the caller's test): "the man", "that nurse"."""


def _third_person(word: Any) -> bool:
    """Tell a person named or a pronoun of the third person ("she", "Moira").

    "ur a 22 yo girlie" speaks of the author in the second person, and a
    word of a dialect ("Mi a nurse") is no name.
    """
    if word.pos_ == "PRON":
        person = word.morph.get("Person")
        return bool(person) and person[0] == "3" and word.lower_ != "it"
    determiners = {c.lower_ for c in word.children if c.dep_ == "det"}
    if word.pos_ == "NOUN" and (
        determiners & _THIRD_DETERMINERS
        or (determiners & {"a", "an"} and word.dep_ == "nsubjpass")
    ):
        # "The man was flown", "A 58-year-old kayak guide was winched": said
        # of them. An active "a line cook ... making $19" may be the author's
        # fragment the parse gave a subject.
        return True
    return word.ent_type_ == "PERSON" or named_person(word)


def _named_subject(verb: Any) -> bool:
    """Tell a clause said of someone or something named ("Serena Williams won")."""
    return any(
        c.dep_ in ("nsubj", "nsubjpass") and c.pos_ == "PROPN" for c in verb.children
    )


def _subjectless(verb: Any) -> bool:
    """Tell a verb said of no one named: past, plain present or participle.

    "Moved to Houston", "Grew up in Leeds", "Born in Soweto": its subject
    left out is the author. A verb in the third person ("departs Kitwe at
    06:00") has a subject of its own, left out in a timetable's style.
    """
    # A word alone ("TROMSØ:", a dateline) is a heading the tagger took for
    # a verb, not a clause.
    return bool(
        verb.pos_ in ("VERB", "AUX")
        and any(c.dep_ != "punct" for c in verb.children)
        and verb.tag_ in ("VBD", "VBP", "VBN", "VBG")
        and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children)
    )


def without_authorless_places(doc: Any, cues: list[Cue]) -> list[Cue]:
    """Drop every cue of a text about no one.

    Its places, organizations, bare amounts, degrees ("the first woman in
    East Africa to hold a doctorate") and the traits its clauses say of
    others are someone else's, and a coarser form of them is a sentence
    its author did not write.
    """
    if speaks_of_author(doc, cues):
        return cues
    return []


def used_as_person(span: Any) -> bool:
    """Tell whether a name's sentence uses it as a person, whatever it is tagged.

    "Dallas from HR will present": the subject of a clause, with "from" and a
    word no place is (a department, a team) after it; "idk who Nevada is":
    the name a "who" asks about; "Uncle Denver": a name after a kin word;
    "omw to Chelsea's place": a given name
    (Faker lists it) owning a thing, where the tagger does not say place.

    Args:
        span: The name's spaCy span.

    """
    from anonygraph.cues.person_roles import kin_words, known_name
    from anonygraph.cues.places import fold

    root = span.root
    doc = span.doc
    before = doc[span.start - 1] if span.start > 0 else None
    if before is not None and before.lower_ in ("who", "whom"):
        return True
    if before is not None and (
        fold(before.text) in kin_words()
        or RELATIVE_SUBJECT.fullmatch(f"my {before.lower_}") is not None
    ):
        return True  # "Uncle Denver is a plumber": a relative's name
    if root.dep_ in ("nsubj", "nsubjpass") and any(
        c.dep_ == "attr" and c.lower_ in ("who", "whom") for c in root.head.children
    ):
        return True
    if (
        root.dep_ == "poss"
        and root.head.pos_ == "NOUN"
        and root.ent_type_ not in ("GPE", "LOC")
        and known_name(span.text)
    ):
        return True  # "omw to Chelsea's place": a given name owning a thing
    if root.dep_ not in ("nsubj", "nsubjpass"):
        return False
    for child in root.children:
        if child.dep_ == "prep" and child.lower_ == "from":
            objects = [g for g in child.children if g.dep_ == "pobj"]
            if objects and all(o.ent_type_ not in ("GPE", "LOC") for o in objects):
                return True
    return False


_COMPARED = frozenset({"like", "than"})
"""Prepositions whose object is what something is compared to ("a kid like
Phoenix"), not somewhere anyone is."""


_BARE_PARTICIPLE = frozenset({"punct", "cc", "conj", "advcl", "ccomp"})
"""What a participle a name modifies ("Richmond born, Richmond raised") may
hold besides it: no object, no auxiliary, no modifier of its own."""


def in_place_role(span: Any) -> bool:
    """Tell whether a name stands where its sentence puts a place.

    A place is the object of a preposition ("born in Yakima", "up by
    Bemidji"), the object of a verb of going or leaving ("left Lagos"), the
    modifier of a noun or a participle ("a Carmarthen boy", "Richmond born"),
    the complement of a common noun ("My home district is Sylhet"), a
    fragment of its own ("Calgary, Alberta."), or apposed or conjoined to a
    name in such a role ("in Goroka, Eastern Highlands"). A name that is the
    subject or the object of another verb ("Phoenix dropped 14", "Coach
    Lincoln is 71", "meet Toledo") or is apposed to a common noun ("Toledo,
    the collie") stands where the sentence puts someone.

    Args:
        span: The name's spaCy span.

    """
    from anonygraph.cues.places import LOCATIVE

    root = span.root
    seen = 0
    while root.dep_ in ("appos", "conj") and seen < 4:
        if root.head.pos_ in ("VERB", "AUX"):
            return True  # "We live in Richmond, and yes, Richmond in London"
        if root.head.pos_ != "PROPN":
            return False  # "my dog, Toledo": a name set beside a noun
        root, seen = root.head, seen + 1
    dep, head = root.dep_, root.head
    if dep == "pobj":
        return head.lower_ not in _COMPARED
    if _apposed_to_noun(root):
        return False  # "meet Toledo, the 3-year-old collie"
    if dep == "dobj":
        return head.lower_ in LOCATIVE
    if dep in ("nsubj", "nsubjpass"):
        # "Richmond born, Richmond raised": a bare participle it modifies.
        return head.tag_ in ("VBN", "VBD") and all(
            c.dep_ in _BARE_PARTICIPLE for c in head.children if c.i != root.i
        )
    if dep == "attr":
        subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
        return any(c.pos_ == "NOUN" for c in subjects)  # "home district is X"
    return dep in (
        "compound", "nmod", "amod", "poss", "npadvmod", "ROOT", "advmod", "dep",
        "pcomp", "oprd",
    )  # fmt: skip


def named_as_someone(span: Any) -> bool:
    """Tell a name that its sentence puts where a person stands, and people carry.

    Out of a place's role (`in_place_role`), a name some person may carry
    ("Phoenix dropped 14 by himself", "Coach Lincoln is 71") or one apposed
    to a common noun ("meet Toledo, the collie") is someone the text speaks
    of: the coarser place it would become says something false of them. A
    name no person carries keeps its place reading out of such a role too
    ("now staying Kuching": a preposition left out in speech).
    """
    from anonygraph.cues.person_roles import known_name

    if in_place_role(span):
        return False
    return _apposed_to_noun(span.root) or known_name(span.text)


def _apposed_to_noun(name: Any) -> bool:
    """Tell a subject or object name set beside a common noun ("Toledo, the collie")."""
    return name.dep_ in ("dobj", "nsubj", "nsubjpass") and any(
        c.dep_ == "appos" and c.pos_ == "NOUN" for c in name.children
    )


def without_borrowed_first_person(doc: Any, cues: list[Cue]) -> list[Cue]:
    """Drop the rewrites that would make someone else's fact the author's.

    A replacement may bring a first-person word its span lacks ("finishing
    high school" -> "finishing my studies", "75" -> "in my seventies") only
    where the clause it stands in has the author as its subject, or none
    ("Finished high school in 2010"); a clause said of someone else ("Dolly
    Parton ... moved to Nashville the day after finishing high school", "My
    sister finished high school") keeps its words as written.
    """
    return [c for c in cues if not _borrows_first_person(doc, c)]


def _borrows_first_person(doc: Any, cue: Cue) -> bool:
    added = _words(cue.replacement) - _words(cue.quote)
    if not added & author_words.ANY:
        return False
    span = doc.char_span(cue.start, cue.end, alignment_mode="expand")
    if span is None or any(t.lower_ in author_words.PERSONS for t in span.sent):
        return False  # "Wife and I got a place": the author is in the sentence
    token = span.root
    for _ in range(12):  # a clause's subject is a few heads up at most
        subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            subject = subjects[0]
            if span.start <= subject.i < span.end:
                return False  # "The wife says" -> "My partner says": the span is it
            return _someone_else(subject)
        if token.head.i == token.i:
            return False  # no subject up to the root: the author, left out
        token = token.head
    return False


def _someone_else(subject: Any) -> bool:
    """Tell a clause's subject that is a person other than the author.

    A name ("Dolly Parton"), a pronoun of the second or third person ("she",
    "ur"), or a noun someone owns ("my sister", "her boy"); a thing ("it's
    been hard") or the author among others ("Wife and I") is not.
    """
    group = [subject, *subject.conjuncts]
    if any(t.lower_ in author_words.PERSONS for t in group):
        return False
    if subject.pos_ == "PROPN":
        return True
    if subject.pos_ == "PRON":
        person = subject.morph.get("Person")
        return bool(person) and person[0] in ("2", "3") and subject.lower_ != "it"
    return subject.pos_ == "NOUN" and any(c.dep_ == "poss" for c in subject.children)


def _words(text: str) -> set[str]:
    # "the US" is a country, not the author: a word in capitals is a name.
    return {w.lower() for w in _WORD.findall(text) if len(w) < 2 or not w.isupper()}


def others_age(doc: Any, number: Any) -> bool:
    """Tell whether a number is set beside someone else as their age.

    "Councillor X, 54, a former teacher, said": the number is an apposition
    to the subject of a clause, in a sentence with no first-person word, so
    the age is the subject's. "Sorcha, 36, physio in Ennis" has no clause of
    its own: a name opening such a fragment introduces the author.

    Args:
        doc: The text's spaCy parse.
        number: The age's number token.

    """
    if number.dep_ != "appos" or any(t.lower_ in author_words.ANY for t in number.sent):
        return False
    head = number.head
    # A named person ("Councillor X, 54") or a noun with its determiner ("the
    # owner, 63, said"); a bare noun ("Retired firefighter, 63, still can't
    # sleep") is the author describing themself with the subject left out.
    named = head.pos_ == "PROPN" or any(
        c.dep_ in ("det", "poss") and c.lower_ not in author_words.ANY
        for c in head.children
    )
    return bool(
        named
        and head.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj")
        and head.head.pos_ in ("VERB", "AUX", "ADP")
    )


def school_noun(name: str) -> str:
    """Return the kind of institution a school's name is, or "" where unsettled.

    The name's own word decides ("Technical College" -> "college"); a city's
    name read as a school ("studied law at Cardiff"), a sizeable one, is its
    university; a name with neither has no kind that is sure.
    """
    from anonygraph.cues.places import fold, gazetteer

    for pattern, noun in INSTITUTION_NOUNS:
        if pattern.search(name):
            return noun
    place = gazetteer().get(fold(name))
    if place is not None and place.kind == "city" and place.population >= 100_000:
        return "university"  # a sizeable city names its university
    # A degree in the sentence says what was studied, not what the name is:
    # "my MBA at INSEAD" (a business school), "an EMT with FDNY, just
    # finished my associate's" (a fire department).
    return ""


def authors_study(sentence: str) -> bool:
    """Tell whether a sentence may state the author's studies: a first-person one."""
    return _FIRST_WORD.search(sentence) is not None


def held_by_named_other(title: Any) -> bool:
    """Tell a title apposed to someone named ("Coach Dale, 61, a retired plumber").

    The title describes that person. A name equated with the author ("I am
    Bilal, ..., a nurse") or opening a fragment ("Sorcha, 36, physio in
    Ennis") introduces the author.
    """
    token = title
    while token.dep_ == "appos" and token.head.i != token.i:
        token = token.head
    if token is title or token.dep_ in ("attr", "oprd", "ROOT"):
        return False
    return named_person(token) or (
        token.pos_ == "PROPN" and token.ent_type_ not in ("GPE", "LOC", "ORG")
    )


def residence_reading(title: Any) -> bool:
    """Tell a title that a place after it may make a word of residence.

    "a 44-year-old woman, resident in St. George's": a word apposed to a
    description of the author, with "in" or "of" and a name after it, says
    where the author lives as well as it may say a job; the job's family
    would be a guess.
    """
    if title.dep_ != "appos" or title.head.pos_ != "NOUN":
        return False
    return any(
        c.dep_ == "prep"
        and c.lower_ in ("in", "of")
        and any(o.dep_ == "pobj" and o.pos_ == "PROPN" for o in c.children)
        for c in title.children
    )


def named_subject(subject: Any) -> bool:
    """Tell a subject that is someone named ("Okonkwo is a wrestler and farmer").

    A name, by its part of speech or the tagger's entity, is not the author
    even where it opens a sentence as a bare noun would.
    """
    return bool(
        not any(t.lower_ in author_words.PERSONS for t in subject.subtree)
        and (subject.pos_ == "PROPN" or subject.ent_type_ or named_person(subject))
    )
