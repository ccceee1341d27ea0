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
from typing import TYPE_CHECKING, Any, cast

from anonygraph.llm.decoding import Decoding, decoding_for
from anonygraph.llm.registry import backend_of, spec_of
from anonygraph.llm.spec import ModelSpec

if TYPE_CHECKING:
    # LangChain's chat-model base loads with the first chat model built
    # (a backend's `load`): a `rules` run builds none.
    from langchain_core.language_models import BaseChatModel


def load_chat_model(
    spec: str | ModelSpec, role: str, decoding: Decoding | None = None
) -> BaseChatModel:
    """Return the chat model for ``spec`` decoding as ``decoding``.

    Without ``decoding``: ``role``'s row of the product table.

    Raises:
        ModelSpecError: for an unknown spec or a backend whose package is missing.

    """
    parsed = spec_of(spec)
    decoding = decoding or decoding_for(role)
    # A pool is one object for the process (its per-server limit is shared);
    # it asks `_server_model` for each server's client at call time.
    if not backend_of(parsed).takes_urls or len(parsed.urls) > 1:
        return _load(parsed, role, decoding)
    return _server_model(parsed, role, decoding)


_SERVER_MODELS: weakref.WeakKeyDictionary[
    Any, dict[tuple[ModelSpec, str, Decoding], Any]
] = weakref.WeakKeyDictionary()


def _server_model(spec: ModelSpec, role: str, decoding: Decoding) -> BaseChatModel:
    # A server client holds connections bound to one event loop: keep one per loop.
    try:
        loop: Any = asyncio.get_running_loop()
    except RuntimeError:
        return _load(spec, role, decoding)
    per_loop = _SERVER_MODELS.setdefault(loop, {})
    if (spec, role, decoding) not in per_loop:
        per_loop[(spec, role, decoding)] = _load.__wrapped__(spec, role, decoding)
    return cast("BaseChatModel", per_loop[(spec, role, decoding)])


@functools.lru_cache(maxsize=64)
def _load(spec: ModelSpec, role: str, decoding: Decoding) -> BaseChatModel:
    urls = spec.urls
    if len(urls) > 1:
        from anonygraph.llm.endpoints import EndpointPool

        one = [_load(replace(spec, base_url=url), role, decoding) for url in urls]
        return EndpointPool(
            models=one,
            urls=urls,
            loader=lambda url: _server_model(
                replace(spec, base_url=url), role, decoding
            ),
        )
    return backend_of(spec).load(spec, decoding)


def with_limit(model: BaseChatModel, limit: int | None) -> BaseChatModel:
    """Give a pool of servers the run's per-server limit (None: the pool's own)."""
    from anonygraph.llm.endpoints import EndpointPool

    # One pool per process serves the run: it takes the run's limit.
    if isinstance(model, EndpointPool) and limit is not None:
        model.limit = max(1, int(limit))
    return model
