"""A pool of model servers behind one role: round-robin, bounded in-flight calls.

``--model anonymizer=openai:NAME@URL1,URL2`` names several servers of the
same model. Each call goes to the next server in turn that has a free slot;
when every server has ``ENDPOINT_LIMIT`` calls running, the call waits for
one to finish. Workers on several machines each keep their own pool, so the
limit is per server per worker process.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import PrivateAttr

ENDPOINT_LIMIT = int(os.environ.get("ANONYGRAPH_ENDPOINT_LIMIT", "4"))
"""Calls one worker process sends to one server at once (its default)."""

_WAIT_SECONDS = 0.005
"""How often a call waiting for a free server looks again."""


class EndpointPool(BaseChatModel):
    """One chat model per server URL, used in turn with a per-server limit.

    Binding (a response format, a JSON schema) passes through to the server
    chosen for each call, so constrained decoding works as with one server.
    """

    models: list[BaseChatModel]
    urls: list[str]
    loader: Callable[[str], BaseChatModel] | None = None
    """Client for a URL at call time (one per event loop); else ``models``."""
    limit: int = ENDPOINT_LIMIT
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _next: int = PrivateAttr(default=0)
    _running: list[int] = PrivateAttr(default_factory=list)

    def model_post_init(self, __context: Any) -> None:
        """Start with no call running on any server."""
        self._running = [0] * len(self.models)

    @property
    def _llm_type(self) -> str:
        return "endpoint-pool"

    def running(self) -> list[int]:
        """Return the calls running now on each server, in URL order."""
        with self._lock:
            return list(self._running)

    def _take(self) -> int | None:
        # Round-robin from the server after the last one chosen, skipping full ones.
        with self._lock:
            count = len(self.models)
            for step in range(count):
                index = (self._next + step) % count
                if self._running[index] < self.limit:
                    self._running[index] += 1
                    self._next = (index + 1) % count
                    return index
            return None

    def _give_back(self, index: int) -> None:
        with self._lock:
            self._running[index] -= 1

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        while (index := self._take()) is None:
            time.sleep(_WAIT_SECONDS)
        try:
            result = self._model(index)._generate(messages, stop=stop, **kwargs)
        finally:
            self._give_back(index)
        return self._mark(result, index)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        # A threading lock and polling, not asyncio primitives: the pool is
        # cached across event loops (one per `asyncio.run`).
        while (index := self._take()) is None:
            await asyncio.sleep(_WAIT_SECONDS)
        try:
            result = await self._model(index)._agenerate(messages, stop=stop, **kwargs)
        finally:
            self._give_back(index)
        return self._mark(result, index)

    def _model(self, index: int) -> BaseChatModel:
        if self.loader is None:
            return self.models[index]
        return self.loader(self.urls[index])

    def _mark(self, result: ChatResult, index: int) -> ChatResult:
        # Which server answered, for the call record and debugging.
        for generation in result.generations:
            generation.message.response_metadata["endpoint"] = self.urls[index]
        return result
