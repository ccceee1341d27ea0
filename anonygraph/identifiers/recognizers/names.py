"""Person names: the spaCy pipeline's PERSON entities and names a cue introduces.

spaCy's small English model misses lowercase chat names, many non-English
names and names that are also words ("Hope", "Rose"). Here a name counts
where the text presents it as one: a self-introduction ("my name is", "I'm",
"it's", "this is"), a greeting ("Hi", "Dear", "Hallo Frau"), a label or
header ("Name:", "Patient:", "From:", "Ask for"), a sign-off ("Thanks,",
"Regards", "Viele Grüße" and the line after) or a contact block (a line of
capitalized words over an e-mail or phone line). A name is kept whole:
spans start and end at word boundaries, particles (de, van, Mac) inside it.
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import RecognizerResult
from presidio_analyzer.predefined_recognizers import SpacyRecognizer

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.honorifics import vocative_end
from anonygraph.identifiers.recognizers.name_checks import (
    ENGLISH_SHARE,
    HONORIFICS,
    ORG_WORDS,
    PARTICLES,
    capitalizing_writer,
    common_word_opening,
    common_words_only,
    english_share,
    foreign_stop_word,
    given_names,
    imperative,
    in_quoted_title,
    is_label,
    known_names,
    looks_like_name,
    not_a_name_role,
    not_names,
    noun_at,
    place_after_locative,
    relation_words,
    state_at,
    street_word,
    token_starting_at,
    uncased_unknown,
)
from anonygraph.identifiers.recognizers.name_slots import (
    in_person_slot,
    word_in_person_slot,
)
from anonygraph.identifiers.recognizers.place_roles import placed_by_structure
from anonygraph.identifiers.recognizers.prose_roles import no_one_by_role
from anonygraph.identifiers.recognizers.role_names import with_role_names
from anonygraph.tools import kept_patterns

WORD = r"[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
CAPITAL = r"[A-ZÀ-Þ][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
TITLE = r"[A-ZÀ-Þ][a-zà-ÿ][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
"""A word in title case: "LAB REPORT" under a heading is no name."""
WIDE_TITLE = r"[A-ZÀ-ÞĀ-ŽĐ][a-zà-ÿā-žđ][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*"
"""A word in title case, Latin letters with every diacritic ("Đorđević")."""
IN_NAME = r"(?i:de|dela|del|da|van|von)"
"""A particle inside a name after its first word ("Cristina Dela Cruz")."""
INITIALS = r"(?:[A-ZÀ-Þ][a-z]{0,2}\.[ \t]*)*"
"""Initials or an abbreviated given name before a name ("P.", "Ma.")."""
FULL_TITLE = kept_patterns.compile(r"(?:Madame|Monsieur|Señora|Señor|Signora|Signor)\b")
"""Titles written out in full, which also open the names of books and roles."""

INSIDE = r"(?:[\"“][^\W\d_]{1,15}[\"”][ ]|Ste?\.[ ])?"
"""What may stand inside a name before its next word: a nickname in quotes
('Tanisha "Tee" Morrison') or Saint's abbreviation ("Andre St. Clair")."""
NAME = rf"(?P<v>(?:{HONORIFICS}[ \t]+)?{INITIALS}{WORD}(?:[ ]{INSIDE}{WORD}){{0,4}})"
"""A name after its cue: its words one space apart (a run of spaces or a tab
parts a form's fields: "Owner: Ana Lima   Co-owner: …")."""

