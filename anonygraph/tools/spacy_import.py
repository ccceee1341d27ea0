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

Presidio also compiles each of its ~170 built-in patterns once at import,
only to check it (``Pattern.__validate_regex``), and again with its flags
where a recognizer runs: the check was about a third of a one-text
``anonymize``'s start, for patterns the detector mostly never runs. While
Presidio imports, that check is skipped (`UncheckedPatterns`); a pattern
built afterwards is checked as before, and one that runs is still compiled.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
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


PATTERN_MODULE = "presidio_analyzer.pattern"
PATTERN_CHECK = "_Pattern__validate_regex"
"""Presidio's private pattern check (a test names it, so an upgrade fails there)."""


def _unchecked(pattern: str) -> None:
    """Accept a built-in pattern unchecked; it is compiled where it runs."""


class UncheckedPatterns(MetaPathFinder):
    """A finder that loads Presidio's ``pattern`` module with its check skipped.

    The check is put back by `restore`, once Presidio's import is done.
    """

    def __init__(self) -> None:
        """Start with nothing patched."""
        self.patched: tuple[type, object] | None = None

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Find ``presidio_analyzer.pattern`` as usual, patched once loaded."""
        if fullname != PATTERN_MODULE:
            return None
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            load(module)
            pattern = getattr(module, "Pattern", None)
            if pattern is not None and PATTERN_CHECK in pattern.__dict__:
                self.patched = (pattern, pattern.__dict__[PATTERN_CHECK])
                setattr(pattern, PATTERN_CHECK, staticmethod(_unchecked))

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec

    def restore(self) -> None:
        """Put Presidio's pattern check back."""
        if self.patched is not None:
            pattern, check = self.patched
            setattr(pattern, PATTERN_CHECK, check)
            self.patched = None


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

    Neither torch nor transformers is imported, unless torch is already; the
    built-in patterns are not compiled just to be checked.

    Raises:
        ImportError: when presidio-analyzer is not installed.
    """
    if PRESIDIO in sys.modules or "torch" in sys.modules:
        return importlib.import_module(PRESIDIO)
    finder = Refused(("torch", "transformers"), (PRESIDIO, THINC_COMPAT))
    unchecked = UncheckedPatterns()
    sys.meta_path[:0] = [finder, unchecked]
    try:
        importlib.import_module("presidio_analyzer.predefined_recognizers")
        return importlib.import_module(PRESIDIO)
    finally:
        sys.meta_path.remove(finder)
        sys.meta_path.remove(unchecked)
        unchecked.restore()
