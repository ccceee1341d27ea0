"""Load `anonygraph serve` (rules models) with bursts of texts; print the figures.

One real uvicorn process, ``--concurrency 2 --queue 4``: a burst of N texts,
M in flight at once, then the same number one after another (no queue) as
the baseline, both in one run. Figures: answers per status, latency of the
answered requests (median, 90th percentile, max) and of the 429s.

Run: PYTHONPATH=. python benchmarks/service_load.py [REQUESTS] [AT_ONCE]
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from service import Service  # noqa: E402


async def burst(server: Service, count: int, at_once: int) -> list[tuple[int, float]]:
    """Send ``count`` texts, ``at_once`` in flight; return (status, seconds)."""
    limits = httpx.Limits(max_connections=at_once)
    async with httpx.AsyncClient(
        base_url=server.url, headers=server.headers, timeout=120, limits=limits
    ) as client:
        gate = asyncio.Semaphore(at_once)

        async def one(i: int) -> tuple[int, float]:
            async with gate:
                start = time.perf_counter()
                answer = await client.post(
                    "/v1/anonymize",
                    json={"text": f"I am {20 + i % 50} and live in Calgary. Note {i}."},
                )
                return answer.status_code, time.perf_counter() - start

        return list(await asyncio.gather(*(one(i) for i in range(count))))


def figures(results: list[tuple[int, float]], wall: float) -> dict[str, Any]:
    """Statuses and latency figures of one burst."""
    ok = sorted(s for status, s in results if status == 200)
    refused = sorted(s for status, s in results if status == 429)

    def spread(values: list[float]) -> dict[str, float]:
        if not values:
            return {}
        return {
            "median_ms": round(statistics.median(values) * 1000, 1),
            "p90_ms": round(values[int(0.9 * (len(values) - 1))] * 1000, 1),
            "max_ms": round(values[-1] * 1000, 1),
        }

    return {
        "statuses": dict(Counter(status for status, _ in results)),
        "wall_s": round(wall, 2),
        "answered_latency": spread(ok),
        "refused_latency": spread(refused),
    }


def main() -> None:
    """Print the figures of a burst and of the one-at-a-time baseline as JSON."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    at_once = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    with tempfile.TemporaryDirectory() as folder:
        server = Service(Path(folder), "--concurrency", "2", "--queue", "4")
        server.start()
        try:
            server.request("POST", "/v1/anonymize", json={"text": "warm up"})
            start = time.perf_counter()
            loaded = asyncio.run(burst(server, count, at_once))
            loaded_wall = time.perf_counter() - start
            start = time.perf_counter()
            alone = asyncio.run(burst(server, count // 4, 1))
            alone_wall = time.perf_counter() - start
        finally:
            server.stop()
    print(json.dumps({  # noqa: T201
        "requests": count, "at_once": at_once, "concurrency": 2, "queue": 4,
        "burst": figures(loaded, loaded_wall),
        "one_at_a_time": figures(alone, alone_wall),
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
