"""A job said as what the author does: "I do the books for a plumbing firm".

The parse decides, not a list of whole phrasings. A verb whose subject is
the author, with a direct object, is a job when either
- it is done for or at an employer ("I fly drones for a surveying company",
  "writing backend code for a fintech", "I sling coffee at a roastery"), or
- the verb and its object are a trade's task whatever follows ("I work the
  till", "I do the books", "been driving a black cab", "I wait tables").
The verb and its object become the neutral verb in the same form ("I work for
a surveying company", "been working for eleven years"); where it is done
stays. Job nouns used as verbs ("I waitress at a diner", "I bartend on
weekends") become the same verb.
"""

from __future__ import annotations

import re
from typing import Any

from anonygraph.cues.ages import authors_clause
from anonygraph.cues.cue import Cue
from anonygraph.cues.occupations import first_person_subject, subject_of
from anonygraph.cues.teaching import DURATIONS
from anonygraph.tools import kept_patterns

EMPLOYERS = frozenset(
    "company companies firm business agency startup start-up fintech consultancy "
    "corporation contractor contractors employer client clients bank charity "
    "council hospital restaurant roastery diner cafe café bar pub hotel shop "
    "store supermarket warehouse factory plant mill depot outfit brand retailer "
    "chain newspaper magazine publisher airline bakery brewery distillery "
    "garage salon clinic lab laboratory nonprofit non-profit ngo government "
    "ministry department"
    .split()
)  # fmt: skip
"""Nouns that name an employer after "for" or "at"."""
VENUES = frozenset(
    "bar pub cafe café restaurant diner hotel shop store supermarket bank salon "
    "bakery brewery distillery clinic surgery garage".split()
)
"""Employers customers also go to: a verb done "at" one may be a visit ("judging
packaging at the supermarket"); done "for" one, it is a job."""
TASKS: dict[str, frozenset[str]] = {
    "do": frozenset(
        "books accounts payroll bookkeeping deliveries nails hair makeup".split()
    ),
    "keep": frozenset(["books"]),
    "work": frozenset(
        "till tills register checkout counter door bar floor line "
        "desk phones tables kitchen grill fryer pass".split()
    ),
    "wait": frozenset(["tables"]),
    "pull": frozenset(["pints"]),
    "pour": frozenset("pints drinks".split()),
    "tend": frozenset(["bar"]),
    "stack": frozenset(["shelves"]),
    "sling": frozenset("coffee drinks beer beers burgers pints lattes".split()),
    "flip": frozenset(["burgers"]),
    "cut": frozenset(["hair"]),
    "write": frozenset("code software".split()),
    "drive": frozenset(
        "cab cabs taxi taxis truck trucks lorry lorries bus buses van "
        "vans forklift forklifts rig rigs tram trams train trains "
        "ambulance ambulances tractor tractors digger diggers".split()
    ),
    "deliver": frozenset("parcels packages post mail food pizzas groceries".split()),
    "clean": frozenset("houses offices homes".split()),
    "walk": frozenset(["dogs"]),
    "fix": frozenset("cars boilers engines computers roofs".split()),
    "lay": frozenset("bricks pipes tiles carpets".split()),
    "run": frozenset("payroll".split()),
}
"""Verb lemma -> objects that make the pair a trade's task on their own."""
NOT_WORK = frozenset(
    "be have get buy pay order eat drink visit meet call see find lose leave quit "
    "miss love hate like want need use read watch spend save apply thank join "
    "book reserve rent borrow owe send give take bring ask tell show sell try "
    "know think feel hear say choose pick follow support review rate met got "
    "bought paid ate drank found lost left saw took gave brought told sold thought "
    "felt heard said chose spent sent had was knew grab grabbed play played "
    "celebrate celebrated enjoy enjoyed catch caught throw threw host hosted "
    "attend attended sip sipped share shared study studied studying learn "
    "learned learnt learning take took taking taken finish finished finishing "
    "spend spent spending".split()
)
"""Verbs that are done to an employer, not for one as a job."""
PEOPLE = frozenset(
    "wife husband partner boyfriend girlfriend friend friends people someone "
    "mum mom dad mother father son daughter kids children family parents boss "
    "colleague colleagues manager guy girl man woman".split()
)
WORK_ALREADY = frozenset(
    "shift shifts work job jobs hours overtime nights lates earlies stint gig "
    "gigs".split()
)
"""Objects that already say "work" without saying which ("did shifts")."""
STUDIES = frozenset(
    "degree degrees course courses masters master's phd diploma class classes "
    "module modules exam exams law medicine a-levels gcses placement "
    "apprenticeship internship studies thesis dissertation training residency "
    "education year years semester semesters term terms months weeks days time "
    "summer summers".split()
)
SPANS = DURATIONS | frozenset(
    "teens twenties thirties forties fifties sixties life career youth summers "
    "evenings weekends nights days".split()
)
"""A span of one's life a verb may describe ("my twenties pulling pints")."""
FORMS = {
    "VB": "work", "VBP": "work", "VBZ": "works", "VBG": "working",
    "VBD": "worked", "VBN": "worked",
}  # fmt: skip
_LEMMAS = {"did": "do", "does": "do", "doing": "do", "done": "do", "drove": "drive",
           "driven": "drive", "wrote": "write", "written": "write", "cut": "cut",
           "laid": "lay", "ran": "run", "running": "run"}  # fmt: skip
