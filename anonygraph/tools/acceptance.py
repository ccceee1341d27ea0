"""Acceptance checks a rewrite must pass before it replaces the text it rewrites.

Each check is a pure function returning the reason it rejects, or None:

- `check_shape`: not empty, not far shorter or longer, not unchanged;
- `check_similarity`: about the same thing (MiniLM cosine above a floor);
- `check_task_talk`: no talk about the task (prompt words the input lacks);
- `check_kept_parts`: sentences far from every evidence span are kept;
- `check_new_specifics`: no new names, places, numbers beyond coarser forms
  of what was replaced;
- `check_repeats`: no sentence said more often than the original says it;
- `check_new_claims`: no claim about the author (an occupation, an
  education, an age, a relationship) that the original does not make;
- `check_lost_sentences`: no more of the original's sentences lost than the
  policy touched.

`rejections` runs them all and names the check behind each reason (the run
summary counts them by check). Thresholds live in `AcceptanceThresholds`; the
graphs read them from their `Context` (`thresholds_from`).
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from anonygraph.cues import Cue, detect_cues, generalize, is_generalization
from anonygraph.cues.cue import PLACE_KINDS

MAX_GROWTH = 3.0
"""Anonymizing generalizes and trims: a rewrite far longer than its input rambles."""


@dataclass(frozen=True)
class AcceptanceThresholds:
    """Limits of the acceptance checks, with the reasons for their defaults."""

    min_length_ratio: float = 0.4
    """A rewrite under this share of its input's length dropped content, not
    details: generalizing shortens a text by a few words at most."""

    min_similarity: float = 0.60
    """Lowest MiniLM cosine to the text rewritten. Chosen on PersonalReddit
    (benchmarks/acceptance_floor.py): the 256 rules rewrites that change one
    of the 404 texts score 0.773 at least (1st percentile 0.870); unrelated
    text pairs score 0.499 at most (99th percentile 0.482), meta-text answers
    0.376 at most. Any floor in 0.50-0.77 separates them; 0.60 keeps a 0.10
    margin over the unrelated pairs and leaves LLM paraphrases, which drift
    further than rules edits, room down to 0.60."""

    similarity_min_words: int = 8
    """The similarity check runs on texts of at least this many words: in a
    shorter one a single generalized word moves the MiniLM cosine by 0.3 or
    more ("I live in Calgary." / "I live in a city." score 0.52), while the
    floor was chosen on texts of 20 words and more."""

    min_kept_share: float = 0.8
    """Share of a far sentence's words a rewrite must keep in order: small
    edits (a pronoun, a generalized word) pass, a dropped or rewritten
    sentence does not."""

    check_task_talk: bool = True
    """Reject phrases of our prompts and generic assistant talk the input lacks."""

    check_new_specifics: bool = True
    """Reject names, places and numbers the original did not have."""


def thresholds_from(context: Any) -> AcceptanceThresholds:
    """Read the thresholds from a run's `Context` (fields of the same names)."""
    defaults = AcceptanceThresholds()
    return AcceptanceThresholds(
        **{
            name: getattr(context, name, getattr(defaults, name))
            for name in AcceptanceThresholds.__dataclass_fields__
        }
    )


def check_shape(original: str, rewrite: str, min_length_ratio: float) -> str | None:
    """Reject an empty, far shorter, far longer or unchanged rewrite."""
    before, after = original.strip(), rewrite.strip()
    if not after:
        return "the rewrite is empty"
    if len(after) < min_length_ratio * len(before):
        return (
            f"the rewrite has {len(after)} characters, under "
            f"{min_length_ratio:.0%} of the {len(before)} it replaces"
        )
    if len(after) > MAX_GROWTH * len(before) + 200:
        return (
            f"the rewrite has {len(after)} characters, over "
            f"{MAX_GROWTH:g} times the {len(before)} it replaces"
        )
    if " ".join(after.split()) == " ".join(before.split()):
        return "the rewrite left the text unchanged"
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())


