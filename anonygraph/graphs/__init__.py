"""One registry of method graphs for the CLI, the Python API and langgraph.json."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anonygraph.graphs import aura, dp_embed, evaluate, fgaa, intentanony, rlaa, seal

GRAPHS: dict[str, Callable[[], Any]] = {
    "rlaa": rlaa.build_graph,
    "fgaa": fgaa.build_graph,
    "intentanony": intentanony.build_graph,
    "aura": aura.build_graph,
    "seal": seal.build_graph,
    "seal_trajectory": seal.build_trajectory_graph,
    "dp-embed": dp_embed.build_graph,
}
"""Method name -> ``build_graph`` returning the uncompiled StateGraph."""

EVALUATOR: dict[str, Callable[[], Any]] = {"evaluate": evaluate.build_graph}
"""Graphs that score methods rather than anonymize; served in Studio too."""
