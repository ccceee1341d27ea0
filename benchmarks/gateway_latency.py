"""Time the gateway adds per request (rules), as a ratio to the upstream's latency.

One real ``anonygraph serve --upstream`` process in front of a scripted
OpenAI-compatible upstream on the loopback that answers after a fixed delay
(0.2 s, then 1 s). The app is the official ``openai`` client. For each
delay, the same requests go to the upstream directly (the baseline) and
through the gateway, one after another, in one run; each user message is
new (a rewrite, not a cache hit): a name, an e-mail address and explicit
cues (age, job, city) for RLAA on the rules backend to rewrite.

Figures per delay: median latency direct and through the gateway, their
ratio, and the median of the gateway's own ``X-Anonygraph-Added-Ms``. On a
shared machine wall time grows with its load, so the same rewrites are also
timed in this process in CPU seconds (`time.process_time`), a figure the
load changes far less.

Run: PYTHONPATH=. python benchmarks/gateway_latency.py [REQUESTS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import openai  # noqa: E402
from servers import FakeOpenAI  # noqa: E402
from service import Service  # noqa: E402

DELAYS = (0.2, 1.0)
NAMES = ("Anna Schmidt", "Tom Becker", "Priya Nair", "Luis Ortega", "Mei Tanaka",
         "Sara Lindqvist", "Omar Haddad", "Jonas Weber", "Chloe Martin", "Ravi Menon",
         "Ines Costa")  # fmt: skip
JOBS = (
    "nurse",
    "teacher",
    "plumber",
    "accountant",
    "pharmacist",
    "electrician",
    "baker",
)
CITIES = ("Calgary", "Leeds", "Porto", "Osaka", "Denver")


def message(i: int) -> str:
    """A new user message for request ``i`` (no two the same)."""
    name = NAMES[i % len(NAMES)]
    mail = name.lower().replace(" ", ".") + f"{i}@example.org"
    return (
        f"Hi, I'm {name} ({mail}), a {25 + i % 40}-year-old "
        f"{JOBS[i % len(JOBS)]} in {CITIES[i % len(CITIES)]}. Draft a short note "
        "to my landlord about the broken heating."
    )


def timed(client: openai.OpenAI, text: str) -> tuple[float, float] | None:
    """Return the request's seconds and the gateway's added ms (0 direct).

    None when the gateway blocked the rewrite (422: nothing was sent).
    """
    start = time.perf_counter()
    try:
        raw = client.chat.completions.with_raw_response.create(
            model="bench", messages=[{"role": "user", "content": text}]
        )
    except openai.UnprocessableEntityError:
        return None
    seconds = time.perf_counter() - start
    return seconds, float(raw.headers.get("X-Anonygraph-Added-Ms", 0))


def rewrite_cpu(count: int) -> float:
    """Return the median CPU seconds of one rewrite in this process (warm)."""
    from anonygraph.integrations.rewrite import Rewriter

    rewriter = Rewriter()
    for i in range(3):
        rewriter.rewrite(message(2000 + i), rewriter.new_book())
    seconds = []
    for i in range(count):
        start = time.process_time()
        rewriter.rewrite(message(3000 + i), rewriter.new_book())
        seconds.append(time.process_time() - start)
    return statistics.median(seconds)


def main(requests: int) -> None:
    """Measure each delay and print one table."""
    rows = []
    with FakeOpenAI(answer="Noted.") as upstream, tempfile.TemporaryDirectory() as tmp:
        server = Service(Path(tmp), "--upstream", f"openai:bench@{upstream.url}")
        server.start(timeout=300)
        try:
            direct = openai.OpenAI(base_url=upstream.url, api_key="x", max_retries=0)
            gateway = openai.OpenAI(
                base_url=f"{server.url}/v1", api_key="x", max_retries=0
            )
            for i in range(3):  # load the spaCy pipeline and the analyzer
                timed(gateway, message(1000 + i))
            n = 0
            for delay in DELAYS:
                upstream.latency = delay
                plain, through, added, blocked = [], [], [], 0
                for _ in range(requests):
                    baseline = timed(direct, message(n))
                    assert baseline is not None
                    plain.append(baseline[0])
                    answer = timed(gateway, message(n + 1))
                    n += 2
                    if answer is None:
                        blocked += 1
                        continue
                    through.append(answer[0])
                    added.append(answer[1])
                p, t = statistics.median(plain), statistics.median(through)
                rows.append((delay, p, t, t / p, statistics.median(added), blocked))
        finally:
            server.stop()
    cpu = rewrite_cpu(requests)
    print(f"requests per delay: {requests} (one at a time), rules rewrite")
    print(f"one rewrite in process: {cpu * 1000:.0f} ms of CPU (median)")
    print(
        "| upstream delay | direct median | via gateway median | ratio | added (header) median | blocked |"
    )
    print("|---|---|---|---|---|---|")
    for delay, p, t, ratio, ms, blocked in rows:
        print(
            f"| {delay:.1f} s | {p * 1000:.0f} ms | {t * 1000:.0f} ms | {ratio:.2f} | {ms:.0f} ms | {blocked} |"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
