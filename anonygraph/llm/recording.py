"""Where model calls are recorded: an interface the run layer installs.

The model layer accounts every call (a call record: role, step, backend,
tokens, seconds) and returns it with the answer. Keeping calls beyond that
(the call log, the call journal that replays answered calls after a fault,
the answer cache, the structured-output mode each server accepts) is the
job of a `Recorder`, which the run layer installs for the records it runs
(`anonygraph.runs.store.recorder`): this package never touches a store. Outside a
batch run (Studio, the Python API) the recorder is `NO_RECORDER`: calls are
accounted in the graph's state and kept nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

CallRecord = dict[str, Any]
"""A model call's accounting: id, role, step, backend, model, tokens, seconds."""

Answer = dict[str, Any]
"""What is kept of an answer: ``text``, ``usage`` and, for tool turns,
``tool_calls``."""


@dataclass(frozen=True)
class Slot:
    """Where one call's answer sits in a record's call journal.

    ``task`` is the graph task that made the call, ``request`` the digest of
    what it asked, ``occurrence`` how many times the task asked it before.
    """

    task: str
    request: str
    occurrence: int


class Recorder(Protocol):
    """Keeps model calls somewhere: a log, a journal, a cache, server modes."""

    journals: bool
    """Whether calls are journaled (`slot` gives slots): a record is running."""
    caches: bool
    """Whether answers can be cached (`cached`, `keep`)."""

    def slot(self, task: str, request: str) -> Slot | None:
        """Number this asking of ``request`` in ``task``; None: not journaled."""
        ...

    def replay(self, slot: Slot) -> tuple[CallRecord, Answer] | None:
        """Return the journaled call and answer at ``slot``, counting the replay."""
        ...

    def started(self, call: CallRecord) -> None:
        """Note that a call went out (so a kill mid-call is counted)."""
        ...

    def ended(
        self, call: CallRecord, slot: Slot | None = None, answer: Answer | None = None
    ) -> None:
        """Note a call's end; journal its ``answer`` at ``slot`` when both are given."""
        ...

    def forget(self, calls: Sequence[CallRecord]) -> None:
        """Drop journaled answers a step found unusable: a re-run asks afresh."""
        ...

    async def cached(self, key: str) -> Answer | None:
        """Return the cached answer of a request key, or None."""
        ...

    async def keep(self, key: str, answer: Answer) -> None:
        """Cache an answer under its request key."""
        ...

    def mode(self, base_url: str, model: str) -> str | None:
        """Return the structured-output mode a server accepted before, or None."""
        ...

    def remember_mode(self, base_url: str, model: str, mode: str, note: str) -> None:
        """Keep the structured-output mode a server accepted."""
        ...


class NoRecorder:
    """Keeps nothing: calls outside a batch run (Studio, the Python API)."""

    journals = False
    caches = False

    def slot(self, task: str, request: str) -> Slot | None:
        """Journal nothing."""
        return None

    def replay(self, slot: Slot) -> tuple[CallRecord, Answer] | None:
        """Replay nothing."""
        return None

    def started(self, call: CallRecord) -> None:
        """Log nothing."""

    def ended(
        self, call: CallRecord, slot: Slot | None = None, answer: Answer | None = None
    ) -> None:
        """Log nothing."""

    def forget(self, calls: Sequence[CallRecord]) -> None:
        """Nothing to drop."""

    async def cached(self, key: str) -> Answer | None:
        """Cache nothing."""
        return None

    async def keep(self, key: str, answer: Answer) -> None:
        """Cache nothing."""

    def mode(self, base_url: str, model: str) -> str | None:
        """Know no mode beyond this process's memory."""
        return None

    def remember_mode(self, base_url: str, model: str, mode: str, note: str) -> None:
        """Keep nothing beyond this process's memory."""


NO_RECORDER = NoRecorder()

_RECORDER: ContextVar[Recorder] = ContextVar("anonygraph_recorder", default=NO_RECORDER)
"""The recorder of the calls made in this task (and the tasks it starts)."""


def current() -> Recorder:
    """Return the recorder installed for this task (`NO_RECORDER` if none)."""
    return _RECORDER.get()


def install(recorder: Recorder) -> None:
    """Record the calls of this task (and the tasks it starts) with ``recorder``.

    An asyncio task has a context of its own: installed in a record's task,
    the recorder serves that record's calls only.
    """
    _RECORDER.set(recorder)


@contextmanager
def recording(recorder: Recorder) -> Iterator[Recorder]:
    """Install ``recorder`` for the block, then restore the one before."""
    token = _RECORDER.set(recorder)
    try:
        yield recorder
    finally:
        _RECORDER.reset(token)
