"""Which host names stay on this machine (the service's binding, a Ray address)."""

from __future__ import annotations

import ipaddress


def is_loopback(host: str) -> bool:
    """Tell whether ``host`` is a loopback address (or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
