"""What graph steps call: a structured answer, or a tool-calling turn, of a role."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from anonygraph.llm import loading
from anonygraph.llm.calls import Call, call_model
from anonygraph.llm.decoding import decoding_for
from anonygraph.llm.errors import ModelOutputError, ModelServerError, ModelSpecError
from anonygraph.llm.faults import ServerError
from anonygraph.llm.modes import remember_mode, structured_mode
from anonygraph.llm.recording import CallRecord, current
from anonygraph.llm.registry import backend_of, spec_of
from anonygraph.llm.repair import parse_json_answer
from anonygraph.llm.repetition import REPETITION, describe_loop
from anonygraph.llm.settings import CallSettings, settings_for
from anonygraph.llm.spec import ModelSpec
from anonygraph.llm.structured import (
    MODES,
    answer_text,
    next_mode,
    refused_field,
    schema_in_prompt,
)
from anonygraph.prompts.common import (
    ANSWER_FORMAT,
    JSON_HINT,
    LOOP_REQUEST,
    REPAIR_REQUEST,
    fence,
    fill,
)

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

T = TypeVar("T", bound=BaseModel)


async def ask_structured(
    role: str,
    prompt: str,
    schema: type[T],
    context: Any,
    *,
    step: str,
    system: str | None = None,
    facts: dict[str, Any] | None = None,
) -> tuple[T, list[CallRecord]]:
    """Ask ``role`` for an answer of type ``schema``; return it with call records.

    Decoding is schema-constrained where the backend supports it; otherwise
    the text is parsed, repaired and, if still unusable, asked again with the
    error, at most ``max_retries`` more times. An OpenAI-compatible server is
    asked in the structured-output mode detected for it; a server that refuses
    the mode is asked in the next one (`anonygraph.llm.structured`).

    Args:
        role: The role asked, e.g. ``attacker``.
        prompt: The formatted prompt.
        schema: The answer schema.
        context: The run's context (model specs, retries, cache mode).
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
    if settings.backend.answers_from_cues:
        # The detectors parse with spaCy (loaded on first use): off the event
        # loop, so a server running the graph (Studio, the service) stays free.
        return await asyncio.to_thread(
            _ask_from_facts, settings, role, schema, step, facts
        )
    base = loading.with_limit(_chat_model(settings, role), settings.endpoint_limit)
    mode = ""
    if settings.backend.detects_mode:
        mode = structured_mode(settings.spec) or MODES[0]
    calls: list[CallRecord] = []
    refusals: list[str] = []
    while True:
        try:
            return await _ask_in_mode(
                base, settings, mode, role, step, prompt, system, schema, calls,
                note="; ".join(refusals),
            )  # fmt: skip
        except ServerError as exc:
            following = next_mode(mode) if mode else None
            refused = refused_field(mode, exc.fault.status, exc.fault.body)
            if not refused or following is None:
                raise ModelServerError(role, step, exc, calls) from exc
            refusals.append(f"{mode} refused ({exc.fault.describe()[:120]})")
            mode = following


