"""A bounded, thread-safe least-recently-used map: results kept once per process.

The cue detections, the spaCy parses and the MiniLM embeddings are each read
again and again for the same texts by records in worker threads; one class
keeps them all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A thread-safe LRU map from a key to what was computed for it."""

    def __init__(self, size: int) -> None:
        """Keep at most ``size`` entries."""
        self.size = size
        self.kept: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """Return the value kept under ``key`` (now the most recent), or None."""
        with self.lock:
            value = self.kept.get(key)
            if value is not None:
                self.kept.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key``, dropping the least recently used."""
        with self.lock:
            self.kept[key] = value
            self.kept.move_to_end(key)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry (what they were computed from changed)."""
        with self.lock:
            self.kept.clear()
