"""Time explicit-cue detection and replacement per text (goal: <= 50 ms on 2 cores).

On PersonalReddit's 404 texts (../shared/data) and the 66 cue texts
(tests/data), each text parsed once (a parse-cache miss, as a record's first
check is): spaCy's parse alone, then detection plus replacement
(`detect_cues` + `generalize_text` of the exact cues), then the same with the
parse cached (what the later checks of one record cost). Figures of one run,
with their ratio to the goal.

Run: python benchmarks/cue_speed.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

GOAL_MS = 50.0
ROOT = Path(__file__).resolve().parents[1]


def _texts() -> dict[str, list[str]]:
    from anonygraph.runs.io.datasets import load_personalreddit

    shared = ROOT.parent / "shared" / "data" / "personalreddit" / "train.jsonl"
    cues = [
        json.loads(line)["text"]
        for split in ("tuning", "heldout")
        for line in (ROOT / "tests" / "data" / f"cues_{split}.jsonl")
        .read_text()
        .splitlines()
    ]
    return {
        "personalreddit": [r.text for r in load_personalreddit(shared).records],
        "cue texts": cues,
    }


def _show(name: str, ms: list[float]) -> None:
    q = statistics.quantiles(ms, n=20)
    mean = statistics.fmean(ms)
    print(
        f"  {name:<34} mean {mean:6.2f} ms  median {statistics.median(ms):6.2f}  "
        f"p95 {q[18]:6.2f}  max {max(ms):6.2f}  mean/goal {mean / GOAL_MS:.2f}"
    )


def main() -> None:
    from anonygraph.cues import detect_cues, generalize_text, warm_up
    from anonygraph.cues.engine import _load

    start = time.perf_counter()
    warm_up()
    print(
        f"load (gazetteer, word lists, spaCy pipeline): {time.perf_counter() - start:.2f} s"
    )
    nlp = _load()
    for name, texts in _texts().items():
        words = statistics.fmean(len(t.split()) for t in texts)
        print(f"{name}: {len(texts)} texts, {words:.0f} words on average")
        parse, cold, warm = [], [], []
        for text in texts:
            t0 = time.perf_counter()
            nlp(text)
            parse.append((time.perf_counter() - t0) * 1000)
        for text in texts:
            fresh = text + " "  # a text the parse cache has not seen
            t0 = time.perf_counter()
            generalize_text(fresh, [c for c in detect_cues(fresh) if c.exact])
            cold.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            generalize_text(fresh, [c for c in detect_cues(fresh) if c.exact])
            warm.append((time.perf_counter() - t0) * 1000)
        _show("spaCy parse", parse)
        _show("detect + replace (parse included)", cold)
        _show("detect + replace (parse cached)", warm)


if __name__ == "__main__":
    main()
