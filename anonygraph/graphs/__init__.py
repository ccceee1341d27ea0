"""One registry of method graphs for the CLI, the Python API and langgraph.json."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def _builder(module: str, name: str = "build_graph") -> Callable[[], Any]:
    """Return a builder that imports its graph's module when first called.

    Each module imports its method's nodes (and compiles its graph for
    Studio): a process that runs one method loads only that one.
    """

    def build() -> Any:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)()

    build.__qualname__ = build.__name__ = f"{module}.{name}"
    return build


GRAPHS: dict[str, Callable[[], Any]] = {
    "rlaa": _builder("rlaa"),
    "fgaa": _builder("fgaa"),
    "intentanony": _builder("intentanony"),
    "aura": _builder("aura"),
    "seal": _builder("seal"),
    "seal_trajectory": _builder("seal", "build_trajectory_graph"),
    "dp-embed": _builder("dp_embed"),
}
"""Method name -> ``build_graph`` returning the uncompiled StateGraph."""

REGISTERED: dict[str, Callable[[], Any]] = dict(GRAPHS)
"""The builders `GRAPHS` starts with: a method whose entry is still one of
these has the `Context` that `anonygraph.state.contexts` names for it."""

EVALUATOR: dict[str, Callable[[], Any]] = {"evaluate": _builder("evaluate")}
"""Graphs that score methods rather than anonymize; served in Studio too."""
