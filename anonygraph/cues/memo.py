"""Each text's cues, detected once per process: a bounded LRU cache.

A run reads the same texts' cues again and again: the acceptance checks read
an original's cues every round and a rewrite's before the next round's
arbitration reads them again (`detect_cues` takes ~1-5 ms a short text). The
key holds everything that changes the answer besides the text; see
`anonygraph.cues.detect_cues`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from anonygraph.cues.cue import Cue

SIZE = 2048
"""Texts kept: a wave of 128 records at --concurrency 128 reads about 8 each."""


class Memo:
    """A thread-safe LRU map from a detection's key to its cues."""

    def __init__(self, size: int) -> None:
        """Keep at most ``size`` detections."""
        self.size = size
        self.kept: OrderedDict[Hashable, tuple[Cue, ...]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[Cue, ...] | None:
        """Return the cues kept under ``key``, or None."""
        with self.lock:
            cues = self.kept.get(key)
            if cues is not None:
                self.kept.move_to_end(key)
            return cues

    def put(self, key: Hashable, cues: tuple[Cue, ...]) -> None:
        """Keep ``cues`` under ``key``, dropping the least recently used."""
        with self.lock:
            self.kept[key] = cues
            if len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every detection (the tables they were read with changed)."""
        with self.lock:
            self.kept.clear()


DETECTIONS = Memo(SIZE)
"""The process's detections, by `anonygraph.cues.detect_cues`."""
