"""`anonygraph serve` as a real uvicorn process on 127.0.0.1 (tests, benchmarks)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from servers import free_port


class Service:
    """One ``anonygraph serve`` process (rules models) over a store in ``folder``."""

    def __init__(self, folder: Path, *flags: str, token: str = "") -> None:
        self.folder = folder
        self.flags = list(flags)
        self.token = token
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "serve.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until it answers its health check."""
        self.port = free_port()
        command = [
            sys.executable, "-m", "anonygraph.cli", "serve", "--port", str(self.port),
            "--db", str(self.folder / "runs.sqlite"), "--max-iterations", "2",
            *self.flags,
        ]  # fmt: skip
        env = {**os.environ, "ANONYGRAPH_TOKEN": self.token}
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/v1/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"serve did not answer in {timeout} s")

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        kwargs.setdefault("headers", self.headers)
        return httpx.request(method, f"{self.url}{path}", timeout=60, **kwargs)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
