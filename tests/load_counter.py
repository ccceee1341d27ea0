"""Count in-process model loads in Ray workers (a `worker_process_setup_hook`).

Ray calls `count_llama_loads` in every worker process of a job that names it
in its runtime environment; each load of llama.cpp weights (a `Llama`
built) then appends the process id to the file ``ANONYGRAPH_LOADS`` names.
``ANONYGRAPH_MAX_TOKENS`` caps every role's answer length there, to keep CPU
generation short (the code path is the same, as in test_hf_backend).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any


def count_llama_loads() -> None:
    from types import MappingProxyType

    import llama_cpp

    from anonygraph.llm import decoding

    original = llama_cpp.Llama.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        with open(os.environ["ANONYGRAPH_LOADS"], "a") as log:
            log.write(f"{os.getpid()}\n")
        original(self, *args, **kwargs)

    llama_cpp.Llama.__init__ = counted  # type: ignore[method-assign]
    limit = int(os.environ.get("ANONYGRAPH_MAX_TOKENS", "0"))
    if limit:
        decoding.ROLE_DECODING = MappingProxyType(
            {
                role: dataclasses.replace(params, max_tokens=limit)
                for role, params in decoding.ROLE_DECODING.items()
            }
        )
