"""No connection leaves the machine when the environment asks for LangSmith tracing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from servers import ThreadingHTTPServer

TESTS = Path(__file__).resolve().parents[1]

# The child runs a batch with scripted models; a socket guard logs every
# connection or name lookup that is not to this machine.
CHILD = """
import socket, sys
sys.path.insert(0, {tests!r})
log = open({log!r}, "a")
LOCAL = ("127.0.0.1", "::1", "localhost")
real_connect, real_getaddrinfo = socket.socket.connect, socket.getaddrinfo

def connect(self, address):
    if isinstance(address, tuple) and address[0] not in LOCAL:
        log.write("connect %r\\n" % (address,)); log.flush()
        raise OSError("blocked by the test")
    return real_connect(self, address)

def getaddrinfo(host, *args, **kwargs):
    if host not in LOCAL:
        log.write("lookup %r\\n" % (host,)); log.flush()
        raise OSError("blocked by the test")
    return real_getaddrinfo(host, *args, **kwargs)

socket.socket.connect, socket.getaddrinfo = connect, getaddrinfo
from scripted import calgary_script
from anonygraph import cli
from anonygraph.llm import loading
loading.load_chat_model = calgary_script().load
sys.exit(cli.main(sys.argv[1:]))
"""

TRACING_ENV = {
    "LANGSMITH_TRACING": "true",
    "LANGCHAIN_TRACING_V2": "true",
    "LANGSMITH_API_KEY": "lsv2_pt_0000000000000000000000000000000",
    "LANGCHAIN_API_KEY": "lsv2_pt_0000000000000000000000000000000",
    "LANGSMITH_PROJECT": "leak-check",
}


def run_child(tmp_path: Path, env: dict[str, str], *flags: str) -> Path:
    log = tmp_path / "egress.log"
    log.touch()
    child = tmp_path / "child.py"
    child.write_text(textwrap.dedent(CHILD.format(tests=str(TESTS), log=str(log))))
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I live in Calgary."}) + "\n")
    command = [
        sys.executable, str(child), *flags, "run", "--input", str(source),
        "--output", str(tmp_path / "out.jsonl"), "--db", str(tmp_path / "runs.sqlite"),
        "--attributes", "city_country", "--max-iterations", "1", "--no-progress",
        "--model", "local",
    ]  # fmt: skip
    done = subprocess.run(
        command, env={**os.environ, **env}, timeout=120, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    return log


class Listener:
    """A local HTTP endpoint that answers 200 and counts what reaches it."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                hits.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            do_GET = do_POST = do_PATCH = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.hits = hits
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_when_langsmith_variables_point_at_a_local_endpoint_then_it_gets_nothing(
    tmp_path: Path,
) -> None:
    listener = Listener()

    run_child(tmp_path, {**TRACING_ENV, "LANGSMITH_ENDPOINT": listener.url})

    listener.close()
    assert listener.hits == []


def test_when_trace_is_asked_for_then_the_local_endpoint_is_contacted(
    tmp_path: Path,
) -> None:
    # The control: the same listener does see the traces once they are asked for.
    listener = Listener()

    run_child(tmp_path, {**TRACING_ENV, "LANGSMITH_ENDPOINT": listener.url}, "--trace")

    listener.close()
    assert any(hit.startswith("POST") for hit in listener.hits), listener.hits


def test_when_langsmith_variables_name_the_real_endpoint_then_nothing_goes_out(
    tmp_path: Path,
) -> None:
    env = {**TRACING_ENV}
    for name in ("LANGSMITH_ENDPOINT", "LANGCHAIN_ENDPOINT"):
        os.environ.pop(name, None)

    log = run_child(tmp_path, env)

    assert log.read_text() == ""
