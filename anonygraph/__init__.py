"""anonygraph: local LLM text anonymization as LangGraph state machines."""

from __future__ import annotations

from typing import Any

from anonygraph import _old_paths

__all__ = ["aanonymize", "anonymize"]

_old_paths.install()


def anonymize(text: str | list[str], method: str = "rlaa", **kwargs: Any) -> Any:
    """Anonymize one text; see `anonygraph.api.anonymize`."""
    from anonygraph.api import anonymize as _anonymize

    return _anonymize(text, method, **kwargs)


async def aanonymize(text: str | list[str], method: str = "rlaa", **kwargs: Any) -> Any:
    """Async form of `anonymize`; see `anonygraph.api.aanonymize`."""
    from anonygraph.api import aanonymize as _aanonymize

    return await _aanonymize(text, method, **kwargs)
