"""Errors a model call raises: a server that kept failing, an unusable answer."""

from __future__ import annotations

from typing import Any

from anonygraph.llm.faults import ServerError
from anonygraph.llm.spec import ModelSpecError

__all__ = ["ModelOutputError", "ModelServerError", "ModelSpecError"]


class ModelServerError(RuntimeError):
    """Raised when a role's server kept failing (refused, timed out, 429, 5xx)."""

    def __init__(
        self,
        role: str,
        step: str,
        error: ServerError,
        calls: list[Any],
        hint: str = "Check that the server is up and reachable, then run the "
        "same command again to resume.",
        *,
        refused: bool = False,
    ):
        super().__init__(f"step {step!r}: the {role} model's {error}. {hint}")
        self.role = role
        self.step = step
        self.url = error.url
        self.status = error.fault.status
        self.fault = error.fault.describe()
        """What the server did last, status first (``HTTP 400: ...``)."""
        self.calls = calls
        self.refused = refused
        """Whether the server refused the request's shape (a field it lacks)."""


class ModelOutputError(RuntimeError):
    """Raised when a role's answer stays unusable after the bounded retries."""

    def __init__(
        self,
        role: str,
        step: str,
        reason: str,
        calls: list[dict[str, Any]],
        hint: str = "",
    ):
        hint = hint or (
            f"Try a stronger model (--model {role}=SPEC) or more retries "
            "(--max-retries)."
        )
        super().__init__(
            f"step {step!r}: the {role} model gave no usable answer after "
            f"{len(calls)} attempt(s): {reason}. {hint}"
        )
        self.role = role
        self.step = step
        self.reason = reason
        self.calls = calls
