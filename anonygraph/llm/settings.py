"""What a model call needs from a run's context, read once per call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from anonygraph.llm.backends.base import Backend
from anonygraph.llm.decoding import Decoding, decoding_for
from anonygraph.llm.faults import ServerPolicy
from anonygraph.llm.registry import backend_of, parse_spec
from anonygraph.llm.spec import ModelSpec


@dataclass(frozen=True)
class CallSettings:
    """A role's model, decoding and call settings, from a graph ``Context``."""

    spec: ModelSpec
    backend: Backend = field(compare=False)
    decoding: Decoding
    max_retries: int = 2
    cache_mode: str = "deterministic"
    """off, deterministic (temperature 0) or all."""
    policy: ServerPolicy = ServerPolicy()
    """Retries, backoff and timeout of server requests."""
    endpoint_limit: int | None = None
    """Requests at once per server of a ``URL1,URL2`` pool; None: the pool's own."""
    grow_cut_off: bool = False
    """Ask a cut-off answer again with a larger budget (the paper profile)."""

    @property
    def cacheable(self) -> bool:
        """Tell whether the cache may answer this role's calls."""
        return self.cache_mode == "all" or (
            self.cache_mode == "deterministic" and self.decoding.deterministic
        )


def settings_for(context: Any, role: str) -> CallSettings:
    """Read a role's model spec and call settings from a graph ``Context``.

    Raises:
        ModelSpecError: when the role's spec does not parse.
    """
    specs: dict[str, str] = getattr(context, "models", {}) or {}
    text = specs.get(role) or getattr(context, "default_model", "local")
    spec = parse_spec(str(text))
    # A method's context holds its profile's table and the run's overrides.
    table = getattr(context, "decoding_table", None)
    return CallSettings(
        spec=spec,
        backend=backend_of(spec),
        decoding=decoding_for(role, table() if callable(table) else None),
        max_retries=getattr(context, "max_retries", 2),
        cache_mode=getattr(context, "cache_mode", "deterministic"),
        policy=ServerPolicy.from_context(context),
        endpoint_limit=getattr(context, "endpoint_limit", None),
        grow_cut_off=getattr(context, "profile", "product") == "paper",
    )
