"""The chat model over a GGUF file run in-process by llama-cpp-python.

Apart from `anonygraph.llm.backends.llamacpp` (the backends) so that naming
a backend, as every run does when it reads its model specs, does not import
LangChain's chat-model base: a ``rules`` run never builds a chat model.
"""

from __future__ import annotations

import atexit
import threading
import time
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from anonygraph.llm.backends.base import role_name
from anonygraph.llm.repetition import REPETITION, RepetitionGuard

_LLAMAS: dict[tuple[str, int], Any] = {}


def _load_llama(path: str, n_ctx: int) -> Any:
    # One Llama per file serves every role: weights load once per process.
    key = (path, n_ctx)
    if key not in _LLAMAS:
        from llama_cpp import Llama

        if not _LLAMAS:
            atexit.register(_close_llamas)
        _LLAMAS[key] = Llama(model_path=path, n_ctx=n_ctx, verbose=False, seed=0)
    return _LLAMAS[key]


def _close_llamas() -> None:
    # Free models before interpreter teardown, when llama.cpp's own finalizer
    # would find its C bindings already gone and print a traceback.
    for llama in _LLAMAS.values():
        llama.close()
    _LLAMAS.clear()


_LLAMA_LOCKS: dict[str, threading.Lock] = {}


class LlamaCppChat(BaseChatModel):
    """Chat model over a local GGUF file run in-process by llama-cpp-python.

    Accepts ``response_format`` (llama.cpp's JSON-schema-constrained decoding)
    as a call or bind keyword.
    """

    model_path: str
    temperature: float = 0.0
    top_p: float | None = None
    max_tokens: int = 512
    n_ctx: int = 8192
    _lock: threading.Lock = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        """Share one lock per model file: a Llama context is not thread-safe."""
        self._lock = _LLAMA_LOCKS.setdefault(self.model_path, threading.Lock())

    @property
    def _llm_type(self) -> str:
        return "llamacpp"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        chat = [{"role": role_name(m), "content": str(m.content)} for m in messages]
        params: dict[str, Any] = {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "stop": stop,
        }
        if self.top_p is not None:
            params["top_p"] = self.top_p
        if "response_format" in kwargs:
            params["response_format"] = kwargs["response_format"]
        with self._lock:
            # Timed inside the lock: calls queued behind others must not count
            # their wait as model time.
            start = time.perf_counter()
            llama = _load_llama(self.model_path, self.n_ctx)
            out = _stream_guarded(llama, chat, params)
            seconds = time.perf_counter() - start
        message = AIMessage(
            content=out["text"],
            usage_metadata={
                "input_tokens": out["prompt_tokens"],
                "output_tokens": out["completion_tokens"],
                "total_tokens": out["prompt_tokens"] + out["completion_tokens"],
            },
            response_metadata={
                "finish_reason": out["finish_reason"],
                "seconds": seconds,
                **({"repeated": out["repeated"]} if out["repeated"] else {}),
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def _stream_guarded(
    llama: Any, chat: list[dict[str, str]], params: dict[str, Any]
) -> dict[str, Any]:
    """Decode streamed, stopping as soon as the answer loops.

    Streaming keeps ``response_format``'s grammar (llama-cpp-python's chat
    handler builds it for a stream as for one answer). A looping answer ends
    with finish reason ``repetition`` and its repeated unit.
    """
    guard = RepetitionGuard()
    tokens = 0
    finish: str | None = None
    stream = llama.create_chat_completion(messages=chat, stream=True, **params)
    try:
        for chunk in stream:
            choice = chunk["choices"][0]
            piece = choice["delta"].get("content")
            if piece is not None:
                tokens += 1  # llama.cpp streams one chunk per token
                if guard.feed(piece):
                    finish = REPETITION
                    break
            if choice.get("finish_reason"):
                finish = choice["finish_reason"]
    finally:
        stream.close()
    # The stream carries no usage. The context holds the prompt and every
    # answer token llama.cpp went on from: all of them after an end-of-text
    # token, all but the last sampled one when it stopped at the limit or was
    # stopped here.
    evaluated = tokens if finish == "stop" else max(tokens - 1, 0)
    return {
        "text": guard.text,
        "finish_reason": finish,
        "repeated": guard.unit,
        "completion_tokens": tokens,
        "prompt_tokens": max(llama.n_tokens - evaluated, 0),
    }
