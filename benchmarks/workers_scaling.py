"""Shared runs on Postgres: throughput per worker count, store overhead, idle share.

Starts a throw-away Postgres server (Debian's binaries, as the tests do) and
prints JSON with:

- ``throughput``: records/minute of one run worked by 1, 2, 4, 8 worker
  processes (concurrency 1 each) with a scripted model that answers after a
  fixed latency; the speed-up over one worker (goal: 4 workers >= 3.5x).
  Timed from the moment every worker has imported its code to the last
  one's exit (interpreter start-up left out), and "steady" from the first
  record's start to the last record's end (worker start-up left out too).
- ``outside_model_share``: the share of the workers' wall time spent outside
  model calls (goal <= 2 %), for each worker count: 1 - model seconds /
  (workers x wall seconds).
- ``overhead_ms_per_record``: run store + checkpoint cost per record on
  SQLite and on Postgres (goals <= 5 ms and <= 20 ms): the same records with
  a zero-latency model through `run_batch`, minus the bare graph with an
  in-memory checkpointer and no store; also split into a marginal cost per
  record and a fixed cost per run (see `overhead`). The goals are in
  milliseconds, which depend on the machine: ``*_over_bare_ratio`` (the
  store run's time over the bare graph's, both measured in this run) is the
  figure to compare between machines.

Worker processes share the machine's cores with the Postgres server: on a
2-core box 4 workers already compete for them and 8 are over-subscribed, so
their speed-up measures the cores as much as the code.

Run: PYTHONPATH=. python benchmarks/workers_scaling.py [RECORDS] [LATENCY_S]
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from postgres import create_database, start_postgres  # noqa: E402
from scripted import Script, attack_json, rewrite_json, verdicts_json  # noqa: E402
from shared_run import cli, write_child, write_records  # noqa: E402

from anonygraph.graphs import GRAPHS  # noqa: E402
from anonygraph.inputs import read_records  # noqa: E402
from anonygraph.llm import loading
from anonygraph.runs.batch import run_batch  # noqa: E402
from anonygraph.runs.options import RunOptions, build_context  # noqa: E402
from anonygraph.runs.records import graph_input, invoke_thread  # noqa: E402
from anonygraph.runs.store import RunStore  # noqa: E402

CONTEXT: dict[str, Any] = {
    "default_model": "local",  # the scripted model stands in for every role
    "attributes": ["city_country"],
    "max_iterations": 2,
    "cache_mode": "off",
}


def throughput(
    server: str, folder: Path, workers: int, records: int, latency: float
) -> dict[str, Any]:
    """Time one run of ``records`` worked by ``workers`` processes."""
    url = create_database(server, f"bench_workers_{workers}")
    source = folder / f"in{workers}.jsonl"
    write_records(source, records)
    db = RunStore(url)
    run_id = f"bench-{workers}"
    db.start_run(run_id, "rlaa", {}, str(source), str(folder / "out.jsonl"))
    db.register_job(run_id, "rlaa", CONTEXT, list(read_records(str(source))))  # type: ignore[arg-type]
    child = write_child(folder)
    procs = [
        cli(child, "worker", "--db", url, "--run", run_id, "--no-progress",
            latency=latency, lease=30, wait_for_go=True)
        for _ in range(workers)
    ]  # fmt: skip
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    codes = [proc.wait(timeout=600) for proc in procs]
    wall = time.perf_counter() - start
    totals = db.run_totals(run_id)
    # From the first record's start to the last one's end: leaves out each
    # worker's own start-up (connecting, compiling the graph) and exit.
    window = db.db.one(
        "select max(updated) - min(updated - wall_seconds) from records "
        "where run_id = ?",
        [run_id],
    )[0]
    db.close()
    return {
        "workers": workers,
        "exit_codes": codes,
        "records_done": totals["records"],
        "seconds": round(wall, 2),
        "records_per_minute": round(totals["records"] / wall * 60, 1),
        "steady_seconds": round(window, 2),
        "steady_records_per_minute": round(totals["records"] / window * 60, 1),
        "model_calls": totals["calls"],
        "outside_model_share": round(1 - totals["model_seconds"] / (workers * wall), 4),
    }


def _script() -> None:
    script = Script()
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("record lives in a city somewhere"))
    loading.load_chat_model = script.load  # type: ignore[assignment]


async def _bare(source: Path) -> float:
    from langgraph.checkpoint.memory import InMemorySaver

    # Timed from the same point as `run_batch`: building the run's context and
    # compiling the graph (about 35 ms on a 2-core box) are no store cost.
    start = time.perf_counter()
    context = build_context("rlaa", CONTEXT)
    app = GRAPHS["rlaa"]().compile(checkpointer=InMemorySaver(), name="rlaa")
    for record in read_records(str(source)):
        _, error = await invoke_thread(app, record.id, graph_input(record), context)  # type: ignore[union-attr]
        assert error is None, error
    return time.perf_counter() - start


def overhead(
    server: str, folder: Path, records: int, repeats: int = 3
) -> dict[str, Any]:
    """Milliseconds per record that the store and checkpoints add, per backend.

    Each backend runs ``repeats`` times on a fresh store, each time after the
    bare graph; the fastest run of each counts (the others lost time to
    other processes).
    ``*_overhead_ms_per_record`` is the whole difference over ``records``
    records. It holds a cost per run too (creating and closing the store
    files, a disk flush each): a quarter as many records run as well, and
    the difference of the two splits the overhead into ``marginal`` (per
    record) and ``fixed`` (per run). ``*_each_repeat`` shows how far single
    repeats spread (each run minus the bare graph run just before it), which
    on a shared machine is often wider than the figure itself.
    """
    _script()
    few = max(1, records // 4)
    sources = {n: folder / f"overhead{n}.jsonl" for n in (records, few)}
    for n, source in sources.items():
        write_records(source, n)
    asyncio.run(_bare(sources[records]))  # warm-up: imports, prompt templates
    best: dict[tuple[str, int], float] = {}
    paired: dict[str, list[float]] = {"sqlite": [], "postgres": []}
    # SQLite's runs first, then Postgres's: a Postgres server keeps working a
    # while after a run (WAL writer, autovacuum of the new tables), which would
    # otherwise land on the SQLite run that follows it. The bare graph runs
    # before each, so both backends are compared with the same conditions.
    for backend in ("sqlite", "postgres"):
        for rep, (n, source) in itertools.product(range(repeats), sources.items()):
            key = ("bare", n)
            bare = asyncio.run(_bare(source))
            best[key] = min(best.get(key, 1e9), bare)
            db = (
                str(folder / f"overhead{rep}-{n}.sqlite")
                if backend == "sqlite"
                else create_database(server, f"bench_overhead_{rep}_{n}")
            )
            options = RunOptions(
                method="rlaa",
                input=str(source),
                output=str(folder / f"overhead-{backend}-{rep}-{n}.jsonl"),
                db=db,
                context=CONTEXT,
                progress=False,
            )
            start = time.perf_counter()
            summary = asyncio.run(run_batch(options))
            seconds = time.perf_counter() - start
            assert summary.done == n, summary.report()
            key = (backend, n)
            best[key] = min(best.get(key, 1e9), seconds)
            if n == records:
                paired[backend].append((seconds - bare) / records * 1000)
    figures: dict[str, Any] = {"records": records, "repeats": repeats}
    for name in ("bare", "sqlite", "postgres"):
        seconds = best[(name, records)]
        figures[f"{name}_ms_per_record"] = round(seconds / records * 1000, 2)
        if name == "bare":
            continue
        extra = seconds - best[("bare", records)]
        figures[f"{name}_overhead_ms_per_record"] = round(extra / records * 1000, 2)
        figures[f"{name}_over_bare_ratio"] = round(seconds / best[("bare", records)], 3)
        extra_few = best[(name, few)] - best[("bare", few)]
        marginal = (extra - extra_few) / (records - few) if records > few else 0.0
        figures[f"{name}_overhead_marginal_ms_per_record"] = round(marginal * 1000, 2)
        figures[f"{name}_overhead_fixed_ms_per_run"] = round(
            (extra - marginal * records) * 1000, 1
        )
        spread = sorted(paired[name])
        figures[f"{name}_overhead_ms_per_record_each_repeat"] = {
            "median": round(statistics.median(spread), 2),
            "min": round(spread[0], 2),
            "max": round(spread[-1], 2),
        }
    return figures


def main() -> None:
    """Print the figures as JSON."""
    records = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    latency = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
    server, stop = start_postgres(durable=True)
    figures: dict[str, Any] = {
        "cpu_cores": os.cpu_count(),
        "records": records,
        "model_latency_s": latency,
    }
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            # The overhead first, on a quiet server: after the throughput runs
            # (15 workers' databases) it goes on working for a while.
            figures["overhead"] = overhead(server, folder, 40, repeats=5)
            runs = [
                throughput(server, folder, n, records, latency) for n in (1, 2, 4, 8)
            ]
            one = runs[0]["records_per_minute"]
            steady = runs[0]["steady_records_per_minute"]
            for run in runs:
                run["speedup"] = round(run["records_per_minute"] / one, 2)
                run["steady_speedup"] = round(
                    run["steady_records_per_minute"] / steady, 2
                )
            figures["throughput"] = runs
    finally:
        stop()
    print(json.dumps(figures, indent=2))  # noqa: T201


if __name__ == "__main__":
    main()
