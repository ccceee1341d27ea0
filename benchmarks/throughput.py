"""Can one `anonygraph run` keep a batched server busy? Records/minute and CPU.

A local OpenAI-compatible server (its own process, asyncio) answers every
request after a fixed latency, scripting RLAA's three steps, and counts the
requests in flight. One run of RLAA at ``--concurrency C`` (default 128)
works two kinds of records, each kind timed on its own:

- ``one_call``: a text without a cue; the attacker finds nothing, so a
  record makes exactly one model call.
- ``realistic``: a text naming Calgary two or three times; each round the
  attacker finds it, the arbitrator grades it high and the anonymizer
  generalizes one mention, until none is left: 7 or 10 calls a record.

Figures, per kind and code version:

- ``records_per_minute`` over the run's wall time (the process's start-up
  and a warm-up batch left out), and ``ideal_records_per_minute`` = C x 60 /
  (model calls per record x latency): what the server could take.
  ``ideal_ratio`` is their quotient (goals: >= 0.6 one-call, >= 0.8 realistic).
- ``cpu_ms_per_record``: CPU time of the run's process (all its threads) per
  record. The model's time is spent in the server process, so this is the
  cost per record outside model calls: graph, store, checkpoints, HTTP client.
- ``peak_in_flight``: the most requests the server held at once.

The versions run in the same benchmark run, alternately, on the same
records: ``current`` (this tree), ``baseline`` (the code at ``--baseline``,
default the commit before the model and run layers were split, extracted with
git archive) and ``floor``: RLAA's graph with nothing in it, the same steps,
routers and model calls per record (raw posts through the chat backend's own
httpx clients), checkpointed by this tree's SQLite saver with
``durability="sync"``, and no store, prompts, chat model layer or cue check.
The floor is what LangGraph and its checkpoints cost before anonygraph adds
anything: no run of this graph shape and durability can cost less. Two more
split ``current``'s cost: ``no_similarity`` and ``no_checks`` (`CHECKS`).
``cpu_over_baseline`` is a version's CPU per record over the baseline's (goal
for ``current``: <= 0.5); each figure is the best of ``--repeats``.

Run: PYTHONPATH=. python benchmarks/throughput.py [--records 2048]
     [--realistic-records 512] [--concurrency 128] [--latency 1.0]
     [--repeats 2] [--baseline f8a5490] [--only VERSION]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from servers import completion, free_port  # noqa: E402

BASELINE = "f8a5490"
"""The commit whose code this benchmark compares against (main before issue 22)."""

# --- The scripted server ---------------------------------------------------


class Server:
    """Fixed-latency OpenAI-compatible endpoint answering RLAA's steps."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.in_flight = self.peak = self.requests = 0

    def answer(self, request: dict[str, Any]) -> str:
        """The step's answer, read from the request's schema name and text."""
        name = (
            (request.get("response_format") or {})
            .get("json_schema", {})
            .get("name", "")
        )
        prompt = str(request["messages"][-1]["content"])
        found = re.search(r"^<text>\n(.*?)\n</text>$", prompt, re.S | re.M)
        text = found.group(1) if found else ""
        if name == "ArbitrationAnswer":
            return json.dumps(
                {"city_country": {"validity": "high", "evidence": ["Calgary"],
                                  "concept": "the city", "notes": "named"}}
            )  # fmt: skip
        if name == "Rewrite":
            return json.dumps(
                {"changes": "city", "text": text.replace("Calgary", "a city", 1)}
            )
        guess = (
            {"reasoning": "names Calgary", "guesses": ["Calgary, Canada"],
             "certainty": 5}
            if "Calgary" in text
            else {"reasoning": "no clue", "guesses": [], "certainty": 1}
        )  # fmt: skip
        return json.dumps({"city_country": guess})

    async def handle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """Serve one keep-alive connection."""
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
                length = re.search(r"(?i)content-length:\s*(\d+)", head)
                body = await reader.readexactly(int(length.group(1)) if length else 0)
                if head.startswith("GET /stats"):
                    payload = json.dumps(
                        {"peak": self.peak, "requests": self.requests}
                    ).encode()
                    self.peak = self.requests = 0
                else:
                    request = json.loads(body)
                    self.requests += 1
                    self.in_flight += 1
                    self.peak = max(self.peak, self.in_flight)
                    await asyncio.sleep(self.latency)
                    self.in_flight -= 1
                    answer = completion(request, self.answer(request))
                    payload = json.dumps(answer).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def serve(port: int, latency: float) -> None:
    """Run the scripted server until killed."""
    server = Server(latency)

    async def main() -> None:
        listening = await asyncio.start_server(
            server.handle, "127.0.0.1", port, backlog=1024
        )
        print("ready", flush=True)
        async with listening:
            await listening.serve_forever()

    asyncio.run(main())


