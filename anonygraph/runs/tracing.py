"""LangSmith tracing: off unless the user asks for it, whatever the environment says.

LangChain users often export ``LANGSMITH_TRACING=true`` (or
``LANGCHAIN_TRACING_V2``) with an API key; without this guard every prompt and
raw text of a run would be posted to the LangSmith API.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def tracing_scope(
    enabled: bool = False, *, process_wide: bool = False
) -> Iterator[None]:
    """Run the body with LangSmith tracing on only when ``enabled``.

    LangSmith's context flag wins over the environment and is inherited by
    asyncio tasks and ``to_thread``; ``process_wide`` (the CLI, which owns
    its process) also sets LangSmith's global fallback, for threads started
    without a copied context. On, the environment's settings (key, endpoint,
    project) apply.
    """
    import langsmith
    from langsmith.run_helpers import tracing_context

    if process_wide and not enabled:
        langsmith.configure(enabled=False)
    with tracing_context(enabled=enabled):
        yield
