"""LangGraph imported without its server client, which comes on first use."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import sys
    from anonygraph.tools.langgraph_import import defer_sdk_init
    defer_sdk_init()
    import langgraph.graph
    from langgraph.runtime import Runtime
    deferred = "langgraph_sdk.client" not in sys.modules
    import langgraph_sdk
    from langgraph_sdk import get_client  # its own names come on first use
    from langgraph_sdk.auth.types import BaseUser
    print(deferred, callable(get_client), "langgraph_sdk.client" in sys.modules,
          bool(langgraph_sdk.__version__), "__getattr__" in vars(langgraph_sdk))
    """
)


def test_when_langgraph_is_imported_then_its_sdk_client_waits_for_a_use() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "True", "False"]
