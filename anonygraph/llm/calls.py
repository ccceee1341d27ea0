"""One model call: replayed from the journal, served from the cache, or sent.

`call_model` is the path every call takes. In order: a call the record's
journal already answered (a step re-run after a fault or a kill) is served
from there; a cacheable call the cache knows is served from it; otherwise
the call is logged as started, sent (server faults retried by the backend),
accounted, and its answer journaled and cached. Where calls are kept is the
installed recorder's business (`anonygraph.llm.recording`).
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel

from anonygraph.llm.faults import ServerError
from anonygraph.llm.recording import Answer, CallRecord, Recorder, Slot, current
from anonygraph.llm.settings import CallSettings
from anonygraph.llm.structured import answer_text

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool


@dataclass(frozen=True)
class Call:
    """What one call asks, and of whom."""

    settings: CallSettings
    role: str
    step: str
    messages: Sequence[BaseMessage]
    schema: type[BaseModel] | None = None
    mode: str = ""
    """The structured-output mode of an OpenAI-compatible server, or ''."""
    tools: Sequence[BaseTool] = ()


async def call_model(
    model: Any, call: Call, failed: list[CallRecord] | None = None
) -> tuple[BaseMessage, CallRecord]:
    """Ask ``model`` once for ``call``; return its answer and its call record.

    ``failed`` collects the records of calls a server fault ended.

    Raises:
        ServerError: when the server kept failing (the record is in ``failed``).
    """
    recorder = current()
    cache = recorder.caches and call.settings.cacheable
    # One key serves the cache and the journal: its JSON and hash are a
    # measurable part of a call's cost outside the model.
    key = request_key(call) if cache or recorder.journals else ""
    slot = journal_slot(recorder, key, call.mode)
    if slot is not None and (replayed := replay(recorder, slot)) is not None:
        return replayed
    record = new_record(call)
    if cache and (hit := await recorder.cached(key)) is not None:
        record.update(hit["usage"], seconds=0.0, cached=True)
        return _message(hit), record
    recorder.started(record)
    answer = await _send(model, call, record, recorder, failed)
    kept = answer_entry(answer, record, call.tools) if cache or slot else None
    recorder.ended(record, slot, kept)
    if cache and kept is not None:
        await recorder.keep(key, kept)
    return answer, record


def new_record(call: Call) -> CallRecord:
    """Start the call record of ``call`` (tokens and seconds come when it ends)."""
    record: CallRecord = {
        "id": uuid.uuid4().hex,
        "role": call.role,
        "step": call.step,
        "backend": call.settings.spec.backend,
        "model": str(call.settings.spec),
        "ok": True,
        "error": "",
    }
    if call.mode:
        record["mode"] = call.mode
    return record


async def _send(
    model: Any,
    call: Call,
    record: CallRecord,
    recorder: Recorder,
    failed: list[CallRecord] | None,
) -> BaseMessage:
    settings = call.settings
    start = time.perf_counter()
    try:
        answer = await settings.backend.send(
            model, settings.spec, call.messages, settings.policy, call.mode
        )
    except ServerError as exc:
        # The failed request is accounted too: the store shows what the server did.
        seconds = round(time.perf_counter() - start, 4)
        record.update(ok=False, error=str(exc)[:500], cached=False, seconds=seconds)
        record.update(tokens_in=0, tokens_out=0)
        if failed is not None:
            failed.append(record)
        recorder.ended(record)
        raise
    # A backend that reports its own compute time (llama.cpp) excludes queueing.
    seconds = answer.response_metadata.get("seconds", time.perf_counter() - start)
    usage = getattr(answer, "usage_metadata", None) or {}
    record.update(
        tokens_in=int(usage.get("input_tokens", 0)),
        tokens_out=int(usage.get("output_tokens", 0)),
        seconds=round(seconds, 4),
        cached=False,
    )
    return answer


def answer_entry(
    answer: BaseMessage, record: CallRecord, tools: Sequence[BaseTool] = ()
) -> Answer:
    """Return what the cache and the journal keep of an answer."""
    usage = {"tokens_in": record["tokens_in"], "tokens_out": record["tokens_out"]}
    entry: Answer = {"text": answer_text(answer), "usage": usage}
    if tools:
        # A tool turn is replayed as itself: its text and its tool calls.
        content = answer.content
        entry["text"] = content if isinstance(content, str) else str(content)
        entry["tool_calls"] = list(getattr(answer, "tool_calls", []) or [])
    return entry


def _message(answer: Answer) -> AIMessage:
    return AIMessage(str(answer["text"]), tool_calls=answer.get("tool_calls", []))


def journal_slot(recorder: Recorder, key: str, mode: str) -> Slot | None:
    """Number this call in the record's journal; None when nothing is journaled.

    Taken before the call's first await: calls a step starts together
    (gather) number their equal requests in the order the step made them.
    """
    if not recorder.journals:
        return None
    request = hashlib.sha256((key + mode).encode()).hexdigest()
    return recorder.slot(current_task(), request)


def replay(recorder: Recorder, slot: Slot) -> tuple[BaseMessage, CallRecord] | None:
    """Return the journaled answer at ``slot`` with its original call record.

    The same record (id, tokens, seconds), so the run counts the call once,
    marked as served from the journal.
    """
    hit = recorder.replay(slot)
    if hit is None:
        return None
    call, answer = hit
    return _message(answer), {**call, "replayed": True}


def current_task() -> str:
    """Name the graph task making a call (its checkpoint namespace, "node:id").

    LangGraph derives the id from the checkpoint, so a step re-run after a
    crash has the same one, while the same node in a later round has another.
    """
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


def request_key(call: Call) -> str:
    """Hash what decides a call's answer: model, decoding, messages, schema, tools."""
    decoding = call.settings.decoding
    payload: dict[str, Any] = {
        "model": str(call.settings.spec),
        "params": [decoding.temperature, decoding.top_p, decoding.max_tokens],
        "messages": [_cache_part(m) for m in call.messages],
        "schema": _schema_digest(call.schema) if call.schema else None,
    }
    if call.tools:
        payload["tools"] = [[t.name, t.description, t.args] for t in call.tools]
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
