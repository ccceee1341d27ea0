"""How report.html copes with a large run: build time, file size, page load, filter.

Fills a store with N synthetic records (three rounds each, guesses, verdicts,
policy), builds the review page from it, then opens the page in headless
chromium and times the first render and a filter change.

    PYTHONPATH=. python benchmarks/report_html_scale.py [N]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser import Chromium, find_chromium  # noqa: E402

from anonygraph.reporting.html_page import render_html  # noqa: E402
from anonygraph.reporting.record_view import record_reviews  # noqa: E402
from anonygraph.reporting.tables import COLUMNS, format_value  # noqa: E402
from anonygraph.runs.store import RunStore  # noqa: E402

WORDS = "the a my we I went to work city job wife kids home year old cold".split()
CITIES = ["Calgary", "Leeds", "Basel", "Austin", "Osaka", "Berlin"]


def fill(db: RunStore, n: int) -> None:
    """Store ``n`` finished records of one run (every 50th failed)."""
    rng = random.Random(7)
    db.start_run("big", "rlaa", {}, "in.jsonl", "out.jsonl")
    for i in range(n):
        city = rng.choice(CITIES)
        words = [rng.choice(WORDS) for _ in range(60)]
        words.insert(rng.randrange(60), city)
        original = " ".join(words)
        final = original.replace(city, "a city")
        rounds = [
            {
                "round": r,
                "text": original,
                "rewritten": final if r == 0 else None,
                "inferences": [
                    {"attribute": "city_country", "reasoning": "named",
                     "guesses": [f"{city}, X" if r == 0 else "Paris, France"],
                     "certainty": 4 - r},
                ],
                "verdicts": [{"attribute": "city_country", "validity": "high",
                              "evidence": [city], "concept": "a city"}],
                "policy": [{"attribute": "city_country", "action": "generalize",
                            "evidence": [city]}],
            }
            for r in range(3)
        ]  # fmt: skip
        calls = [{"id": f"{i}-{k}", "role": "attacker", "tokens_in": 300,
                  "tokens_out": 40, "seconds": 0.2} for k in range(6)]  # fmt: skip
        db.save_result(
            "big", f"rec{i:05d}",
            status="done" if i % 50 else "failed",
            original=original,
            result={"anonymized": final, "status": "max_iterations",
                    "iterations": rounds, "calls": calls},
            labels={"city_country": f"{city}, X"},
            wall_seconds=1.5,
        )  # fmt: skip


def main(n: int) -> None:
    """Build the page for ``n`` records and time it in chromium."""
    folder = Path(tempfile.mkdtemp(prefix="anonygraph-bench-"))
    db = RunStore(folder / "runs.sqlite")
    fill(db, n)
    start = time.perf_counter()
    reviews = record_reviews(db, "big")
    built = time.perf_counter() - start
    page = render_html(
        COLUMNS, [{"method": "original text"}], {}, {}, reviews, format_value
    )
    rendered = time.perf_counter() - start
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    size = path.stat().st_size / 1e6
    print(  # noqa: T201
        f"{n} records: reviews in {built:.2f} s, page in {rendered:.2f} s, "
        f"{size:.1f} MB"
    )
    binary = find_chromium()
    if binary is None:
        print("chromium not installed: page not timed")  # noqa: T201
        return
    browser = Chromium(binary)
    try:
        start = time.perf_counter()
        browser.open(path)
        loaded = time.perf_counter() - start
        cards = browser.js("document.querySelectorAll('section.record').length")
        filter_ms = browser.js(
            "(() => { const t = performance.now(); const s = "
            "document.getElementById('f-status'); s.value = 'failed'; "
            "s.dispatchEvent(new Event('change')); return performance.now() - t; })()"
        )
        shown = browser.js("document.getElementById('count').textContent")
        print(  # noqa: T201
            f"page loaded and first {cards} cards drawn in {loaded:.2f} s; "
            f"status filter in {filter_ms:.0f} ms ({shown})"
        )
    finally:
        browser.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
