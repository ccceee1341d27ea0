"""The model layer: role -> chat model, structured answers, call accounting.

Graph steps call `ask_structured` (or `ask_with_tools`); a role's model is
named by a spec string (``local``, ``rules``, ``llamacpp:PATH``,
``ollama:NAME``, ``openai:NAME@URL``, ``hf:ID``) parsed once into a
`ModelSpec` and served by one backend module of `anonygraph.llm.backends`
(`anonygraph.llm.registry` maps prefixes to them). Calls are kept by the
recorder the run layer installs (`anonygraph.llm.recording`); this package
never touches a store. Tests replace `anonygraph.llm.loading.load_chat_model`
to script every role.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anonygraph.llm.ask import (
        ask_structured,
        ask_with_tools,
        constrained,
        supports_tools,
    )
    from anonygraph.llm.backends.llamacpp import embedded_model_path, require_llama_cpp
    from anonygraph.llm.decoding import ROLE_DECODING, ROLES, Decoding, decoding_for
    from anonygraph.llm.errors import ModelOutputError, ModelServerError
    from anonygraph.llm.modes import (
        remember_tools_refused,
        search_fallbacks,
        structured_modes,
        tools_refused,
    )
    from anonygraph.llm.registry import (
        BACKENDS,
        backend_of,
        check_installed,
        parse_spec,
    )
    from anonygraph.llm.repair import parse_json_answer
    from anonygraph.llm.settings import CallSettings, settings_for
    from anonygraph.llm.spec import ModelSpec, ModelSpecError

__all__ = [
    "BACKENDS",
    "ROLES",
    "ROLE_DECODING",
    "CallSettings",
    "Decoding",
    "ModelOutputError",
    "ModelServerError",
    "ModelSpec",
    "ModelSpecError",
    "ask_structured",
    "ask_with_tools",
    "backend_of",
    "check_installed",
    "constrained",
    "decoding_for",
    "embedded_model_path",
    "parse_json_answer",
    "parse_spec",
    "remember_tools_refused",
    "require_llama_cpp",
    "search_fallbacks",
    "settings_for",
    "structured_modes",
    "supports_tools",
    "tools_refused",
]

_HOMES: dict[str, str] = {
    "ask_structured": "anonygraph.llm.ask",
    "ask_with_tools": "anonygraph.llm.ask",
    "constrained": "anonygraph.llm.ask",
    "supports_tools": "anonygraph.llm.ask",
    "embedded_model_path": "anonygraph.llm.backends.llamacpp",
    "require_llama_cpp": "anonygraph.llm.backends.llamacpp",
    "ROLE_DECODING": "anonygraph.llm.decoding",
    "ROLES": "anonygraph.llm.decoding",
    "Decoding": "anonygraph.llm.decoding",
    "decoding_for": "anonygraph.llm.decoding",
    "ModelOutputError": "anonygraph.llm.errors",
    "ModelServerError": "anonygraph.llm.errors",
    "remember_tools_refused": "anonygraph.llm.modes",
    "search_fallbacks": "anonygraph.llm.modes",
    "structured_modes": "anonygraph.llm.modes",
    "tools_refused": "anonygraph.llm.modes",
    "BACKENDS": "anonygraph.llm.registry",
    "backend_of": "anonygraph.llm.registry",
    "check_installed": "anonygraph.llm.registry",
    "parse_spec": "anonygraph.llm.registry",
    "parse_json_answer": "anonygraph.llm.repair",
    "CallSettings": "anonygraph.llm.settings",
    "settings_for": "anonygraph.llm.settings",
    "ModelSpec": "anonygraph.llm.spec",
    "ModelSpecError": "anonygraph.llm.spec",
}
"""Name of `__all__` -> the module that defines it.

Imported on first use (`__getattr__`): a module that needs one light part
(``anonygraph.llm.decoding``, ``anonygraph.llm.spec``) imports this package
first, and importing every part here would load LangChain for it, about a
second of a command's start (``anonygraph detect``, ``--help``)."""


def __getattr__(name: str) -> Any:
    """Import ``name`` from its module on first use (PEP 562), or a submodule."""
    home = _HOMES.get(name)
    if home is None:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(
                f"module {__name__!r} has no attribute {name!r}"
            ) from None
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
