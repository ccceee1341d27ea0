"""Time `make run` on a fresh clone with empty caches, step by step.

The goal (issue 34): `make run` on a fresh machine under 2 minutes. Each
round clones the committed tree into a new folder, gives the build an empty
home (so pip's and uv's caches start empty) and runs `make run`, timing each
recipe line through a SHELL that logs its wall time. With `--baseline REV`,
each round also runs the same tree with REV's Makefile (and no
scripts/pip_install.py if REV had none), alternately, so both see the same
load.

Run: `python benchmarks/fresh_make_run.py [ROUNDS] [--baseline REV]`; it
prints JSON: per run its wall seconds, the load average before and after, and
each step's seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# make runs each recipe line through this shell, which appends "seconds<TAB>line".
TIMING_SHELL = """#!/bin/bash
start=$(date +%s.%N)
/bin/sh "$@"; status=$?
end=$(date +%s.%N)
printf '%s\\t%s\\n' "$(echo "$end - $start" | bc)" "$(echo "$2" | tr '\\n\\t' '  ')" \\
    >> "$STEP_LOG"
exit $status
"""


def load() -> float:
    """Return the one-minute load average."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def fresh_run(work: Path, name: str, baseline: str | None) -> dict[str, Any]:
    """Clone the repository, run `make run` there with empty caches, time it."""
    clone = work / name
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    if baseline is not None:
        subprocess.run(
            ["git", "checkout", "-q", baseline, "--", "Makefile"], cwd=clone, check=True
        )
        listed = subprocess.run(
            ["git", "ls-tree", "--name-only", baseline, "scripts/pip_install.py"],
            cwd=clone,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        if not listed.strip():
            (clone / "scripts" / "pip_install.py").unlink(missing_ok=True)
    home = work / f"{name}-home"
    home.mkdir()
    step_log = work / f"{name}-steps.tsv"
    shell = work / "timing-shell"
    env = dict(
        os.environ,
        HOME=str(home),
        STEP_LOG=str(step_log),
        XDG_CACHE_HOME=str(home / ".cache"),
        PIP_CACHE_DIR=str(home / ".cache" / "pip"),
        UV_CACHE_DIR=str(home / ".cache" / "uv"),
    )
    before = load()
    start = time.perf_counter()
    done = subprocess.run(
        ["make", "run", f"SHELL={shell}"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    steps = []
    for line in step_log.read_text().splitlines():
        step_seconds, command = line.split("\t", 1)
        if float(step_seconds) >= 0.05:
            steps.append({"s": round(float(step_seconds), 1), "step": command[:100]})
    if done.returncode != 0:
        raise SystemExit(
            f"{name}: make run failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return {
        "run": name,
        "seconds": round(seconds, 1),
        "load_before": before,
        "load_after": load(),
        "steps": steps,
    }


def main() -> None:
    """Run the rounds and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=2)
    parser.add_argument("--baseline", help="a revision whose Makefile to compare")
    options = parser.parse_args()
    results: dict[str, list[dict[str, Any]]] = {"current": []}
    if options.baseline:
        results["baseline"] = []
    with tempfile.TemporaryDirectory(prefix="fresh-make-run-") as folder:
        work = Path(folder)
        (work / "timing-shell").write_text(TIMING_SHELL)
        (work / "timing-shell").chmod(0o700)
        for round_ in range(options.rounds):
            for kind in results:
                baseline = options.baseline if kind == "baseline" else None
                run = fresh_run(work, f"{kind}-{round_}", baseline)
                results[kind].append(run)
                shutil.rmtree(work / run["run"])
                shutil.rmtree(work / f"{run['run']}-home")
    summary = {
        kind: median(run["seconds"] for run in runs) for kind, runs in results.items()
    }
    print(json.dumps({"median_seconds": summary, "runs": results}, indent=1))


if __name__ == "__main__":
    main()
