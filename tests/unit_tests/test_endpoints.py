"""Model server pools: round-robin over real HTTP servers, bounded in flight."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from pydantic import BaseModel
from servers import ThreadingHTTPServer

from anonygraph.llm import ModelSpecError, ask_structured, loading, parse_spec
from anonygraph.llm.endpoints import EndpointPool


class Answer(BaseModel):
    """The scripted servers' answer."""

    server: int


class Server:
    """An OpenAI-compatible chat server that counts its calls and overlap."""

    def __init__(self, number: int, delay: float) -> None:
        self.number, self.delay = number, delay
        self.calls = self.running = self.most = 0
        self.formats: list[Any] = []
        self.token_limits: list[Any] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.calls += 1
                    server.running += 1
                    server.most = max(server.most, server.running)
                    server.formats.append(body.get("response_format"))
                    server.token_limits.append(body.get("max_tokens"))
                time.sleep(server.delay)
                with server.lock:
                    server.running -= 1
                answer = json.dumps({"server": server.number})
                payload = json.dumps({
                    "id": "x", "object": "chat.completion", "created": 0,
                    "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": answer}}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2,
                              "total_tokens": 5},
                }).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Server]]:
    monkeypatch.setenv("OPENAI_API_KEY", "not-used-by-local-servers")
    started = [Server(0, 0.1), Server(1, 0.1)]
    yield started
    for server in started:
        server.httpd.shutdown()


class Ctx:
    """The few Context fields the model layer reads."""

    def __init__(self, spec: str) -> None:
        self.models = {"anonymizer": spec}
        self.max_retries = 0


def test_when_a_role_names_two_servers_then_calls_alternate_within_the_limit(
    servers: list[Server],
) -> None:
    spec = f"openai:pooled@{servers[0].url},{servers[1].url}"
    pool = loading.load_chat_model(spec, "anonymizer")
    assert isinstance(pool, EndpointPool) and pool.urls == [s.url for s in servers]
    pool.limit = 2

    async def many() -> list[tuple[Answer, list[dict[str, Any]]]]:
        return await asyncio.gather(
            *(
                ask_structured("anonymizer", f"q{i}", Answer, Ctx(spec), step="s")
                for i in range(12)
            )
        )

    async def one_by_one() -> list[int]:
        return [
            (await ask_structured("anonymizer", "q", Answer, Ctx(spec), step="s"))[
                0
            ].server
            for _ in range(4)
        ]

    assert asyncio.run(one_by_one()) in ([0, 1, 0, 1], [1, 0, 1, 0])  # in turn
    answers = asyncio.run(many())

    assert [s.calls for s in servers] == [2 + a for a in (6, 6)] or (
        sum(s.calls for s in servers) == 16 and min(s.calls for s in servers) >= 6
    )
    assert max(s.most for s in servers) <= 2  # never more than the limit at once
    assert len(answers) == 12 and {a.server for a, _ in answers} == {0, 1}
    # The JSON schema reached whichever server answered, beside the token limit.
    formats = servers[0].formats + servers[1].formats
    assert all(f["type"] == "json_schema" for f in formats)
    limits = servers[0].token_limits + servers[1].token_limits
    assert len(set(limits)) == 1 and isinstance(limits[0], int)
    assert pool.running() == [0, 0]


def test_when_a_pool_names_a_url_without_a_scheme_then_the_spec_is_refused() -> None:
    assert parse_spec("openai:m@http://a/v1,http://b/v1").base_url == (
        "http://a/v1,http://b/v1"
    )
    with pytest.raises(ModelSpecError, match="must start with http"):
        parse_spec("openai:m@http://a/v1,b:8000")
