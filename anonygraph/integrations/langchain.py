"""A LangChain agent middleware: the remote model reads only rewritten text.

`AnonymizingMiddleware` goes into ``create_agent(..., middleware=[...])``.
Before each model call every new human message (and, by default, each tool
result) is rewritten on this machine (`anonygraph.integrations.rewrite`):
identifiers become the conversation's placeholders, then the chosen method
rewrites what the text gives away about its author. The agent's state keeps
the conversation as the user wrote it; the model is handed the rewritten
copies. With ``restore`` the model's answer and its tool-call arguments get
the real values back, so a tool receives the real e-mail address the model
never saw.

What was changed is in the state's ``anonygraph`` key (shown in Studio):
per message the identifier kinds and counts, the method's outcome and the
seconds it took; the text the model was handed (rewritten, never the
original). The book of original values stays in this process's memory,
keyed by the conversation, unless ``keep_originals`` puts it in the state;
after a restart it is rebuilt from the conversation's own messages.

`identifier_detector` plugs our identifier detector into LangChain's own
``PIIMiddleware`` for users who want only redaction.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, NotRequired, TypeVar

from langchain.agents.middleware import AgentMiddleware, AgentState, PIIMatch
from langchain.agents.middleware.types import ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime

from anonygraph.identifiers import IdentifierBook, find_identifiers
from anonygraph.integrations.rewrite import (
    IDENTIFIERS_ONLY,
    Rewrite,
    RewriteBlocked,
    Rewriter,
)

__all__ = [
    "AnonymizingMiddleware",
    "AnonymizingState",
    "RewriteBlocked",
    "identifier_detector",
]

KEY = "anonygraph"
"""The state key the middleware writes."""

MAX_BOOKS = 1024
"""Conversations whose books stay in memory; an older one is rebuilt on use."""

T = TypeVar("T")


class AnonymizingState(AgentState[Any]):
    """The agent's state plus what the middleware changed."""

    anonygraph: NotRequired[dict[str, Any]]
    """``conversation`` (an id), ``sent`` (message id -> what the model was
    handed), ``changes`` (per message: role, identifier kinds and counts,
    outcome, seconds), ``identifiers`` (kind -> total), and ``book`` (the
    original values) only with ``keep_originals``."""


