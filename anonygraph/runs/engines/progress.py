"""Progress of one text through a graph: a line per finished step, slow models named.

`invoke_with_progress` runs a compiled graph as ``ainvoke`` does (the last
``values`` chunk is its result) while it streams the step updates, and says
for each step its round, its name and its seconds. `SlowCallWatch` is the
model layer's call recorder for that run: it keeps nothing, but says once
per role when a single model answer took longer than ``slow_seconds``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from anonygraph.llm import backend_of, parse_spec
from anonygraph.llm.recording import CallRecord, NoRecorder, Slot, recording

Say = Callable[[str], None]
"""Where progress lines go (the command prints them on stderr)."""

SLOW_SECONDS = 20.0
"""One model answer taking longer than this is worth a warning."""

EMBEDDED = frozenset({"local", "llamacpp", "hf"})
"""Backends that run the model in this process, on its CPU unless a GPU is there."""


class SlowCallWatch(NoRecorder):
    """Keeps no call, but warns once per role and model when an answer is slow."""

    def __init__(self, say: Say, slow_seconds: float = SLOW_SECONDS) -> None:
        """Warn through ``say`` about answers slower than ``slow_seconds``."""
        self.say = say
        self.slow_seconds = slow_seconds
        self.warned: set[tuple[str, str]] = set()

    def ended(
        self, call: CallRecord, slot: Slot | None = None, answer: Any = None
    ) -> None:
        """Warn about a slow answer, once per role and model."""
        seconds = float(call.get("seconds") or 0.0)
        key = (str(call.get("role", "?")), str(call.get("model", "?")))
        if seconds < self.slow_seconds or key in self.warned:
            return
        self.warned.add(key)
        self.say(
            f"slow model: the {key[0]} ({key[1]}) took {seconds:.1f} s for one "
            f"answer at step {call.get('step', '?')} (said once per role and model)"
        )


def embedded_roles(context: Any) -> dict[str, list[str]]:
    """Return model spec -> roles, for the specs that run in this process.

    The default model stands for every role not named (shown as ``default``).
    """
    specs = {"default": str(getattr(context, "default_model", "local"))}
    specs |= {k: str(v) for k, v in (getattr(context, "models", {}) or {}).items()}
    found: dict[str, list[str]] = {}
    for role, text in specs.items():
        spec = parse_spec(text)
        if spec.backend in EMBEDDED and not backend_of(spec).answers_from_cues:
            found.setdefault(text, []).append(role)
    return found


def slow_model_note(context: Any) -> str:
    """Say up front when a role's model runs in this process (slow on a CPU)."""
    found = embedded_roles(context)
    if not found:
        return ""
    cores = os.cpu_count() or 1
    which = "; ".join(f"{spec} for {', '.join(roles)}" for spec, roles in found.items())
    return (
        f"note: the model runs in this process ({which}) on {cores} CPU core(s): "
        "expect a minute or more per step; each step is shown as it ends"
    )


async def invoke_with_progress(
    graph: Any,
    payload: dict[str, Any],
    context: Any,
    say: Say,
    *,
    slow_seconds: float = SLOW_SECONDS,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run ``graph`` on ``payload``; say each step as it ends; return the output.

    Each line reads ``round R · STEP · S s (total T s)``; the round is one more
    than the rounds the state counts (``round``) when the step started.
    """
    start = last = time.perf_counter()
    rounds = 0
    result: dict[str, Any] = {}
    with recording(SlowCallWatch(say, slow_seconds)):
        async for mode, chunk in graph.astream(
            payload, config, context=context, stream_mode=["updates", "values"]
        ):
            if mode == "values":
                result = dict(chunk)
                continue
            now = time.perf_counter()
            for step, update in chunk.items():
                if step.startswith("__"):
                    continue
                say(
                    f"round {rounds + 1} · {step} · {now - last:.1f} s "
                    f"(total {now - start:.1f} s)"
                )
                if isinstance(update, dict) and isinstance(update.get("round"), int):
                    rounds = update["round"]
            last = now
    return result
