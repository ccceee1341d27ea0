"""Bounded concurrency: a few requests run, a few wait, the rest are refused."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class QueueFull(RuntimeError):
    """Every slot is busy and the waiting line is full: answer 429."""


class Gate:
    """At most ``slots`` holders at once and ``queue`` waiting; refuse the next.

    Refusing at once (rather than letting requests pile up) keeps the
    service's memory and latency bounded; the client retries later.
    """

    def __init__(self, slots: int, queue: int) -> None:
        """Allow ``slots`` at once and ``queue`` waiting."""
        self.slots = slots
        self.queue = queue
        self._free = asyncio.Semaphore(slots)
        self.running = 0
        self.waiting = 0

    def check(self) -> None:
        """Refuse now if a request would find no slot and no room in line.

        Raises:
            QueueFull: saying how many run and wait.
        """
        if self.running >= self.slots and self.waiting >= self.queue:
            raise QueueFull(
                f"{self.running} texts are being anonymized and {self.waiting} wait; "
                "retry later"
            )

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Hold a slot for the block, waiting in line if there is room.

        Raises:
            QueueFull: when all slots are held and ``queue`` requests wait.
        """
        self.check()
        self.waiting += 1
        try:
            await self._free.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1
            self._free.release()
