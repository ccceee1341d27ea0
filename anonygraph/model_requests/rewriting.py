"""The checked rewrite every rewriting step asks for.

A model's rewrite replaces a text only when it passes the acceptance checks
(`anonygraph.tools.acceptance`), unless the run turned them off (``acceptance``,
off in the paper profile). A refused rewrite is asked again, telling the
model why, at most ``rewrite_retries`` times; then the text stays as it was.
Every refusal is returned with its check and reason for the round's snapshot,
the record's errors and the run summary.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from anonygraph import llm
from anonygraph.prompts.common import REWRITE_REFUSED, fill
from anonygraph.tools.acceptance import rejections, thresholds_from

T = TypeVar("T", bound=BaseModel)


@dataclass
class CheckedRewrite:
    """What a checked rewrite came to."""

    text: str
    """The accepted rewrite, stripped, or the input when every try was refused."""

    accepted: bool
    """Whether a rewrite passed the checks."""

    answer: Any
    """The last answer the model gave (its other fields: changes, edits)."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    """Call records of every try."""

    refusals: list[dict[str, Any]] = field(default_factory=list)
    """One dict per refused check: ``attempt``, ``check``, ``reason``."""

    def error(self, label: str) -> str | None:
        """One line for the record's errors, or None when nothing was refused."""
        if not self.refusals:
            return None
        tries = 1 + max(r["attempt"] for r in self.refusals)
        reasons = "; ".join(f"{r['check']}: {r['reason']}" for r in self.refusals)
        kept = "accepted on a retry" if self.accepted else "text kept as it was"
        counted = f"{tries} {'try' if tries == 1 else 'tries'}"
        return f"{label}: rewrite refused ({counted}, {kept}): {reasons}"


async def checked_rewrite(
    role: str,
    prompt: str,
    schema: type[T],
    context: Any,
    *,
    step: str,
    original: str,
    facts: dict[str, Any] | None = None,
    evidence: Sequence[str] = (),
    text_of: Callable[[T], str] = lambda answer: str(getattr(answer, "text", "")),
) -> CheckedRewrite:
    """Ask ``role`` to rewrite ``original``; keep the rewrite only if it passes.

    Args:
        role: The rewriting role, e.g. ``anonymizer``.
        prompt: The formatted rewrite prompt.
        schema: The answer schema (it holds the text).
        context: The run's context: models, and the acceptance fields.
        step: The graph step, for accounting and errors.
        original: The text the rewrite replaces (what the checks compare with).
        facts: The slot values, for the ``rules`` backend.
        evidence: Phrases the policy asked to change (other sentences must stay).
        text_of: Where the rewritten text sits in an answer.

    Raises:
        ModelOutputError: when an answer does not parse (as `ask_structured`).

    """
    if not getattr(context, "acceptance", True):
        # The papers take every rewrite as the model wrote it (paper profile).
        answer, calls = await llm.ask_structured(
            role, prompt, schema, context, step=step, facts=facts
        )
        return CheckedRewrite(
            text=text_of(answer).strip(), accepted=True, answer=answer, calls=calls
        )
    limits = thresholds_from(context)
    deterministic = llm.settings_for(context, role).backend.answers_from_cues
    # The rules backend answers the same facts the same way: no retry helps it.
    tries = 1 + (
        0 if deterministic else max(0, int(getattr(context, "rewrite_retries", 1)))
    )
    result = CheckedRewrite(text=original, accepted=False, answer=None)
    asked = prompt
    for attempt in range(tries):
        answer, calls = await llm.ask_structured(
            role, asked, schema, context, step=step, facts=facts
        )
        result.answer = answer
        result.calls += calls
        rewrite = text_of(answer)
        # In a thread: the meaning check's sentence embeddings are matrix
        # products that leave the interpreter lock free, so the event loop
        # goes on with other records' steps meanwhile (a second core).
        found = await asyncio.to_thread(
            rejections,
            original,
            rewrite,
            evidence=evidence,
            thresholds=limits,
            rules_rewrite=deterministic,
        )
        if not found:
            result.text, result.accepted = rewrite.strip(), True
            return result
        result.refusals += [
            {"attempt": attempt, "check": r.check, "reason": r.reason} for r in found
        ]
        # Reasons quote the rewrite: `fill` defuses any fence tag in them.
        asked = prompt + fill(
            REWRITE_REFUSED, reasons="\n".join(f"- {r.reason}" for r in found)
        )
    return result
