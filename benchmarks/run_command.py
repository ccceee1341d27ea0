"""Does the command a user runs keep up with the in-process figure?

`benchmarks/throughput.py` times `run_batch` in a process that has already
imported everything and worked a warm-up batch. A user runs ``anonygraph
run``: the interpreter starts, imports, loads its models on the first records,
then works the rest. This benchmark runs both against the same local
OpenAI-compatible server (throughput.py's, its own process, a fixed latency
per request), the same cue-free records (one model call each, RLAA,
``--cache-mode off``) and the same ``--concurrency``, alternately within one
run:

- ``command``: ``python -m anonygraph.cli run ...`` as a subprocess, with its
  progress bar, start-up included. Figures: its wall time, the time until
  its first output line (``first_record_s``, watched in the output file),
  and ``ms_per_record_after_first``: the rest of the run per record.
- ``one_record``: the same command on one record: what a run costs before
  any record's work can overlap with the others.
- ``in_process``: throughput.py's child: imports and a warm-up batch before
  the clock starts, then ``run_batch`` on the records.
- ``in_process_cold``: the same without the warm-up batch: first-use costs
  (models, tables) inside the clock, imports outside. ``command`` minus this
  is what the interpreter's start and imports cost; this minus
  ``in_process`` is what first use costs.

``ideal_s`` is records x latency / concurrency (one call a record): what the
server could take. ``ideal_ratio`` is ``ideal_s`` over a version's wall time.
Every figure is the median of ``--repeats``. ``cpu_s``: for a command, the
CPU time of its whole process (all its threads, imports included), read from
the kernel when it exits; in process, the CPU time of the timed batch only.
A Ray run's output is written from the store at its end, so its first
output line says nothing about its first record.

CPU-bound records (``--cpu-records N``, default 64): texts of about 540
words without a cue, worked by the rules backend (``--model default=rules``:
no server, no wait), so a record's cost is all CPU (the spaCy parse, the
identifier pass, the cue detectors). The same command runs them on the local
engine (``cpu_local``, ``--concurrency 2``) and on Ray with
``--ray-workers`` workers (``cpu_ray``, default 2, one record at a time
each), start-up included in both: ``ray_speedup`` is the local wall time
over Ray's (medians), ``ray_speedup_per_pair`` the same for each repeat's
two runs, back to back, with the load average at each one's end
(``load_average_per_pair``): on a shared machine a pair saw one load.

Run: PYTHONPATH=. python benchmarks/run_command.py [--records 1024]
     [--concurrency 128] [--latency 1.0] [--repeats 3] [--cpu-records 64]
     [--ray-workers 2] [--only VERSION ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tests"))

from servers import free_port  # noqa: E402
from throughput import CHILD, stats, write_records  # noqa: E402

COLD_CHILD = CHILD.replace(
    'asyncio.run(run_batch(options(warm, "warm")))', "pass  # no warm-up batch"
)
"""throughput.py's child without its warm-up batch."""
assert COLD_CHILD != CHILD, "throughput.py's warm-up line changed: update COLD_CHILD"

POLL_SECONDS = 0.02
"""How often the parent looks at the output file for the first line."""


SENTENCES = (
    "On day {i}.{j} I walked along the river to the old market.",
    "My neighbour {i} said the bakery on the corner had closed for {j} weeks.",
    "We talked about the weather, the buses and the price of bread in {j} shops.",
    "Later that evening I cooked soup and read {i} pages of a novel.",
)
"""Cue-free sentences of the CPU-bound records, numbered so no two are alike."""


def write_long_records(path: Path, count: int) -> None:
    """Write ``count`` cue-free records of 40 sentences (about 540 words)."""
    with open(path, "w") as handle:
        for i in range(count):
            text = " ".join(
                SENTENCES[j % len(SENTENCES)].format(i=i, j=j) for j in range(40)
            )
            handle.write(json.dumps({"id": f"c{i:05d}", "text": text}) + "\n")


def command_line(
    source: Path, folder: Path, model: str, concurrency: int, workers: int
) -> list[str]:
    """Return the ``anonygraph run`` a user would type, for ``source``."""
    line = [
        sys.executable, "-m", "anonygraph.cli", "run", "--method", "rlaa",
        "--input", str(source), "--output", str(folder / "out.jsonl"),
        "--db", str(folder / "runs.sqlite"), "--concurrency", str(concurrency),
        "--model", f"default={model}", "--cache-mode", "off",
        "--attributes", "city_country", "--max-iterations", "3",
    ]  # fmt: skip
    if workers:
        line += ["--engine", "ray", "--workers", str(workers)]
    return line


def run_command(line: list[str], folder: Path) -> dict[str, Any]:
    """Run ``line``; return its wall time, first-output time and CPU time."""
    output = folder / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO), "RAY_USAGE_STATS_ENABLED": "0"}
    with open(folder / "stderr.txt", "w") as log:
        start = time.perf_counter()
        child = subprocess.Popen(line, stdout=log, stderr=log, env=env)
        first = None
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if first is None and output.exists() and output.stat().st_size:
                first = time.perf_counter() - start
            time.sleep(POLL_SECONDS)
        wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 3):
        raise SystemExit(
            f"command failed ({child.returncode}):\n"
            + (folder / "stderr.txt").read_text()[-3000:]
        )
    done = sum(1 for _ in open(output))
    return {
        "load": round(os.getloadavg()[0], 1),
        "wall": wall,
        "first": wall if first is None else first,
        "cpu": usage.ru_utime + usage.ru_stime,
        "done": done,
    }


