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
from anonygraph.llm.registry import BACKENDS, backend_of, check_installed, parse_spec
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
