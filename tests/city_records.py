"""Records for the run-engine tests and benchmarks: each leaks a city.

`fixed_model.CityModel` answers them: one model call per role and round,
counted per record.
"""

from __future__ import annotations

import json
from pathlib import Path


def write_records(path: Path, count: int) -> list[str]:
    """Write ``count`` records that leak a city; return their ids."""
    ids = [f"r{i:03d}" for i in range(count)]
    path.write_text(
        "".join(
            json.dumps({"id": rid, "text": f"record {rid} lives in Calgary"}) + "\n"
            for rid in ids
        )
    )
    return ids
