"""Every call the Ray engine makes into Ray's private modules, in one place.

Ray offers no public call for what these do (where a token file lives,
whether the driver has the token the cluster asks for, which cluster
``auto`` names, whether a control store answers at an address), and its
private modules change between releases. `PRIVATE` names each of them;
``tests/unit_tests/test_ray_private.py`` looks every one up in the Ray that
is installed, so an upgrade that moves one fails there first, not in a run.
Nothing else in the package reaches into ``ray._private`` or ``ray._raylet``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

PRIVATE: tuple[str, ...] = (
    "ray._private.authentication.authentication_token_setup._get_default_token_path",
    "ray._private.authentication.authentication_token_setup"
    ".maybe_enable_token_auth_if_token_available",
    "ray._private.authentication.authentication_token_setup"
    ".ensure_token_if_auth_enabled",
    "ray._private.authentication.authentication_token_generator"
    ".generate_new_authentication_token",
    "ray._private.services.canonicalize_bootstrap_address",
    "ray._raylet.AuthenticationTokenLoader",
    "ray._raylet.GcsClient",
)
"""Each private name used here, as ``module.attribute``."""


def look_up(name: str) -> Any:
    """Import one of `PRIVATE`'s names from the installed Ray.

    Raises:
        ImportError: when its module is gone.
        AttributeError: when the module no longer has it.
    """
    module, _, attribute = name.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def _auth() -> Any:
    return importlib.import_module(
        "ray._private.authentication.authentication_token_setup"
    )


def default_token_path() -> Path:
    """Name the token file Ray uses when given none (``~/.ray/auth_token``)."""
    auth = _auth()
    return Path(auth._get_default_token_path())


def new_token() -> str:
    """Make a cluster token the way Ray makes one."""
    generator = importlib.import_module(
        "ray._private.authentication.authentication_token_generator"
    )
    return str(generator.generate_new_authentication_token())


def forget_token_lookup() -> None:
    """Make Ray look for its token again (it may have found none before we wrote it)."""
    raylet = importlib.import_module("ray._raylet")
    raylet.AuthenticationTokenLoader.instance().reset_cache()


def check_driver_token(from_this_machine: bool) -> None:
    """Make the checks ``ray.init`` makes of the driver's token, without joining.

    ``from_this_machine``: a token file found here turns token mode on (as
    ``--ray-address auto`` does in Ray).

    Raises:
        Exception: Ray's own error when token mode is on and there is no token.
    """
    auth = _auth()
    if from_this_machine:
        auth.maybe_enable_token_auth_if_token_available(warn_if_disabled=False)
    auth.ensure_token_if_auth_enabled(None, create_token_if_missing=False)


def find_local_cluster() -> str | None:
    """Find what ``auto`` names: ``RAY_ADDRESS``, or a cluster ``ray start`` left here.

    Returns None when there is none.

    Raises:
        ConnectionError: when ``RAY_ADDRESS`` names a cluster that is not there.
    """
    services = importlib.import_module("ray._private.services")
    found = services.canonicalize_bootstrap_address("auto")
    return None if found is None else str(found)


PROBE = """
import json, sys
try:
    from ray._raylet import GcsClient
    GcsClient(address=sys.argv[1])
except BaseException as exc:
    print(json.dumps([type(exc).__name__, str(exc)]))
    sys.exit(1)
"""
"""A child process's script that asks the control store at ``argv[1]`` for its
cluster id; on failure it prints ``[error name, message]`` and exits 1."""