SELF = (
    r"(?i:\b(?:my name is|my name's|name's|i am|i'm|i’m|it's|it’s|this is|"
    r"call me|me llamo|je m'appelle|je suis|ich bin|hier ist|ik ben|mi chiamo|"
    r"meu nome é|sou o|sou a|io sottoscritt[oa]|je soussign[ée]e?|"
    r"ondergetekende|we are|we're|wir sind|nous sommes|somos|siamo|wij zijn)[ \t]+)"
)
GREETING = (
    r"(?i:(?:^|(?<=[\n.!?]))[ \t]*(?:hi|hey|hello|hiya|heya|dear|hallo|hola|"
    r"bonjour|ciao|olá|oi|yo|eh|morning|greetings|liebe|lieber|sehr geehrte|"
    r"sehr geehrter|beste|cher|chère|querida|querido|salut|moin|servus|hej|hei|"
    r"hallå|ahoj|cześć|czesc|szia|merhaba|habari|jambo|kia ora|kumusta)[ \t,]+)"
)
LABEL = (
    r"(?i:\b(?:name|full name|in the name of|au nom de|a nombre de|em nome de|"
    r"a nome di|auf den namen|op naam van|"
    r"naam|nome|nom|nombre|vorname|patient|account holder|"
    r"card ?holder|applicant|tenant|emergency contact|next of kin|ask for|inquiry "
    r"from|enquiry from|message from|request from|registered to(?: a)?|signed|"
    r"contact person|ansprechpartner|contact|tell|mother|father|mum|mom|dad|wife|"
    r"husband|son|daughter|brother|sister|grandma|grandpa|granny|grandmother|"
    r"grandfather|nan|nana|aunt|auntie|uncle|cousin|neighbou?r|colleague|boss|"
    r"girlfriend|boyfriend|fianc[ée]e?|partner|landlord|landlady|roommate|"
    r"flatmate|attn|attention|claimant|referee|spouse|holder|owner|guardian|"
    r"witness|beneficiary|insured|policyholder|caller|sender|recipient|"
    r"deliver to|ship to|referred by|ref\. by|referring gp|gp|physician|"
    r"c[óo]nyuge|esposa|esposo|marido|ehefrau|ehemann|echtgenote|"
    r"employee|student|child|parent)\b[ \t]*(?:[:(]|=[\"']?)?[ \t]*)"
)
HEADER = r"(?im:^(?:from|to|cc|bcc|von|an|van|aan|de|para|à)[ \t]*:[ \t]*)"
SIGN_OFF = (
    r"(?i:\b(?:thanks|thank you|thx|ty|regards|best regards|kind regards|warm "
    r"regards|best wishes|best|cheers|sincerely|yours|love|xoxo|talk soon|speak "
    r"soon|take care|grüße|viele grüße|liebe grüße|beste grüße|mit freundlichen "
    r"grüßen|lg|vg|saludos|un saludo|cordialement|bisous|groetjes|met "
    r"vriendelijke groet|atenciosamente|abraços|cumprimentos|a presto)"
    # A sign-off closes its line or takes a comma: "best decision" is no
    # sign-off, "Best,\nAna" and "Cheers Ana" at a line's end are.
    r"(?:[,!.][ \t]*\n?|[ \t]*\n)[ \t]*|(?m:^)--[ \t]*\n[ \t]*)"
)
SIGN_OFF_WORD = (
    r"(?i:(?:^|(?<=[\n.!?]))[ \t]*(?:thanks|thank you|thx|ty|regards|best "
    r"regards|kind regards|best wishes|best|cheers|love|xoxo|take care|talk soon))"
)
"""A sign-off word opening its line or sentence, for "Cheers Tom" at a line's end."""

GREETING_WORDS = frozenset(
    """hi hey hello hiya heya dear dearest hallo hola bonjour ciao olá oi yo
    morning greetings liebe lieber beste cher chère querida querido salut moin
    servus thanks cheers regards soy""".split()
)
"""Words a model may take into a name's span, left out of it."""

LOWER_OK = frozenset(
    {"self", "self_its", "self_im", "greeting", "tell", "sign_off", "sign_off_line"}
)
"""Cues after which a lowercase word may be a name (chat)."""


