"""Shared runs in subprocesses: a scripted, slow model behind the real CLI.

Used by the worker tests and by benchmarks/workers_scaling.py. Each process runs
``anonygraph`` (run, worker, status, export) with every role answered by the
scripted models of tests/scripted.py after a fixed sleep, so several worker
processes overlap the way they would on model servers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent

CHILD = """
import os, re, sys, time
sys.path.insert(0, {tests!r})
from scripted import Script, attack_json, rewrite_json, verdicts_json
from anonygraph import cli
from anonygraph.llm import loading

LATENCY = float(os.environ.get("SCRIPTED_LATENCY", "0.05"))

def slow(answer):
    def reply(prompt):
        time.sleep(LATENCY)
        return answer(prompt) if callable(answer) else answer
    return reply

def rewrite(prompt):
    rid = re.search(r"record (r\\d+)", prompt).group(1)
    return rewrite_json("record " + rid + " lives in a city somewhere")

script = Script()
script.set("attacker", slow(attack_json(city_country=("Calgary, Canada", 5))))
script.set("arbitrator", slow(verdicts_json(city_country="high")))
script.set("anonymizer", slow(rewrite))
loading.load_chat_model = script.load
if os.environ.get("WAIT_FOR_GO"):
    # Benchmarks time the work, not the interpreter start: imports first.
    import anonygraph.runs.shared, anonygraph.runs.checkpointers, psycopg
    import langgraph.checkpoint.postgres
    print("ready", flush=True)
    sys.stdin.readline()
cli.run(sys.argv[1:])
"""

RUN_FLAGS = [
    "--attributes", "city_country", "--max-iterations", "2", "--cache", "off",
    "--model", "local",
    "--no-progress",
]  # fmt: skip


def write_child(folder: Path) -> Path:
    """Write the scripted CLI program into ``folder``; return its path."""
    child = folder / "child.py"
    child.write_text(textwrap.dedent(CHILD.format(tests=str(TESTS))))
    return child


def write_records(path: Path, count: int) -> list[str]:
    """Write ``count`` records that leak a city; return their ids."""
    ids = [f"r{i:03d}" for i in range(count)]
    path.write_text(
        "".join(
            json.dumps({"id": rid, "text": f"record {rid} lives in Calgary"}) + "\n"
            for rid in ids
        )
    )
    return ids


def cli(
    child: Path,
    *args: str,
    latency: float = 0.05,
    lease: float = 3.0,
    wait_for_go: bool = False,
) -> subprocess.Popen[str]:
    """Start the scripted CLI with ``args``; the caller waits for it.

    With ``wait_for_go`` the process prints "ready" once imported and starts
    on a line on its standard input.
    """
    env = {
        **os.environ,
        "SCRIPTED_LATENCY": str(latency),
        "ANONYGRAPH_LEASE_SECONDS": str(lease),
        "WAIT_FOR_GO": "1" if wait_for_go else "",
    }
    return subprocess.Popen(
        [sys.executable, str(child), *args],
        stdin=subprocess.PIPE if wait_for_go else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def output_by_id(path: Path) -> dict[str, tuple[str, str]]:
    """Read an output JSONL as id -> (text, status); fail on a repeated id."""
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    ids = [x["id"] for x in lines]
    assert len(ids) == len(set(ids)), f"repeated ids in {path}"
    return {x["id"]: (x["text"], x["status"]) for x in lines}
