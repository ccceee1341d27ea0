"""TRL's dataset formats: check chat rows, read JSONL, split prompt from answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def check_messages(messages: Any, roles: tuple[str, ...]) -> None:
    """Check a conversational column: a list of {role, content} turns.

    Raises:
        ValueError: naming what does not fit.

    """
    if not isinstance(messages, list) or not messages:
        raise ValueError("a conversation must be a non-empty list of turns")
    for turn in messages:
        if not isinstance(turn, dict) or set(turn) != {"role", "content"}:
            raise ValueError(f"a turn must hold exactly role and content: {turn!r}")
        if turn["role"] not in roles or not isinstance(turn["content"], str):
            raise ValueError(f"unexpected turn {turn['role']!r}; allowed: {roles}")


def check_row(name: str, row: Any) -> None:
    """Check one row of data set ``name`` against TRL's SFT or DPO columns.

    ``pref`` rows are DPO rows (prompt, chosen, rejected); every other data
    set holds SFT rows (messages).

    Raises:
        ValueError: naming the column that does not fit.

    """
    if not isinstance(row, dict):
        raise ValueError("a row must be a JSON object")
    if name == "pref":
        if set(row) != {"prompt", "chosen", "rejected"}:
            raise ValueError(f"a DPO row has prompt, chosen, rejected; got {set(row)}")
        check_messages(row["prompt"], ("system", "user", "assistant"))
        check_messages(row["chosen"], ("assistant",))
        check_messages(row["rejected"], ("assistant",))
        return
    if set(row) != {"messages"}:
        raise ValueError(f"an SFT row has only messages; got {set(row)}")
    check_messages(row["messages"], ("system", "user", "assistant"))
    if row["messages"][-1]["role"] != "assistant":
        raise ValueError("an SFT conversation must end with the assistant's answer")


def to_prompt_completion(row: dict[str, Any]) -> dict[str, Any]:
    """Split a chat row into TRL's prompt/completion form (loss on the answer)."""
    messages = row["messages"]
    return {"prompt": messages[:-1], "completion": messages[-1:]}


def dumps(value: Any) -> str:
    """Serialize one row or answer as a single JSON line, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False)


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Read a JSONL file into a list of rows."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