# Generic assistant talk: what a model says about its task, not the author.
GENERIC_TASK_PHRASES: tuple[str, ...] = (
    "json",
    "edited text",
    "rewritten text",
    "anonymized text",
    "anonymised text",
    "original text",
    "the text above",
    "i will",
    "i'll provide",
    "i cannot",
    "i can't help",
    "here is",
    "here's the",
    "as an ai",
    "language model",
    "successfully",
    "the following text",
    "my edit",
    "your edit",
    "leaks to neutralize",
    "the author",
    "anonymize",
    "anonymized",
    "anonymization",
    "placeholder",
    # Words of our prompts' answer formats: a rewrite that brings one in is
    # echoing its instructions ("My girlfriend (evidence: ...").
    "evidence",
    "policy",
    "schema",
    "certainty",
    "attacker",
    "arbitrator",
    "anonymizer",
    "inferences",
)


@lru_cache(maxsize=1)
def task_vocabulary() -> frozenset[str]:
    """Return the phrases that give away talk about the task.

    Word trigrams of every prompt template in ``anonygraph.prompts`` (any
    module-level string with a slot or over 80 characters), slots removed,
    that hold a word about the task (`TASK_WORDS`: "the text", "the
    attribute", "your answer"), plus `GENERIC_TASK_PHRASES`. Other trigrams
    ("of its own", "i live in") are ordinary English and say nothing.
    """
    templates = list(_prompt_templates())
    vocabulary = set(GENERIC_TASK_PHRASES)
    for template in templates:
        plain = re.sub(r"\{[^{}]*\}", " | ", template)
        for part in plain.split("|"):
            tokens = _words(part)
            for i in range(len(tokens) - 2):
                gram = tokens[i : i + 3]
                if any(t in TASK_WORDS for t in gram):
                    vocabulary.add(" ".join(gram))
    return frozenset(vocabulary)


TASK_WORDS = frozenset(
    "text texts author attribute attributes json answer output instructions "
    "instruction rewrite rewritten rewriting edit edited edits anonymize "
    "anonymized anonymizer anonymization policy evidence inference inferences "
    "guess guesses certainty leak leaks schema field fields format prompt "
    "attacker arbitrator reasoning placeholder placeholders mask masked quote "
    "quoted verdict validity concept".split()
)


def _prompt_templates() -> Iterable[str]:
    # Scanned, not imported by name: the prompts package may be reorganized.
    package = importlib.import_module("anonygraph.prompts")
    for info in pkgutil.walk_packages(package.__path__, "anonygraph.prompts."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, str) and ("{" in value or len(value) > 80):
                yield value


def check_similarity(
    original: str,
    rewrite: str,
    floor: float,
    similarity: Callable[[str, str], float] | None = None,
) -> str | None:
    """Reject a rewrite whose meaning drifted: MiniLM cosine under ``floor``."""
    if similarity is None:
        from anonygraph.tools.text_metrics import semantic_similarity

        similarity = semantic_similarity
    score = similarity(original, rewrite)
    if score < floor:
        return (
            f"the rewrite is about something else: similarity {score:.2f} to the "
            f"text it rewrites, under the floor {floor:.2f}"
        )
    return None


_TOKEN = re.compile(r"[\w'’-]+|[^\w\s]")
_JOINING_WORDS = frozenset("a an the another part parts of".split())
"""Words the generalizer adds around a replacement ("another part of the US",
"rural parts of the US") or changes beside it ("a" -> "an")."""