class ContextNameRecognizer(CuedPatternRecognizer):
    """A name the text introduces as one (see the module docstring).

    Its scores are above spaCy's (0.85) so that, where both find the same
    span, Presidio keeps this result and the name counts as cued.
    """

    ENTITY = "PERSON"
    PATTERNS = (
        ("self", SELF + NAME, 0.9),
        # Chat's "its maria" opens its sentence; elsewhere "its" is possessive.
        (
            "self_its",
            r"(?i:(?:^|(?<=[\n.!?])|\b(?:hey|hi|hello|yo|hiya|heya)[ \t,]+)"
            r"[ \t]*its[ \t]+)" + NAME,
            0.9,
        ),
        # Chat's "im" is also German's "im" ("im Monat", "Im Herbst"): after
        # it only a given name Faker lists counts.
        ("self_im", r"(?i:\bim[ \t]+)" + NAME, 0.9),
        ("greeting", GREETING + NAME, 0.9),
        # Spanish "soy" (I am) before a capitalized name only: "soy milk".
        ("self_es", r"(?i:\bsoy[ \t]+)" + NAME, 0.9),
        ("tell", r"(?i:\b(?:tell|ask|text|ping|message)[ \t]+)" + NAME, 0.9),
        ("label", LABEL + "(?=" + NAME + ")", 0.9),  # "for Karim's cousin Yusra"
        ("header", HEADER + NAME, 0.9),
        # "t.n.v. S. de Vries", "c/o Ana Lima": on behalf of, in care of.
        ("behalf", r"(?i:(?<!\w)(?:t\.[an]\.v\.|c/o)[ \t]*)" + NAME, 0.9),
        ("sign_off", SIGN_OFF + NAME + r"(?=[ \t]*(?:\(|\n|$|,|\.))", 0.9),
        # "Cheers Tom" closing its line: the name is all that follows.
        (
            "sign_off_line",
            SIGN_OFF_WORD + r"[ \t]+" + NAME + r"(?=[ \t]*(?:\n|$))",
            0.9,
        ),
        (
            "title",
            rf"(?<![\w./])(?P<v>{HONORIFICS}[ \t]+(?:[A-Z]\.[ \t]*)*{CAPITAL}"
            rf"(?:[ \t]+{INSIDE}{WORD}){{0,3}})",
            0.9,
        ),
        (
            "here",
            r"(?:^|[\n!?.,][ \t]*)(?P<v>[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?),?"
            r"[ \t]+here\b",
            0.9,
        ),
        # "dr. Petra Zupančič", "adv. Milice Đorđević", "Ma. Cristina Dela
        # Cruz": a short abbreviation (a title in many languages) before two
        # or three capitalized words, the first a name Faker lists; a short
        # word after an article ends a sentence ("the end. Anna").
        (
            "abbreviated_title",
            r"(?<![\w.])(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bmy )(?<!\bour )"
            r"(?:[a-zà-žđ]{1,3}|[A-Z][a-z]{1,3})\.[ \t]+"
            rf"(?P<v>{WIDE_TITLE}(?:[ \t]+(?:{IN_NAME}[ \t]+)?{WIDE_TITLE}){{1,2}})"
            r"(?![\w'’-])",
            0.9,
        ),
        # "Eleanor Brandt <ellie@example.org>": a mailbox's display name.
        (
            "mailbox",
            rf"(?<![\w'’.-])(?P<v>{CAPITAL}(?:[ \t]+{CAPITAL}){{0,3}})[ \t]*"
            r"<[^<>@\s]+@[^<>\s]+>",
            0.9,
        ),
        ("closing", r",[ \t]+(?P<v>[A-Z][a-zà-ÿ]+)[.!]?[ \t]*$", 0.9),
        (
            "contact_block",
            rf"(?m:^)[ \t]*(?P<v>(?:{HONORIFICS}[ \t]+)?[A-Z][\w'’-]+"
            r"(?:[ \t]+[A-Z][\w'’-]+){1,3})"
            r"[ \t]*\n(?=(?:[^\n]*\n){0,2}[^\n]*(?:@|\+?\d[\d ()-]{6,}\d))",
            0.9,
        ),
        # "RESUME — Ananya Rao": a heading in capitals, a dash, and the name
        # the document is about, closing the line.
        (
            "heading",
            r"(?m:^)[ \t]*[A-ZÀ-Þ]{3,}(?:[ \t]+[A-ZÀ-Þ]{2,}){0,2}[ \t]*[—–:-][ \t]*"
            rf"(?P<v>{TITLE}(?:[ \t]+{TITLE}){{1,3}})[ \t]*(?=\n|\Z)",
            0.9,
        ),
        # "- Julien" or "— Ana" alone on the last lines: a dashed signature.
        (
            "dash_signature",
            rf"(?m:^)[ \t]*[-–—~][ \t]*(?P<v>{CAPITAL}(?:[ \t]+{CAPITAL}){{0,2}})"
            r"[ \t]*(?=\n?\Z)",
            0.9,
        ),
    )

    def __init__(self) -> None:
        """Compile the patterns and note which allow a lowercase name."""
        super().__init__()
        self.lower_ok = {
            pattern for name, pattern, _ in self.compiled if name in LOWER_OK
        }
        self.self_cues = {
            pattern for name, pattern, _ in self.compiled if name.startswith("self")
        }
        self.role = {
            pattern for name, pattern, _ in self.compiled if name in ("label", "tell")
        }
        self.greeting = next(p for name, p, _ in self.compiled if name == "greeting")
        self.bare_im = next(p for name, p, _ in self.compiled if name == "self_im")
        self.title = next(p for name, p, _ in self.compiled if name == "title")
        self.abbreviated = next(
            p for name, p, _ in self.compiled if name == "abbreviated_title"
        )
        # A closing word or an abbreviation's run may be a place's name.
        self.placeable = {
            p
            for name, p, _ in self.compiled
            if name in ("closing", "abbreviated_title")
        }

    def span(
        self, match: re.Match[str], text: str, nlp_artifacts: Any
    ) -> tuple[int, int] | None:
        """Cut the candidate down to its name words, or reject it."""
        start = match.start("v")
        if match.re is self.abbreviated and not _known_first(match.group("v")):
            return None  # "e.g. Google Drive": a name Faker lists must open it
        if match.re is self.bare_im and not _known_first(match.group("v"), given=True):
            return None
        if match.re in self.placeable and placed_by_structure(
            nlp_artifacts.tokens, text, start, match.end("v")
        ):
            return None  # "St. Helena Island", "in Brampton, Canada.": a place
        end = _name_end(match.group("v"), lower_ok=match.re in self.lower_ok)
        if (
            match.re is self.title
            and FULL_TITLE.match(match.group("v"))
            and len(match.group("v")[:end].split()) < 3
        ):
            return None  # "Madame Bovary": a title and one word may be a book's
        if end and text[start].islower() and not noun_at(nlp_artifacts, start):
            return None  # "I'm meeting", "hey so": a verb or an adverb, no name
        if (
            end
            and text[start].islower()
            and not _known_first(text[start : start + end])
            and capitalizing_writer(text)
        ):
            # "I am woman", "Eh bro", "I'm game": a writer who capitalizes
            # "I" and sentence starts would capitalize a name too.
            return None
        if end and match.re in self.self_cues and state_at(nlp_artifacts, start):
            return None  # "I'm Dutch", "it's hilarious": what one is, no name
        if (
            not end
            and match.re in self.role
            and _proper_mid_sentence(nlp_artifacts, text, start)
        ):
            # "ask for Will": a word that is also a name, capitalized after
            # the cue in mid-sentence and read by the parse as a proper noun.
            end = len(re.match(r"[^\W\d_]+", text[start:]).group(0))  # type: ignore[union-attr]
        if not end and match.re is self.greeting:
            end = vocative_end(text, start)
        if end and re.match(r"[-'’]?[^\W_]", text[start + end :]):
            return None  # "Brother TN-2420": part of a longer code, no name
        return (start, start + end) if end else None


