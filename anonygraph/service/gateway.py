"""An OpenAI-compatible gateway: rewrite user messages here, forward, restore.

``POST /v1/chat/completions`` takes what OpenAI's API takes. User messages
are rewritten on this machine (`anonygraph.integrations.rewrite`: identifiers
to the conversation's placeholders, then the service's method, ``rules`` by
default); tool results and earlier assistant turns get their identifiers
replaced; system and developer messages go as written. The request then goes
to the upstream (``serve --upstream openai:NAME@URL``, its key read from an
environment variable and sent nowhere else). With restore on, the answer,
streamed or not, gets the original values back in place of the placeholders.
A client that sends ``X-Conversation-Id`` keeps one book across requests, so
``[PERSON_1]`` stays the same person; books live in memory only.

Errors a client meets, in OpenAI's error shape: 400 for a request the upstream
would refuse for its shape, the upstream's own status and body for one it
refuses, 422 when a rewrite failed its checks and ``--on-failure block`` (the
default: nothing was sent), 502 when the upstream cannot be reached, 504 when
it does not answer in time. Each answer carries the time the gateway added.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from anonygraph.identifiers import IdentifierBook
from anonygraph.integrations.rewrite import Rewrite, RewriteBlocked, Rewriter
from anonygraph.llm.spec import ModelSpec, ModelSpecError
from anonygraph.service.settings import ServiceSettings

CONVERSATION_HEADER = "X-Conversation-Id"
"""The header naming a conversation whose placeholders stay the same."""

MAX_CONVERSATIONS = 1024
"""Conversations whose books stay in memory; the oldest is dropped first."""

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})


class GatewayError(Exception):
    """An answer in OpenAI's error shape."""

    def __init__(self, status: int, message: str, kind: str, param: str = "") -> None:
        """Keep the status, the message, the error type and the field at fault."""
        super().__init__(message)
        self.status, self.kind, self.param = status, kind, param

    def response(self) -> JSONResponse:
        """Return the error as OpenAI writes one."""
        body = {"message": str(self), "type": self.kind, "param": self.param or None,
                "code": self.kind}  # fmt: skip
        return JSONResponse({"error": body}, self.status)


@dataclass(frozen=True)
class Upstream:
    """The model the gateway forwards to: ``openai:NAME@URL`` and its key."""

    spec: ModelSpec
    url: str
    key_variable: str = "OPENAI_API_KEY"

    @classmethod
    def parse(cls, spec: str, key_variable: str = "OPENAI_API_KEY") -> Upstream:
        """Parse ``--upstream``.

        Raises:
            ModelSpecError: for a spec that is not one OpenAI-compatible server.

        """
        from anonygraph.llm.backends.openai import BACKEND
        from anonygraph.llm.registry import backend_of, parse_spec

        parsed = parse_spec(spec)
        if backend_of(parsed) is not BACKEND or len(parsed.urls) > 1:
            raise ModelSpecError(
                f"--upstream {spec!r}: give one OpenAI-compatible server as "
                "openai:NAME@URL (e.g. openai:gpt-4o-mini@https://api.openai.com/v1)"
            )
        return cls(parsed, BACKEND.server_url(parsed).rstrip("/"), key_variable)

    @property
    def headers(self) -> dict[str, str]:
        """Return the request headers (the key is read here, never stored)."""
        key = os.environ.get(self.key_variable, "")
        return {"Authorization": f"Bearer {key}"} if key else {}

    def __str__(self) -> str:
        return f"{self.spec.backend}:{self.spec.name}@{self.url}"