JOB_NOUN_VERB = kept_patterns.compile(
    r"\b(?P<who>I|I've\s+been|I'm|been)\s+(?:(?:now|still|also|just|currently)\s+)?"
    r"(?P<verb>waitress(?:ed|ing|es)?|bartend(?:ed|ing|s)?|nann(?:y|ied|ying)|"
    r"babys[ai]t(?:ting|s)?|temp(?:ed|ing|s)?|moonlight(?:ed|ing|s)?|"
    r"freelanc(?:e|ed|es|ing)|intern(?:ed|ing|s)?|tutor(?:ed|ing|s)?|"
    r"cheffing|cheffed|nurs(?:e|ed|ing)|clerk(?:ed|ing)?)"
    r"(?=\s+(?:at|for|in|on|part[\s-]time|full[\s-]time|nights|weekends|days|"
    r"while|during|to\s+pay|since)\b|\s*[,.;!?])",
    re.IGNORECASE,
)
"""A job noun used as the verb: "I waitress at a diner", "I temp for agencies"."""


def _lemma(token: Any) -> str:
    lower = str(token.lower_)
    if lower in _LEMMAS:
        return _LEMMAS[lower]
    for ending in ("ing", "ed", "es", "s"):
        if lower.endswith(ending) and len(lower) - len(ending) >= 3:
            stem = lower[: -len(ending)]
            for candidate in (stem, stem + "e", stem[:-1]):
                if candidate in TASKS or candidate in NOT_WORK:
                    return candidate
            return stem
    return lower


def _employer(verb: Any, obj: Any) -> bool:
    """Tell whether the verb is done for or at an employer.

    The parse may hang the employer on the object ("fly drones for a
    company"): both are read.
    """
    for prep in [*verb.children, *obj.children]:
        if prep.dep_ != "prep" or prep.lower_ not in ("for", "at", "with"):
            continue
        for obj in prep.children:
            if obj.dep_ != "pobj":
                continue
            if obj.ent_type_ == "ORG" and obj.pos_ == "PROPN" and prep.lower_ != "at":
                # One works for a named firm; "at" a name may be a visit, a
                # school or a place ("Passed my viva at Durham").
                return True
            if obj.lower_ in EMPLOYERS and (
                prep.lower_ != "at" or obj.lower_ not in VENUES
            ):
                return True
    return False


_NOT_GERUNDS = frozenset(
    "sling bring sing string fling ring wring swing sting cling spring".split()
)


