"""Import paths that moved: the old name imports the module at its new place.

``import anonygraph.datasets`` (and ``from anonygraph.report import ...``)
keep working for code written against earlier layouts: the old name becomes
an alias of the moved module (the same object, so a monkeypatch on either
name reaches both), with a DeprecationWarning that names the new path.

A module split in several (``anonygraph.models``, ``anonygraph.store``,
``anonygraph.runner``: `SPLIT`) is a stand-in that finds each name in the
module that holds it now and sets it there, so ``monkeypatch.setattr(models,
"load_chat_model", ...)`` still patches the model layer; a name that is gone
raises an error naming what replaced it.
"""

from __future__ import annotations

import importlib
import sys
import types
import warnings
from collections.abc import Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_loader
from types import ModuleType
from typing import Any

MOVED: dict[str, str] = {
    "anonygraph.datasets": "anonygraph.runs.datasets",
    "anonygraph.tracing": "anonygraph.runs.tracing",
    "anonygraph.inference": "anonygraph.model_requests.inference",
    "anonygraph.rewriting": "anonygraph.model_requests.rewriting",
    "anonygraph.evaluation": "anonygraph.reporting.evaluation",
    "anonygraph.report": "anonygraph.reporting.report",
    "anonygraph.report_html": "anonygraph.reporting.html_page",
    "anonygraph.review": "anonygraph.reporting.record_view",
    "anonygraph.training.cli": "anonygraph.cli.commands.seal",
    "anonygraph.state.attributes": "anonygraph.attributes",
    "anonygraph.tools.scope": "anonygraph.tools.aura.scope",
    "anonygraph.tools.leaks": "anonygraph.tools.aura.leaks",
    "anonygraph.tools.selection": "anonygraph.tools.aura.selection",
    "anonygraph.tools.mask_template": "anonygraph.tools.aura.mask_template",
    "anonygraph.tools.exposure": "anonygraph.tools.intentanony.exposure",
    "anonygraph.tools.evidence": "anonygraph.tools.intentanony.evidence",
    "anonygraph.tools.pii": "anonygraph.tools.dp_embed.pii",
    "anonygraph.tools.segmentation": "anonygraph.tools.dp_embed.segmentation",
    "anonygraph.tools.dp_accountant": "anonygraph.tools.dp_embed.dp_accountant",
    "anonygraph.tools.embedding_inversion": (
        "anonygraph.tools.dp_embed.embedding_inversion"
    ),
    "anonygraph.tools.vec2text_checkpoint": (
        "anonygraph.tools.dp_embed.vec2text_checkpoint"
    ),
    "anonygraph.tools.seal_feedback": "anonygraph.tools.seal.feedback",
    "anonygraph.tools.policy": "anonygraph.tools.rlaa.policy",
    "anonygraph.sql": "anonygraph.runs.sql",
    "anonygraph.checkpointers": "anonygraph.runs.checkpointers",
    "anonygraph.pending_reviews": "anonygraph.runs.pending_reviews",
    "anonygraph.rules": "anonygraph.llm.backends.rules",
    "anonygraph.backends.faults": "anonygraph.llm.faults",
    "anonygraph.backends.structured": "anonygraph.llm.structured",
    "anonygraph.backends.hf_schema": "anonygraph.llm.backends.hf_schema",
}
"""Old module path -> where the module is now."""

SPLIT: dict[str, tuple[str, ...]] = {
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
    "anonygraph.endpoints": ("anonygraph.llm.endpoints", "anonygraph.llm.spec"),
    "anonygraph.backends": (),
}
"""Old module split in several -> the modules that hold its names now (first:
the main one); ``()`` for an old package whose submodules moved (`MOVED`)."""

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
        # Values a patch through the old path replaced, by name: pytest's
        # monkeypatch sees no such name in this module's own __dict__, so its
        # undo deletes it here; that deletion puts the saved value back.
        object.__setattr__(self, "_replaced", {})

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
        if old in MOVED:  # a submodule (anonygraph.backends.x)
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
            replaced = object.__getattribute__(self, "_replaced")
            replaced.setdefault(attr, (home, getattr(home, attr)))
            setattr(home, attr, value)

    def __delattr__(self, attr: str) -> None:
        """Delete ``attr`` where it lives now, or undo a patch made through here."""
        replaced = object.__getattribute__(self, "_replaced")
        if attr in replaced:
            home, value = replaced.pop(attr)
            setattr(home, attr, value)
            return
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


class OldPaths(MetaPathFinder, Loader):
    """Answers for the old paths of `MOVED`, and only for them."""

    def __init__(self) -> None:
        self._specs: dict[str, ModuleSpec | None] = {}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Answer for an old path of `MOVED`; leave every other name alone."""
        if fullname not in MOVED and fullname not in SPLIT:
            return None
        return spec_from_loader(
            fullname, self, is_package=SPLIT.get(fullname) == ()
        )

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """Import the module at its new path, and hand it out under the old one."""
        if spec.name in SPLIT:
            return self._split(spec.name)
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self._specs[module.__name__] = module.__spec__
        return module

    def _split(self, name: str) -> ModuleType:
        targets = SPLIT[name]
        if targets:  # an old package itself: its submodules warn (`MOVED`)
            warnings.warn(
                f"{name} moved to {targets[0]}; import it from there",
                DeprecationWarning,
                stacklevel=3,
            )
        module = MovedModule(name, targets)
        if not targets:
            module.__path__ = []  # a package: its submodules moved (`MOVED`)
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Give the moved module its own spec back (the import system set the old)."""
        if not isinstance(module, MovedModule):
            module.__spec__ = self._specs[module.__name__]


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once).

    First, because an old path names no file of this package any more, and a
    finder asked before it could still find one elsewhere: an editable
    install's finder looks up ``anonygraph.X`` in the installed checkout.
    """
    if not any(isinstance(f, OldPaths) for f in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())
