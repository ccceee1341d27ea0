"""What the run store and checkpoints cost a record, on SQLite and on Postgres.

Starts a throw-away Postgres server (Debian's binaries, as the tests do) and
prints JSON with ``overhead``: run store + checkpoint cost per record on
SQLite and on Postgres (goals <= 5 ms and <= 20 ms): the same records with a
zero-latency scripted model through `run_batch`, minus the bare graph with
an in-memory checkpointer and no store; also split into a marginal cost per
record and a fixed cost per run (see `overhead`). The goals are in
milliseconds, which depend on the machine: ``*_over_bare_ratio`` (the store
run's time over the bare graph's, both measured in this run) is the figure
to compare between machines.

Records/minute over several workers and machines is measured on Ray:
benchmarks/ray_scaling.py.

Run: PYTHONPATH=. python benchmarks/store_overhead.py [RECORDS]
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

from city_records import write_records  # noqa: E402
from postgres import create_database, start_postgres  # noqa: E402
from scripted import Script, attack_json, rewrite_json, verdicts_json  # noqa: E402

from anonygraph.graphs import GRAPHS  # noqa: E402
from anonygraph.inputs import read_records  # noqa: E402
from anonygraph.llm import loading
from anonygraph.runs.engines.batch import run_batch  # noqa: E402
from anonygraph.runs.engines.records import graph_input, invoke_thread  # noqa: E402
from anonygraph.runs.options import RunOptions, build_context  # noqa: E402

CONTEXT: dict[str, Any] = {
    "default_model": "local",  # the scripted model stands in for every role
    "attributes": ["city_country"],
    "max_iterations": 2,
    "cache_mode": "off",
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
    records = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    server, stop = start_postgres(durable=True)
    figures: dict[str, Any] = {"cpu_cores": os.cpu_count()}
    try:
        with tempfile.TemporaryDirectory() as name:
            figures["overhead"] = overhead(server, Path(name), records, repeats=5)
    finally:
        stop()
    print(json.dumps(figures, indent=2))  # noqa: T201


if __name__ == "__main__":
    main()
