"""Each text's cues, detected once per process.

A run reads the same texts' cues again and again: the acceptance checks read
an original's cues every round and a rewrite's before the next round's
arbitration reads them again (`detect_cues` takes ~1-5 ms a short text). The
key holds everything that changes the answer besides the text; see
`anonygraph.cues.detect_cues`.
"""

from __future__ import annotations

from collections.abc import Hashable

from anonygraph.cues.cue import Cue
from anonygraph.tools.memo import Memo

SIZE = 2048
"""Texts kept: a wave of 128 records at --concurrency 128 reads about 8 each."""

DETECTIONS: Memo[Hashable, tuple[Cue, ...]] = Memo(SIZE)
"""The process's detections, by `anonygraph.cues.detect_cues`."""
