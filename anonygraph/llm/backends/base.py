"""What every backend answers: how a spec becomes a chat model and how it is asked.

A backend is one module under `anonygraph.llm.backends` holding an instance
of a `Backend` subclass; `anonygraph.llm.registry` maps spec prefixes to
them. The model layer asks a backend for what differs (loading, constrained
decoding, sending) and reads its capabilities from attributes, never from its
name.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from anonygraph.llm.decoding import Decoding
from anonygraph.llm.faults import ServerPolicy, with_retries
from anonygraph.llm.spec import ModelSpec, ModelSpecError
from anonygraph.llm.structured import refused_field

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


class Backend:
    """One kind of model; subclasses override what their kind does differently."""

    name: str = ""
    """The spec prefix (``openai``)."""
    takes_name: bool = True
    """Whether a spec names a model after the prefix (``openai:NAME``)."""
    takes_urls: bool = False
    """Whether a spec may name servers (``@URL`` or ``@URL1,URL2``)."""
    calls_tools: bool = False
    """Whether its chat models take tools natively (``bind_tools``)."""
    answers_from_cues: bool = False
    """Whether it answers from the explicit-cue detectors and no model: the same
    facts get the same answer, and its detectors need no second check."""
    detects_mode: bool = False
    """Whether the structured-output mode is found per server (`structured`)."""
    structured_note: str = "answers built in-process"
    """How structured answers are asked for, for run summaries."""
    extra: str = ""
    """The ``anonygraph[EXTRA]`` that installs its optional packages."""

    def plays(self, role: str) -> bool:
        """Tell whether this backend can play ``role`` (every model can)."""
        return True

    def check_installed(self, spec: ModelSpec) -> None:
        """Raise `ModelSpecError` when the backend's package is missing."""

    def load(self, spec: ModelSpec, decoding: Decoding) -> BaseChatModel:
        """Return the chat model of ``spec`` decoding with ``decoding``.

        Raises:
            ModelSpecError: when the spec cannot become a chat model here.
        """
        raise NotImplementedError

    def answer_facts(
        self,
        role: str,
        schema: type[BaseModel],
        facts: Mapping[str, Any] | None,
        step: str,
    ) -> BaseModel:
        """Answer from the facts a step formats into its prompt (no model).

        Only backends that ``answers_from_cues`` answer this way.
        """
        raise NotImplementedError

    def constrain(
        self,
        model: BaseChatModel,
        spec: ModelSpec,
        schema: type[BaseModel],
        mode: str = "",
    ) -> Any:
        """Bind schema-constrained decoding to ``model`` where the backend has it.

        The default returns ``model`` itself: the prompt then spells out the
        schema, and the answer is parsed and repaired.
        """
        return model

    def server_url(self, spec: ModelSpec) -> str:
        """Return the base URL the backend talks to ('' for in-process ones)."""
        return ""

    def tool_turns(self, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
        """Shape a tool-calling conversation for the backend (as it is by default)."""
        return list(messages)

    async def send(
        self,
        model: Any,
        spec: ModelSpec,
        messages: Sequence[BaseMessage],
        policy: ServerPolicy,
        mode: str = "",
    ) -> BaseMessage:
        """Ask ``model`` once; server backends retry faults under ``policy``."""
        answer: BaseMessage = await model.ainvoke(list(messages))
        return answer

    def missing_package(self, spec: ModelSpec, exc: ImportError) -> ModelSpecError:
        """Name the optional package a spec needs and how to install it."""
        return ModelSpecError(
            f"model spec {str(spec)!r} needs an optional package: "
            f"pip install 'anonygraph[{self.extra or self.name}]' "
            f"({exc.name} is missing)"
        )


class ServerBackend(Backend):
    """A backend that sends HTTP requests to a model server (or a pool of them)."""

    takes_urls = True
    calls_tools = True
    url_variable: str = ""
    """The environment variable naming the default server."""
    default_url: str = ""

    def server_url(self, spec: ModelSpec) -> str:
        """Return the spec's server, else the environment's, else the default."""
        return spec.base_url or os.environ.get(self.url_variable, self.default_url)

    async def send(
        self,
        model: Any,
        spec: ModelSpec,
        messages: Sequence[BaseMessage],
        policy: ServerPolicy,
        mode: str = "",
    ) -> BaseMessage:
        """Ask the server, retrying faults worth a retry (`faults.with_retries`).

        A request the server refuses for the structured-output mode's own
        field is not retried: the caller moves on to the next mode.
        """
        answer: BaseMessage = await with_retries(
            lambda: model.ainvoke(list(messages)),
            policy,
            self.server_url(spec),
            refused=lambda f: refused_field(mode, f.status, f.body),
        )
        return answer


def role_name(message: BaseMessage) -> str:
    """Return the chat-template role of a message (``user``, ``assistant``, ...)."""
    return {"human": "user", "ai": "assistant", "system": "system"}.get(
        message.type, "user"
    )
