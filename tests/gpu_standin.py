"""A model with a fixed compute time, one call at a time per process: a GPU's stand-in.

`install` replaces the model layer's loader with the scripted RLAA roles of
`scripted.calgary_script`, each call of which holds a process-wide lock for
``GPU_SECONDS``: a worker process then makes at most 1 / GPU_SECONDS calls a
second, however many records it runs at once, as a model on one GPU would.
Ray workers run it as a `worker_process_setup_hook`; a local run calls it.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from scripted import calgary_script

from anonygraph.llm import loading

DEVICE = threading.Lock()


def _computed(answer: Any, seconds: float) -> Any:
    def reply(prompt: str) -> Any:
        with DEVICE:
            time.sleep(seconds)
        return answer(prompt) if callable(answer) else answer

    return reply


def install() -> None:
    seconds = float(os.environ.get("GPU_SECONDS", "0.05"))
    script = calgary_script()
    for model in script.models.values():
        model.answers = [_computed(a, seconds) for a in model.answers]
    loading.load_chat_model = script.load  # type: ignore[assignment]
