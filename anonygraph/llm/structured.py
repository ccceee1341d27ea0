"""Structured-output modes of OpenAI-compatible servers, and how to pick one.

Servers differ in what they accept: OpenAI, vLLM and LM Studio take a
``json_schema`` response format, llama-cpp-python's server only ``json_object``
(with a ``schema`` key it decodes under), others only tools or plain text. The
first call to a server tries the modes in ``MODES`` order; a request the
server rejects naming the mode's field moves on to the next mode, and the mode
that got an answer is remembered per (base URL, model) in the run store.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

MODES: tuple[str, ...] = ("json_schema", "json_object", "tools", "text")
"""Fallback order: the most constrained request first."""

# Words in a rejection that show the server refused the mode's own field.
_FIELDS: dict[str, tuple[str, ...]] = {
    "json_schema": ("response_format", "json_schema"),
    "json_object": ("response_format", "json_object"),
    "tools": ("tools", "tool_choice", "function"),
}


def bind_mode(model: Any, mode: str, schema: type[BaseModel]) -> Any:
    """Bind ``model`` to ask for ``schema`` the way ``mode`` does."""
    json_schema = schema.model_json_schema()
    # The response format goes out as body JSON as it stands; the client
    # merges it over its own body fields (`openai_chat.OpenAIChat._request`).
    if mode == "json_schema":
        return model.bind(
            extra_body={
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": schema.__name__, "schema": json_schema},
                }
            }
        )
    if mode == "json_object":
        # `schema` is llama.cpp's extension (grammar-constrained decoding);
        # other servers ignore it, and the prompt spells the schema out too.
        return model.bind(
            extra_body={
                "response_format": {"type": "json_object", "schema": json_schema}
            }
        )
    if mode == "tools":
        tool = {
            "type": "function",
            "function": {
                "name": schema.__name__,
                "description": "Give the answer in these fields.",
                "parameters": json_schema,
            },
        }
        choice = {"type": "function", "function": {"name": schema.__name__}}
        return model.bind(tools=[tool], tool_choice=choice)
    return model


def schema_in_prompt(mode: str) -> bool:
    """Whether the prompt must spell out the schema (the server won't enforce it)."""
    return mode in ("json_object", "tools", "text")


def next_mode(mode: str) -> str | None:
    """Return the mode to try after ``mode`` was refused, or None after the last."""
    index = MODES.index(mode)
    return MODES[index + 1] if index + 1 < len(MODES) else None


def refused_field(mode: str, status: int | None, body: str) -> bool:
    """Tell whether a failed request was the server refusing ``mode``'s field.

    A 400 or 422 naming the field is a refusal; so is any status whose body
    names it as invalid (llama-cpp-python's server answers 500 with its
    validation error).
    """
    if mode not in _FIELDS or status is None:
        return False
    text = body.lower()
    named = any(re.search(rf"\b{f}\b", text) for f in _FIELDS[mode])
    if status in (400, 422):
        return named
    return named and any(w in text for w in ("validation", "input should", "invalid"))


def answer_text(message: BaseMessage) -> str:
    """Return the answer's JSON text, from a tool call where the mode used tools."""
    tool_calls = getattr(message, "tool_calls", None) or []
    if tool_calls:
        return json.dumps(tool_calls[0].get("args", {}), ensure_ascii=False)
    invalid = getattr(message, "invalid_tool_calls", None) or []
    if invalid and invalid[0].get("args"):
        return str(invalid[0]["args"])  # parsed leniently by the caller
    content = message.content
    return content if isinstance(content, str) else str(content)
