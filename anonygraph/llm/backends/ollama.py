"""The ``ollama:NAME[@URL]`` backend: a model served by Ollama."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from anonygraph.llm.backends.base import ServerBackend
from anonygraph.llm.decoding import Decoding
from anonygraph.llm.spec import ModelSpec

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


class OllamaBackend(ServerBackend):
    """An Ollama server; answers decode under the JSON schema (``format``)."""

    name = "ollama"
    structured_note = "format=JSON schema"
    url_variable = "OLLAMA_HOST"
    default_url = "http://localhost:11434"

    def load(self, spec: ModelSpec, decoding: Decoding) -> BaseChatModel:
        """Return a `ChatOllama` client without a timeout of its own."""
        try:
            from langchain_ollama import ChatOllama
        except ImportError as exc:
            raise self.missing_package(spec, exc) from exc
        # No client timeout: `with_retries` bounds each request by the run's
        # `request_timeout`, which one cached client cannot know.
        return cast(
            "BaseChatModel",
            ChatOllama(
                model=spec.name,
                base_url=spec.base_url,
                temperature=decoding.temperature,
                top_p=decoding.top_p,
                num_predict=decoding.max_tokens,
                client_kwargs={"timeout": None},
            ),
        )

    def constrain(
        self,
        model: BaseChatModel,
        spec: ModelSpec,
        schema: type[BaseModel],
        mode: str = "",
    ) -> Any:
        """Decode under the schema (Ollama's ``format`` takes a JSON schema)."""
        return model.bind(format=schema.model_json_schema())


BACKEND = OllamaBackend()
