"""Import spaCy and Presidio's analyzer without torch, when no torch model is used.

thinc, spaCy's layer library, imports torch at its own import whenever torch
is installed (``thinc/compat.py``): about 1.6 s of ``import spacy`` on 2
cores, though the pinned English pipeline runs on numpy alone. thinc has no
setting for this, so while spaCy is first imported a finder refuses torch to
``thinc.compat`` only, by the frame asking: any other module (another thread
too) imports torch as usual, during that window and after it. thinc then
reports ``has_torch = False`` for the process, which matters only to thinc's
PyTorch wrappers; no pipeline anonygraph loads has one. When torch is
imported already, spaCy is imported as it is: it costs nothing then.

Presidio's analyzer does the same at its import (its transformers NLP engine
and Hugging Face recognizers import transformers, and with it torch, where
installed: about 8 s of a run's start on 2 cores), though the identifier
detector uses neither: `import_presidio_analyzer` refuses both to modules of
``presidio_analyzer`` alone, which catch the ImportError and go on without.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import FrameType, ModuleType

THINC_COMPAT = "thinc.compat"
"""The module whose ``import torch`` is refused."""

PRESIDIO = "presidio_analyzer"
"""The package whose imports of torch and transformers are refused."""


class Refused(MetaPathFinder):
    """A finder that fails some top-level packages to some importers only.

    The importer is the module whose frame asks (any frame up the stack, so
    ``from x import y`` inside it counts); every other module imports them as
    usual, in this thread and in others.
    """

    def __init__(self, packages: tuple[str, ...], importers: tuple[str, ...]) -> None:
        """Refuse ``packages`` to modules named in, or inside, ``importers``."""
        self.packages = packages
        self.importers = importers

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Refuse a listed package to a listed importer; find nothing else."""
        if fullname.split(".")[0] not in self.packages:
            return None
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            name = str(frame.f_globals.get("__name__", ""))
            if any(name == i or name.startswith(i + ".") for i in self.importers):
                # The importer catches the ImportError and goes on without.
                raise ModuleNotFoundError(
                    f"{fullname} not imported for {name}: no model here needs it",
                    name=fullname,
                )
            frame = frame.f_back
        return None


def thinc_finder() -> Refused:
    """Return the finder that fails ``import torch`` for ``thinc.compat``."""
    return Refused(("torch",), (THINC_COMPAT,))


def import_spacy() -> ModuleType:
    """Import and return spaCy, keeping torch out unless it is imported already.

    Raises:
        ImportError: when spaCy is not installed.
    """
    if "spacy" in sys.modules or "thinc" in sys.modules or "torch" in sys.modules:
        return importlib.import_module("spacy")
    finder = thinc_finder()
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module("spacy")
    finally:
        sys.meta_path.remove(finder)


def import_presidio_analyzer() -> ModuleType:
    """Import ``presidio_analyzer`` and its recognizers without torch.

    Neither torch nor transformers is imported, unless torch is already.

    Raises:
        ImportError: when presidio-analyzer is not installed.
    """
    if PRESIDIO in sys.modules or "torch" in sys.modules:
        return importlib.import_module(PRESIDIO)
    finder = Refused(("torch", "transformers"), (PRESIDIO, THINC_COMPAT))
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module("presidio_analyzer.predefined_recognizers")
        return importlib.import_module(PRESIDIO)
    finally:
        sys.meta_path.remove(finder)