@dataclass
class Conversation:
    """One conversation's book and the rewrites already made for it."""

    book: IdentifierBook
    rewrites: dict[str, Rewrite] = field(default_factory=dict)
    """Original user text -> its rewrite (in memory only), so a history
    resent with each request is rewritten once."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Gateway:
    """The rewriter, the conversations and the client of one upstream."""

    def __init__(self, settings: ServiceSettings) -> None:
        """Build the rewriter from the service's method and models (default: rules)."""
        self.settings = settings
        self.upstream = (
            Upstream.parse(settings.upstream, settings.upstream_key_variable)
            if settings.upstream
            else None
        )
        self.rewriter: Rewriter | None = None
        if self.upstream is not None:
            context = dict(settings.context)
            models = dict(context.pop("models", None) or {})
            models.setdefault("default", context.pop("default_model", None) or "rules")
            self.rewriter = Rewriter(
                settings.method, models, on_failure=settings.on_failure, **context
            )
        self.conversations: OrderedDict[str, Conversation] = OrderedDict()
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        """Return the upstream client (made in the server's event loop)."""
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.settings.upstream_timeout, connect=10.0)
            )
        return self._client

    def conversation(self, name: str) -> Conversation:
        """Return the named conversation (a new one for '')."""
        assert self.rewriter is not None
        if not name:
            return Conversation(self.rewriter.new_book())
        if name not in self.conversations:
            self.conversations[name] = Conversation(self.rewriter.new_book())
            while len(self.conversations) > MAX_CONVERSATIONS:
                self.conversations.popitem(last=False)
        self.conversations.move_to_end(name)
        return self.conversations[name]

    async def rewrite(
        self, messages: list[dict[str, Any]], conversation: Conversation
    ) -> tuple[list[dict[str, Any]], Counter[str]]:
        """Return the messages as the upstream reads them, and the kinds replaced."""
        assert self.rewriter is not None
        kinds: Counter[str] = Counter()
        out = []
        for message in messages:
            role = message["role"]
            if role in ("system", "developer"):
                out.append(message)
            elif role == "user":
                content = await self._user_content(
                    message["content"], conversation, kinds
                )
                out.append({**message, "content": content})
            else:
                out.append(_replaced(message, conversation.book, self.rewriter, kinds))
        return out, kinds

    async def _user_content(
        self, content: Any, conversation: Conversation, kinds: Counter[str]
    ) -> Any:
        assert self.rewriter is not None
        rewriter = self.rewriter

        async def one(text: str) -> str:
            rewrite = conversation.rewrites.get(text)
            if rewrite is None:
                rewrite = await rewriter.arewrite(text, conversation.book)
                conversation.rewrites[text] = rewrite
            kinds.update(rewrite.identifiers)
            return rewrite.text

        if isinstance(content, str):
            return await one(content)
        parts = []
        for part in content:
            if part.get("type") == "text":
                parts.append({**part, "text": await one(str(part.get("text", "")))})
            else:
                parts.append(part)
        return parts

    async def forward(self, body: dict[str, Any], stream: bool) -> httpx.Response:
        """Send ``body`` upstream; a stream's body is left to read.

        Raises:
            GatewayError: 502 when the upstream cannot be reached, 504 on a timeout.

        """
        assert self.upstream is not None
        request = self.client.build_request(
            "POST",
            f"{self.upstream.url}/chat/completions",
            json=body,
            headers=self.upstream.headers,
        )
        try:
            return await self.client.send(request, stream=stream)
        except httpx.TimeoutException as exc:
            raise GatewayError(
                504,
                f"upstream {self.upstream} did not answer in "
                f"{self.settings.upstream_timeout:g} s ({type(exc).__name__})",
                "upstream_timeout",
            ) from exc
        except httpx.TransportError as exc:
            raise GatewayError(
                502,
                f"upstream {self.upstream} cannot be reached ({type(exc).__name__}); "
                "is it running, and is --upstream's URL right?",
                "upstream_unreachable",
            ) from exc


