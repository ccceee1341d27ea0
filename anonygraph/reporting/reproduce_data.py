"""The data a reproduction runs on: a sample of the paper's data set as our JSONL.

PersonalReddit and SynthPAI through their loaders; DP-Embed's PII examples
and AURA's transcripts from JSONL lines, each read by its own reader.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DP_EMBED_MAX_CHARS = 800
"""DP-Embed 4.2 keeps examples of at most 800 characters."""


@dataclass(frozen=True)
class Sample:
    """The records a reproduction runs on, and how they were drawn."""

    path: Path
    """Our JSONL of the drawn records."""
    count: int
    """Records written."""
    drawn: str
    """How, in words: the first N, or a seeded draw out of how many."""


def write_sample(
    data_format: str, data: str, records: int, out: Path, seed: int | None = None
) -> Sample:
    """Write ``records`` records of the data set as our JSONL.

    Without a seed the first ``records`` usable records are taken; with one,
    every usable record is read, shuffled by ``random.Random(seed)`` and the
    first ``records`` of the shuffle are taken (in that order).
    PersonalReddit records carry every profile attribute as a label (K = 8),
    as the papers score them.

    Raises:
        ValueError: when the data holds no usable record.
    """
    from anonygraph.runs.io.datasets import load_personalreddit, load_synthpai

    wanted = max(1, records)
    if data_format in JSONL_READERS:
        usable = _read_jsonl(data_format, data, None if seed is not None else wanted)
    else:
        loaded = (
            load_personalreddit(data, all_labels=True)
            if data_format == "personalreddit"
            else load_synthpai(data)
        )
        usable = [
            {"id": r.id, "text": r.text, "labels": r.labels} for r in loaded.records
        ]
        if not usable:
            raise ValueError(f"{data}: no {data_format} record could be read")
    if seed is None:
        chosen, drawn = usable[:wanted], "the first in file order"
    else:
        shuffled = list(usable)
        random.Random(seed).shuffle(shuffled)
        chosen = shuffled[:wanted]
        drawn = f"drawn with seed {seed} out of {len(usable)} usable"
    return Sample(_save_sample(out, chosen), len(chosen), drawn)


def _save_sample(out: Path, lines: list[dict[str, Any]]) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    sample = out / "sample.jsonl"
    with open(sample, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    sample.chmod(0o600)
    return sample


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


def _read_jsonl(data_format: str, data: str, limit: int | None) -> list[dict[str, Any]]:
    """Read the usable lines of a JSONL data set, up to ``limit`` (None: all)."""
    read, needs = JSONL_READERS[data_format]
    chosen: list[dict[str, Any]] = []
    with open(data, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, 1):
            if limit is not None and len(chosen) >= limit:
                break
            if raw.strip() and (record := read(json.loads(raw), number)):
                chosen.append(record)
    if not chosen:
        raise ValueError(f"{data}: no {needs}")
    return chosen
