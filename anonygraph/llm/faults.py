"""Server faults: which failures are worth a retry, and the bounded backoff."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

R = TypeVar("R")

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
"""Statuses that say "try again later" (rate limits, overload, gateways)."""

_TIMEOUTS = ("APITimeoutError", "TimeoutException", "ReadTimeout", "ConnectTimeout")
_CONNECTIONS = (
    "APIConnectionError",
    "ConnectError",
    "RemoteProtocolError",
    "ConnectionError",
    "ReadError",
)


@dataclass(frozen=True)
class ServerPolicy:
    """How long to wait for a server and how often to try again.

    A run reads it from its context (``server_retries``, ``server_backoff``,
    ``server_max_backoff``, ``request_timeout``; flags ``--server-retries`` ...),
    whose defaults come from ``ANONYGRAPH_SERVER_RETRIES``,
    ``ANONYGRAPH_SERVER_BACKOFF`` (first wait, seconds; doubled each time, at
    most ``ANONYGRAPH_SERVER_MAX_BACKOFF``) and ``ANONYGRAPH_REQUEST_TIMEOUT``
    (seconds per request).
    """

    retries: int = 4
    backoff: float = 1.0
    max_backoff: float = 30.0
    timeout: float = 300.0

    @classmethod
    def from_context(cls, context: Any) -> ServerPolicy:
        """Read the policy from a run's context (`ModelContext` fields).

        A context without these fields (a caller's own) falls back to the
        environment; a `ModelContext` reads the same variables as its defaults.
        """
        env = cls.from_env()
        return cls(
            retries=int(getattr(context, "server_retries", env.retries)),
            backoff=float(getattr(context, "server_backoff", env.backoff)),
            max_backoff=float(getattr(context, "server_max_backoff", env.max_backoff)),
            timeout=float(getattr(context, "request_timeout", env.timeout)),
        )

    @classmethod
    def from_env(cls) -> ServerPolicy:
        """Read the policy from the environment, falling back to the defaults."""
        env = os.environ.get
        return cls(
            retries=int(env("ANONYGRAPH_SERVER_RETRIES", cls.retries)),
            backoff=float(env("ANONYGRAPH_SERVER_BACKOFF", cls.backoff)),
            max_backoff=float(env("ANONYGRAPH_SERVER_MAX_BACKOFF", cls.max_backoff)),
            timeout=float(env("ANONYGRAPH_REQUEST_TIMEOUT", cls.timeout)),
        )

    def wait(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based)."""
        delay = self.backoff * 2**attempt
        if retry_after is not None:
            delay = max(delay, retry_after)
        return float(min(delay, self.max_backoff))


@dataclass(frozen=True)
class Fault:
    """What went wrong with one request."""

    status: int | None
    """HTTP status, or None when no answer came (refused, timed out, cut off)."""
    reason: str
    retry: bool
    body: str = ""
    retry_after: float | None = None

    def describe(self) -> str:
        """Say what happened, status first."""
        head = f"HTTP {self.status}" if self.status is not None else self.reason
        return head if self.status is None else f"{head}: {self.reason}"


class ServerError(RuntimeError):
    """A model server kept failing (or refused the request) after the retries."""

    def __init__(self, url: str, fault: Fault, attempts: int) -> None:
        """Describe the fault with the server's URL and the last status."""
        super().__init__(
            f"server {url} failed after {attempts} attempt(s): {fault.describe()}"
        )
        self.url = url
        self.fault = fault
        self.attempts = attempts


def classify(exc: BaseException) -> Fault | None:
    """Turn a client exception into a `Fault`; None when it is not a server fault."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        body = _body_text(exc)
        return Fault(
            status,
            body[:300] or type(exc).__name__,
            status in RETRY_STATUSES,
            body,
            _retry_after(exc),
        )
    if names & set(_TIMEOUTS) or isinstance(exc, TimeoutError):
        return Fault(None, "request timed out", True)
    if names & set(_CONNECTIONS) or isinstance(exc, ConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f" ({type(cause).__name__}: {cause})" if cause else ""
        return Fault(None, f"connection failed{detail}"[:300], True)
    return None


async def with_retries(
    request: Callable[[], Awaitable[R]],
    policy: ServerPolicy,
    url: str,
    *,
    refused: Callable[[Fault], bool] = lambda fault: False,
) -> R:
    """Await ``request``, retrying faults worth a retry with backoff.

    Raises:
        ServerError: naming ``url`` and the last status, once the retries are
            spent, at once for a fault not worth retrying, or when ``refused``
            says the server refused the request's shape.
    """
    for attempt in range(policy.retries + 1):
        try:
            # The policy's timeout, not the client's: runs set it per context.
            return await asyncio.wait_for(request(), policy.timeout)
        except Exception as exc:
            fault = classify(exc)
            if fault is None:
                raise
            if refused(fault) or not fault.retry or attempt == policy.retries:
                raise ServerError(url, fault, attempt + 1) from exc
            await asyncio.sleep(policy.wait(attempt, fault.retry_after))
    raise AssertionError("unreachable")  # pragma: no cover


def _body_text(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if body is not None and not isinstance(body, str):
        try:
            import json

            return json.dumps(body, default=str)
        except (TypeError, ValueError):
            return str(body)
    return str(body or getattr(exc, "message", "") or exc)


def _retry_after(exc: BaseException) -> float | None:
    response: Any = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
