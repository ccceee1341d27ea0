"""LangGraph imported without the client code it brings, which comes on first use."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import sys
    from anonygraph.tools.langgraph_import import DEFERRED, defer_inits
    defer_inits()
    import langgraph.graph
    from langgraph.runtime import Runtime
    from langsmith.run_trees import RunTree
    loaded = ("langgraph_sdk.client", "langsmith.types.run")
    deferred = not any(name in sys.modules for name in loaded)
    import langgraph_sdk
    import langsmith.types
    # Their own names come on first use, and then every one of them.
    from langgraph_sdk import get_client
    from langsmith.types import Run
    from langgraph_sdk.auth.types import BaseUser
    print(deferred, callable(get_client), Run.__name__,
          all(name in sys.modules for name in loaded),
          bool(langgraph_sdk.__version__),
          any("__getattr__" in vars(sys.modules[name]) for name in DEFERRED))
    """
)


def test_when_langgraph_is_imported_then_its_client_code_waits_for_a_use() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "Run", "True", "True", "False"]
