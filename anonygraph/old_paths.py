"""Import paths that moved: ``anonygraph.models`` is now `anonygraph.llm`, etc.

The README and earlier code import the model layer and the run layer from
the package root (``from anonygraph import models, store``). Those paths keep
working: a module that moved whole is the same module under its old name; a
module split in several is a stand-in that finds each name in the modules
that now hold it (and sets it there, so ``monkeypatch.setattr(models,
"load_chat_model", ...)`` still patches the model layer). A name that is gone
raises an error naming what replaced it. Each old path warns once
(`DeprecationWarning`) with its new place.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any

MOVED: dict[str, tuple[str, ...]] = {
    "anonygraph.models": (
        "anonygraph.llm",
        "anonygraph.llm.loading",
        "anonygraph.llm.ask",
        "anonygraph.llm.calls",
        "anonygraph.llm.settings",
        "anonygraph.llm.decoding",
        "anonygraph.llm.modes",
        "anonygraph.llm.repair",
        "anonygraph.llm.structured",
        "anonygraph.llm.backends.llamacpp",
        "anonygraph.llm.backends.openai",
    ),
    "anonygraph.store": (
        "anonygraph.runs.store",
        "anonygraph.runs.checkpointers",
        "anonygraph.runs.locks",
        "anonygraph.runs.files",
        "anonygraph.runs.schema",
        "anonygraph.runs.call_tables",
        "anonygraph.runs.recorder",
    ),
    "anonygraph.runner": (
        "anonygraph.runs.batch",
        "anonygraph.runs.options",
        "anonygraph.runs.summary",
        "anonygraph.runs.records",
        "anonygraph.runs.output",
        "anonygraph.runs.local",
        "anonygraph.runs.warm_up",
    ),
    "anonygraph.workers": ("anonygraph.runs.shared",),
    "anonygraph.sql": ("anonygraph.runs.sql",),
    "anonygraph.checkpointers": ("anonygraph.runs.checkpointers",),
    "anonygraph.pending_reviews": ("anonygraph.runs.pending_reviews",),
    "anonygraph.endpoints": ("anonygraph.llm.endpoints", "anonygraph.llm.spec"),
    "anonygraph.rules": ("anonygraph.llm.backends.rules",),
    "anonygraph.backends": (),
    "anonygraph.backends.faults": ("anonygraph.llm.faults",),
    "anonygraph.backends.structured": ("anonygraph.llm.structured",),
    "anonygraph.backends.hf_schema": ("anonygraph.llm.backends.hf_schema",),
}
"""Old module -> the modules that hold its names now (first: the main one)."""

RENAMED: dict[str, tuple[str, str]] = {
    "anonygraph.models.ROLE_PARAMS": ("anonygraph.llm.decoding", "ROLE_DECODING"),
    "anonygraph.models.RoleParams": ("anonygraph.llm.decoding", "Decoding"),
    "anonygraph.store.track_calls": ("anonygraph.runs.recorder", "record_calls"),
}
"""Old module.name -> (module, name) of a name that changed."""

GONE: dict[str, str] = {
    "anonygraph.models.BACKENDS": "backends are rows of anonygraph.llm.registry."
    "BACKENDS; read a capability (calls_tools, answers_from_cues) from "
    "anonygraph.llm.backend_of(spec)",
    "anonygraph.models.TOOL_BACKENDS": "ask anonygraph.llm.supports_tools(spec)",
    "anonygraph.models.FIXED_MODES": "each backend's structured_note "
    "(anonygraph.llm.backend_of(spec).structured_note)",
    "anonygraph.store.cache_location": "a batch run's call recorder "
    "(anonygraph.runs.recorder.StoreRecorder) keeps the cache in its store",
    "anonygraph.store.cache_get": "anonygraph.runs.call_tables.cache_get",
    "anonygraph.store.log_call": "anonygraph.runs.recorder.StoreRecorder.started",
    "anonygraph.store.journal_scope": "anonygraph.llm.recording.current()",
}
"""Old module.name -> what to use instead, for names with no one successor."""


class MovedModule(types.ModuleType):
    """An old module split in several: finds (and sets) names where they live now."""

    def __init__(self, name: str, targets: Sequence[str]) -> None:
        """Stand in for ``name``, whose names are now in ``targets``."""
        super().__init__(name, f"Moved: see {', '.join(targets) or 'its submodules'}.")
        object.__setattr__(self, "_targets", tuple(targets))

    def _home(self, attr: str) -> types.ModuleType | None:
        for target in object.__getattribute__(self, "_targets"):
            module = importlib.import_module(target)
            if attr in vars(module):
                return module
        return None

    def __getattr__(self, attr: str) -> Any:
        """Return ``attr`` from the module that holds it now."""
        if attr.startswith("__"):
            raise AttributeError(attr)
        old = f"{self.__name__}.{attr}"
        if old in RENAMED:
            module, name = RENAMED[old]
            return getattr(importlib.import_module(module), name)
        home = self._home(attr)
        if home is not None:
            return getattr(home, attr)
        if f"{self.__name__}.{attr}" in MOVED:  # a submodule (anonygraph.backends.x)
            return importlib.import_module(old)
        hint = GONE.get(old, f"look in {', '.join(self._targets)}")
        raise AttributeError(f"{old} is gone: {hint}")

    def _definer(self, attr: str) -> types.ModuleType | None:
        # Where a function or class is defined, not a package re-exporting it:
        # that module's own calls look the name up there.
        home = None if attr.startswith("__") else self._home(attr)
        if home is None:
            return None
        defined = sys.modules.get(getattr(getattr(home, attr), "__module__", ""))
        return defined if defined is not None and attr in vars(defined) else home

    def __setattr__(self, attr: str, value: Any) -> None:
        """Set ``attr`` where it lives now (a test patching the old path)."""
        home = self._definer(attr)
        if home is None:
            super().__setattr__(attr, value)
        else:
            setattr(home, attr, value)

    def __delattr__(self, attr: str) -> None:
        """Delete ``attr`` where it lives now."""
        home = self._definer(attr)
        if home is None:
            super().__delattr__(attr)
        else:
            delattr(home, attr)

    def __dir__(self) -> list[str]:
        """List the names of every module the old one became."""
        names: set[str] = set()
        for target in self._targets:
            names |= {n for n in vars(importlib.import_module(target)) if n[0] != "_"}
        return sorted(names)


class OldPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the old module names of `MOVED` (installed by ``import anonygraph``)."""

    def __init__(self) -> None:
        """Start with no module served."""
        self._specs: dict[str, Any] = {}

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        """Claim an old module name; leave every other name to the usual finders."""
        if fullname not in MOVED:
            return None
        package = not MOVED[fullname]
        return importlib.util.spec_from_loader(fullname, self, is_package=package)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        """Return the moved module itself, or a `MovedModule` over its parts."""
        targets = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {targets[0] if targets else 'anonygraph.llm'}; "
            "import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        if len(targets) == 1:
            module = importlib.import_module(targets[0])
            # The import system gives the module the old name's spec; its own
            # is put back in `exec_module`.
            self._specs[spec.name] = module.__spec__
            return module
        module = MovedModule(spec.name, targets)
        if not targets:
            module.__path__ = []  # a package: its submodules are moved too
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Run nothing (the code ran under the new name); keep the module's spec."""
        spec = module.__spec__
        if spec is not None and spec.name in self._specs:
            module.__spec__ = self._specs.pop(spec.name)


def install() -> None:
    """Make the old import paths importable (once per process)."""
    if any(isinstance(f, OldPathFinder) for f in sys.meta_path):
        return
    # Right after the finder of files on sys.path: a file of the package still
    # wins, while another install of the package (an editable one elsewhere)
    # does not answer for the old names first.
    path_finder = importlib.machinery.PathFinder
    at = next(
        (i + 1 for i, f in enumerate(sys.meta_path) if f is path_finder),
        len(sys.meta_path),
    )
    sys.meta_path.insert(at, OldPathFinder())
