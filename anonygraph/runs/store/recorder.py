"""The run layer's call recorder: a record's model calls kept in the run store.

The model layer asks the installed recorder (`anonygraph.llm.recording`) to
keep its calls; this one writes them to the run store of the batch: the call
log (a call's start and end, so calls cut off by a kill are counted), the
call journal (answered calls a re-run step gets back instead of asking
again), the answer cache and the structured-output mode of each server. The
store's location is known here and nowhere else.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from anonygraph.llm.recording import Answer, CallRecord, Slot, install, recording
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.call_tables import cache_get, cache_put, mode_get, mode_put

CALL_WENT_OUT = threading.Event()
"""Set once a batch run's first model call has gone out: work that holds the
interpreter lock for long (`warm_up.warm_up_in_background`) waits for it, so
that it runs while the event loop waits for the model."""


class CallCounter:
    """Occurrences of each request within one thread run (see `StoreRecorder.slot`).

    The same request asked twice in one step (candidates sampled at
    temperature > 0) is two calls with two answers: the n-th asking is
    occurrence n, in the order the step asks.
    """

    def __init__(self) -> None:
        """Start with no request asked."""
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], int] = {}

    def next(self, task: str, request: str) -> int:
        """Return the occurrence number of this asking of ``request`` in ``task``."""
        with self._lock:
            n = self._seen.get((task, request), 0)
            self._seen[(task, request)] = n + 1
            return n


class StoreRecorder:
    """Keeps model calls in a run store (`anonygraph.llm.recording.Recorder`).

    With a run and record, it logs and journals that record's calls; without,
    it serves the answer cache and the servers' modes only (a summary, an
    evaluation's totals, a Python caller's graph).
    """

    caches = True

    def __init__(self, store: RunStore, run_id: str = "", record_id: str = "") -> None:
        """Keep calls in ``store``, of ``record_id`` of ``run_id`` if given."""
        self.store = store
        self.run_id = run_id
        self.record_id = record_id
        self.journals = bool(record_id)
        self._counter = CallCounter()

    def slot(self, task: str, request: str) -> Slot | None:
        """Number this asking of ``request`` in ``task`` (None without a record)."""
        if not self.journals:
            return None
        return Slot(task, request, self._counter.next(task, request))

    def replay(self, slot: Slot) -> tuple[CallRecord, Answer] | None:
        """Return the journaled call and answer at ``slot``, counting the replay."""
        hit = self.store.journal_take(
            self.run_id, self.record_id, slot.task, slot.request, slot.occurrence
        )
        return None if hit is None else (hit["call"], hit["answer"])

    def started(self, call: CallRecord) -> None:
        """Log the call's start, committed before the request goes out."""
        if not self.journals:
            return
        self.store.log_call(call, "start", self.run_id, self.record_id)
        if not CALL_WENT_OUT.is_set():
            CALL_WENT_OUT.set()

    def ended(
        self, call: CallRecord, slot: Slot | None = None, answer: Answer | None = None
    ) -> None:
        """Log the call's end and journal its answer, in one commit.

        One commit on SQLite, one round trip on Postgres, where each was
        measured as a sizeable share of the store's cost per record.
        """
        if not self.journals:
            return
        with self.store.db.batch():
            self.store.log_call(call, "end", self.run_id, self.record_id)
            if slot is not None and answer is not None:
                self.store.journal_put(
                    self.run_id, self.record_id, slot.task, slot.request,
                    slot.occurrence, call, answer,
                )  # fmt: skip

    def forget(self, calls: Sequence[CallRecord]) -> None:
        """Drop journaled answers a step found unusable: a re-run asks afresh."""
        if self.journals:
            ids = [str(c.get("id")) for c in calls]
            self.store.journal_forget(self.run_id, self.record_id, ids)

    async def cached(self, key: str) -> Answer | None:
        """Return the cached answer of a request key, or None."""
        return await asyncio.to_thread(cache_get, self.store.location, key)

    async def keep(self, key: str, answer: Answer) -> None:
        """Cache an answer under its request key."""
        await asyncio.to_thread(cache_put, self.store.location, key, answer)

    def mode(self, base_url: str, model: str) -> str | None:
        """Return the structured-output mode the store knows for a server."""
        return mode_get(self.store.location, base_url, model)

    def remember_mode(self, base_url: str, model: str, mode: str, note: str) -> None:
        """Keep the structured-output mode a server accepted in the store."""
        mode_put(self.store.location, base_url, model, mode, note)


def record_calls(store: RunStore, run_id: str, record_id: str) -> None:
    """Account this task's model calls to a record, and journal their answers.

    Call once per thread run (a fresh run or a resume): a step re-run after a
    crash then counts its requests from the start again, and each answered one
    is served from the journal instead of being sent twice.
    """
    store.journal_reload(run_id, record_id)
    install(StoreRecorder(store, run_id, record_id))


@contextmanager
def calls_kept_in(location: str | Path) -> Iterator[StoreRecorder]:
    """Cache model calls in the store at ``location`` for graphs run in the block.

    For Python callers outside a batch run: the cache and the servers' modes
    are kept in that store (calls of temperature 0, or all with
    ``cache_mode="all"``).
    """
    store = RunStore(location)
    recorder = StoreRecorder(store)
    try:
        with recording(recorder):
            yield recorder
    finally:
        store.close()
