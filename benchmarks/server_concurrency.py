"""Records per minute at --concurrency 1, 2, 4, 8 against model servers.

Two endpoints: a fixed-latency local OpenAI-compatible fake (what concurrency
buys when the server has slots to spare) and llama-cpp-python's server on the
embedded GGUF. llama_cpp.server has no parallel-slot option (it runs one
request at a time behind a lock), so against it concurrency can only overlap
HTTP and bookkeeping with generation.

    PYTHONPATH=. python benchmarks/server_concurrency.py [--records 16] [--latency 0.5]
        [--llama-records 4] [--skip-llama]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from servers import FakeOpenAI, LlamaServer, free_port  # noqa: E402

from anonygraph import llm  # noqa: E402
from anonygraph.runs.engines.batch import run_batch  # noqa: E402
from anonygraph.runs.options import RunOptions  # noqa: E402

EXAMPLES = REPO / "examples" / "reddit_comments.jsonl"
LEVELS = (1, 2, 4, 8)


def write_records(folder: Path, count: int) -> Path:
    """Write ``count`` records (the examples, repeated under new ids)."""
    lines = EXAMPLES.read_text().splitlines()
    path = folder / f"in-{count}.jsonl"
    with open(path, "w") as handle:
        for i in range(count):
            record = json.loads(lines[i % len(lines)])
            record["id"] = f"b{i:03d}"
            handle.write(json.dumps(record) + "\n")
    return path


def records_per_minute(url: str, source: Path, concurrency: int, folder: Path) -> float:
    """Run RLAA (one round, one attribute) and return finished records per minute."""
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(folder / f"out-{concurrency}.jsonl"),
        db=str(folder / f"runs-{concurrency}.sqlite"),
        context={
            "default_model": f"openai:smol@{url}",
            "max_iterations": 1,
            "attributes": ["age"],
            "cache_mode": "off",
        },
        concurrency=concurrency,
        progress=False,
    )
    start = time.perf_counter()
    summary = asyncio.run(run_batch(options))
    minutes = (time.perf_counter() - start) / 60
    if summary.failed:
        raise SystemExit(f"benchmark run failed: {summary.failures[:2]}")
    return summary.done / minutes


def main() -> None:
    """Print records/minute per concurrency level for each endpoint."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--llama-records", type=int, default=4)
    parser.add_argument("--skip-llama", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="anonygraph-bench-"))
    source = write_records(folder, args.records)
    with FakeOpenAI(latency=args.latency) as fake:
        for level in LEVELS:
            rate = records_per_minute(fake.url, source, level, folder / f"f{level}")
            print(f"fixed {args.latency}s endpoint  concurrency {level}: "  # noqa: T201
                  f"{rate:7.1f} records/min")  # fmt: skip
    if args.skip_llama:
        return
    server = LlamaServer(llm.embedded_model_path(), free_port(), folder / "llama.log")
    server.start()
    try:
        source = write_records(folder, args.llama_records)
        for level in LEVELS:
            rate = records_per_minute(server.url, source, level, folder / f"l{level}")
            print(f"llama_cpp.server (1 slot)  concurrency {level}: "  # noqa: T201
                  f"{rate:7.1f} records/min")  # fmt: skip
    finally:
        server.stop()


if __name__ == "__main__":
    main()
