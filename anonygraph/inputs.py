"""Reading and checking input records: our JSONL format, one author per line."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from anonygraph.attributes import UnknownAttributeError, resolve_attributes
from anonygraph.state.domain import COMMENT_SEPARATOR, Record

MAX_CHARS = 20_000
"""Default longest text accepted: past this a local model's context overflows."""


class InputError(ValueError):
    """A record or text anonygraph cannot process, with what to do about it."""


@dataclass(frozen=True)
class BadLine:
    """A line of an input file that could not become a record."""

    line: int
    record_id: str | None
    reason: str

    def __str__(self) -> str:
        who = f"record {self.record_id!r}" if self.record_id else "a record"
        return f"line {self.line} ({who}): {self.reason}"


def check_text(text: str, max_chars: int = MAX_CHARS) -> None:
    """Reject a text no method can anonymize.

    Raises:
        InputError: for an empty, whitespace-only or over-long text.

    """
    if not text:
        raise InputError("the text is empty; give a 'text' or a 'comments' list")
    if not text.strip():
        raise InputError("the text is only whitespace; there is nothing to anonymize")
    if all(c.isspace() or unicodedata.category(c) == "Cf" for c in text):
        raise InputError(
            "the text holds only invisible characters (zero-width or format "
            "characters); there is nothing to anonymize"
        )
    problem = unusable_character(text)
    if problem:
        raise InputError(problem)
    if len(text) > max_chars:
        raise InputError(
            f"the text has {len(text):,} characters, over the limit of "
            f"{max_chars:,}; split it into several records or raise --max-chars"
        )


def unusable_character(text: str) -> str:
    """Describe the first character no model or store can take, or return ''."""
    for position, char in enumerate(text):
        if "\ud800" <= char <= "\udfff":
            return (
                f"the text holds a lone surrogate (U+{ord(char):04X}) at character "
                f"{position}, which is not valid Unicode; fix the file's encoding"
            )
        if char == "\x00":
            return (
                f"the text holds a NUL character at character {position}; "
                "remove it (the file may be binary or UTF-16)"
            )
    return ""


def split_comments(text: str, count: int) -> list[str]:
    """Split a joined text back into ``count`` comments when the breaks survived."""
    if count <= 1:
        return [text] if count == 1 else []
    parts = [p.strip() for p in text.split(COMMENT_SEPARATOR) if p.strip()]
    return parts if len(parts) == count else [text]


def parse_record(obj: Any, *, max_chars: int = MAX_CHARS) -> Record:
    """Validate one decoded JSON value into a `Record`.

    Raises:
        InputError: naming the field that is missing or wrong.

    """
    if not isinstance(obj, dict):
        raise InputError(f"expected a JSON object, got {type(obj).__name__}")
    record_id = obj.get("id")
    if record_id is None or str(record_id).strip() == "":
        raise InputError("the record has no 'id'; give every line a unique id")
    if isinstance(record_id, bool) or not isinstance(record_id, str | int):
        raise InputError(
            f"the id {json.dumps(record_id)[:40]} is a {type(record_id).__name__}; "
            "an id must be a string or an integer"
        )
    comments = obj.get("comments", [])
    if not isinstance(comments, list) or not all(isinstance(c, str) for c in comments):
        raise InputError("'comments' must be a list of strings")
    if "text" in obj and not isinstance(obj["text"], str):
        raise InputError("'text' must be a string")
    if not isinstance(obj.get("labels") or {}, dict):
        raise InputError("'labels' must be an object of attribute -> value")
    if "attributes" in obj:
        try:
            obj = {**obj, "attributes": resolve_attributes(obj["attributes"])}
        except UnknownAttributeError as exc:
            raise InputError(str(exc)) from exc
    known = {"id", "text", "comments", "labels"}
    try:
        record = Record(
            id=str(record_id),
            text=obj.get("text", ""),
            comments=comments,
            labels=obj.get("labels") or {},
            meta={k: v for k, v in obj.items() if k not in known},
        )
    except ValidationError as exc:
        raise InputError(f"invalid record: {exc.errors()[0]['msg']}") from exc
    check_text(record.text, max_chars)
    return record


def hint(line: str) -> str:
    """Suggest a fix for a line that looks like part of a JSON array or document."""
    if line.strip() in ("[", "{", "]", "}") or line.lstrip().startswith("["):
        return (
            "; the file looks like pretty-printed JSON or one array: JSONL needs "
            "one object per line, e.g. `jq -c '.[]' FILE > FILE.jsonl`"
        )
    return ""


def check_input_path(path: str | Path) -> None:
    """Refuse an input that is missing or not a file, naming it.

    Raises:
        InputError: saying what is wrong with the path.

    """
    target = Path(path)
    if not target.exists():
        raise InputError(f"--input {path}: no such file; check the path")
    if not target.is_file():
        raise InputError(f"--input {path}: not a file (a folder?); name a JSONL file")


def read_records(
    path: str | Path, *, max_chars: int = MAX_CHARS
) -> Iterator[Record | BadLine]:
    """Yield each line of a JSONL file as a `Record`, or a `BadLine` saying why not.

    A bad line never stops the file: invalid UTF-8, malformed JSON, a missing id,
    an empty or over-long text, a duplicate id or an unknown attribute each
    become a `BadLine`.
    """
    seen: set[str] = set()
    check_input_path(path)
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
                if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
                    yield BadLine(
                        1,
                        None,
                        f"{path} is UTF-16, not UTF-8; convert it, e.g. "
                        f"`iconv -f UTF-16 -t UTF-8 {path} > utf8.jsonl`",
                    )
                    return
            if not raw.strip():
                continue
            record_id: str | None = None
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield BadLine(number, None, f"not valid UTF-8 (byte {exc.start})")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                yield BadLine(number, None, f"malformed JSON: {exc.msg}{hint(line)}")
                continue
            except RecursionError:
                yield BadLine(number, None, "JSON nested too deeply to read")
                continue
            if isinstance(obj, list):
                yield BadLine(number, None, "a JSON array, not an object" + hint("["))
                continue
            if isinstance(obj, dict) and type(obj.get("id")) in (str, int):
                record_id = str(obj["id"])
            try:
                record = parse_record(obj, max_chars=max_chars)
            except InputError as exc:
                yield BadLine(number, record_id, str(exc))
                continue
            if record.id in seen:
                yield BadLine(number, record.id, "duplicate id; ids must be unique")
                continue
            seen.add(record.id)
            yield record
