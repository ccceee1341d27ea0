"""SIGKILL a batch run at random moments, then finish it and check the output.

Shared by the unit test (20 kills) and benchmarks/kill_resume.py (100 kills).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent

CHILD = """
import os, random, re, sys, time
sys.path.insert(0, {tests!r})
from scripted import Script, attack_json, rewrite_json, verdicts_json
from anonygraph import cli
from anonygraph.llm import loading

calls = open({calls!r}, "a")

def slow(answer):
    def reply(prompt):
        calls.write("call\\n"); calls.flush()
        time.sleep(random.uniform(0.005, 0.03))
        return answer(prompt) if callable(answer) else answer
    return reply

def rewrite(prompt):
    rid = re.search(r"record (r\\d+)", prompt).group(1)
    return rewrite_json("record " + rid + " lives in a city somewhere")

script = Script()
script.set(
    "attacker",
    slow(
        lambda p: attack_json(
            city_country=("Calgary, Canada", 5) if "Calgary" in p else None
        )
    ),
)
script.set("arbitrator", slow(verdicts_json(city_country="high")))
script.set("anonymizer", slow(rewrite))
loading.load_chat_model = script.load
if os.environ.get("FORK_SERVER"):
    # Imports done once: each "go" line forks a fresh run, so a kill costs
    # no interpreter start-up.
    for _ in sys.stdin:
        pid = os.fork()
        if pid == 0:
            random.seed(os.getpid())
            os._exit(cli.main(sys.argv[1:]))
        print(pid, flush=True)
        print(os.waitpid(pid, 0)[1], flush=True)
    sys.exit(0)
sys.exit(cli.main(sys.argv[1:]))
"""


def kill_loop(
    folder: Path, *, kills: int, records: int, seed: int, concurrency: int = 2
) -> dict[str, Any]:
    """Run, kill ``kills`` times at random moments, finish, check; return figures."""
    rng = random.Random(seed)
    ids = [f"r{i:03d}" for i in range(records)]
    source = folder / "in.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": rid, "text": f"record {rid} lives in Calgary"}) + "\n"
            for rid in ids
        )
    )
    child = folder / "child.py"
    calls = folder / "calls.log"
    calls.touch()
    child.write_text(textwrap.dedent(CHILD.format(tests=str(TESTS), calls=str(calls))))
    output, db = folder / "out.jsonl", folder / "runs.sqlite"
    command = [
        sys.executable, str(child), "run", "--input", str(source),
        "--output", str(output), "--db", str(db), "--attributes", "city_country",
        "--max-iterations", "2", "--cache", "off", "--no-progress",
        "--concurrency", str(concurrency), "--model", "local",
    ]  # fmt: skip
    figures: dict[str, Any] = {"kills": 0, "finished_early": 0}
    start = time.perf_counter()
    server = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "FORK_SERVER": "1"},
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    for _ in range(kills):
        seen = calls.stat().st_size
        server.stdin.write("go\n")
        server.stdin.flush()
        pid = int(server.stdout.readline())
        # Kill at a random moment once the run is working (its first model
        # call), not while it is still reading its files.
        deadline = time.monotonic() + 60
        while calls.stat().st_size == seen:
            assert time.monotonic() < deadline, "the run never called a model"
            try:
                os.kill(pid, 0)  # the server reaps it at once when it ends
            except ProcessLookupError:
                break
            time.sleep(0.005)
        else:
            time.sleep(rng.uniform(0.0, 0.4))
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        status = int(server.stdout.readline())
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            figures["kills"] += 1
        else:
            figures["finished_early"] += 1
    server.stdin.close()
    server.wait(timeout=60)
    final = subprocess.run(command, capture_output=True, text=True, timeout=600)
    figures["seconds"] = round(time.perf_counter() - start, 1)
    figures["final_exit"] = final.returncode
    figures["final_summary"] = final.stderr.strip().splitlines()
    lines = [json.loads(x) for x in output.read_text().splitlines()]
    figures["output_ids"] = [x["id"] for x in lines]
    figures["bad_texts"] = [
        x["id"]
        for x in lines
        if not x["text"].strip()
        or "Calgary" in x["text"]
        or x["status"] in ("", "running")
    ]
    conn = sqlite3.connect(db)
    figures["integrity"] = conn.execute("pragma integrity_check").fetchone()[0]
    row = conn.execute(
        "select count(*), sum(ended is null), "
        "sum(ended is not null and id not in (select id from model_calls)) "
        "from call_log"
    ).fetchone()
    figures["calls_started"], figures["calls_cut_off"], figures["calls_redone"] = (
        row[0],
        row[1] or 0,
        row[2] or 0,
    )
    figures["calls_kept"] = conn.execute("select count(*) from model_calls").fetchone()[
        0
    ]
    conn.close()
    checkpoints = sqlite3.connect(db.with_name("runs.checkpoints.sqlite"))
    figures["checkpoint_integrity"] = checkpoints.execute(
        "pragma integrity_check"
    ).fetchone()[0]
    checkpoints.close()
    figures["ids"] = ids
    return figures
