"""RLAA's roles served by a fixed-latency OpenAI-compatible endpoint, calls counted.

For records written by `city_records.write_records` ("record r007 lives in
Calgary"): the attacker names Calgary while the text does, the arbitrator
grades it high, the anonymizer answers "record r007 lives in a city
somewhere". Each answered request is counted per record and role, so a test
can hold the server's count against the calls a run kept (`calls_kept`).
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from typing import Any

from scripted import attack_json, rewrite_json, verdicts_json
from servers import FakeOpenAI

ROLES = {"AttackAnswer": "attacker", "ArbitrationAnswer": "arbitrator",
         "Rewrite": "anonymizer"}  # fmt: skip
"""Answer schema (the request's ``response_format`` name) -> role."""

CONTEXT: dict[str, Any] = {
    "attributes": ["city_country"],
    "max_iterations": 2,
    "cache_mode": "off",
}
"""Run options for these records: two rounds, four calls per record."""


class CityModel(FakeOpenAI):
    """The endpoint; ``calls`` counts (record id, role) of answered requests."""

    def __init__(self, latency: float = 0.05) -> None:
        super().__init__(answer=self.reply, latency=latency)
        self.calls: Counter[tuple[str, str]] = Counter()
        self.calls_lock = threading.Lock()

    @property
    def spec(self) -> str:
        return f"openai:fake@{self.url}"

    def context(self) -> dict[str, Any]:
        return {**CONTEXT, "default_model": self.spec}

    def reply(self, body: dict[str, Any]) -> str:
        schema = body.get("response_format", {}).get("json_schema", {})
        role = ROLES[schema.get("name", "")]
        prompt = body["messages"][-1]["content"]
        found = re.search(r"record (r\d+)", json.dumps(body["messages"]))
        assert found, "a request without a record id"
        with self.calls_lock:
            self.calls[(found.group(1), role)] += 1
        if role == "attacker":
            return attack_json(
                city_country=("Calgary, Canada", 5) if "Calgary" in prompt else None
            )
        if role == "arbitrator":
            return verdicts_json(city_country="high")
        return rewrite_json(f"record {found.group(1)} lives in a city somewhere")


def calls_kept(db: Any, run_id: str) -> tuple[Counter[Any], Counter[Any]]:
    """Count a run's kept calls and its cut-off ones per (record id, role).

    Kept: the calls the records' results hold. Cut off: calls that started
    and never ended (the process running them died), which the record's
    step asks again when it continues.
    """
    kept = db.db.query(
        "select record_id, role from model_calls where run_id = ?", [run_id]
    )
    log = db.db.query(
        "select record_id, role from call_log where run_id = ? and ended is null",
        [run_id],
    )
    return (
        Counter((r["record_id"], r["role"]) for r in kept),
        Counter((r["record_id"], r["role"]) for r in log),
    )
