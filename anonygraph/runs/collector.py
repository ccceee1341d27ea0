"""Python's cycle collector in a command's process: seldom while it starts.

A command's start builds what it keeps until it exits: the modules of
LangGraph, LangChain, Presidio and spaCy, spaCy's pipeline, the place
gazetteer's tables. With Python's default thresholds the collector searched
that whole heap six times during a one-text ``anonymize`` for cycles none
of it forms (about 0.6 s of its 4 s of CPU on a 2-core box, measured with
``gc.callbacks``); the start leaves under a thousand unreachable objects.
The ``anonygraph`` command (`anonygraph.cli.run`, which owns its process)
makes the collector's passes rare until its first text or record is done
(``serve``: its warm-up; a Ray run's driver: once its records go to the
workers); then what was loaded is frozen (later passes skip it) and Python's
thresholds come back, so a long run or a service frees its cycles as
often as before. A program that imports the package keeps its own
collector settings: nothing here runs unless `starting` was called.
"""

from __future__ import annotations

import gc
import threading

START_THRESHOLDS = (100_000, 50, 100)
"""Collector thresholds while a command starts (Python's are 700, 10, 10)."""

_LOCK = threading.Lock()
_kept: tuple[int, ...] | None = None
"""The thresholds to restore once started; None when not starting."""


def starting() -> None:
    """Make the collector's passes rare: this process is loading what it keeps."""
    global _kept
    with _LOCK:
        if _kept is None:
            _kept = gc.get_threshold()
            gc.set_threshold(*START_THRESHOLDS)


def started() -> None:
    """End the start: freeze what it loaded and restore the thresholds.

    Cheap and idempotent: called after every text and record, it acts once,
    and only in a process that called `starting`.
    """
    global _kept
    if _kept is None:
        return
    with _LOCK:
        if _kept is None:
            return
        gc.freeze()
        gc.set_threshold(*_kept)
        _kept = None


def is_starting() -> bool:
    """Tell whether the collector runs with the start's thresholds."""
    return _kept is not None