def _form(verb: Any) -> str:
    """Return "work" in the verb's form; the word's ending first, the tag after.

    The tagger may call an unusual verb a gerund ("I sling coffee"): after
    "I" with no auxiliary the plain form is right.
    """
    lower = str(verb.lower_)
    if lower.endswith("ing") and lower not in _NOT_GERUNDS:
        return "working"
    if verb.tag_ in ("VBD", "VBN") or lower.endswith("ed"):
        return "worked"
    if verb.tag_ == "VBZ" or (lower.endswith("s") and verb.tag_ != "VBP"):
        return "works"
    if verb.tag_ == "VBG":
        return "work"
    return FORMS.get(verb.tag_, "work")


LEISURE = frozenset(
    "fun free kicks pleasure myself me friends family love hobby".split()
)


def _for_leisure(verb: Any, obj: Any) -> bool:
    """Tell whether the verb is done for fun or for one's own ("for a friend")."""
    for prep in [*verb.children, *obj.children]:
        if prep.dep_ == "prep" and prep.lower_ == "for":
            for pobj in prep.children:
                if pobj.dep_ == "pobj" and (
                    pobj.lower_ in LEISURE
                    or any(c.lower_ in ("my", "our") for c in pobj.children)
                ):
                    return True
    return False


def _end_of(obj: Any) -> int:
    """Return where the object phrase ends, before any prepositional phrase."""
    end = obj.idx + len(obj)
    for token in obj.subtree:
        if token.i > obj.i and (
            token.dep_ in ("prep", "relcl", "acl") or token.is_punct
        ):
            break
        end = max(end, token.idx + len(token))
    return int(end)


def detect_work_verbs(text: str, doc: Any) -> list[Cue]:
    """Find the author's job said as a verb and its object (see the module)."""
    cues: list[Cue] = []
    for verb in doc:
        if verb.pos_ != "VERB" or verb.tag_ not in FORMS:
            continue
        lemma = _lemma(verb)
        if lemma in NOT_WORK:
            continue
        objects = [c for c in verb.children if c.dep_ == "dobj" and c.i > verb.i]
        if not objects or objects[0].pos_ not in ("NOUN", "PROPN"):
            continue
        obj = objects[0]
        if obj.lower_ in PEOPLE or obj.ent_type_ == "PERSON":
            continue  # "I met my wife at a bar": a person is no task
        if obj.lower_ in STUDIES or obj.lower_ in WORK_ALREADY:
            continue  # "did a degree at Leeds": studies, not a job
        if _for_leisure(verb, obj):
            continue  # "I do the books for fun"
        task = obj.lower_ in TASKS.get(lemma, ())
        if not task and not _employer(verb, obj):
            continue
        if verb.dep_ in ("acl", "relcl") and verb.head.lower_ not in SPANS:
            continue  # "ladies delivering mail": someone the verb describes
        if lemma == "work" and not task:
            continue  # "work long hours for a firm" is work already
        subject = subject_of(verb)
        if subject is not None:
            if not first_person_subject(subject):
                continue
        elif not authors_clause(text, verb.idx):
            continue
        start, end = verb.idx, _end_of(obj)
        cues.append(Cue(start, end, text[start:end], "occupation", "job_verb",
                        f"{lemma} {obj.lower_}", _form(verb), 4))  # fmt: skip
    for m in JOB_NOUN_VERB.finditer(text):
        if not authors_clause(text, m.start()):
            continue
        word = m.group("verb").lower()
        form = (
            "working" if word.endswith("ing")
            else "worked" if word.endswith(("ed", "ied", "sat"))
            else "works" if word.endswith("s") and not word.endswith("ss")
            else "work"
        )  # fmt: skip
        if m.group("who").lower().startswith(("i've", "been", "i'm")):
            form = "working" if form == "work" else form
        cues.append(Cue(m.start("verb"), m.end("verb"), m.group("verb"),
                        "occupation", "job_verb", word, form, 4))  # fmt: skip
    return cues
