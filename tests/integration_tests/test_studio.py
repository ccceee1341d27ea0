"""`langgraph dev` serves every registered graph offline."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from anonygraph.graphs import EVALUATOR, GRAPHS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_when_langgraph_json_is_read_then_it_lists_the_registry() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert sorted(config["graphs"]) == sorted({**GRAPHS, **EVALUATOR})


def test_when_langgraph_dev_starts_then_it_lists_every_graph_as_an_assistant(
    tmp_path: Path,
) -> None:
    binary = shutil.which("langgraph") or str(Path(sys.executable).parent / "langgraph")
    port = free_port()
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
    }
    server = subprocess.Popen(
        [binary, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/ok", timeout=2)
                break
            except OSError:
                assert server.poll() is None, "langgraph dev exited"
                assert time.monotonic() < deadline, "langgraph dev did not start"
                time.sleep(0.5)
        request = urllib.request.Request(
            f"{base}/assistants/search",
            data=b"{}",
            headers={"content-type": "application/json"},
        )
        assistants = json.load(urllib.request.urlopen(request, timeout=10))
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert sorted(a["graph_id"] for a in assistants) == sorted({**GRAPHS, **EVALUATOR})
