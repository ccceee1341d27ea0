"""What each model server accepted: its structured-output mode, tool calls.

Kept in this process's memory and, through the installed recorder, in the
run store's ``server_modes`` table, so a later run asks a known server in its
mode at once; run and eval summaries print them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import replace

from anonygraph.llm.recording import Recorder, current
from anonygraph.llm.registry import backend_of, parse_spec
from anonygraph.llm.spec import ModelSpec

_MODES: dict[tuple[str, str], str] = {}
_MODES_LOCK = threading.Lock()


def _key(spec: ModelSpec) -> tuple[str, str]:
    return backend_of(spec).server_url(spec), spec.name


def structured_mode(spec: ModelSpec, recorder: Recorder | None = None) -> str:
    """Return the mode to ask an OpenAI-compatible server in; '' when undetected.

    Read from this process's memory, else from the recorder (the run store).
    """
    key = _key(spec)
    with _MODES_LOCK:
        if key in _MODES:
            return _MODES[key]
    found = (recorder or current()).mode(*key)
    if found:
        with _MODES_LOCK:
            _MODES[key] = found
    return found or ""


def remember_mode(
    spec: ModelSpec, mode: str, note: str, recorder: Recorder | None = None
) -> None:
    """Keep the mode a server answered in, for this process and the recorder."""
    key = _key(spec)
    with _MODES_LOCK:
        known = _MODES.get(key) == mode
        _MODES[key] = mode
    if not known:
        (recorder or current()).remember_mode(key[0], key[1], mode, note)


TOOLS_REFUSED = "refused"
"""The ``server_modes`` entry of a server that refused a tool-calling request."""


def _tools_key(spec: ModelSpec) -> ModelSpec:
    # Kept beside the server's structured-output mode, under its own name.
    return replace(spec, name=f"{spec.name} (tool calls)")


def tools_refused(spec: ModelSpec, recorder: Recorder | None = None) -> bool:
    """Tell whether the server of ``spec`` refused tool calls in this store's runs."""
    return structured_mode(_tools_key(spec), recorder) == TOOLS_REFUSED


def remember_tools_refused(
    spec: ModelSpec, note: str, recorder: Recorder | None = None
) -> None:
    """Keep that the server of ``spec`` refused tool calls (search_mode auto)."""
    remember_mode(_tools_key(spec), TOOLS_REFUSED, note, recorder)


def search_fallbacks(
    specs: Iterable[str], recorder: Recorder | None = None
) -> dict[str, str]:
    """Return spec -> how its search agent ran, for specs whose server refused tools."""
    found: dict[str, str] = {}
    for name in sorted(set(specs)):
        spec = parse_spec(name)
        if backend_of(spec).calls_tools and tools_refused(spec, recorder):
            found[name] = "structured steps (the server refused tool calls)"
    return found


def structured_modes(
    specs: Iterable[str], recorder: Recorder | None = None
) -> dict[str, str]:
    """Return spec -> how structured answers are asked for, for the given specs."""
    modes: dict[str, str] = {}
    for name in sorted(set(specs)):
        spec = parse_spec(name)
        backend = backend_of(spec)
        if backend.detects_mode:
            modes[name] = structured_mode(spec, recorder) or "not detected"
        else:
            modes[name] = backend.structured_note
    return modes
