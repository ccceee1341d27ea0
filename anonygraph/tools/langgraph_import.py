"""LangGraph without the client code its import brings and a graph run never calls.

Two packages LangGraph's import runs only for their ``__init__``, which
imports far more than the submodule asked for:

- ``langgraph.runtime`` imports one protocol class from
  ``langgraph_sdk.auth.types``; importing that submodule first runs
  ``langgraph_sdk/__init__.py``, which imports the SDK's HTTP and
  websocket clients for LangGraph's server (``langgraph_sdk.client``,
  ``websockets``): 0.10-0.16 s of CPU on 2 cores.
- LangChain core's tracer schemas import ``langsmith.run_trees``, whose
  client imports ``langsmith.types.run_select_field``; that runs
  ``langsmith/types/__init__.py``, which imports all ~160 of LangSmith's
  API type modules (pydantic models for its REST resources): 0.1-0.4 s.

`defer_inits` (the ``anonygraph`` command calls it: it owns its process)
makes each of these ``__init__`` run when one of the package's own names is
first read (``langgraph_sdk.get_client``, ``from langsmith.types import
Run``); its submodules import as usual meanwhile, so the code that uses
them works unchanged, only later. A program that imports anonygraph imports
LangGraph as it is.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

DEFERRED = ("langgraph_sdk", "langsmith.types")
"""The packages whose ``__init__`` waits for a first name to be read."""


class DeferredInit(MetaPathFinder):
    """A finder that loads `DEFERRED` packages with their ``__init__`` run on use."""

    def __init__(self) -> None:
        """Wait for each package of `DEFERRED` not imported yet."""
        self.waiting = {name for name in DEFERRED if name not in sys.modules}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Find a waiting package as usual, its ``__init__`` deferred."""
        if fullname not in self.waiting:
            return None
        self.waiting.discard(fullname)
        if not self.waiting and self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not spec.submodule_search_locations:
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


def defer_inits() -> None:
    """Defer the `DEFERRED` packages' ``__init__`` in this process (once)."""
    if any(isinstance(f, DeferredInit) for f in sys.meta_path):
        return
    finder = DeferredInit()
    if finder.waiting:
        sys.meta_path.insert(0, finder)
