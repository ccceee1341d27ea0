"""Cut a text into the pieces DP-Embed rewrites, and stitch the rewrites back.

A text becomes, in order, PII placeholders (from the regex scanner in `pii`),
chunks that go through the noised embedding and inversion, and verbatim
filler (white space, punctuation, blank lines between comments). Without
redaction the chunks are sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from anonygraph.tools.dp_embed.pii import Category, PiiSpan
from anonygraph.tools.dp_embed.pii_paper import PaperDetection

SegmentKind = Literal["pii", "chunk", "verbatim"]


@dataclass(frozen=True)
class Segment:
    """One piece of a text, in order: a PII span, a chunk to rewrite, or filler."""

    kind: SegmentKind
    """``pii`` (replaced by its placeholder), ``chunk`` (goes through the DP
    mechanism) or ``verbatim`` (whitespace and punctuation, kept as is)."""
    text: str
    """The original characters of this piece."""
    category: Category | str | None = None
    """The PII category, for ``pii`` pieces (ours, or the paper rule set's
    category string)."""
    placeholder: str | None = None
    """The placeholder, for ``pii`` pieces."""


_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")
_EDGE_SPACE = re.compile(r"^(\s*)(.*?)(\s*)$", re.DOTALL)
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st mt vs etc e.g i.e no approx dept inc ltd co".split()
)


def segment(
    text: str,
    spans: Iterable[PiiSpan | PaperDetection],
    *,
    split_blank_lines: bool = True,
) -> list[Segment]:
    """Split a text at its PII spans into placeholders and chunks between them.

    A piece between spans is further split at blank lines (so joined comments
    come apart again after stitching; off with ``split_blank_lines``, as the
    paper counts K: the plain pieces between placeholders); a piece with no
    letter or digit, and the whitespace around a chunk, stay verbatim and do
    not count as chunks.

    Returns:
        Segments whose texts concatenate back to ``text``.

    """
    out: list[Segment] = []
    cursor = 0
    plain = _plain if split_blank_lines else _chunk_or_filler
    for span in sorted(spans, key=lambda s: s.start):
        out.extend(plain(text[cursor : span.start]))
        out.append(Segment("pii", span.text, span.category, span.placeholder))
        cursor = span.end
    out.extend(plain(text[cursor:]))
    return out


def split_sentences(text: str) -> list[Segment]:
    """Split a text into sentence chunks, for runs without PII redaction.

    A regex splitter: a sentence ends at ``.``, ``!`` or ``?`` followed by
    whitespace, unless the word before is an abbreviation ("Dr.", "p.m.") or
    an initial.

    Returns:
        Segments whose texts concatenate back to ``text``.

    """
    out: list[Segment] = []
    start = 0
    for m in re.finditer(r"[.!?]+(?=\s)", text):
        word = re.search(r"(\S+)$", text[start : m.start()])
        if m.group(0) == "." and word and _is_abbreviation(word.group(1)):
            continue
        out.extend(_plain(text[start : m.end()]))
        start = m.end()
    out.extend(_plain(text[start:]))
    return out


def _is_abbreviation(word: str) -> bool:
    # "Dr.", "p.m.", "U.S." and initials like "J." rarely end a sentence.
    return (
        word.lower() in _ABBREVIATIONS
        or "." in word
        or (len(word) == 1 and word.isupper())
    )


def _plain(piece: str) -> list[Segment]:
    out: list[Segment] = []
    cursor = 0
    for brk in _BLANK_LINE.finditer(piece):
        out.extend(_chunk_or_filler(piece[cursor : brk.start()]))
        out.append(Segment("verbatim", brk.group(0)))
        cursor = brk.end()
    out.extend(_chunk_or_filler(piece[cursor:]))
    return out


def _chunk_or_filler(piece: str) -> list[Segment]:
    if not piece:
        return []
    if not any(ch.isalnum() for ch in piece):
        return [Segment("verbatim", piece)]
    m = _EDGE_SPACE.match(piece)
    assert m is not None  # the pattern matches every string
    lead, core, tail = m.groups()
    return [
        *([Segment("verbatim", lead)] if lead else []),
        Segment("chunk", core),
        *([Segment("verbatim", tail)] if tail else []),
    ]


def stitch(segments: Iterable[Segment], rewritten: Sequence[str]) -> str:
    """Join segments back into text: placeholders, rewritten chunks, filler.

    Args:
        segments: As returned by ``segment`` or ``split_sentences``.
        rewritten: One text per ``chunk`` segment, in order.

    Raises:
        ValueError: If the number of rewritten texts is not the number of chunks.

    """
    segments = list(segments)
    n_chunks = sum(1 for seg in segments if seg.kind == "chunk")
    if len(rewritten) != n_chunks:
        raise ValueError(f"{len(rewritten)} rewritten texts for {n_chunks} chunks")
    chunks = iter(rewritten)
    return "".join(
        (seg.placeholder or "")
        if seg.kind == "pii"
        else next(chunks)
        if seg.kind == "chunk"
        else seg.text
        for seg in segments
    )
