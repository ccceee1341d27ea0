"""A model spec string (``openai:NAME@URL``) as a typed value."""

from __future__ import annotations

from dataclasses import dataclass

SPEC_FORMS = (
    "local, rules, llamacpp:PATH.gguf, ollama:NAME, openai:NAME[@BASE_URL], hf:ID"
)
"""The accepted spec forms, for error messages."""


class ModelSpecError(ValueError):
    """Raised for a model spec anonygraph cannot turn into a chat model."""


def split_urls(base_url: str) -> list[str]:
    """Split a spec's ``URL1,URL2`` part into its URLs (one URL stays one)."""
    return [u.strip() for u in base_url.split(",") if u.strip()]


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec string such as ``ollama:llama3.1:8b``.

    Made by `anonygraph.llm.parse_spec`, which checks the backend prefix
    against the backend registry; hashable, so loaded models are cached by it.
    """

    backend: str
    """The prefix naming the backend (a key of `anonygraph.llm.registry.BACKENDS`)."""
    name: str = ""
    base_url: str | None = None
    """``URL`` or ``URL1,URL2`` (a pool of servers), for server backends."""

    @property
    def urls(self) -> list[str]:
        """Return the servers the spec names (empty for in-process backends)."""
        return split_urls(self.base_url or "")

    def __str__(self) -> str:
        tail = f"@{self.base_url}" if self.base_url else ""
        return f"{self.backend}:{self.name}{tail}" if self.name else self.backend
