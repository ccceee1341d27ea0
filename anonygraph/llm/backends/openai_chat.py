"""A lean chat model for the OpenAI chat-completions API, over httpx.

It posts the request JSON and reads the answer JSON as they stand: at
--concurrency 128 the OpenAI SDK's request and message transforms and
langchain-openai's thread hop per answer were about a third of a run's
Python time. Failures reach the fault layer (`anonygraph.llm.faults`) as
`StatusError` (the server answered an error status) or httpx's own timeout
and connection errors.
"""

from __future__ import annotations

import asyncio
import functools
import json
import ssl
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.messages.tool import invalid_tool_call, tool_call
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}

# No cap on connections: httpx's default of 100 held a run at --concurrency
# 128 under 100 requests in flight; the run's concurrency bounds them. No
# client timeout: `with_retries` bounds each request by the run's
# `request_timeout`. Keep-alive expiry stays httpx's 5 s, which spans the gap
# between one record's calls and is no longer than servers' own (uvicorn's 5 s).
_SHARD = 8
"""Requests one client carries at once, and the connections it keeps idle.

httpcore's pool checks every connection, and polls each idle one's socket,
at each request; keeping few idle makes a run at --concurrency 128 open new
connections every wave. Several small clients (`_Shards`) keep all the
connections a run uses at a small pool's cost. Measured, 128 tasks of 10
calls each against a local server: 1.28 ms of CPU a call with one client
keeping 20 idle, 14.6 ms with one keeping 128, 0.86 ms with clients of 8."""
_LIMITS = httpx.Limits(max_connections=None, max_keepalive_connections=_SHARD)


@functools.cache
def _tls() -> ssl.SSLContext:
    # What httpx builds for each client (the CA bundle, SSL_CERT_FILE): ~20 ms
    # of CPU a client, so the shards share one.
    return httpx.create_ssl_context()


class _Shards:
    """The clients of one (event loop, base URL); a request takes the least busy.

    A client is added when every one carries `_SHARD` requests, so there are
    as many as the run's concurrency needs, each reusing its connections.
    """

    def __init__(self) -> None:
        self.clients: list[httpx.AsyncClient] = []
        self.busy: list[int] = []

    def take(self) -> int:
        """Return the index of a client with room for one more request."""
        index = min(range(len(self.busy)), key=self.busy.__getitem__, default=-1)
        if index < 0 or self.busy[index] >= _SHARD:
            self.clients.append(
                httpx.AsyncClient(timeout=None, limits=_LIMITS, verify=_tls())
            )
            self.busy.append(0)
            index = len(self.clients) - 1
        self.busy[index] += 1
        return index


# An async client's connections belong to one event loop: one set of clients
# per (loop, base URL), shared by every role asking that server.
_ASYNC_CLIENTS: weakref.WeakKeyDictionary[Any, dict[str, _Shards]] = (
    weakref.WeakKeyDictionary()
)
_SYNC_CLIENTS: dict[str, httpx.Client] = {}
_SYNC_LOCK = threading.Lock()


class StatusError(RuntimeError):
    """The server answered an error status; the fault layer reads its fields."""

    def __init__(self, response: httpx.Response) -> None:
        """Keep the status, the body (JSON where it parses) and the response."""
        text = response.text
        try:
            body: Any = json.loads(text)
        except ValueError:
            body = text
        super().__init__(f"HTTP {response.status_code}: {text[:300]}")
        self.status_code = response.status_code
        self.body = body
        self.response = response


def _shards(url: str) -> _Shards:
    per_loop = _ASYNC_CLIENTS.setdefault(asyncio.get_running_loop(), {})
    if url not in per_loop:
        per_loop[url] = _Shards()
    return per_loop[url]


def _sync_client(url: str) -> httpx.Client:
    with _SYNC_LOCK:
        if url not in _SYNC_CLIENTS:
            _SYNC_CLIENTS[url] = httpx.Client(timeout=None, limits=_LIMITS)
        return _SYNC_CLIENTS[url]


def message_json(message: BaseMessage) -> dict[str, Any]:
    """Return ``message`` as a chat-completions message."""
    out: dict[str, Any] = {
        "role": _ROLES.get(message.type, "user"),
        "content": message.content,
    }
    if isinstance(message, AIMessage) and message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call["id"],
                "type": "function",
                "function": {
                    "name": call["name"],
                    "arguments": json.dumps(call["args"], ensure_ascii=False),
                },
            }
            for call in message.tool_calls
        ]
        # OpenAI's own shape for a turn that only calls tools (see
        # `openai.server_tool_turns` for servers that refuse it).
        out["content"] = message.content or None
    if isinstance(message, ToolMessage):
        out["tool_call_id"] = message.tool_call_id
    return out


