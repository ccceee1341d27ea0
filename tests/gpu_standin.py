"""A model with a fixed compute time, one call at a time per process: a GPU's stand-in.

`install` replaces the model layer's loader with scripted RLAA roles (as
`fixed_model` answers them) whose every call holds a process-wide lock for
``GPU_SECONDS``: a worker process then makes at most 1 / GPU_SECONDS calls a
second, however many records it runs at once, as a model on one GPU would.
Ray workers run it as a `worker_process_setup_hook`; a local run calls it.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable

from scripted import Script, attack_json, rewrite_json, verdicts_json

from anonygraph import models

DEVICE = threading.Lock()


def _computed(answer: Callable[[str], str]) -> Callable[[str], str]:
    seconds = float(os.environ.get("GPU_SECONDS", "0.05"))

    def reply(prompt: str) -> str:
        with DEVICE:
            time.sleep(seconds)
        return answer(prompt)

    return reply


def _rewrite(prompt: str) -> str:
    found = re.search(r"record (r\d+)", prompt)
    return rewrite_json(f"record {found.group(1) if found else '?'} lives in a city")


def install() -> None:
    script = Script()
    script.set(
        "attacker",
        _computed(
            lambda p: attack_json(
                city_country=("Calgary, Canada", 5) if "Calgary" in p else None
            )
        ),
    )
    script.set("arbitrator", _computed(lambda p: verdicts_json(city_country="high")))
    script.set("anonymizer", _computed(_rewrite))
    models.load_chat_model = script.load  # type: ignore[assignment]