def stats(url: str) -> dict[str, int]:
    """Read (and reset) the server's request count and peak in flight."""
    import urllib.request

    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats") as answer:
        return dict(json.loads(answer.read()))


# --- One timed run, in a child process -------------------------------------

CHILD = r"""
import asyncio, json, sys, time, warnings
warnings.simplefilter("ignore")
try:
    from anonygraph.runs.engines.batch import run_batch
    from anonygraph.runs.options import RunOptions
except ImportError:  # the baseline's layout
    from anonygraph.runner import RunOptions, run_batch
import anonygraph.graphs, httpx  # imports before the clock starts

source, warm, folder, url, concurrency, checks = sys.argv[1:7]

def options(path, name):
    return RunOptions(
        method="rlaa", input=path, output=f"{folder}/{name}.jsonl",
        db=f"{folder}/{name}.sqlite", concurrency=int(concurrency), progress=False,
        context={"default_model": f"openai:bench@{url}", "max_iterations": 3,
                 "attributes": ["city_country"], "cache_mode": "off",
                 **json.loads(checks)},
    )

asyncio.run(run_batch(options(warm, "warm")))  # first-use costs, gazetteer
cpu, start = time.process_time(), time.perf_counter()
summary = asyncio.run(run_batch(options(source, "timed")))
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"wall": wall, "cpu": cpu, "done": summary.done,
                  "failed": summary.failed, "calls": summary.totals.get("calls", 0),
                  "failures": summary.failures[:2]}))
"""


FLOOR = r"""
import asyncio, json, operator, sys, time, warnings
from typing import Annotated, TypedDict
warnings.simplefilter("ignore")
from langgraph.graph import END, START, StateGraph
from anonygraph.llm.backends.openai_chat import _shards
from anonygraph.runs.store.checkpointers import open_checkpointer

source, warm, folder, url, concurrency = sys.argv[1:6]
concurrency = int(concurrency)

class State(TypedDict, total=False):
    text: str
    guessed: bool
    round: int
    calls: Annotated[int, operator.add]
    status: str

async def ask(schema, text):
    # The chat backend's own pool of httpx clients (8 requests each).
    shards = _shards(url)
    index = shards.take()
    try:
        body = {"model": "bench", "messages": [
            {"role": "user", "content": f"<text>\n{text}\n</text>"}],
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": schema, "schema": {}}}}
        answer = await shards.clients[index].post(url + "/chat/completions", json=body)
        return json.loads(answer.json()["choices"][0]["message"]["content"])
    finally:
        shards.busy[index] -= 1

async def prepare(state): return {"round": 0, "status": "started"}
async def attack(state):
    guess = (await ask("Guess", state["text"]))["city_country"]
    return {"guessed": bool(guess["guesses"]), "calls": 1}
async def arbitrate(state):
    if not state["guessed"]:
        return {}
    await ask("ArbitrationAnswer", state["text"])
    return {"calls": 1}
async def anonymize(state):
    rewrite = await ask("Rewrite", state["text"])
    return {"text": rewrite["text"], "round": state["round"] + 1, "calls": 1}
async def finish_loop(state): return {"status": "done"}

builder = StateGraph(State)
for node in (prepare, attack, arbitrate, anonymize, finish_loop):
    builder.add_node(node.__name__, node)
builder.add_edge(START, "prepare")
builder.add_edge("prepare", "attack")
builder.add_edge("attack", "arbitrate")
builder.add_conditional_edges(
    "arbitrate",
    lambda s: "anonymize" if s["guessed"] and s["round"] < 3 else "finish_loop",
    ["anonymize", "finish_loop"])
builder.add_edge("anonymize", "attack")
builder.add_edge("finish_loop", END)

async def batch(app, path, tag):
    records = [json.loads(line) for line in open(path)]
    gate = asyncio.Semaphore(concurrency)
    async def one(record):
        async with gate:
            config = {"configurable": {"thread_id": f"{tag}:{record['id']}"}}
            return await app.ainvoke({"text": record["text"]}, config,
                                     durability="sync")
    return await asyncio.gather(*(one(r) for r in records))

async def main():
    async with open_checkpointer(f"{folder}/floor.sqlite") as saver:
        app = builder.compile(checkpointer=saver)
        await batch(app, warm, "warm")
        cpu, start = time.process_time(), time.perf_counter()
        results = await batch(app, source, "timed")
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"wall": wall, "cpu": cpu, "done": len(results), "failed": 0,
                      "calls": sum(r["calls"] for r in results), "failures": []}))

asyncio.run(main())
"""


CHECKS: dict[str, dict[str, Any]] = {
    "no_similarity": {"similarity_min_words": 10**9},
    "no_checks": {"acceptance": False, "cue_check": False},
}
"""This tree with some of its own checks off, to show what they cost:
``no_similarity`` skips the acceptance check's MiniLM similarity floor (one
embedding per new text), ``no_checks`` every acceptance check and the
explicit-cue check of each attacked text. Products of these are not what a
user gets; they split ``current``'s CPU into the checks and the rest."""


