"""What the service runs with: address, token, store, method, limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.runs.engines.hosts import is_loopback


class BindingError(ValueError):
    """An address the service may not listen on as configured."""


@dataclass(frozen=True)
class ServiceSettings:
    """The service's configuration (the ``serve`` command's flags)."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str = ""
    """Bearer token every request must carry; '' : none (loopback only)."""
    db: str = "runs.sqlite"
    """The run store batches live in."""
    batch_dir: str = ""
    """Where batch inputs and outputs are kept; '' : beside the store."""
    input_dir: str = ""
    """Folder a batch may name a server-side file in; '': none may be named."""
    method: str = "rlaa"
    context: dict[str, Any] = field(default_factory=dict)
    """The method's `Context` fields (models, max_iterations, ...)."""
    concurrency: int = 2
    """Texts anonymized at once by ``POST /v1/anonymize``."""
    queue: int = 8
    """Requests that may wait for a free slot; one more is answered 429."""
    batch_concurrency: int = 2
    """Records of a batch run at once."""
    max_batches: int = 16
    """Batches that may wait to run; one more is answered 429."""
    max_body: int = 8 << 20
    """Largest request body, in bytes (413 above)."""
    upstream: str = ""
    """The gateway's upstream model, ``openai:NAME@URL``; '': no gateway."""
    upstream_key_variable: str = "OPENAI_API_KEY"
    """The environment variable holding the upstream's API key."""
    upstream_timeout: float = 600.0
    """Seconds the gateway waits for the upstream (504 after)."""
    restore: bool = True
    """Put original values back in the gateway's answers."""
    on_failure: str = "block"
    """A gateway rewrite that fails its checks: ``block`` or ``identifiers_only``."""

    @property
    def batches(self) -> Path:
        """The folder of batch files (created 0700)."""
        if self.batch_dir:
            return Path(self.batch_dir)
        store = Path(self.db)
        return store.with_name(store.name + ".batches")


def check_binding(settings: ServiceSettings) -> None:
    """Refuse to listen beyond this machine without a token.

    Raises:
        BindingError: naming the address and the flag that allows it.
    """
    if not is_loopback(settings.host) and not settings.token:
        raise BindingError(
            f"--host {settings.host} is reachable from other machines: give a "
            "bearer token with --token (or $ANONYGRAPH_TOKEN) that every request "
            "must carry, or bind to 127.0.0.1"
        )
