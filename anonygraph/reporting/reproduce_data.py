"""The data a reproduction runs on: a sample of the paper's data set as our JSONL.

PersonalReddit and SynthPAI through their loaders; DP-Embed's PII examples
and AURA's transcripts from JSONL lines, each read by its own reader.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

DP_EMBED_MAX_CHARS = 800
"""DP-Embed 4.2 keeps examples of at most 800 characters."""


def write_sample(
    data_format: str, data: str, records: int, out: Path
) -> tuple[Path, int]:
    """Write the first ``records`` records of the data set as our JSONL.

    PersonalReddit records carry every profile attribute as a label (K = 8),
    as the papers score them.

    Returns:
        The file and the number of records written.

    Raises:
        ValueError: when the data holds no usable record.
    """
    from anonygraph.runs.datasets import load_personalreddit, load_synthpai

    if data_format in JSONL_READERS:
        return _write_jsonl_sample(data_format, data, records, out)
    loaded = (
        load_personalreddit(data, all_labels=True)
        if data_format == "personalreddit"
        else load_synthpai(data)
    )
    chosen = loaded.records[: max(1, records)]
    if not chosen:
        raise ValueError(f"{data}: no {data_format} record could be read")
    lines = [{"id": r.id, "text": r.text, "labels": r.labels} for r in chosen]
    return _save_sample(out, lines)


def _save_sample(out: Path, lines: list[dict[str, Any]]) -> tuple[Path, int]:
    out.mkdir(parents=True, exist_ok=True)
    sample = out / "sample.jsonl"
    with open(sample, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    sample.chmod(0o600)
    return sample, len(lines)


def gold_pii_record(line: dict[str, Any]) -> tuple[str, list[str]]:
    """Read one PII example: its text and its gold PII surface strings.

    The strings are ``gold_pii`` (or ``labels.gold_pii``), or the text under
    each of ``spans`` (``start``/``end``, as a Nemotron-PII export has them).
    """
    text = str(line.get("text") or "")
    gold = line.get("gold_pii") or (line.get("labels") or {}).get("gold_pii")
    if gold is None and isinstance(line.get("spans"), list):
        gold = [text[int(s["start"]) : int(s["end"])] for s in line["spans"]]
    strings = [str(g) for g in gold or [] if str(g).strip()]
    return text, list(dict.fromkeys(strings))


def _gold_pii_line(line: dict[str, Any], number: int) -> dict[str, Any] | None:
    text, gold = gold_pii_record(line)
    # The leak rate needs gold strings; the paper keeps short examples.
    if not gold or len(text) > DP_EMBED_MAX_CHARS:
        return None
    record_id = str(line.get("id") or line.get("uid") or f"line-{number}")
    return {"id": record_id, "text": text, "labels": {"gold_pii": gold}}


TRANSCRIPT_LABELS = ("identity", "profile_facts", "codebook_facts", "grid_units")
"""What an AURA transcript record carries besides its text (top level or in
``labels``): who the interviewee is, the utility facts, the grid units."""


def _transcript_line(line: dict[str, Any], number: int) -> dict[str, Any] | None:
    given = {**line, **(line.get("labels") or {})}
    labels = {k: given[k] for k in TRANSCRIPT_LABELS if given.get(k)}
    # Re-identification needs the interviewee's known identity.
    if not line.get("text") or not labels.get("identity"):
        return None
    record_id = str(line.get("id") or f"line-{number}")
    return {"id": record_id, "text": line["text"], "labels": labels}


JSONL_READERS: Mapping[str, tuple[Callable[[dict[str, Any], int], Any], str]] = {
    "gold-pii": (
        _gold_pii_line,
        f"example with a text of at most {DP_EMBED_MAX_CHARS} characters and "
        "gold PII (gold_pii strings or spans with start/end)",
    ),
    "transcripts": (
        _transcript_line,
        "transcript with text and identity (a page or name of the interviewee); "
        "profile_facts, codebook_facts and grid_units are optional",
    ),
}
"""Our JSONL data formats: the reader of one line (None: skipped) and what a
usable line needs."""


def _write_jsonl_sample(
    data_format: str, data: str, records: int, out: Path
) -> tuple[Path, int]:
    read, needs = JSONL_READERS[data_format]
    chosen: list[dict[str, Any]] = []
    with open(data, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, 1):
            if len(chosen) >= max(1, records):
                break
            if raw.strip() and (record := read(json.loads(raw), number)):
                chosen.append(record)
    if not chosen:
        raise ValueError(f"{data}: no {needs}")
    return _save_sample(out, chosen)
