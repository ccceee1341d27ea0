"""Two trees' command starts, alternated in one run: a change's effect on a shared box.

`cli_start.py` times one tree; on a 2-core machine shared with other work
its medians move by 0.2-0.5 s of CPU from one run to the next, as much as a
change is worth. This runs each tree's ``anonymize`` (one text, ``rules``)
and ``serve`` (until its first answer) round-robin with spaCy's pipeline
load (the need), so that both trees meet the same load, and prints each
measure's median wall and CPU seconds and the ratios to the need.

Each tree keeps its own cache folder (``XDG_CACHE_HOME`` under the
temporary folder, filled by one unmeasured run first): the kept tables and
patterns are named for the code that made them, and two trees sharing one
folder would each remove the other's.

Run: python benchmarks/cli_start_trees.py REPEATS BEFORE_ROOT AFTER_ROOT
(each root holds an ``anonygraph`` package, e.g. ``git archive`` of a commit).
"""

from __future__ import annotations

import compileall
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cli_start import CLI, SPACY, TEXT, Seconds, first_answer, timed  # noqa: E402

ANONYMIZE = ["anonymize", "--method", "rlaa", "--model", "rules", "--quiet", TEXT]


def in_tree(root: Path, cache: Path, measure: Callable[[], Seconds]) -> Seconds:
    """Take ``measure`` with the commands importing the tree at ``root``."""
    os.environ["PYTHONPATH"] = str(root)
    os.environ["XDG_CACHE_HOME"] = str(cache)
    return measure()


def main() -> None:
    repeats = int(sys.argv[1])
    trees = {
        "before": Path(sys.argv[2]).resolve(),
        "after": Path(sys.argv[3]).resolve(),
    }
    py = sys.executable
    seconds: dict[str, list[Seconds]] = {}
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        measures: dict[str, Callable[[], Seconds]] = {}
        for name, root in trees.items():
            compileall.compile_dir(root / "anonygraph", quiet=1)
            cache = folder / f"cache-{name}"
            anonymize = [py, "-c", CLI, *ANONYMIZE]
            in_tree(root, cache, lambda a=anonymize: timed(a, folder))  # fill the cache
            measures[f"anonymize {name}"] = lambda r=root, c=cache, a=anonymize: (
                in_tree(r, c, lambda: timed(a, folder))
            )
            measures[f"serve {name}"] = lambda r=root, c=cache: in_tree(
                r, c, lambda: first_answer(folder)
            )
        spacy = [py, "-c", SPACY.format(text=TEXT)]
        measures["spaCy"] = lambda: in_tree(
            trees["after"], folder / "cache-after", lambda: timed(spacy, folder)
        )
        for _ in range(repeats):
            for name, measure in measures.items():
                seconds.setdefault(name, []).append(measure())
    print(
        f"{repeats} runs each, round-robin; load average {load[0]:.1f} at start, "
        f"{os.getloadavg()[0]:.1f} at end"
    )
    wall = {n: statistics.median(v[0] for v in s) for n, s in seconds.items()}
    cpu = {n: statistics.median(v[1] for v in s) for n, s in seconds.items()}
    print(
        f"{'measure':<18}{'wall s':>8}{'ratio':>7}{'CPU s':>8}{'ratio':>7}  all CPU s"
    )
    for name, values in seconds.items():
        print(
            f"{name:<18}{wall[name]:>8.2f}{wall[name] / wall['spaCy']:>7.2f}"
            f"{cpu[name]:>8.2f}{cpu[name] / cpu['spaCy']:>7.2f}  "
            f"{[round(v[1], 2) for v in values]}"
        )


if __name__ == "__main__":
    main()
