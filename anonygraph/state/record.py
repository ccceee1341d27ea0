"""Input and output fields every anonymization graph shares (runner, store, API)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, NotRequired

# pydantic builds Studio's JSON schemas; on Python < 3.12 it needs this TypedDict.
from typing_extensions import TypedDict

from anonygraph.state.domain import COMMENT_SEPARATOR


class RoundSnapshot(TypedDict):
    """One round (or pass) of a method as Studio, the store and the evaluator read it.

    Every method writes ``round`` and ``text``; the other keys are those its
    steps have. The store's iterations table reads the shared ones.
    """

    round: int
    """Rewrites done before this snapshot."""

    text: str
    """The text this round started from (attacked, checked or rewritten)."""

    rewritten: NotRequired[str | None]
    """What the round's rewrite produced; None for the final snapshot."""

    inferences: NotRequired[list[dict[str, Any]]]
    """The attacker's `AttributeInference`s about `text`."""

    error: NotRequired[str | None]
    """Why the rewrite was rejected, if it was."""

    rejections: NotRequired[list[dict[str, Any]]]
    """Every refused try of the round's rewrite: attempt, check, reason."""

    changes: NotRequired[str]
    """The rewriter's one-line plan of its edits."""

    verdicts: NotRequired[list[dict[str, Any]]]
    """RLAA: the arbitrator's `LeakVerdict`s."""

    policy: NotRequired[list[dict[str, Any]]]
    """RLAA, FgAA, AURA: the `PolicyItem`s handed to the rewriter."""

    utility: NotRequired[dict[str, Any]]
    """SEAL: the `UtilityAnswer` for `text`."""

    intents: NotRequired[list[dict[str, Any]]]
    """IntentAnony: the `Intent`s."""

    scene: NotRequired[str]
    """IntentAnony: the scene label."""

    chains: NotRequired[list[dict[str, Any]]]
    """IntentAnony: the `EvidenceChain`s."""

    budgets: NotRequired[list[dict[str, Any]]]
    """IntentAnony: the `ExposureBudget`s."""

    exceeded: NotRequired[list[dict[str, Any]]]
    """IntentAnony: the attributes over budget."""

    edits: NotRequired[list[dict[str, Any]]]
    """IntentAnony: the rewrite's `SpanEdit`s."""

    segments: NotRequired[list[dict[str, Any]]]
    """DP-Embed: the `Segment`s the text was cut into."""

    chunks: NotRequired[list[dict[str, Any]]]
    """DP-Embed: each chunk, its rewrite and its similarity."""

    receipt: NotRequired[dict[str, Any]]
    """DP-Embed: the `PrivacyReceipt`."""


@dataclass(kw_only=True)
class RecordInput:
    """One author's text: a single text or a list of comments."""

    text: str = ""
    """The text to anonymize (ignored when `comments` is given)."""

    comments: list[str] = field(default_factory=list)
    """One author's comments, anonymized together and split back."""

    attributes: list[str] = field(default_factory=list)
    """Attributes to protect for this input; empty: the run's attributes."""


@dataclass(kw_only=True)
class RecordOutput:
    """What every method returns; the runner and the store read these fields."""

    anonymized: str = ""
    """The final text."""

    anonymized_comments: list[str] = field(default_factory=list)
    """The final text split back into comments, when the input was a list."""

    status: str = "running"
    """How the run ended; the values are the method's (converged, done, ...)."""

    outcome: str = ""
    """What happened to the text, in the words the output and summary use:
    anonymized (a model attacker finds nothing left worth editing in the final
    text and no direct identifier is left), scrubbed (only the ``rules``
    detectors checked it: the identifiers and the explicit cues they know were
    replaced; phrasings outside the rules, style and topics were not checked),
    partly anonymized / partly scrubbed (leaks remain, listed in `leaks`),
    unchanged (no rewrite passed the checks; leaks remain), not checked (the
    paper profile returns its last rewrite without attacking it) or, set by
    the runner, failed. Empty for a method that cannot check its final text."""

    leaks: list[str] = field(default_factory=list)
    """Attributes the run's attacker still finds in the final text, and
    ``identifier:KIND`` for each kind of direct identifier still in it."""

    identifiers: dict[str, int] = field(default_factory=dict)
    """Direct identifiers replaced before the first step, per kind (found and
    left in place with ``--identifiers keep``)."""

    source: str = ""
    """The input with its direct identifiers replaced: the original that every
    model step reads (empty: the input as given, e.g. the paper profile)."""

    replacements: list[str] = field(default_factory=list)
    """The placeholders or surrogates the pre-pass wrote (never the originals),
    so the final check tells them from identifiers left."""

    identifier_mapping: list[dict[str, str]] = field(default_factory=list)
    """Replacement -> original per value, kept only with ``--keep-mapping`` (the
    run store holds it; the output never does)."""

    checked_by: str = ""
    """The model spec of the attacker that checked the final text (``rules``:
    the explicit-cue detectors only); empty when nothing checked it."""

    iterations: Annotated[list[RoundSnapshot], operator.add] = field(
        default_factory=list
    )
    """Every round (or pass) of the method, for Studio and the evaluator."""

    calls: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """Accounting of every model call: role, step, tokens, seconds, cache hit."""

    errors: Annotated[list[str], operator.add] = field(default_factory=list)
    """Recoverable problems, e.g. a rewrite that was rejected."""


ANONYMIZED = "anonymized"
"""Outcome when a model attacker finds nothing left in the final text."""

SCRUBBED = "scrubbed"
"""Outcome when only the rules checked it: identifiers and the explicit cues
they know were replaced, nothing they know is left; nothing else was checked."""

PARTLY_SCRUBBED = "partly scrubbed"
"""Outcome when only the rules checked it and some of what they know is left."""


NOT_CHECKED = "not checked"
"""Outcome when the method's paper returns its last rewrite unattacked."""

WAITING_FOR_REVIEW = "waiting for review"
"""Outcome of a record paused at a review step (set by the runner, as failed is):
it has no final text yet, so it is not counted as ``not checked``."""


def outcome_of(
    original: str, final: str, leaks: list[str], checked_by: str = "rules"
) -> str:
    """Name a checked record's outcome from its final text and the leaks left.

    ``checked_by`` is the attacker's model spec: a text that only the rules
    detectors looked at is never called anonymized, only scrubbed; an
    identifier left (a leak ``identifier:KIND``) rules both out.
    """
    from anonygraph.llm.registry import answers_from_cues

    rules = answers_from_cues(checked_by)
    if not leaks:
        return SCRUBBED if rules else ANONYMIZED
    changed = " ".join(final.split()) != " ".join(original.split())
    if not changed:
        return "unchanged"
    return PARTLY_SCRUBBED if rules else "partly anonymized"


def source_text(state: Any) -> str:
    """Return the text every model step reads as the original.

    The input with its identifiers replaced by the pre-pass, or the input as
    given when no pre-pass ran (the paper profile, evaluation).
    """
    return str(getattr(state, "source", "") or original_text(state))


def original_text(record: RecordInput) -> str:
    """Return the input as one text: the text, or the comments joined."""
    return COMMENT_SEPARATOR.join(record.comments) if record.comments else record.text