async def _ask_in_mode(
    base: BaseChatModel,
    settings: CallSettings,
    mode: str,
    role: str,
    step: str,
    prompt: str,
    system: str | None,
    schema: type[T],
    calls: list[CallRecord],
    note: str,
) -> tuple[T, list[CallRecord]]:
    model = constrained(base, settings.spec, schema, mode)
    messages = _messages(prompt, system, schema, unconstrained=model is base, mode=mode)
    reason = hint = ""
    budget = settings.decoding.max_tokens * GROWTH_CAP
    attempt = 0
    while attempt <= settings.max_retries:
        call = Call(settings, role, step, messages, schema, mode)
        answer, record = await call_model(model, call, calls)
        text = answer_text(answer)
        record["attempt"] = attempt
        calls.append(record)
        if mode:
            remember_mode(settings.spec, mode, note)
        unit = looped(answer)
        if unit is not None and not settings.grow_cut_off:
            # The product repairs a cut answer; a looping one is cut where its
            # loop began and goes the same way (the loop itself never becomes
            # a guess or a rewrite; the acceptance checks judge what is left).
            record["error"] = describe_loop(unit, _output_tokens(answer))
            text = _before_loop(text, unit).removesuffix(unit)
            unit = None
        elif unit is not None:
            # A bad answer, asked again with the error like any other, never
            # with more tokens: a larger budget only buys more of the loop.
            # The answer is shown up to its first repeat, so the loop itself
            # does not prompt more of it.
            reason = describe_loop(unit, _output_tokens(answer))
            hint = (
                "A larger token budget cannot help; use a larger model "
                f"(--model {role}=SPEC)."
            )
            record["ok"] = False
            record["error"] = reason
            attempt += 1
            messages = [
                *messages,
                AIMessage(_before_loop(text, unit)),
                HumanMessage(fill(REPAIR_REQUEST, error=reason + LOOP_REQUEST)),
            ]
            continue
        hint = ""
        if settings.grow_cut_off and cut_off(answer):
            limit = settings.decoding.max_tokens
            if limit * 2 <= budget:
                # Asked again with twice the budget, never repaired into misses.
                record["ok"] = False
                record["error"] = f"cut off at {limit} tokens; asked with {limit * 2}"
                settings = replace(
                    settings, decoding=replace(settings.decoding, max_tokens=limit * 2)
                )
                model = constrained(
                    _chat_model(settings, role), settings.spec, schema, mode
                )
                continue
            reason = (
                f"cut off at {limit} tokens ({GROWTH_CAP}x the role's budget); "
                f"raise it with --decoding {role}.max_tokens=N"
            )
            record["ok"] = False
            record["error"] = reason
            break
        attempt += 1
        try:
            return parse_json_answer(text, schema), calls
        except ValueError as exc:
            reason = str(exc)[:500]
            record["ok"] = False
            record["error"] = reason
            messages = [
                *messages,
                AIMessage(text),
                HumanMessage(fill(REPAIR_REQUEST, error=reason)),
            ]
    # Unusable answers are not kept for a re-run: running the command again
    # asks afresh, as the error suggests.
    current().forget(calls)
    raise ModelOutputError(role, step, reason, calls, hint)


GROWTH_CAP = 4
"""A cut-off answer is asked again with twice the tokens, up to this many times
the role's budget (the paper profile; the product repairs the cut JSON)."""


def cut_off(answer: BaseMessage) -> bool:
    """Tell whether the model stopped at its token limit (OpenAI, llama.cpp, ollama)."""
    meta = getattr(answer, "response_metadata", None) or {}
    return "length" in (meta.get("finish_reason"), meta.get("done_reason"))


def looped(answer: BaseMessage) -> str | None:
    """Return the unit a looping answer repeated (llama.cpp's guard), else None."""
    meta = getattr(answer, "response_metadata", None) or {}
    if meta.get("finish_reason") != REPETITION:
        return None
    return str(meta.get("repeated") or "")


def _before_loop(text: str, unit: str) -> str:
    # The answer up to and including the loop's first unit.
    head = text
    while unit and head.endswith(unit):
        head = head[: -len(unit)]
    return head + unit


def _output_tokens(answer: BaseMessage) -> int:
    usage = getattr(answer, "usage_metadata", None) or {}
    return int(usage.get("output_tokens", 0))


def _chat_model(settings: CallSettings, role: str) -> BaseChatModel:
    # The product row loads as it always has (test seams replace the loader
    # with ``load(spec, role)``); another row (a profile's, an override) is
    # passed on.
    if settings.decoding == decoding_for(role):
        return loading.load_chat_model(settings.spec, role)
    return loading.load_chat_model(settings.spec, role, settings.decoding)


def constrained(
    model: BaseChatModel, spec: ModelSpec, schema: type[BaseModel], mode: str = ""
) -> Any:
    """Bind schema-constrained decoding where the backend of ``spec`` offers it.

    ``mode`` is the structured-output mode of an OpenAI-compatible server (see
    `anonygraph.llm.structured`).
    """
    return backend_of(spec).constrain(model, spec, schema, mode)


