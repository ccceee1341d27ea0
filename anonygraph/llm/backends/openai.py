"""The ``openai:NAME[@URL]`` backend: OpenAI or any OpenAI-compatible server.

vLLM, llama.cpp's server and LM Studio speak the same API but accept
different structured-output requests: the mode is found per server
(`anonygraph.llm.structured`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel

from anonygraph.llm.backends.base import ServerBackend
from anonygraph.llm.decoding import Decoding
from anonygraph.llm.spec import ModelSpec
from anonygraph.llm.structured import MODES, bind_mode

TOOL_TURN_TEXT = " "
"""Text sent with an assistant turn that only calls tools (see `server_tool_turns`)."""


def server_tool_turns(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Give the agent's tool-call turns text before they go back to a server.

    langchain-openai sends a turn with tool calls and no text as
    ``content: null``, which OpenAI accepts and llama-cpp-python's server
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
        """Return a `ChatOpenAI` client with its own HTTP client and no retries."""
        try:
            import httpx
            from langchain_openai import ChatOpenAI
        except ImportError as exc:
            raise self.missing_package(spec, exc) from exc
        # Self-hosted servers (vLLM, llama.cpp, LM Studio) read `max_tokens`
        # and often need no key; OpenAI itself wants max_completion_tokens.
        tokens: dict[str, Any] = (
            {"extra_body": {"max_tokens": decoding.max_tokens}}
            if spec.base_url
            else {"max_completion_tokens": decoding.max_tokens}
        )
        if spec.base_url and not os.environ.get("OPENAI_API_KEY"):
            tokens["api_key"] = "not-needed"
        return cast(
            BaseChatModel,
            ChatOpenAI(
                model=spec.name,
                base_url=spec.base_url,
                temperature=decoding.temperature,
                top_p=decoding.top_p,
                max_retries=0,  # retried by our layer, which names the server
                # No client timeout: `with_retries` bounds each request by the
                # run's `request_timeout`, which one cached client cannot know.
                timeout=None,
                # Its own client: langchain-openai's shared default is tied
                # to the first event loop that used it. No cap on connections:
                # httpx's default of 100 held a run at --concurrency 128 under
                # 100 requests in flight; the run's concurrency bounds them.
                # Idle ones kept: httpx's 20. Keeping more makes httpcore scan
                # every connection for each idle one at each request (measured
                # 8.3 ms of CPU a request at 64 kept and 128 in flight, 3.0 ms
                # at 20).
                http_async_client=httpx.AsyncClient(
                    timeout=None,
                    limits=httpx.Limits(
                        max_connections=None, max_keepalive_connections=20
                    ),
                ),
                **tokens,
            ),
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
