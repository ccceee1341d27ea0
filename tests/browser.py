"""Headless Debian chromium driven over the DevTools protocol, for page tests.

The browser starts with an empty profile and every background service off, so
the only requests it makes are the page's own, which the tests record.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--remote-debugging-port=0",
)


class BrowserUnavailableError(RuntimeError):
    """chromium is missing or did not start."""


def find_chromium() -> str | None:
    """Return the chromium binary, if installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Chromium:
    """One headless browser process and one page of it."""

    def __init__(self, binary: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="anonygraph-chromium-")
        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        port = self._port()
        with urllib.request.urlopen(
            urllib.request.Request(f"http://127.0.0.1:{port}/json/new", method="PUT"),
            timeout=10,
        ) as reply:
            target = json.load(reply)
        self.stack = ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(target["webSocketDebuggerUrl"], max_size=None, open_timeout=10)
        )
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        self.send("Page.enable")
        self.send("Network.enable")
        self.send("Runtime.enable")

    def _port(self) -> int:
        marker = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                stderr = self.process.stderr
                error = stderr.read().decode() if stderr else ""
                raise BrowserUnavailableError(f"chromium exited: {error[-2000:]}")
            if marker.exists() and marker.read_text().strip():
                return int(marker.read_text().split()[0])
            time.sleep(0.05)
        self.close()
        raise BrowserUnavailableError("chromium did not open its DevTools port in 30 s")

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call a DevTools method and return its result (events are kept)."""
        call_id = next(self.ids)
        self.ws.send(json.dumps({"id": call_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=60))
            if message.get("id") == call_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self.events.append(message)

    def wait_for(self, event: str, timeout: float = 60) -> dict[str, Any]:
        """Wait for an event (or find it among those already received)."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.events:
                if message.get("method") == event:
                    self.events.remove(message)
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(event)
            self.events.append(json.loads(self.ws.recv(timeout=left)))

    def open(self, path: Path, width: int = 1280, height: int = 900) -> None:
        """Load a local file and wait until it has loaded."""
        self.open_url(path.resolve().as_uri(), width, height)

    def open_url(self, url: str, width: int = 1280, height: int = 900) -> None:
        """Load a URL in a window ``width`` pixels wide and wait until it has loaded."""
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def wait_until(self, expression: str, timeout: float = 30) -> Any:
        """Poll an expression in the page until it is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.1)

    def requests(self) -> list[str]:
        """URLs the page asked for since it was opened (the page itself included)."""
        self.send("Runtime.evaluate", expression="1")  # flush pending events
        return [
            m["params"]["request"]["url"]
            for m in self.events
            if m.get("method") == "Network.requestWillBeSent"
        ]

    def js(self, expression: str) -> Any:
        """Evaluate an expression in the page and return its value."""
        result = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, full_page: bool = False) -> Path:
        """Save a PNG of the page."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", **params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        """Stop the browser and remove its profile."""
        try:
            if hasattr(self, "stack"):
                self.stack.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            shutil.rmtree(self.profile, ignore_errors=True)


def required() -> bool:
    """True when a missing browser must fail the run (CI) instead of skipping."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@contextmanager
def chromium_or_skip() -> Iterator[Chromium]:
    """Yield a started headless chromium; skip without one (fail under CI)."""
    import pytest

    binary = find_chromium()
    if binary is None:
        message = "chromium is not installed (make test installs it)"
        if required():
            pytest.fail(message)
        pytest.skip(message)
    try:
        browser = Chromium(binary)
    except BrowserUnavailableError as exc:
        if required():
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    try:
        yield browser
    finally:
        browser.close()