def _messages(
    prompt: str,
    system: str | None,
    schema: type[BaseModel],
    *,
    unconstrained: bool,
    mode: str,
) -> list[BaseMessage]:
    # A constrained decoder enforces the schema itself; spelling it out in the
    # prompt only tempts a small model to copy the field descriptions.
    suffix = JSON_HINT
    if unconstrained or (mode and schema_in_prompt(mode)):
        schema_text = json.dumps(schema.model_json_schema(), separators=(",", ":"))
        suffix = fill(ANSWER_FORMAT, schema=fence("schema", schema_text))
    messages: list[BaseMessage] = [SystemMessage(system)] if system else []
    messages.append(HumanMessage(prompt + suffix))
    return messages


def _ask_from_facts(
    settings: CallSettings,
    role: str,
    schema: type[T],
    step: str,
    facts: Mapping[str, Any] | None,
) -> tuple[T, list[CallRecord]]:
    """Answer from the step's facts (``rules``), accounted as a call."""
    start = time.perf_counter()
    record: CallRecord = {
        "id": uuid.uuid4().hex,
        "role": role,
        "step": step,
        "backend": settings.spec.backend,
        "model": str(settings.spec),
        "ok": True,
        "error": "",
        "tokens_in": 0,
        "tokens_out": 0,
        "cached": False,
        "attempt": 0,
    }
    try:
        answer = settings.backend.answer_facts(role, schema, facts, step)
        parsed = schema.model_validate(answer.model_dump())
    except ModelSpecError:
        raise
    except ValueError as exc:  # the rules' own error, or a validation error
        record.update(
            ok=False, error=str(exc)[:500], seconds=time.perf_counter() - start
        )
        raise ModelOutputError(role, step, str(exc)[:500], [record]) from exc
    record["seconds"] = round(time.perf_counter() - start, 6)
    return parsed, [record]


def supports_tools(spec: str | ModelSpec) -> bool:
    """Tell whether the backend of ``spec`` calls tools natively."""
    return backend_of(spec_of(spec)).calls_tools


async def ask_with_tools(
    role: str,
    messages: Sequence[BaseMessage],
    tools: Sequence[BaseTool],
    context: Any,
    *,
    step: str,
    tool_choice: str | None = None,
) -> tuple[AIMessage, list[CallRecord]]:
    """Ask ``role`` for its next turn with ``tools`` bound; return it with its record.

    The call is accounted, cached and retried on server faults like every
    other call; the answer's ``tool_calls`` say which tools it wants run.

    Args:
        role: The role asked, e.g. ``attacker``.
        messages: The conversation so far (prompt, tool calls, tool results).
        tools: The tools the model may call.
        context: The run's context (model specs, cache mode).
        step: The graph step asking, for accounting and errors.
        tool_choice: A tool name to force, ``any`` for some tool, or None.

    Raises:
        ModelSpecError: when the role's backend cannot call tools.
        ModelServerError: when the server kept failing or refused the tools.

    """
    settings = settings_for(context, role)
    base = loading.with_limit(_chat_model(settings, role), settings.endpoint_limit)
    try:
        model = base.bind_tools(list(tools), tool_choice=tool_choice)
    except NotImplementedError:
        raise ModelSpecError(
            f"step {step!r}: the {role} model {str(settings.spec)!r} cannot call "
            "tools; run the search agent with search_mode=structured (or auto)"
        ) from None
    turns = settings.backend.tool_turns(messages)
    calls: list[CallRecord] = []
    try:
        answer, call = await call_model(
            model, Call(settings, role, step, turns, None, "tools", tools), calls
        )
    except ServerError as exc:
        if refused_field("tools", exc.fault.status, exc.fault.body):
            hint = "The server refused the tool-calling request; run the search "
            hint += "agent with search_mode=structured (--search-mode structured)."
            raise ModelServerError(role, step, exc, calls, hint, refused=True) from exc
        raise ModelServerError(role, step, exc, calls) from exc
    if not isinstance(answer, AIMessage):
        answer = AIMessage(content=answer.content)
    return answer, [call]