def answer_message(data: dict[str, Any]) -> AIMessage:
    """Turn a chat-completions response into an `AIMessage` with usage and finish."""
    choice = data["choices"][0]
    reply = choice.get("message") or {}
    calls, invalid = [], []
    for raw in reply.get("tool_calls") or []:
        function = raw.get("function") or {}
        arguments = function.get("arguments") or "{}"
        try:
            args = json.loads(arguments)
            if not isinstance(args, dict):
                raise ValueError("arguments are not an object")
            calls.append(
                tool_call(name=function.get("name", ""), args=args, id=raw.get("id"))
            )
        except ValueError as exc:
            invalid.append(
                invalid_tool_call(
                    name=function.get("name"),
                    args=arguments,
                    id=raw.get("id"),
                    error=str(exc),
                )
            )
    usage = data.get("usage") or {}
    metadata = {
        "finish_reason": choice.get("finish_reason"),
        "model_name": data.get("model"),
    }
    message = AIMessage(
        content=reply.get("content") or "",
        tool_calls=calls,
        invalid_tool_calls=invalid,
        response_metadata=metadata,
        id=data.get("id"),
    )
    if usage:
        prompt = int(usage.get("prompt_tokens") or 0)
        completion = int(usage.get("completion_tokens") or 0)
        message.usage_metadata = {
            "input_tokens": prompt,
            "output_tokens": completion,
            "total_tokens": int(usage.get("total_tokens") or prompt + completion),
        }
    return message


def _tool_choice(choice: Any, tools: list[dict[str, Any]]) -> Any:
    # The API's forms: "auto" / "none" / "required", or one function by name.
    if choice in (None, "auto", "none", "required") or isinstance(choice, dict):
        return choice
    if choice == "any":
        return "required"
    if choice is True:
        return _tool_choice(tools[0]["function"]["name"], tools)
    return {"type": "function", "function": {"name": str(choice)}}


class OpenAIChat(BaseChatModel):
    """Chat completions from OpenAI or a server speaking its API.

    Bound keyword arguments (``extra_body``, ``tools``, ``tool_choice``) go
    into the request; ``extra_body`` is merged over the model's own.
    """

    model: str
    base_url: str
    api_key: str = ""
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    """Sent as ``max_completion_tokens`` (OpenAI's name) unless ``extra_body``
    names it otherwise."""
    extra_body: dict[str, Any] = {}

    @property
    def _llm_type(self) -> str:
        return "openai-chat"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": self.base_url}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: Any = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind ``tools`` in the API's function form; a name forces that tool."""
        specs = [convert_to_openai_tool(tool) for tool in tools]
        return self.bind(
            tools=specs, tool_choice=_tool_choice(tool_choice, specs), **kwargs
        )

    def _request(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        kwargs: dict[str, Any],
    ) -> tuple[str, dict[str, Any], dict[str, str]]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [message_json(m) for m in messages],
        }
        for name in ("temperature", "top_p"):
            if getattr(self, name) is not None:
                body[name] = getattr(self, name)
        if self.max_tokens is not None:
            body["max_completion_tokens"] = self.max_tokens
        if stop:
            body["stop"] = stop
        if kwargs.get("tools"):
            body["tools"] = kwargs["tools"]
            if kwargs.get("tool_choice") is not None:
                body["tool_choice"] = kwargs["tool_choice"]
        body |= self.extra_body | (kwargs.get("extra_body") or {})
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return f"{self.base_url.rstrip('/')}/chat/completions", body, headers

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        url, body, headers = self._request(messages, stop, kwargs)
        response = _sync_client(self.base_url).post(url, json=body, headers=headers)
        return _result(response)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        url, body, headers = self._request(messages, stop, kwargs)
        shards = _shards(self.base_url)
        index = shards.take()
        try:
            response = await shards.clients[index].post(url, json=body, headers=headers)
        finally:
            shards.busy[index] -= 1
        return _result(response)


def _result(response: httpx.Response) -> ChatResult:
    if response.status_code >= 400:
        raise StatusError(response)
    message = answer_message(response.json())
    return ChatResult(
        generations=[ChatGeneration(message=message)],
        llm_output={"model_name": message.response_metadata.get("model_name")},
    )
