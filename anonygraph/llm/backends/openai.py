"""The ``openai:NAME[@URL]`` backend: OpenAI or any OpenAI-compatible server.

vLLM, llama.cpp's server and LM Studio speak the same API but accept
different structured-output requests: the mode is found per server
(`anonygraph.llm.structured`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel

from anonygraph.llm.backends.base import ServerBackend
from anonygraph.llm.decoding import Decoding
from anonygraph.llm.spec import ModelSpec, ModelSpecError
from anonygraph.llm.structured import MODES, bind_mode

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

TOOL_TURN_TEXT = " "
"""Text sent with an assistant turn that only calls tools (see `server_tool_turns`)."""


def server_tool_turns(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Give the agent's tool-call turns text before they go back to a server.

    A turn with tool calls and no text goes out as ``content: null``
    (`openai_chat.message_json`), which OpenAI accepts and llama-cpp-python's server
    refuses (HTTP 500, "Input should be a valid string"), failing every turn
    after the first; a single space is accepted by both.
    """
    return [
        message.model_copy(update={"content": TOOL_TURN_TEXT})
        if isinstance(message, AIMessage) and message.tool_calls and not message.content
        else message
        for message in messages
    ]


class OpenAIBackend(ServerBackend):
    """OpenAI's API, or a self-hosted server that speaks it."""

    name = "openai"
    detects_mode = True
    url_variable = "OPENAI_BASE_URL"
    default_url = "https://api.openai.com/v1"

    def load(self, spec: ModelSpec, decoding: Decoding) -> BaseChatModel:
        """Return an `OpenAIChat` client for the spec's server."""
        try:
            from anonygraph.llm.backends.openai_chat import OpenAIChat
        except ImportError as exc:
            raise self.missing_package(spec, exc) from exc
        url = self.server_url(spec)
        key = os.environ.get("OPENAI_API_KEY", "")
        if not key and url == self.default_url:
            raise ModelSpecError(
                f"model spec {str(spec)!r} asks OpenAI's API: set OPENAI_API_KEY, "
                "or name a self-hosted server (openai:NAME@http://host:8000/v1)"
            )
        # Self-hosted servers (vLLM, llama.cpp, LM Studio) read `max_tokens`;
        # OpenAI itself wants max_completion_tokens.
        hosted = url != self.default_url
        return OpenAIChat(
            model=spec.name,
            base_url=url,
            api_key=key,
            temperature=decoding.temperature,
            top_p=decoding.top_p,
            max_tokens=None if hosted else decoding.max_tokens,
            extra_body={"max_tokens": decoding.max_tokens} if hosted else {},
        )

    def constrain(
        self,
        model: BaseChatModel,
        spec: ModelSpec,
        schema: type[BaseModel],
        mode: str = "",
    ) -> Any:
        """Ask in the server's structured-output mode (the first one by default)."""
        return bind_mode(model, mode or MODES[0], schema)

    def tool_turns(self, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
        """Give tool-call turns the text a llama.cpp server insists on."""
        return server_tool_turns(messages)


BACKEND = OpenAIBackend()
