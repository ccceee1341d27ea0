"""Rewrite a conversation's messages locally before a remote model reads them.

Each text goes through two steps: its direct identifiers become the
conversation's placeholders (one `IdentifierBook` per conversation, so
``[EMAIL_1]`` is the same address in every turn), then a method of the
user's choice rewrites what the text says about its author (`rlaa` on the
``rules`` backend by default: explicit cues generalized in milliseconds).
The method's output goes through the identifier pass again. A rewrite
that fails its checks (the method failed, cues it checks for are left, or
an identifier is still found in its output) is never sent as it stands:
``on_failure="block"`` raises `RewriteBlocked`, ``"identifiers_only"`` sends
the text with its identifiers replaced and nothing else changed.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from anonygraph.identifiers import IdentifierBook, Mode, find_identifiers, parse_mode

OnFailure = Literal["block", "identifiers_only"]
ON_FAILURE: tuple[str, ...] = get_args(OnFailure)
"""What to do with a rewrite that fails its checks (never: send the original)."""

DEFAULT_METHOD = "rlaa"
DEFAULT_MODELS: dict[str, str] = {"default": "rules"}
"""The rewrite's default: RLAA on the deterministic rules backend (local, fast)."""

IDENTIFIERS_ONLY = "identifiers only"
"""Outcome of a text whose identifiers were replaced and nothing else."""


class RewriteBlocked(RuntimeError):
    """A rewrite failed its checks and ``on_failure="block"``: nothing is sent."""

    def __init__(self, reason: str) -> None:
        """Keep the reason (kinds and attribute names only, never the text)."""
        super().__init__(
            f"the local rewrite failed its checks ({reason}); the message was not "
            "sent. Retry, rephrase, or choose on_failure='identifiers_only' to send "
            "it with identifiers replaced only"
        )
        self.reason = reason


def parse_on_failure(value: str) -> OnFailure:
    """Check a user-given ``on_failure``.

    Raises:
        ValueError: For a value that is neither, listing both.

    """
    if value not in ON_FAILURE:
        raise ValueError(
            f"unknown on_failure {value!r}; choose from {', '.join(ON_FAILURE)}"
        )
    return cast(OnFailure, value)


@dataclass
class Rewrite:
    """One message's rewrite: the text sent and what was changed (no originals)."""

    text: str
    """The text the remote model reads."""
    identifiers: dict[str, int] = field(default_factory=dict)
    """Identifier kind -> spans replaced in this text."""
    outcome: str = IDENTIFIERS_ONLY
    """The method's outcome, or ``identifiers only``."""
    fallback: str = ""
    """Why the method's rewrite was not used (``identifiers_only``), else ''."""
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        """Return what changed as plain data (kinds, counts, outcome; no text)."""
        out: dict[str, Any] = {
            "identifiers": dict(self.identifiers),
            "outcome": self.outcome,
            "seconds": round(self.seconds, 4),
        }
        if self.fallback:
            out["fallback"] = self.fallback
        return out


class Rewriter:
    """Rewrite texts with one method and one model choice; checks every output.

    The method's graph is compiled once and run without a checkpointer:
    nothing of the text is written anywhere.
    """

    def __init__(
        self,
        method: str | None = DEFAULT_METHOD,
        models: dict[str, str] | None = None,
        *,
        on_failure: str = "block",
        identifier_mode: str = "placeholder",
        **options: Any,
    ) -> None:
        """Choose the method (None: identifiers only), its models and options.

        Args:
            method: a key of `anonygraph.graphs.GRAPHS`, or None to replace
                identifiers only.
            models: role -> model spec as `anonygraph.anonymize` takes them
                (default ``{"default": "rules"}``).
            on_failure: ``block`` or ``identifiers_only``.
            identifier_mode: ``placeholder`` (``[EMAIL_1]``) or ``surrogate``.
            **options: fields of the method's `Context`.

        Raises:
            ValueError: For an unknown method, option, mode or on_failure.

        """
        self.method = method
        self.models = dict(DEFAULT_MODELS if models is None else models)
        self.on_failure = parse_on_failure(on_failure)
        self.identifier_mode: Mode = parse_mode(identifier_mode)
        if self.identifier_mode == "keep":
            raise ValueError(
                "identifier_mode 'keep' would send identifiers as they are"
            )
        self.options = options
        self._graph: Any = None
        self._context: Any = None
        if method is not None:
            from anonygraph.api import compile_graph

            self._graph, self._context = compile_graph(method, self.models, options)

    def rewrite(self, text: str, book: IdentifierBook) -> Rewrite:
        """Rewrite one text from synchronous code (see `arewrite`)."""
        return asyncio.run(self.arewrite(text, book))

    def new_book(self, seed: int = 0) -> IdentifierBook:
        """Return an empty book for one conversation."""
        return IdentifierBook(self.identifier_mode, seed)

    def replace_identifiers(self, text: str, book: IdentifierBook) -> str:
        """Replace ``text``'s identifiers with ``book``'s (no method, no check)."""
        return book.replace(text) if text.strip() else text

    async def arewrite(self, text: str, book: IdentifierBook) -> Rewrite:
        """Rewrite one text: identifiers through ``book``, then the method.

        Raises:
            RewriteBlocked: when the rewrite fails its checks and
                ``on_failure`` is ``block``.

        """
        start = time.perf_counter()
        before = Counter(book.counts)
        masked = self.replace_identifiers(text, book)
        rewrite = Rewrite(text=masked)
        if self._graph is not None and masked.strip():
            try:
                result = await self._graph.ainvoke(
                    {"text": masked}, context=self._context
                )
                out, problem = self._checked(result, book)
            except Exception as exc:  # any failure of the method blocks or falls back
                out, problem = (
                    "",
                    f"the method {self.method} failed: {type(exc).__name__}",
                )
            if not problem:
                rewrite.text = out
                rewrite.outcome = str(
                    result.get("outcome") or result.get("status") or ""
                )
            elif self.on_failure == "block":
                raise RewriteBlocked(problem)
            else:
                rewrite.fallback = problem
        if rewrite.outcome == IDENTIFIERS_ONLY:
            # A second pass: replacing some spans can let the detector see
            # others (a name it read as a place next to an e-mail address).
            rewrite.text = self.replace_identifiers(masked, book)
        rewrite.identifiers = dict(book.counts - before)
        rewrite.seconds = time.perf_counter() - start
        return rewrite

    def _checked(self, result: dict[str, Any], book: IdentifierBook) -> tuple[str, str]:
        """Return the method's text with identifiers replaced, and why it may
        not be sent ('' when it may).

        The output goes through the identifier pass again: a rewrite can let
        the detector see a name the input's context hid, and a model can
        write one in. What the detector still finds after that fails the
        check.
        """  # noqa: D205
        text = result.get("anonymized")
        if result.get("status") == "failed" or not isinstance(text, str):
            return "", f"the method {self.method} returned no text"
        if result.get("leaks"):
            return "", "explicit cues left: " + ", ".join(map(str, result["leaks"]))
        out = self.replace_identifiers(text, book)
        ours = book.replacements()
        left = sorted({i.kind for i in find_identifiers(out) if i.text not in ours})
        if left:
            return "", "identifiers left: " + ", ".join(left)
        return out, ""
