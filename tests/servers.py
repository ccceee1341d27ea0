"""Local HTTP servers for tests: llama-cpp-python's server, a recording proxy, a fake.

The fake OpenAI-compatible endpoint exists only for faults the real server
cannot show on demand (429, 5xx, a fixed latency); everything else runs
against `llama_cpp.server`.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer as _StdThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest


class ThreadingHTTPServer(_StdThreadingHTTPServer):
    """The standard threaded server with a listen backlog a test's clients fit.

    The standard backlog is 5: a client pool opening ~24 connections at once
    had some reset (`httpx.ReadError`), a fault of the test server, not of
    the code under test.
    """

    request_queue_size = 256


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fail_or_skip(message: str) -> None:
    """A component that cannot start fails the run under CI, else skips."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


class LlamaServer:
    """`python -m llama_cpp.server` on 127.0.0.1, serving one GGUF file."""

    def __init__(
        self, model: Path, port: int, log: Path, threads: int = 2, chat_format: str = ""
    ) -> None:
        self.model, self.port, self.log, self.threads = model, port, log, threads
        self.chat_format = chat_format
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout: float = 90.0) -> None:
        command = [
            sys.executable, "-m", "llama_cpp.server", "--model", str(self.model),
            "--model_alias", "smol", "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", "4096", "--n_threads", str(self.threads),
            "--n_threads_batch", str(self.threads), "--seed", "0",
        ]  # fmt: skip
        if self.chat_format:
            command += ["--chat_format", self.chat_format]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/models", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        self.stop()
        tail = self.log.read_text(errors="replace")[-1500:]
        fail_or_skip(f"llama_cpp.server did not start on {self.url}:\n{tail}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class _Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def read_body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def reply(self, status: int, body: bytes, headers: dict[str, str] | None = None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()


class RecordingProxy:
    """Forward requests to an upstream server; log each answer that was delivered.

    ``answered`` holds (sha256 of the request body, status) for every response
    written back in full, so a test can tell whether a finished call repeated.
    """

    def __init__(
        self, upstream_port: int, port: int, answer_limit: int | None = None
    ) -> None:
        self.upstream_port, self.port = upstream_port, port
        self.answered: list[tuple[str, int]] = []
        self.answer_limit = answer_limit
        """After this many answers, cut every connection (the server is gone)."""
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        proxy = self

        class Handler(_Quiet):
            def do_GET(self) -> None:
                self.forward(b"")

            def do_POST(self) -> None:
                self.forward(self.read_body())

            def forward(self, body: bytes) -> None:
                limit = proxy.answer_limit
                if limit is not None and len(proxy.answered) >= limit:
                    self.close_connection = True  # as if the server died here
                    return
                upstream = http.client.HTTPConnection(
                    "127.0.0.1", proxy.upstream_port, timeout=600
                )
                try:
                    upstream.request(self.command, self.path, body, {
                        "Content-Type": "application/json"})  # fmt: skip
                    answer = upstream.getresponse()
                    data = answer.read()
                except OSError:
                    self.close_connection = True  # the client sees a cut connection
                    return
                self.reply(answer.status, data)
                proxy.answered.append((hashlib.sha256(body).hexdigest(), answer.status))

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


class FakeOpenAI:
    """A fixed-latency OpenAI-compatible endpoint with scripted failures.

    ``statuses`` are returned in order for the first requests (200 after
    them); ``hold_until`` keeps each request open until that many are in
    flight (or ``latency`` passed), so concurrency shows without timing.
    ``answer`` is the reply's text, or a function of the request body
    returning it (to answer each role of a graph); a request asking to
    stream gets it as server-sent events of ``stream_piece`` characters.
    """

    def __init__(
        self,
        statuses: list[int] | None = None,
        latency: float = 0.0,
        hold_until: int = 0,
        answer: str | Callable[[dict[str, Any]], str] = "{}",
        refuse: tuple[str, ...] = (),
        stream_piece: int = 4,
    ) -> None:
        self.statuses = list(statuses or [])
        self.stream_piece = stream_piece
        """Characters per streamed chunk (a request with ``stream: true``)."""
        self.latency, self.hold_until, self.answer = latency, hold_until, answer
        self.refuse = refuse
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str] = []
        """The Authorization header of each request ('' when none)."""
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Condition()
        self.port = free_port()
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> FakeOpenAI:
        fake = self

        class Handler(_Quiet):
            def do_POST(self) -> None:
                body = json.loads(self.read_body() or b"{}")
                with fake.lock:
                    fake.requests.append(body)
                    fake.authorizations.append(self.headers.get("Authorization", ""))
                    status = fake.statuses.pop(0) if fake.statuses else 200
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                    fake.lock.notify_all()
                    if fake.hold_until:
                        fake.lock.wait_for(
                            lambda: fake.in_flight >= fake.hold_until, fake.latency
                        )
                if not fake.hold_until and fake.latency:
                    time.sleep(fake.latency)
                with fake.lock:
                    fake.in_flight -= 1
                refused = [f for f in fake.refuse if f in json.dumps(body)]
                if refused:
                    error = {"error": {"message": f"unsupported field {refused[0]}"}}
                    return self.reply(400, json.dumps(error).encode())
                if status != 200:
                    error = {"error": {"message": f"scripted status {status}"}}
                    headers = {"Retry-After": "0"} if status == 429 else {}
                    return self.reply(status, json.dumps(error).encode(), headers)
                answer = fake.answer(body) if callable(fake.answer) else fake.answer
                if body.get("stream"):
                    return self.stream(body, answer)
                self.reply(200, json.dumps(completion(body, answer)).encode())

            def stream(self, body: dict[str, Any], answer: str) -> None:
                # Server-sent events, the answer cut every `stream_piece`
                # characters (so a placeholder can straddle two chunks).
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                size = fake.stream_piece
                pieces = [answer[i : i + size] for i in range(0, len(answer), size)]
                for i, piece in enumerate(pieces):
                    finish = "stop" if i == len(pieces) - 1 else None
                    delta = {"content": piece}
                    if i == 0:
                        delta["role"] = "assistant"
                    chunk = {
                        "id": "cmpl-1", "object": "chat.completion.chunk",
                        "created": int(time.time()), "model": body.get("model", "fake"),
                        "choices": [
                            {"index": 0, "delta": delta, "finish_reason": finish}
                        ],
                    }  # fmt: skip
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()


def completion(request: dict[str, Any], answer: str) -> dict[str, Any]:
    """An OpenAI chat completion carrying ``answer`` (as a tool call if asked)."""
    message: dict[str, Any] = {"role": "assistant", "content": answer}
    if request.get("tools"):
        name = request["tools"][0]["function"]["name"]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": name, "arguments": answer}}],
        }  # fmt: skip
    return {
        "id": "cmpl-1",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
    }