def run_in_process(
    script: str, source: Path, warm: Path, folder: Path, url: str, concurrency: int
) -> dict[str, Any]:
    """Run throughput.py's child (``script``); return its wall and CPU time."""
    env = {**os.environ, "PYTHONPATH": f"{REPO}:{REPO / 'tests'}"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(source), str(warm), str(folder), url,
         str(concurrency), "{}"],
        capture_output=True, text=True, env=env, timeout=1800, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"in-process run failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["failed"]:
        raise SystemExit(f"records failed: {figures['failures']}")
    return figures


def summarize(runs: list[dict[str, Any]], records: int, ideal: float) -> dict[str, Any]:
    """Turn one version's repeats into medians and ratios."""
    wall = statistics.median(r["wall"] for r in runs)
    figures: dict[str, Any] = {
        "records": records,
        "seconds": round(wall, 2),
        "walls": [round(r["wall"], 2) for r in runs],
        "ideal_s": round(ideal, 2),
        "ideal_ratio": round(ideal / wall, 3),
        "ideal_ms_per_record": round(ideal / records * 1000, 2),
        "cpu_s": round(statistics.median(r["cpu"] for r in runs), 2),
    }
    if "first" in runs[0] and records > 1:
        first = statistics.median(r["first"] for r in runs)
        rest = statistics.median(
            (r["wall"] - r["first"]) / max(1, records - 1) for r in runs
        )
        figures["first_record_s"] = round(first, 2)
        figures["ms_per_record_after_first"] = round(rest * 1000, 2)
    elif "first" in runs[0]:
        figures["first_record_s"] = round(
            statistics.median(r["first"] for r in runs), 2
        )
    else:
        figures["ms_per_record"] = round(wall / records * 1000, 2)
    return figures


def summarize_cpu(runs: list[dict[str, Any]], records: int) -> dict[str, Any]:
    """Turn a CPU-bound version's repeats into medians."""
    wall = statistics.median(r["wall"] for r in runs)
    return {
        "records": records,
        "seconds": round(wall, 2),
        "walls": [round(r["wall"], 2) for r in runs],
        "first_record_s": round(statistics.median(r["first"] for r in runs), 2),
        "driver_cpu_s": round(statistics.median(r["cpu"] for r in runs), 2),
    }


def main() -> None:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1024)
    parser.add_argument("--concurrency", type=int, default=128)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cpu-records", type=int, default=64)
    parser.add_argument("--ray-workers", type=int, default=2)
    parser.add_argument(
        "--only", nargs="*", help="versions to run (default: all of them)"
    )
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(REPO / "benchmarks" / "throughput.py"), "--serve",
         str(port), "--latency", str(args.latency)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None and server.stdout.readline().strip() == "ready"
    url = f"http://127.0.0.1:{port}/v1"
    ideal = args.records * args.latency / args.concurrency
    versions = [
        "command", "one_record", "in_process", "in_process_cold", "cpu_local",
        "cpu_ray",
    ]  # fmt: skip
    if args.only:
        versions = [v for v in versions if v in args.only]
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in versions}
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            source, warm, one, long = (
                folder / f
                for f in ("in.jsonl", "warm.jsonl", "one.jsonl", "long.jsonl")
            )
            write_records(source, args.records, "one_call")
            write_records(warm, min(args.records, args.concurrency), "one_call")
            write_records(one, 1, "one_call")
            write_long_records(long, args.cpu_records)
            server_model = f"openai:bench@{url}"
            for repeat in range(args.repeats):
                for version in versions:
                    place = folder / f"{version}-{repeat}"
                    place.mkdir()
                    stats(url)
                    if version in ("command", "one_record"):
                        line = command_line(
                            source if version == "command" else one, place,
                            server_model, args.concurrency, 0,
                        )  # fmt: skip
                        runs[version].append(run_command(line, place))
                    elif version == "cpu_local":
                        line = command_line(long, place, "rules", 2, 0)
                        runs[version].append(run_command(line, place))
                    elif version == "cpu_ray":
                        line = command_line(long, place, "rules", 1, args.ray_workers)
                        runs[version].append(run_command(line, place))
                    else:
                        script = CHILD if version == "in_process" else COLD_CHILD
                        runs[version].append(
                            run_in_process(
                                script, source, warm, place, url, args.concurrency
                            )
                        )
                    print(version, repeat, json.dumps(runs[version][-1]),  # noqa: T201
                          file=sys.stderr, flush=True)  # fmt: skip
    finally:
        server.kill()
    figures: dict[str, Any] = {
        "cpu_cores": os.cpu_count(),
        "concurrency": args.concurrency,
        "latency_s": args.latency,
        "repeats": args.repeats,
    }
    for version, repeats in runs.items():
        if version.startswith("cpu_"):
            figures[version] = summarize_cpu(repeats, args.cpu_records)
        elif version == "one_record":
            figures[version] = summarize(repeats, 1, args.latency)
        else:
            figures[version] = summarize(repeats, args.records, ideal)
    if "command" in runs and "in_process" in runs:
        figures["command_over_in_process"] = round(
            figures["command"]["seconds"] / figures["in_process"]["seconds"], 2
        )
    if "cpu_local" in runs and "cpu_ray" in runs:
        figures["ray_workers"] = args.ray_workers
        figures["ray_speedup"] = round(
            figures["cpu_local"]["seconds"] / figures["cpu_ray"]["seconds"], 2
        )
        # Each repeat ran the two back to back: their ratio saw one load.
        figures["ray_speedup_per_pair"] = [
            round(local["wall"] / ray["wall"], 2)
            for local, ray in zip(runs["cpu_local"], runs["cpu_ray"], strict=True)
        ]
        figures["load_average_per_pair"] = [
            [local["load"], ray["load"]]
            for local, ray in zip(runs["cpu_local"], runs["cpu_ray"], strict=True)
        ]
    print(json.dumps(figures, indent=2))  # noqa: T201


if __name__ == "__main__":
    main()
