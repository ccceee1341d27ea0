"""Role -> chat model: loaded once per spec and role, server clients once per loop.

`load_chat_model` is the one seam between the graphs and the models: a test
that replaces it (``monkeypatch.setattr(loading, "load_chat_model", ...)``)
answers every role of every graph.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from dataclasses import replace
from typing import Any, cast

from langchain_core.language_models import BaseChatModel

from anonygraph.llm.decoding import decoding_for
from anonygraph.llm.endpoints import EndpointPool
from anonygraph.llm.registry import backend_of, spec_of
from anonygraph.llm.spec import ModelSpec


def load_chat_model(spec: str | ModelSpec, role: str) -> BaseChatModel:
    """Return the chat model for ``spec`` with ``role``'s decoding defaults.

    Raises:
        ModelSpecError: for an unknown spec or a backend whose package is missing.

    """
    parsed = spec_of(spec)
    # A pool is one object for the process (its per-server limit is shared);
    # it asks `_server_model` for each server's client at call time.
    if not backend_of(parsed).takes_urls or len(parsed.urls) > 1:
        return _load(parsed, role)
    return _server_model(parsed, role)


_SERVER_MODELS: weakref.WeakKeyDictionary[Any, dict[tuple[ModelSpec, str], Any]] = (
    weakref.WeakKeyDictionary()
)


def _server_model(spec: ModelSpec, role: str) -> BaseChatModel:
    # A server client holds connections bound to one event loop: keep one per loop.
    try:
        loop: Any = asyncio.get_running_loop()
    except RuntimeError:
        return _load(spec, role)
    per_loop = _SERVER_MODELS.setdefault(loop, {})
    if (spec, role) not in per_loop:
        per_loop[(spec, role)] = _load.__wrapped__(spec, role)
    return cast(BaseChatModel, per_loop[(spec, role)])


@functools.lru_cache(maxsize=64)
def _load(spec: ModelSpec, role: str) -> BaseChatModel:
    urls = spec.urls
    if len(urls) > 1:
        one = [_load(replace(spec, base_url=url), role) for url in urls]
        return EndpointPool(
            models=one,
            urls=urls,
            loader=lambda url: _server_model(replace(spec, base_url=url), role),
        )
    return backend_of(spec).load(spec, decoding_for(role))


def with_limit(model: BaseChatModel, limit: int | None) -> BaseChatModel:
    """Give a pool of servers the run's per-server limit (None: the pool's own)."""
    # One pool per process serves the run: it takes the run's limit.
    if isinstance(model, EndpointPool) and limit is not None:
        model.limit = max(1, int(limit))
    return model
