"""One registry of method graphs for the CLI, the Python API and langgraph.json."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anonygraph.graphs import fgaa, rlaa

GRAPHS: dict[str, Callable[[], Any]] = {
    "rlaa": rlaa.build_graph,
    "fgaa": fgaa.build_graph,
}
"""Method name -> ``build_graph`` returning the uncompiled StateGraph."""