def gateway_router(settings: ServiceSettings) -> APIRouter:
    """Return the router serving ``POST /v1/chat/completions``."""
    router = APIRouter()
    gateway = Gateway(settings)

    @router.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        """Rewrite the user's messages locally, forward them, restore the answer."""
        start = time.perf_counter()
        try:
            if gateway.upstream is None:
                raise GatewayError(
                    404,
                    "this service has no upstream model: start it with "
                    "`anonygraph serve --upstream openai:NAME@URL`",
                    "no_upstream",
                )
            body = _checked(await request.body())
            conversation = gateway.conversation(
                request.headers.get(CONVERSATION_HEADER, "")
            )
            async with conversation.lock:
                messages, kinds = await gateway.rewrite(body["messages"], conversation)
            rewritten = time.perf_counter()
            stream = bool(body.get("stream"))
            sent = {**body, "model": gateway.upstream.spec.name, "messages": messages}
            answer = await gateway.forward(sent, stream)
        except RewriteBlocked as exc:
            return GatewayError(422, str(exc), "rewrite_blocked").response()
        except GatewayError as exc:
            return exc.response()
        headers = {
            "X-Anonygraph-Rewrite-Ms": f"{(rewritten - start) * 1000:.2f}",
            "X-Anonygraph-Identifiers": ",".join(
                f"{k}={n}" for k, n in sorted(kinds.items())
            ),
        }
        book = conversation.book if settings.restore else None
        if stream and answer.status_code < 400:
            headers["X-Anonygraph-Added-Ms"] = headers["X-Anonygraph-Rewrite-Ms"]
            return StreamingResponse(
                _restored_stream(answer, book),
                media_type="text/event-stream",
                headers=headers,
            )
        content = await answer.aread()
        await answer.aclose()
        upstream_s = time.perf_counter() - rewritten
        if answer.status_code >= 400:
            # The upstream's refusal, as it wrote it, with its status.
            return Response(content, answer.status_code,
                            media_type=answer.headers.get("content-type"))  # fmt: skip
        data = json.loads(content)
        if book is not None:
            _restore_completion(data, book)
        total = time.perf_counter() - start
        headers["X-Anonygraph-Upstream-Ms"] = f"{upstream_s * 1000:.2f}"
        headers["X-Anonygraph-Added-Ms"] = f"{(total - upstream_s) * 1000:.2f}"
        return JSONResponse(data, headers=headers)

    return router


def _checked(raw: bytes) -> dict[str, Any]:
    """Parse a request body, refusing (400) what OpenAI's API refuses for its shape.

    Raises:
        GatewayError: naming the field at fault.

    """
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise GatewayError(
            400, f"the body is not JSON: {exc}", "invalid_request_error"
        ) from exc
    if not isinstance(body, dict):
        raise GatewayError(
            400, "the body must be a JSON object", "invalid_request_error"
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise GatewayError(
            400, "messages: a non-empty array of messages is required",
            "invalid_request_error", "messages",
        )  # fmt: skip
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise GatewayError(
                400,
                f"{where}: an object whose role is one of {', '.join(sorted(ROLES))}",
                "invalid_request_error", f"{where}.role",
            )  # fmt: skip
        content = message.get("content")
        text_parts = isinstance(content, list) and all(
            isinstance(p, dict) and isinstance(p.get("type"), str) for p in content
        )
        if message["role"] == "user" and not (isinstance(content, str) or text_parts):
            raise GatewayError(
                400, f"{where}.content: a string or an array of content parts",
                "invalid_request_error", f"{where}.content",
            )  # fmt: skip
    return body


def _replaced(
    message: dict[str, Any],
    book: IdentifierBook,
    rewriter: Rewriter,
    kinds: Counter[str],
) -> dict[str, Any]:
    """Replace identifiers in a tool result or an earlier assistant turn."""

    def replace(text: str) -> str:
        before = Counter(book.counts)
        out = rewriter.replace_identifiers(text, book)
        kinds.update(book.counts - before)
        return out

    out = dict(message)
    content = message.get("content")
    if isinstance(content, str):
        out["content"] = replace(content)
    elif isinstance(content, list):
        out["content"] = [
            {**p, "text": replace(str(p["text"]))}
            if isinstance(p, dict) and isinstance(p.get("text"), str)
            else p
            for p in content
        ]
    if isinstance(message.get("tool_calls"), list):
        out["tool_calls"] = [
            _with_arguments(call, lambda args: _map_json(args, replace))
            for call in message["tool_calls"]
        ]
    return out


def _with_arguments(call: Any, change: Any) -> Any:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("arguments"), str):
        return call
    return {
        **call,
        "function": {**function, "arguments": change(function["arguments"])},
    }