class AnonymizingMiddleware(AgentMiddleware[AnonymizingState, Any, Any]):
    """Rewrite what the model reads locally; restore what it answers."""

    state_schema = AnonymizingState

    def __init__(
        self,
        method: str | None = "rlaa",
        models: dict[str, str] | None = None,
        *,
        restore: bool = True,
        apply_to_tool_results: bool = True,
        on_failure: str = "block",
        identifier_mode: str = "placeholder",
        keep_originals: bool = False,
        **options: Any,
    ) -> None:
        """Choose how messages are rewritten and what comes back.

        Args:
            method: a key of `anonygraph.graphs.GRAPHS`, or None to replace
                identifiers only.
            models: role -> model spec as the CLI takes them, e.g.
                ``{"default": "ollama:qwen2.5:7b"}`` (default: ``rules``).
            restore: put the original values back in the model's answer and
                tool-call arguments (the model itself never sees them).
            apply_to_tool_results: replace identifiers in tool results too
                (the method rewrites only what the user wrote).
            on_failure: ``block`` (raise `RewriteBlocked`, send nothing) or
                ``identifiers_only`` (send the text with identifiers replaced).
            identifier_mode: ``placeholder`` (``[EMAIL_1]``) or ``surrogate``.
            keep_originals: also keep the book of original values in the state
                (and so in any checkpoint).
            **options: fields of the method's `Context`, e.g. ``max_iterations``.

        Raises:
            ValueError: For an unknown method, option, mode or on_failure.

        """
        super().__init__()
        self.rewriter = Rewriter(
            method,
            models,
            on_failure=on_failure,
            identifier_mode=identifier_mode,
            **options,
        )
        self.restore = restore
        self.apply_to_tool_results = apply_to_tool_results
        self.keep_originals = keep_originals
        self._books: OrderedDict[str, IdentifierBook] = OrderedDict()
        self._lock = threading.Lock()

    # --- hooks ----------------------------------------------------------------

    async def abefore_model(
        self, state: AnonymizingState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Rewrite every message the model has not been handed yet."""
        record = _record(state)
        book = self._book(state, record)
        sent, changes = record["sent"], record["changes"]
        for message in state["messages"]:
            if message.id in sent or message.type == "system":
                continue
            entry, rewrite = await self._rewrite(message, book)
            sent[str(message.id)] = entry
            if rewrite is not None:
                changes.append({"message": message.id, "role": message.type,
                                **rewrite.summary()})  # fmt: skip
        return {KEY: self._finish(record, book)}

    def before_model(
        self, state: AnonymizingState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Rewrite every message the model has not been handed yet."""
        return _run(self.abefore_model(state, runtime))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> Any:
        """Hand the model the rewritten copies of the messages."""
        return await handler(self._rewritten(request))

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> Any:
        """Hand the model the rewritten copies of the messages."""
        return handler(self._rewritten(request))

    def after_model(
        self, state: AnonymizingState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Note what the model answered; restore original values by option."""
        answer = state["messages"][-1] if state["messages"] else None
        record = _record(state)
        if not isinstance(answer, AIMessage) or answer.id in record["sent"]:
            return None
        record["sent"][str(answer.id)] = _entry(answer.content, answer.tool_calls)
        update: dict[str, Any] = {KEY: record}
        if self.restore:
            book = self._book(state, record)
            update["messages"] = [
                answer.model_copy(
                    update={
                        "content": _map_strings(answer.content, book.restore),
                        "tool_calls": [
                            {**call, "args": _map_strings(call["args"], book.restore)}
                            for call in answer.tool_calls
                        ],
                    }
                )
            ]
        return update

    async def aafter_model(
        self, state: AnonymizingState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Note what the model answered; restore original values by option."""
        return self.after_model(state, runtime)

    # --- internals --------------------------------------------------------------

    async def _rewrite(
        self, message: AnyMessage, book: IdentifierBook
    ) -> tuple[dict[str, Any], Rewrite | None]:
        """Return what the model is handed for ``message`` and the rewrite made."""
        replace = self.rewriter.replace_identifiers
        if isinstance(message, HumanMessage):
            rewrites: list[Rewrite] = []

            async def one(text: str) -> str:
                rewrites.append(await self.rewriter.arewrite(text, book))
                return rewrites[-1].text

            content = await _amap_text(message.content, one)
            return _entry(content, [], fed=True), _merged(rewrites)
        if isinstance(message, ToolMessage) and self.apply_to_tool_results:
            before = dict(book.counts)
            content = _map_strings(message.content, lambda t: replace(t, book))
            counts = {k: n - before.get(k, 0) for k, n in book.counts.items()}
            changed = {k: n for k, n in counts.items() if n}
            return _entry(content, [], fed=True), Rewrite(content, changed)
        if isinstance(message, AIMessage):
            # An answer written before this middleware saw the conversation.
            content = _map_strings(message.content, lambda t: replace(t, book))
            calls = [
                {**c, "args": _map_strings(c["args"], lambda t: replace(t, book))}
                for c in message.tool_calls
            ]
            return _entry(content, calls, fed=True), None
        return _entry(message.content, []), None

    def _rewritten(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        record = _record(request.state)
        messages = []
        for message in request.messages:
            entry = record["sent"].get(str(message.id))
            if entry is None and message.type != "system":
                # Added after before_model (by another middleware): rewritten
                # here, never handed over as it stands.
                entry, _ = _run(
                    self._rewrite(message, self._book(request.state, record))
                )
            messages.append(_as_sent(message, entry))
        return request.override(messages=messages)

    def _book(self, state: Any, record: dict[str, Any]) -> IdentifierBook:
        """Return the conversation's book, rebuilding it when it is not in memory."""
        conversation = record["conversation"]
        with self._lock:
            book = self._books.get(conversation)
            if book is not None:
                self._books.move_to_end(conversation)
                return book
        if record.get("book"):
            book = IdentifierBook.from_state(record["book"])
        else:
            book = self.rewriter.new_book()
            # Replaying the texts that fed the book, in order, numbers their
            # values as the first time (the method's own output adds none).
            for message in state["messages"]:
                if record["sent"].get(str(message.id), {}).get("fed"):
                    _map_strings(message.content, lambda t: book.replace(t))
        with self._lock:
            self._books[conversation] = book
            while len(self._books) > MAX_BOOKS:
                self._books.popitem(last=False)
        return book

    def _finish(self, record: dict[str, Any], book: IdentifierBook) -> dict[str, Any]:
        record["identifiers"] = dict(book.counts)
        if self.keep_originals:
            record["book"] = book.to_state()
        return record


def identifier_detector(
    kinds: Iterable[str] | None = None,
) -> Callable[[str], list[PIIMatch]]:
    """Return our identifier detector as a ``PIIMiddleware`` detector.

    ``PIIMiddleware("identifier", detector=identifier_detector(),
    strategy="redact")`` redacts every kind we find; each match's ``type``
    is the kind in lower case (``email``, ``person``, ``phone``).
    """
    wanted = list(kinds) if kinds is not None else None

    def detect(content: str) -> list[PIIMatch]:
        return [
            PIIMatch(type=i.kind.lower(), value=i.text, start=i.start, end=i.end)
            for i in find_identifiers(content, kinds=wanted)
        ]

    return detect


# --- plain-data helpers ---------------------------------------------------------


def _record(state: Any) -> dict[str, Any]:
    """Return a fresh copy of the state's record (nodes never mutate state)."""
    old = state.get(KEY) or {}
    return {
        **old,
        "conversation": old.get("conversation") or uuid.uuid4().hex,
        "sent": dict(old.get("sent") or {}),
        "changes": list(old.get("changes") or []),
    }


def _entry(content: Any, calls: list[Any], *, fed: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"content": content}
    if calls:
        entry["tool_calls"] = [{"id": c.get("id"), "args": c["args"]} for c in calls]
    if fed:
        entry["fed"] = True
    return entry


def _as_sent(message: AnyMessage, entry: dict[str, Any] | None) -> AnyMessage:
    if entry is None:
        return message
    update: dict[str, Any] = {"content": entry["content"]}
    if isinstance(message, AIMessage) and message.tool_calls:
        args = {c["id"]: c["args"] for c in entry.get("tool_calls", [])}
        update["tool_calls"] = [
            {**c, "args": args.get(c["id"], c["args"])} for c in message.tool_calls
        ]
    return message.model_copy(update=update)


def _map_strings(value: Any, change: Callable[[str], str]) -> Any:
    """Apply ``change`` to every string in a message's content or a call's args."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_map_strings(v, change) for v in value]
    if isinstance(value, dict):
        if value.get("type") not in (None, "text"):
            return value  # an image or file block: no text of ours to change
        return {
            k: v if k == "type" else _map_strings(v, change) for k, v in value.items()
        }
    return value


async def _amap_text(value: Any, change: Callable[[str], Awaitable[str]]) -> Any:
    """Rewrite a message's text: a string, or the text blocks of a list."""
    if isinstance(value, str):
        return await change(value)
    out: list[Any] = []
    for block in value:
        if isinstance(block, str):
            out.append(await change(block))
        elif isinstance(block, dict) and block.get("type") == "text":
            out.append({**block, "text": await change(str(block.get("text", "")))})
        else:
            out.append(block)
    return out


def _merged(rewrites: list[Rewrite]) -> Rewrite:
    if len(rewrites) == 1:
        return rewrites[0]
    merged = Rewrite(text="", outcome=IDENTIFIERS_ONLY if not rewrites else "")
    for rewrite in rewrites:
        for kind, count in rewrite.identifiers.items():
            merged.identifiers[kind] = merged.identifiers.get(kind, 0) + count
        merged.outcome = merged.outcome or rewrite.outcome
        merged.fallback = merged.fallback or rewrite.fallback
        merged.seconds += rewrite.seconds
    return merged


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from synchronous code, in a thread if a loop is running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    box: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            box.append(asyncio.run(coroutine))
        except BaseException as exc:  # handed back to the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return box[0]
