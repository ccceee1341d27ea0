"""One batched pass for the texts that concurrent callers ask at the same time.

A run works many records at once, and their checks ask the same in-process
models (the MiniLM encoder, the spaCy pipeline) from several worker threads.
Those models cost far less per text on a batch than on one text alone: a
one-thread MiniLM pass streams every weight matrix whatever the batch
(measured 12 ms a text alone, under 6 ms in batches of 8), spaCy's pipeline
2.3 ms a text in eights against 3.8 ms alone. So passes are shared, in the
way databases group commits: a caller that arrives while a pass runs waits
for it to end; the first waiter then runs everything that gathered
meanwhile as one pass and hands each caller its results.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Item = TypeVar("Item", bound=Hashable)
Result = TypeVar("Result")

GATHER_S = 0.003
"""How long a caller alone right after a shared pass waits for the others it
shared with: they are just waking up with their next texts. An idle model
starts at once (no pass was shared lately)."""


class SharedPasses(Generic[Item, Result]):
    """Run concurrent callers' items through ``run`` together, one pass at a time.

    ``run`` takes a list of distinct items and returns one result each, in
    order; it is never called from two threads at once. An error in a pass
    reaches every caller whose items were in it.
    """

    def __init__(
        self, run: Callable[[list[Item]], list[Result]], gather_s: float = GATHER_S
    ) -> None:
        """Share passes of ``run``; ``gather_s`` as `GATHER_S` says."""
        self.run = run
        self.gather_s = gather_s
        self._turn = threading.Condition()
        self._waiting: list[_Ask[Item, Result]] = []
        self._busy = False
        self._last_shared = False

    def __call__(self, items: list[Item]) -> list[Result]:
        """Return ``run``'s result for each of ``items``, in order."""
        ask: _Ask[Item, Result] = _Ask(items)
        with self._turn:
            self._waiting.append(ask)
            while not ask.done:
                if not self._busy:
                    self._busy = True
                    if self._last_shared and len(self._waiting) == 1:
                        self._turn.wait(self.gather_s)
                    batch, self._waiting = self._waiting, []
                    self._last_shared = len(batch) > 1
                    break
                self._turn.wait()
            else:
                return ask.result()
        try:
            together = list(dict.fromkeys(item for a in batch for item in a.items))
            result_of = dict(zip(together, self.run(together), strict=True))
            for each in batch:
                each.results = [result_of[item] for item in each.items]
        except BaseException as exc:
            for each in batch:
                each.error = exc
        finally:
            with self._turn:
                for each in batch:
                    each.done = True
                self._busy = False
                self._turn.notify_all()
        return ask.result()


class _Ask(Generic[Item, Result]):
    """One caller's items and, once its pass ended, their results or the error."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.results: list[Result] = []
        self.error: BaseException | None = None
        self.done = False

    def result(self) -> list[Result]:
        if self.error is not None:
            raise self.error
        return self.results
