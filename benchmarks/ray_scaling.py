"""The Ray engine against the local engine: records/minute, as ratios of one run.

Starts a throw-away Postgres server and a Ray cluster of a head (no CPUs)
and one worker node (1 CPU), every node on 127.0.0.1 (tests/ray_cluster.py),
then prints JSON with:

- ``server_model``: the same records through the local engine (one process,
  ``concurrency`` records at once) and through Ray on one worker node (one
  worker, the same concurrency), every role answered by an OpenAI-compatible
  endpoint with a fixed latency (tests/fixed_model.py). Goal: Ray costs the
  run no more than 10 % (``ray_over_local`` >= 0.9).
- ``device_model``: the model is the limit: a model inside each worker with a
  fixed compute time per call, one call at a time per process
  (tests/gpu_standin.py, a GPU's stand-in), on Ray with one worker node and
  then with two (a node added). Goal: two nodes >= 1.8x one
  (``two_over_one`` >= 1.8).

Both engines run on the same Postgres store. The local engine is today's
`runs.local.run_local` (a Postgres store otherwise goes to the lease queue,
which phase 2 of issue 28 removes). Each figure is given twice: over the
whole call (``records_per_minute``: connecting to the cluster and starting
the workers included) and over the records' own window (``steady_*``: from
the first record's start to the last one's end, from the store). Each
configuration runs ``repeats`` times, alternating, and the best run counts:
the machine is shared with other work.

Run: PYTHONPATH=. python benchmarks/ray_scaling.py [RECORDS] [LATENCY_S] [GPU_S]
[REPEATS] [PARTS] (PARTS: ``server,device``, the default, or one of them)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from city_records import write_records  # noqa: E402
from fixed_model import CityModel  # noqa: E402
from postgres import create_database, start_postgres  # noqa: E402
from ray_cluster import RayCluster, ray_environment  # noqa: E402

from anonygraph.runs.engines.local import run_local  # noqa: E402
from anonygraph.runs.engines.ray_engine import RayOptions, run_on_ray  # noqa: E402
from anonygraph.runs.options import RunOptions  # noqa: E402
from anonygraph.runs.store import RunStore  # noqa: E402

CONCURRENCY = 8
_NAMES = itertools.count()


def _options(folder: Path, db: str, context: dict[str, Any]) -> RunOptions:
    n = next(_NAMES)
    return RunOptions(
        method="rlaa",
        input=str(folder / "in.jsonl"),
        output=str(folder / f"out{n}.jsonl"),
        db=db,
        context=context,
        concurrency=CONCURRENCY,
        run_id=f"bench-{n}",
        progress=False,
    )


def _figures(options: RunOptions, seconds: float, records: int) -> dict[str, Any]:
    db = RunStore(options.db)
    done = db.run_totals(options.run_id)["records"]
    window = db.db.one(
        "select max(updated) - min(updated - wall_seconds) from records "
        "where run_id = ?",
        [options.run_id],
    )[0]
    db.close()
    assert done == records, f"{options.run_id}: {done} of {records} done"
    return {
        "seconds": round(seconds, 2),
        "records_per_minute": round(records / seconds * 60, 1),
        "steady_seconds": round(window, 2),
        "steady_records_per_minute": round(records / window * 60, 1),
    }


def _local(server: str, folder: Path, context: dict[str, Any], records: int) -> Any:
    options = _options(folder, create_database(server, f"b{next(_NAMES)}"), context)
    start = time.perf_counter()
    asyncio.run(run_local(options, options.run_id))
    return _figures(options, time.perf_counter() - start, records)


def _ray(
    server: str,
    folder: Path,
    context: dict[str, Any],
    records: int,
    engine: RayOptions,
) -> Any:
    options = _options(folder, create_database(server, f"b{next(_NAMES)}"), context)
    start = time.perf_counter()
    summary = run_on_ray(options, engine)
    figures = _figures(options, time.perf_counter() - start, records)
    figures["records_per_node"] = sorted(summary.nodes.values())
    return figures


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    best = max(runs, key=lambda r: r["records_per_minute"])
    steady = max(r["steady_records_per_minute"] for r in runs)
    return {**best, "steady_records_per_minute": steady, "repeats": len(runs)}


def server_model(
    server: str, cluster: RayCluster, folder: Path, records: int, latency: float,
    repeats: int,
) -> dict[str, Any]:  # fmt: skip
    """Local engine and Ray on one node, same records, same endpoint."""
    local, ray = [], []
    with CityModel(latency=latency) as model:
        for _ in range(repeats):
            local.append(_local(server, folder, model.context(), records))
            engine = RayOptions(address=cluster.address, workers=1)
            ray.append(_ray(server, folder, model.context(), records, engine))
    figures: dict[str, Any] = {"local": _best(local), "ray_one_node": _best(ray)}
    for kind in ("records_per_minute", "steady_records_per_minute"):
        figures[f"ray_over_local_{kind}"] = round(
            figures["ray_one_node"][kind] / figures["local"][kind], 3
        )
    return figures


def device_model(
    server: str, cluster: RayCluster, folder: Path, records: int, gpu: float,
    repeats: int,
) -> dict[str, Any]:  # fmt: skip
    """Ray with one worker node, then two, a model in each worker."""
    hook = {
        "worker_process_setup_hook": "gpu_standin.install",
        "env_vars": {"GPU_SECONDS": str(gpu)},
    }
    context = {"attributes": ["city_country"], "max_iterations": 2,
               "cache_mode": "off", "default_model": "local"}  # fmt: skip
    figures: dict[str, Any] = {}
    for nodes in (1, 2):
        while len(cluster.nodes) < nodes:
            cluster.add_worker()
        cluster.cluster.wait_for_nodes()
        engine = RayOptions(address=cluster.address, workers=nodes, runtime_env=hook)
        runs = [_ray(server, folder, context, records, engine) for _ in range(repeats)]
        figures[f"ray_{nodes}_node"] = _best(runs)
    for kind in ("records_per_minute", "steady_records_per_minute"):
        figures[f"two_over_one_{kind}"] = round(
            figures["ray_2_node"][kind] / figures["ray_1_node"][kind], 3
        )
    return figures


def main() -> None:
    """Print the figures as JSON."""
    records = int(sys.argv[1]) if len(sys.argv) > 1 else 160
    latency = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
    gpu = float(sys.argv[3]) if len(sys.argv) > 3 else 0.08
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    parts = sys.argv[5].split(",") if len(sys.argv) > 5 else ["server", "device"]
    figures: dict[str, Any] = {
        "cpu_cores": os.cpu_count(),
        "load_average_at_start": os.getloadavg()[0],
        "records": records,
        "concurrency_per_worker": CONCURRENCY,
        "server_latency_s": latency,
        "device_seconds_per_call": gpu,
        "model_calls_per_record": 4,
    }
    server, stop = start_postgres(durable=True)
    patch = pytest.MonkeyPatch()
    try:
        with tempfile.TemporaryDirectory() as name, ray_environment(patch):
            folder = Path(name)
            write_records(folder / "in.jsonl", records)
            cluster = RayCluster(workers=1).start()
            figures["cluster_start_seconds"] = round(cluster.start_seconds, 1)
            try:
                if "server" in parts:
                    figures["server_model"] = server_model(
                        server, cluster, folder, records, latency, repeats
                    )
                if "device" in parts:
                    figures["device_model"] = device_model(
                        server, cluster, folder, records, gpu, repeats
                    )
            finally:
                cluster.stop()
            figures["cluster_stop_seconds"] = round(cluster.stop_seconds, 1)
    finally:
        patch.undo()
        stop()
    figures["load_average_at_end"] = os.getloadavg()[0]
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