def _map_json(arguments: str, change: Any) -> str:
    """Change each string in a call's JSON arguments (the raw text if not JSON)."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return str(change(arguments))

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return change(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v

    return json.dumps(walk(value), ensure_ascii=False)


def _restore_completion(data: dict[str, Any], book: IdentifierBook) -> None:
    for choice in data.get("choices") or []:
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = book.restore(message["content"])
        if isinstance(message.get("tool_calls"), list):
            message["tool_calls"] = [
                _with_arguments(call, lambda args: _map_json(args, book.restore))
                for call in message["tool_calls"]
            ]


class StreamRestorer:
    """Restore placeholders in a text that arrives in pieces.

    A piece may end inside a placeholder (``[EMA``): the tail that could
    still become one is held back until the next piece or the end.
    """

    def __init__(self, book: IdentifierBook, *, json_string: bool = False) -> None:
        """Restore ``book``'s replacements; ``json_string`` escapes for JSON text."""
        self.table = {
            e["replacement"]: json.dumps(e["original"])[1:-1]
            if json_string
            else e["original"]
            for e in book.mapping()
        }
        order = sorted(self.table, key=len, reverse=True)
        self.pattern = re.compile("|".join(map(re.escape, order))) if order else None
        self.held = ""

    def feed(self, piece: str) -> str:
        """Return what can be written now of everything received so far."""
        text = self.held + piece
        if self.pattern is None:
            return text
        hold = max(
            (k for k in range(1, len(text) + 1)
             if any(r.startswith(text[-k:]) and r != text[-k:] for r in self.table)),
            default=0,
        )  # fmt: skip
        cut = len(text) - hold
        self.held = text[cut:]
        return self._sub(text[:cut])

    def flush(self) -> str:
        """Return what is held (the stream ended)."""
        text, self.held = self.held, ""
        return self._sub(text)

    def _sub(self, text: str) -> str:
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.table[m.group(0)], text)


async def _restored_stream(
    answer: httpx.Response, book: IdentifierBook | None
) -> AsyncIterator[bytes]:
    """Relay the upstream's server-sent events, restoring text as it streams."""
    restorers: dict[tuple[int, str | int], StreamRestorer] = {}
    last: dict[str, Any] = {}

    def restorer(key: tuple[int, str | int]) -> StreamRestorer:
        assert book is not None
        if key not in restorers:
            restorers[key] = StreamRestorer(book, json_string=key[1] != "content")
        return restorers[key]

    def flush_into(choice: int, delta: dict[str, Any]) -> None:
        """Append what is held for ``choice`` to its last delta."""
        for key in sorted((k for k in restorers if k[0] == choice), key=str):
            text = restorers.pop(key).flush()
            if not text:
                continue
            if key[1] == "content":
                delta["content"] = (delta.get("content") or "") + text
                continue
            calls = delta.setdefault("tool_calls", [])
            call = next((c for c in calls if c.get("index", 0) == key[1]), None)
            if call is None:
                call = {"index": key[1], "function": {"arguments": ""}}
                calls.append(call)
            function = call.setdefault("function", {})
            function["arguments"] = (function.get("arguments") or "") + text

    def event(data: dict[str, Any]) -> bytes:
        return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()

    try:
        async for line in answer.aiter_lines():
            if not line.startswith("data:") or book is None:
                yield f"{line}\n".encode() if line else b"\n"
                continue
            payload = line[5:].strip()
            if payload == "[DONE]":
                for choice in sorted({k[0] for k in restorers}):
                    delta: dict[str, Any] = {}
                    flush_into(choice, delta)
                    if delta:
                        yield event(
                            {
                                **last,
                                "choices": [
                                    {
                                        "index": choice,
                                        "delta": delta,
                                        "finish_reason": None,
                                    }
                                ],
                            }
                        )
                yield b"data: [DONE]\n\n"
                continue
            chunk = json.loads(payload)
            last = {k: v for k, v in chunk.items() if k != "choices"}
            for choice in chunk.get("choices") or []:
                index = int(choice.get("index", 0))
                delta = choice.get("delta") or {}
                if isinstance(delta.get("content"), str):
                    delta["content"] = restorer((index, "content")).feed(
                        delta["content"]
                    )
                for call in delta.get("tool_calls") or []:
                    function = call.get("function") or {}
                    if isinstance(function.get("arguments"), str):
                        key = (index, int(call.get("index", 0)))
                        function["arguments"] = restorer(key).feed(
                            function["arguments"]
                        )
                if choice.get("finish_reason"):
                    flush_into(index, delta)
                    choice["delta"] = delta
            yield event(chunk)
    finally:
        await answer.aclose()