def write_records(path: Path, count: int, kind: str) -> None:
    """Write ``count`` records: cue-free (one_call) or naming Calgary 2-3 times."""
    with open(path, "w") as handle:
        for i in range(count):
            if kind == "one_call":
                text = f"Record {i} says the weather was fine and the bus on time."
            else:
                mentions = ", ".join(["Calgary"] * (2 + i % 2))
                text = f"Record {i}: I moved to {mentions} for work last spring."
            handle.write(json.dumps({"id": f"r{i:05d}", "text": text}) + "\n")


def timed_run(
    version: str,
    code: Path,
    source: Path,
    warm: Path,
    url: str,
    concurrency: int,
    folder: Path,
) -> dict[str, Any]:
    """Run one batch of ``version`` with the code at ``code``; return its figures."""
    folder.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": f"{code}:{REPO / 'tests'}"}
    stats(url)  # reset the peak
    script = FLOOR if version == "floor" else CHILD
    done = subprocess.run(
        [sys.executable, "-c", script, str(source), str(warm), str(folder), url,
         str(concurrency), json.dumps(CHECKS.get(version, {}))],
        capture_output=True, text=True, env=env, timeout=1800, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"benchmark run failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["failed"]:
        raise SystemExit(f"records failed: {figures['failures']}")
    figures["peak_in_flight"] = stats(url)["peak"]
    return figures


def baseline_tree(revision: str, folder: Path) -> Path:
    """Extract the package at ``revision`` into ``folder``; return the folder."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", revision, "anonygraph"],
        capture_output=True,
        check=True,
    )
    folder.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def main() -> None:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2048)
    parser.add_argument("--realistic-records", type=int, default=512)
    parser.add_argument("--concurrency", type=int, default=128)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--only", choices=["current", "baseline", "floor", *CHECKS])
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.latency)
        return
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), "--latency",
         str(args.latency)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None and server.stdout.readline().strip() == "ready"
    url = f"http://127.0.0.1:{port}/v1"
    figures: dict[str, Any] = {
        "cpu_cores": os.cpu_count(),
        "concurrency": args.concurrency,
        "latency_s": args.latency,
        "baseline": args.baseline,
    }
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            trees = {"current": REPO, "floor": REPO}
            trees.update(dict.fromkeys(CHECKS, REPO))
            if args.only in (None, "baseline"):
                trees["baseline"] = baseline_tree(args.baseline, folder / "base")
            if args.only is not None:
                trees = {args.only: trees[args.only]}
            kinds = {"one_call": args.records, "realistic": args.realistic_records}
            for kind, count in kinds.items():
                source, warm = folder / f"{kind}.jsonl", folder / f"{kind}-warm.jsonl"
                write_records(source, count, kind)
                write_records(warm, min(count, args.concurrency), kind)
                runs: dict[str, list[dict[str, Any]]] = {v: [] for v in trees}
                for repeat in range(args.repeats):
                    for version, code in trees.items():
                        runs[version].append(
                            timed_run(
                                version, code, source, warm, url, args.concurrency,
                                folder / f"{kind}-{version}-{repeat}",
                            )
                        )  # fmt: skip
                figures[kind] = {v: summarize(r, args) for v, r in runs.items()}
                if "baseline" in runs:
                    base = figures[kind]["baseline"]["cpu_ms_per_record"]
                    for version in runs.keys() - {"baseline"}:
                        figures[kind][version]["cpu_over_baseline"] = round(
                            figures[kind][version]["cpu_ms_per_record"] / base, 3
                        )
    finally:
        server.kill()
    print(json.dumps(figures, indent=2))  # noqa: T201


def summarize(runs: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """Turn the repeats' raw figures into rates and ratios (best of each)."""
    run = {
        "done": runs[0]["done"],
        "calls": runs[0]["calls"],
        "wall": min(r["wall"] for r in runs),
        "cpu": min(r["cpu"] for r in runs),
        "peak_in_flight": max(r["peak_in_flight"] for r in runs),
    }
    calls = run["calls"] / run["done"]
    rate = run["done"] / run["wall"] * 60
    ideal = args.concurrency * 60 / (calls * args.latency)
    return {
        "records": run["done"],
        "calls_per_record": round(calls, 2),
        "seconds": round(run["wall"], 2),
        "records_per_minute": round(rate, 1),
        "ideal_records_per_minute": round(ideal, 1),
        "ideal_ratio": round(rate / ideal, 3),
        "cpu_ms_per_record": round(run["cpu"] / run["done"] * 1000, 2),
        "peak_in_flight": run["peak_in_flight"],
    }


if __name__ == "__main__":
    main()