def _known_first(value: str, *, given: bool = False) -> bool:
    """Tell a run whose first word is a given name (or surname) Faker lists."""
    from anonygraph.cues.places import fold

    return fold(value.split()[0]) in (given_names() if given else known_names())


def _proper_mid_sentence(nlp_artifacts: Any, text: str, start: int) -> bool:
    """Tell a capitalized proper noun that does not open its sentence."""
    if not text[start : start + 1].isupper():
        return False
    for token in getattr(nlp_artifacts, "tokens", None) or []:
        if token.idx == start:
            following = token.nbor(1) if token.i + 1 < len(token.doc) else None
            return bool(
                token.pos_ == "PROPN"
                and len(token.text) >= 2  # "tenant B": a party's letter
                and not token.is_sent_start
                and token.text.istitle()
                and token.text.lower() not in GREETING_WORDS | ORG_WORDS
                and not (following is not None and following.text[:1].isupper())
            )
    return False


def _name_end(candidate: str, *, lower_ok: bool) -> int:
    """Return how many characters of ``candidate`` are the name (0: none)."""
    words = list(re.finditer(r"\S+", candidate))
    stop = not_names()
    end = 0
    taken = 0
    lowercase = False
    for i, word in enumerate(words):
        token = word.group(0)
        bare = token.rstrip(".")
        low = bare.lower()
        if re.fullmatch(HONORIFICS, token) and i == 0:
            end = word.end()
            continue
        # An initial ("Dr A. Okonjo", "J. R. Morales") before a name word.
        if (
            re.fullmatch(r"[A-ZÀ-Þ][a-z]{0,2}\.", token)
            and i + 1 < len(words)
            and (
                words[i + 1].group(0)[:1].isupper()
                or words[i + 1].group(0).lower() in PARTICLES  # "S. de Vries"
            )
        ):
            end = word.end()
            continue
        if (
            taken
            and re.fullmatch(r"[\"“][^\W\d_]+[\"”]|Ste?\.", token)
            and i + 1 < len(words)
            and words[i + 1].group(0)[:1].isupper()
        ):
            continue  # 'Tanisha "Tee" Morrison', "Andre St. Clair": inside the name
        if (
            low in PARTICLES
            and (taken or end)
            and i + 1 < len(words)
            and (
                words[i + 1].group(0)[:1].isupper()
                or words[i + 1].group(0).lower() in PARTICLES  # "van der Berg"
            )
        ):
            continue
        # After the first name word, a capitalized word is the name's even when
        # it is also a word elsewhere ("Nguyễn Văn An", "Rose Hope").
        # "Hope Tran here": a capitalized word that is also a word opens a
        # name when a capitalized name word follows it.
        full_name = (
            taken == 0
            and bare.isalpha()
            and bare.istitle()
            and len(bare) >= 3
            and i + 1 < len(words)
            and words[i + 1].group(0)[:1].isupper()
            and words[i + 1].group(0).rstrip(".,").lower() not in stop
        )
        if (
            (low in stop and not full_name and (taken == 0 or bare.islower()))
            or len(bare) < 2
            or not bare.replace("-", "").replace("'", "").replace("’", "").isalpha()
        ):
            break
        if (
            bare[0].isupper()
            and not lowercase
            and not (bare.isupper() and len(bare) > 3)
        ):
            taken += 1
            end = word.start() + len(bare)
            continue
        if (
            lower_ok
            and bare.isalpha()
            and bare.islower()
            and (taken == 0 or lowercase)
            and taken < 2
            # "Hola, soy Florencia": a lowercase word before a capitalized
            # one is the sentence's verb or particle; the name follows it.
            and not (
                taken == 0
                and i + 1 < len(words)
                and words[i + 1].group(0)[:1].isupper()
            )
        ):
            lowercase = True
            taken += 1
            end = word.start() + len(bare)
            continue
        break
    if any(
        w.group(0).strip(".,").lower() in ORG_WORDS for w in words if w.end() <= end
    ):
        return 0
    return end if taken else 0


