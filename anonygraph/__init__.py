"""anonygraph: local LLM text anonymization as LangGraph state machines."""

from __future__ import annotations

from typing import Any

__all__ = [
    "aanonymize",
    "aanonymize_dataframe",
    "anonymize",
    "anonymize_dataframe",
    "run_file",
]


def anonymize(text: str | list[str], method: str = "rlaa", **kwargs: Any) -> Any:
    """Anonymize one text; see `anonygraph.api.anonymize`."""
    from anonygraph.api import anonymize as _anonymize

    return _anonymize(text, method, **kwargs)


async def aanonymize(text: str | list[str], method: str = "rlaa", **kwargs: Any) -> Any:
    """Async form of `anonymize`; see `anonygraph.api.aanonymize`."""
    from anonygraph.api import aanonymize as _aanonymize

    return await _aanonymize(text, method, **kwargs)


def anonymize_dataframe(frame: Any, method: str = "rlaa", **kwargs: Any) -> Any:
    """Anonymize a DataFrame's rows; see `anonygraph.api.aanonymize_dataframe`."""
    from anonygraph.api import anonymize_dataframe as _anonymize_dataframe

    return _anonymize_dataframe(frame, method, **kwargs)


async def aanonymize_dataframe(frame: Any, method: str = "rlaa", **kwargs: Any) -> Any:
    """Async form of `anonymize_dataframe`."""
    from anonygraph.api import aanonymize_dataframe as _aanonymize_dataframe

    return await _aanonymize_dataframe(frame, method, **kwargs)


def run_file(input: str, output: str, method: str = "rlaa", **kwargs: Any) -> Any:
    """Anonymize a JSONL file (locally or on Ray); see `anonygraph.api.run_file`."""
    from anonygraph.api import run_file as _run_file

    return _run_file(input, output, method, **kwargs)