def only_cue_generalizations(original: str, rewrite: str) -> bool:
    """Tell whether every edit of ``rewrite`` puts a cue's coarser form in its place.

    Each changed word of ``original`` must lie in a detected cue's span (or be
    an article right before one), and each word put in must belong to what
    those cues generalize to (`anonygraph.cues.generalize`). Such a rewrite
    says what the original said with some words coarser: it cannot be about
    something else, whatever MiniLM scores it.
    """
    cues = detect_cues(original)
    old = [(m.start(), m.end(), m.group().lower()) for m in _TOKEN.finditer(original)]
    new = [m.group().lower() for m in _TOKEN.finditer(rewrite)]
    matcher = difflib.SequenceMatcher(None, [w for *_, w in old], new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i1 < i2:
            start, end = old[i1][0], old[i2 - 1][1]
        else:  # an insertion: between two words of the original
            start = end = old[i1][0] if i1 < len(old) else len(original)
        touching = [c for c in cues if c.start <= end and start <= c.end]
        if not touching:
            return False
        for k in range(i1, i2):
            s, e, word = old[k]
            inside = any(c.start <= s and e <= c.end for c in touching)
            # A cue that goes takes its comma along ("34M, recently ...").
            mark = not word[0].isalnum() and not new[j1:j2]
            if not inside and word not in _JOINING_WORDS and not mark:
                return False
        allowed = set(_JOINING_WORDS)
        for cue in touching:
            allowed |= {w.lower() for w in _TOKEN.findall(generalize(cue))}
        if any(w not in allowed for w in new[j1:j2]):
            return False
    return True


@lru_cache(maxsize=4)
def _as_words(phrases: frozenset[str]) -> tuple[tuple[str, str], ...]:
    # Normalized once: there are a thousand phrases and a check per rewrite.
    return tuple((p, f" {' '.join(_words(p))} ") for p in sorted(phrases))


def check_task_talk(
    original: str, rewrite: str, vocabulary: Iterable[str] | None = None
) -> str | None:
    """Reject a rewrite that talks about the task: task phrases the input lacks."""
    before = " " + " ".join(_words(original)) + " "
    after = " " + " ".join(_words(rewrite)) + " "
    phrases = _as_words(frozenset(vocabulary or task_vocabulary()))
    found = [p for p, words in phrases if words in after and words not in before]
    if found:
        listed = ", ".join(repr(p) for p in found[:3])
        return f"the rewrite talks about the task: {listed} (not in the input)"
    return None


SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")


def sentences(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) of each sentence of ``text``."""
    return [(m.start(), m.end()) for m in SENTENCE.finditer(text) if m.group().strip()]


def check_kept_parts(
    original: str, rewrite: str, evidence: Sequence[str], min_kept_share: float
) -> str | None:
    """Reject a rewrite that changed sentences no policy asked to change.

    A sentence of ``original`` is far from the evidence when no evidence
    phrase (case-insensitive) lies in it or in a sentence next to it. Each far
    sentence must keep at least ``min_kept_share`` of its words, in order, in
    the rewrite (aligned over the whole text, so merged sentences count); a
    neighbour may absorb a pronoun or connective the edit needs and is free.
    Evidence not found in the original (or none given, as FgAA's inferences
    have) localizes nothing: the check then passes rather than guess.
    """
    spans = sentences(original)
    lowered = original.lower()
    hits: set[int] = set()
    near: set[int] = set()
    located = False
    for phrase in evidence:
        key = phrase.strip().lower()
        for match in re.finditer(re.escape(key), lowered) if key else ():
            located = True
            for i, (start, end) in enumerate(spans):
                if start < match.end() and match.start() < end:
                    hits.add(i)
                    near.update({i - 1, i + 1})
    if not located:
        return None
    old_words = _words(original)
    new_words = _words(rewrite)
    kept = [False] * len(old_words)
    matcher = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.a, block.a + block.size):
            kept[k] = True
    position = 0
    for i, (start, end) in enumerate(spans):
        count = len(_words(original[start:end]))
        share = sum(kept[position : position + count]) / count if count else 1.0
        position += count
        if i not in hits and i not in near and share < min_kept_share:
            quote = " ".join(original[start:end].split())[:80]
            return (
                f"the rewrite changed a part no policy asked to change: "
                f'"{quote}" kept {share:.0%} of its words'
            )
    return None


NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NAME = re.compile(r"\b[A-Z][a-z]+\b")


def check_new_specifics(original: str, rewrite: str) -> str | None:
    """Reject names, places or numbers the rewrite adds beyond coarser forms.

    A cue found in the rewrite but not in the original must generalize a cue
    of the original (`anonygraph.cues.is_generalization`: Calgary -> Canada,
    27 -> "in my late twenties"); a number or a capitalized name mid-sentence
    must appear in the original or in a generalization of one of its cues
    (a place's country too where the rules, unconfirmed, write [PLACE]).
    """
    old_cues = detect_cues(original)
    lowered = original.lower()
    places = [c.value for c in old_cues if c.kind in PLACE_KINDS]
    allowed = " ".join([*map(generalize, old_cues), *places]).lower()
    for cue in detect_cues(rewrite):
        if cue.quote.lower() in lowered or _restates(cue, original, old_cues):
            continue
        if not any(is_generalization(cue, old) for old in old_cues):
            return (
                f"the rewrite adds a specific the original lacks: {cue.quote!r} "
                f"({cue.kind}, {cue.attribute})"
            )
    original_numbers = set(NUMBER.findall(original)) | set(NUMBER.findall(allowed))
    for number in NUMBER.findall(rewrite):
        if number not in original_numbers:
            return f"the rewrite adds a number the original lacks: {number!r}"
    for match in NAME.finditer(rewrite):
        name = match.group()
        if name.lower() not in lowered and name.lower() not in allowed:
            if _sentence_initial(rewrite, match.start()) or name == "I":
                continue
            return f"the rewrite adds a name the original lacks: {name!r}"
    return None


def _sentence_key(sentence: str) -> str:
    return " ".join(_words(sentence))


def check_repeats(original: str, rewrite: str) -> str | None:
    """Reject a rewrite that says a sentence more often than the original does.

    Weak models loop: "I'm a high school senior." eight times over.
    """
    before: dict[str, int] = {}
    for start, end in sentences(original):
        key = _sentence_key(original[start:end])
        before[key] = before.get(key, 0) + 1
    after: dict[str, int] = {}
    for start, end in sentences(rewrite):
        key = _sentence_key(rewrite[start:end])
        if len(key.split()) < 3:
            continue  # "lol." or "Thanks!" twice is no loop
        after[key] = after.get(key, 0) + 1
        if after[key] > before.get(key, 0) and after[key] > 1:
            quote = " ".join(rewrite[start:end].split())[:80]
            return f'the rewrite repeats a sentence: "{quote}" ({after[key]} times)'
    return None


CLAIM_ATTRIBUTES: tuple[str, ...] = (
    "occupation",
    "education",
    "age",
    "relationship_status",
)
"""Attributes a rewrite must not start claiming: the author never said them."""


def check_new_claims(original: str, rewrite: str) -> str | None:
    """Reject a rewrite that states an attribute of the author the original does not.

    A cue of an attribute the original has no cue of at all (coarse ones
    count: "in my thirties", "a student") is a new claim: "I'm a high school
    senior" over a widower's text invents an education and an age group.
    """
    old = detect_cues(original)
    stated = {c.attribute for c in old}
    for cue in [c for c in detect_cues(rewrite) if c.attribute in CLAIM_ATTRIBUTES]:
        if cue.attribute not in stated and not _restates(cue, original, old):
            return (
                f"the rewrite claims the author's {cue.attribute.replace('_', ' ')}, "
                f"which the original does not state: {cue.quote!r}"
            )
    return None


def _restates(cue: Cue, original: str, old_cues: Sequence[Cue]) -> bool:
    """Tell whether a cue of a rewrite is made of the original's own words.

    Every word of it stands in the original or in what one of the original's
    cues generalizes to ("freshman" -> "first-year student"; "single father"
    -> "single parent"; "a 24 year old bartender" -> "a twenty-something
    bartender"): it restates, in coarser words, what the author said.
    """
    known = set(_words(original)) | {w for c in old_cues for w in _words(generalize(c))}
    return all(w in known or w.endswith("something") for w in _words(cue.quote))


def check_lost_sentences(
    original: str, rewrite: str, evidence: Sequence[str] = ()
) -> str | None:
    """Reject a rewrite that lost more of the original's sentences than it touched.

    A sentence is kept when at least half its words stand, in order, in the
    rewrite. It is touched when it holds an evidence phrase or an explicit
    cue: those the policy may rephrase. Losing more sentences than that means
    the rewrite dropped or replaced content nobody asked it to change.
    """
    spans = sentences(original)
    if len(spans) < 2:
        return None
    lowered = original.lower()
    marks = [(c.start, c.end) for c in detect_cues(original)]
    for phrase in evidence:
        key = phrase.strip().lower()
        marks += (
            [(m.start(), m.end()) for m in re.finditer(re.escape(key), lowered)]
            if key
            else []
        )
    touched = sum(any(start < e and s < end for s, e in marks) for start, end in spans)
    shares = _kept_shares(original, rewrite, spans)
    lost = sum(share < 0.5 for share in shares)
    if lost > touched:
        return (
            f"the rewrite kept {len(spans) - lost} of the original's {len(spans)} "
            f"sentences; the policy touched {touched}"
        )
    return None


def _kept_shares(
    original: str, rewrite: str, spans: list[tuple[int, int]]
) -> list[float]:
    old_words = _words(original)
    kept = [False] * len(old_words)
    matcher = difflib.SequenceMatcher(None, old_words, _words(rewrite), autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.a, block.a + block.size):
            kept[k] = True
    shares = []
    position = 0
    for start, end in spans:
        count = len(_words(original[start:end]))
        shares.append(sum(kept[position : position + count]) / count if count else 1.0)
        position += count
    return shares


def _sentence_initial(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \"'(“")
    return not before or before[-1] in ".!?\n:"


@dataclass(frozen=True)
class Rejection:
    """Why a rewrite was refused: the check that refused it and its reason."""

    check: str
    """shape, repeats, lost_sentences, new_claims, task_talk, new_specifics,
    kept_parts or similarity."""

    reason: str
    """The check's sentence, for people and for the model's retry."""

    def __str__(self) -> str:
        return f"{self.check}: {self.reason}"


def rejections(
    original: str,
    rewrite: str,
    *,
    evidence: Sequence[str] = (),
    thresholds: AcceptanceThresholds | None = None,
    similarity: Callable[[str, str], float] | None = None,
    rules_rewrite: bool = False,
) -> list[Rejection]:
    """Run every check; return why the rewrite is refused ([] accepts it).

    Cheap checks run first; the similarity model is loaded only when they pass.
    A rewrite with the wrong shape (empty, unchanged) is not checked further.
    The similarity floor does not apply to a rewrite by the ``rules``
    anonymizer (``rules_rewrite``) made only of cue generalizations
    (`only_cue_generalizations`): the floor catches a model's drift and talk,
    and such a rewrite has neither; in a short text dense with cues it
    scores under the floor because every cue changed ("a security guard at
    Heathrow pays £28,000" -> "a security worker at a company pays a decent
    salary": 0.54). A model's rewrite keeps the floor.
    """
    limits = thresholds or AcceptanceThresholds()
    if reason := check_shape(original, rewrite, limits.min_length_ratio):
        return [Rejection("shape", reason)]
    found = []
    if limits.check_task_talk and (reason := check_task_talk(original, rewrite)):
        found.append(Rejection("task_talk", reason))
    if reason := check_repeats(original, rewrite):
        found.append(Rejection("repeats", reason))
    if limits.check_new_specifics and (reason := check_new_claims(original, rewrite)):
        found.append(Rejection("new_claims", reason))
    if limits.check_new_specifics and (
        reason := check_new_specifics(original, rewrite)
    ):
        found.append(Rejection("new_specifics", reason))
    if reason := check_lost_sentences(original, rewrite, evidence):
        found.append(Rejection("lost_sentences", reason))
    if reason := check_kept_parts(original, rewrite, evidence, limits.min_kept_share):
        found.append(Rejection("kept_parts", reason))
    long_enough = len(_words(original)) >= limits.similarity_min_words
    if (
        not found
        and long_enough
        and not (rules_rewrite and only_cue_generalizations(original, rewrite))
        and (
            reason := check_similarity(
                original, rewrite, limits.min_similarity, similarity
            )
        )
    ):
        found.append(Rejection("similarity", reason))
    return found


def acceptance_problems(
    original: str,
    rewrite: str,
    *,
    evidence: Sequence[str] = (),
    thresholds: AcceptanceThresholds | None = None,
    similarity: Callable[[str, str], float] | None = None,
) -> list[str]:
    """Return the reasons of `rejections` as plain sentences ([] accepts it)."""
    return [
        r.reason
        for r in rejections(
            original,
            rewrite,
            evidence=evidence,
            thresholds=thresholds,
            similarity=similarity,
        )
    ]


__all__ = [
    "AcceptanceThresholds",
    "Cue",
    "Rejection",
    "acceptance_problems",
    "check_kept_parts",
    "check_lost_sentences",
    "check_new_claims",
    "check_repeats",
    "check_shape",
    "check_new_specifics",
    "check_similarity",
    "check_task_talk",
    "only_cue_generalizations",
    "rejections",
    "task_vocabulary",
    "thresholds_from",
]