class FilteredSpacyRecognizer(SpacyRecognizer):
    """spaCy's PERSON entities, kept whole and without obvious non-names."""

    def __init__(self) -> None:
        """Report PERSON only (never DATE_TIME, NRP or LOCATION)."""
        super().__init__(supported_entities=["PERSON"])

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: Any = None
    ) -> list[RecognizerResult]:
        """Return spaCy's PERSON spans widened to whole words, minus non-names."""
        kept: list[RecognizerResult] = []
        english = english_share(nlp_artifacts.tokens) >= ENGLISH_SHARE
        for result in super().analyze(text, entities, nlp_artifacts):
            start, end = result.start, result.end
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-'’"):
                start -= 1
            while end < len(text) and (text[end].isalnum() or text[end] in "-'’"):
                end += 1
            # A run of spaces, a tab or a line's end parts a form's fields
            # ("Owner: Ana Lima   Co-owner: …"): the name ends before it.
            if gap := re.search(r"[ ]{2,}|\t|\n", text[start:end]):
                end = start + gap.start()
            # The model may take the greeting with the name ("Hallo Frau
            # Brinkmann"): the greeting stays in the text.
            while (first := re.match(r"([^\W\d_]+)[,!]?\s+", text[start:end])) and (
                first.group(1).lower() in GREETING_WORDS
            ):
                start += first.end()
            # Nor a greeting and a title's abbreviation ("Spoštovani g. Matej
            # Novak"): the name starts after the abbreviation.
            if abbreviation := re.match(
                r"(?:[^\W\d_]+[ \t]+)?[a-zà-ž]{1,4}\.[ \t]+(?=[A-ZÀ-Þ])",
                text[start:end],
            ):
                start += abbreviation.end()
            # Nor a lowercase word before the name ("chị Minh": a kinship
            # word, which still tells a name in a text not in English), a
            # particle aside, nor an opening quote.
            words_found = len(text[start:end].split())
            while (
                first := re.match(r"([^\W\d_]+)\s+(?=[A-ZÀ-Þ])", text[start:end])
            ) and (first.group(1).islower() and first.group(1) not in PARTICLES):
                start += first.end()
            while start < end and text[start] in "'’":
                start += 1
            # "Mammy Rose": a kin word before the name is the relation, not
            # part of the name.
            if (
                first := re.match(r"([^\W\d_]+)[ \t]+(?=[A-ZÀ-Þ])", text[start:end])
            ) and (first.group(1).lower() in relation_words()):
                start += first.end()
            value = text[start:end]
            if not looks_like_name(value) or is_label(text, start, end):
                continue
            # "Aadhaar 2345 6789 0123": a single word right before a number
            # is a label the model took for a name.
            if " " not in value and re.match(r"[ \t]*[:#]?[ \t]*\d", text[end:]):
                continue
            if " " not in value and imperative(nlp_artifacts.tokens, start):
                continue
            # "Description", "Impressed": one capitalized word the tagger
            # does not read as a proper noun is a word, not a name, unless
            # it stands in a field's or a list's slot ("Excused: Lwazi").
            slot = " " not in value and word_in_person_slot(text, start, end)
            if " " not in value and _common_word(nlp_artifacts.tokens, start):
                if not slot:
                    continue
            # "Salary will be credited": a word capitalized as its sentence's first.
            if common_word_opening(nlp_artifacts.tokens, start, value):
                continue
            # "Algebraic Expressions", "de Comunicación": a title of words
            # no one carries, or a particle and one word, names no one.
            if common_words_only(value):
                continue
            # "a Weegie", "Wah lau", "Perth Amboy": one word the parse reads
            # as a common noun's determiner's, an interjection or a modifier
            # of another proper noun or unknown word is no one's name.
            if " " not in value and not_a_name_role(nlp_artifacts.tokens, start):
                continue
            if in_quoted_title(text, start, end):
                continue
            # "care packages from Manchester", "fishing outta Bonavista",
            # "reside in Much Wenlock": a place after a word of place.
            if place_after_locative(text, start, value):
                continue
            # "wedding after Navratri", "papa was with Amul dairy", "nurses
            # at Noble's": where the sentence puts a place, an event or a firm.
            if placed_by_structure(nlp_artifacts.tokens, text, start, end):
                continue
            # "a Shimano hub", "in Giorgoba we cook", "born down Southend":
            # a role in the parse that only a thing takes.
            if " " not in value and no_one_by_role(nlp_artifacts.tokens, text, start):
                continue
            # "Hubby is away", "Mammy vex": a relation word used as a name
            # claims no name; a cue ("my mum Rose") finds the name itself.
            if " " not in value and value.lower() in relation_words():
                continue
            # "Bağdat Caddesi", "Lægehuset Nørrebrogade": a street's name.
            if street_word(value):
                continue
            # The English model reads capitalized nouns of other languages
            # ("Daten", "Placa") as names; there only a full name counts.
            # A field's value or a list's item counts alone ("Agent : Ndikumana").
            if not english and (words_found < 2 or foreign_stop_word(value)):
                if not slot:
                    continue
            # In a script without capitals ("محادثة دعم", "سوار ذهب") the
            # model has no case to go by: a name Faker lists must open it,
            # or the line must put it in a person's slot ("Owner: …").
            if uncased_unknown(value) and not in_person_slot(text, start, end):
                continue
            result.start, result.end = start, end
            kept.append(result)
        taken = [(r.start, r.end) for r in kept]
        for start, end in _agents(nlp_artifacts.tokens):
            if not any(s < end and start < e for s, e in taken):
                kept.append(self._result(start, end))
        return with_role_names(kept, nlp_artifacts.tokens, self.id)

    def _result(self, start: int, end: int) -> RecognizerResult:
        """Build a PERSON result of this recognizer (read as spaCy's)."""
        return RecognizerResult(
            entity_type="PERSON",
            start=start,
            end=end,
            score=0.85,
            recognition_metadata={
                RecognizerResult.RECOGNIZER_NAME_KEY: type(self).__name__,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
            },
        )


