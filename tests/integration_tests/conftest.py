"""Session-wide real servers: llama-cpp-python's OpenAI-compatible server."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from servers import LlamaServer, fail_or_skip, free_port

from anonygraph import llm


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """One `llama_cpp.server` serving the embedded GGUF for the whole session."""
    if importlib.util.find_spec("fastapi") is None:
        fail_or_skip("llama_cpp.server needs llama-cpp-python[server]: make install")
    log = Path(tmp_path_factory.mktemp("llama-server")) / "server.log"
    server = LlamaServer(llm.embedded_model_path(), free_port(), log)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def llama_tool_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[LlamaServer]:
    """A second `llama_cpp.server` whose chat format calls tools (OpenAI `tools`)."""
    if importlib.util.find_spec("fastapi") is None:
        fail_or_skip("llama_cpp.server needs llama-cpp-python[server]: make install")
    log = Path(tmp_path_factory.mktemp("llama-tool-server")) / "server.log"
    server = LlamaServer(
        llm.embedded_model_path(),
        free_port(),
        log,
        chat_format="chatml-function-calling",
    )
    server.start()
    yield server
    server.stop()
