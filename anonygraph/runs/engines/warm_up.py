"""Loading the cue detectors' tables while the first model call waits."""

from __future__ import annotations

import threading
from functools import cache

from anonygraph.runs.store.recorder import CALL_WENT_OUT

WARM_UP_WAIT_SECONDS = 5.0
"""How long the warm-up waits for the first model call before it starts anyway."""


@cache
def warm_up_in_background() -> None:
    """Load the cue detectors' tables in a thread while the first call waits.

    Measured: the place gazetteer took about 0.5 s of the first record's wall
    time in each worker process, outside any model call. Parsing its data
    holds the interpreter lock for a few tenths of a second, so the thread
    starts once the first model call has gone out (`recorder.CALL_WENT_OUT`),
    when the event loop has nothing else to do. Once per process; a daemon
    thread, so that a run without model calls never waits for it to exit.
    """
    threading.Thread(target=_warm_up, name="anonygraph-warm-up", daemon=True).start()


def _warm_up() -> None:
    from anonygraph import cues

    CALL_WENT_OUT.wait(WARM_UP_WAIT_SECONDS)
    try:
        cues.warm_up()
    except Exception:  # noqa: BLE001 - the record's own check reports it
        return
