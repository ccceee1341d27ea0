"""Import paths that moved: the old name imports the module at its new place.

``import anonygraph.datasets`` (and ``from anonygraph.report import ...``)
keep working for code written against earlier layouts: the old name becomes
an alias of the moved module (the same object, so a monkeypatch on either
name reaches both), with a DeprecationWarning that names the new path.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_loader
from types import ModuleType

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
}
"""Old module path -> where the module is now."""


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
        if fullname not in MOVED:
            return None
        return spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """Import the module at its new path, and hand it out under the old one."""
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Give the moved module its own spec back (the import system set the old)."""
        module.__spec__ = self._specs[module.__name__]


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once).

    First, because an old path names no file of this package any more, and a
    finder asked before it could still find one elsewhere: an editable
    install's finder looks up ``anonygraph.X`` in the installed checkout.
    """
    if not any(isinstance(f, OldPaths) for f in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())
