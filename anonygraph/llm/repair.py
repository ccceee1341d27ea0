"""JSON answers from model text: lenient parsing, repair, validation into a schema."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from anonygraph.prompts.common import restore

T = TypeVar("T", bound=BaseModel)


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
