"""LangGraph without its server SDK's client, which a graph run here never calls.

``langgraph.runtime`` imports one protocol class from
``langgraph_sdk.auth.types``; importing that submodule first runs
``langgraph_sdk/__init__.py``, which imports the SDK's HTTP and websocket
clients for LangGraph's server (``langgraph_sdk.client``, ``websockets``):
0.1-0.16 s of CPU of every start that imports LangGraph, on 2 cores, for a
client that a graph compiled and run in this process never uses.

`defer_sdk_init` (the ``anonygraph`` command calls it: it owns its process)
makes the package's ``__init__`` run when one of its own names is first read
(``langgraph_sdk.get_client``, ``from langgraph_sdk import Auth``); its
submodules import as usual meanwhile. A program that imports anonygraph
imports LangGraph as it is.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

SDK = "langgraph_sdk"
"""The package whose ``__init__`` waits for its first name to be read."""


class DeferredInit(MetaPathFinder):
    """A finder that loads `SDK` with its ``__init__`` run on first use, once."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Find `SDK` as usual, its ``__init__`` deferred; find nothing else."""
        if fullname != SDK:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)  # one package, once
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        run_init = spec.loader.exec_module
        lock = threading.Lock()

        def exec_module(module: ModuleType) -> None:
            def first_name(name: str) -> object:
                # A name the package's __init__ defines: run it now (its
                # __path__ and submodules were there all along).
                with lock:
                    if module.__dict__.get("__getattr__") is first_name:
                        del module.__dict__["__getattr__"]
                        run_init(module)
                return getattr(module, name)

            module.__dict__["__getattr__"] = first_name

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def defer_sdk_init() -> None:
    """Defer `SDK`'s ``__init__`` in this process, unless it is imported already."""
    if SDK in sys.modules or any(isinstance(f, DeferredInit) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, DeferredInit())
