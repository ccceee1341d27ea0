"""SIGKILL a batch run 100 times at random moments, finish it, print the figures.

Run: PYTHONPATH=. python benchmarks/kill_resume.py [KILLS] [RECORDS]
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from kill_loop import kill_loop  # noqa: E402


def main() -> None:
    """Print the kill loop's figures as JSON."""
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    records = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    with tempfile.TemporaryDirectory() as folder:
        figures = kill_loop(Path(folder), kills=kills, records=records, seed=100)
    ids = figures.pop("ids")
    out = figures.pop("output_ids")
    figures["ids_expected"] = len(ids)
    figures["ids_written"] = len(out)
    figures["ids_distinct"] = len(set(out))
    figures["ids_missing"] = sorted(set(ids) - set(out))
    print(json.dumps(figures, indent=2))  # noqa: T201


if __name__ == "__main__":
    main()
