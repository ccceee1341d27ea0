"""Each method's `Context` class, found without building or importing its graph.

The command line generates its flags from these classes before anything runs;
importing the graphs for them would load LangGraph and every method's nodes
first. A unit test checks each entry is the class its graph declares
(`anonygraph.graphs.GRAPHS`).
"""

from __future__ import annotations

import importlib

CONTEXTS: dict[str, str] = {
    "rlaa": "anonygraph.state.context:Context",
    "fgaa": "anonygraph.state.context:FgaaContext",
    "intentanony": "anonygraph.state.intentanony:IntentAnonyContext",
    "aura": "anonygraph.state.aura:AuraContext",
    "seal": "anonygraph.state.seal:SealContext",
    "seal_trajectory": "anonygraph.state.seal:TrajectoryContext",
    "dp-embed": "anonygraph.state.dp_embed:DpEmbedContext",
}
"""Method -> ``module:class`` of its `Context`, in `GRAPHS`' order."""


def context_class(method: str) -> type:
    """Return ``method``'s `Context` class, importing only its state module."""
    module, _, name = CONTEXTS[method].partition(":")
    found: type = getattr(importlib.import_module(module), name)
    return found


def context_classes() -> dict[str, type]:
    """Return each method's `Context` class, importing only the state modules."""
    return {method: context_class(method) for method in CONTEXTS}
