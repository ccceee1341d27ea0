"""Import spaCy without letting thinc load torch, when no torch model is used.

thinc, spaCy's layer library, imports torch at its own import whenever torch
is installed (``thinc/compat.py``): about 1.6 s of ``import spacy`` on 2
cores, though the pinned English pipeline runs on numpy alone. thinc has no
setting for this, so while spaCy is first imported a finder refuses torch to
``thinc.compat`` only, by the frame asking: any other module (another thread
too) imports torch as usual, during that window and after it. thinc then
reports ``has_torch = False`` for the process, which matters only to thinc's
PyTorch wrappers; no pipeline anonygraph loads has one. When torch is
imported already, spaCy is imported as it is: it costs nothing then.
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


class TorchRefusedToThinc(MetaPathFinder):
    """A finder that fails ``import torch`` when ``thinc.compat`` asks for it."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Refuse torch to thinc's compatibility module; find nothing else."""
        if fullname != "torch":
            return None
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            if frame.f_globals.get("__name__") == THINC_COMPAT:
                # thinc catches the ImportError and goes on without torch.
                raise ModuleNotFoundError(
                    "torch not imported for thinc: spaCy's pipeline needs none",
                    name=fullname,
                )
            frame = frame.f_back
        return None


def import_spacy() -> ModuleType:
    """Import and return spaCy, keeping torch out unless it is imported already.

    Raises:
        ImportError: when spaCy is not installed.
    """
    if "spacy" in sys.modules or "thinc" in sys.modules or "torch" in sys.modules:
        return importlib.import_module("spacy")
    finder = TorchRefusedToThinc()
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module("spacy")
    finally:
        sys.meta_path.remove(finder)