PROPER_TAGS = frozenset({"NNP", "NNPS"})


def _common_word(doc: Any, start: int) -> bool:
    """Tell a word the tagger reads as a common noun, verb or adjective."""
    token = token_starting_at(doc, start)
    return token is not None and token.tag_ not in PROPER_TAGS and token.tag_ != ""


def _agents(doc: Any) -> list[tuple[int, int]]:
    """Return the full names the parse reads as the agent of a passive verb.

    "Raised by Priyanka Raghunathan", "signed by Tomás Ortega": a run of two
    to four title-case proper nouns as the object of the agent "by" names
    who did it; an organization's name (an organization word, a label the
    parse gives it) is left out.
    """
    spans: list[tuple[int, int]] = []
    for token in doc:
        if token.dep_ != "agent":
            continue
        for obj in token.children:
            if obj.dep_ != "pobj":
                continue
            run = [c for c in obj.lefts if c.dep_ == "compound"] + [obj]
            if not (
                2 <= len(run) <= 4
                and run[-1].i - run[0].i == len(run) - 1
                and all(t.pos_ == "PROPN" and t.text.istitle() for t in run)
                and all(t.ent_type_ in ("", "PERSON") for t in run)
                and not any(t.lower_ in ORG_WORDS | not_names() for t in run)
            ):
                continue
            spans.append((run[0].idx, run[-1].idx + len(run[-1].text)))
    return spans
