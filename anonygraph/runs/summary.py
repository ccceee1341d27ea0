"""What a run did: its summary for people and the store, outcomes per record."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from anonygraph import llm
from anonygraph.llm.registry import answers_from_cues
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.recorder import StoreRecorder
from anonygraph.runs.store.schema import WAITING
from anonygraph.state.record import PARTLY_SCRUBBED, SCRUBBED, WAITING_FOR_REVIEW


@dataclass
class RunSummary:
    """What a run did, for the terminal and the store."""

    run_id: str
    method: str
    done: int = 0
    failed: int = 0
    skipped: int = 0
    """Records already finished by an earlier (interrupted) run."""
    waiting: int = 0
    """Records paused at a review step, waiting for `anonygraph review`."""
    bad_lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)
    structured: dict[str, str] = field(default_factory=dict)
    """Model spec -> how structured answers were asked for (server modes)."""
    search: dict[str, str] = field(default_factory=dict)
    """Model spec -> how its search agent ran, where its server refused tools."""
    outcomes: dict[str, int] = field(default_factory=dict)
    """Records of the run (this session's and earlier ones') per outcome."""
    refusals: dict[str, int] = field(default_factory=dict)
    """Refused rewrites per acceptance check, over the run's records."""

    checked_by: dict[str, int] = field(default_factory=dict)
    """Records per checker spec (the attacker that checked the final text)."""

    identifiers: dict[str, int] = field(default_factory=dict)
    """Direct identifiers replaced before the first step, per kind, over the run."""

    bad_unit: str = "line"
    """What a bad input is: a JSONL line, or a table's row."""

    table_rows: dict[str, int] = field(default_factory=dict)
    """Rows of the output table per outcome, when the run wrote one."""

    def all_anonymized(self) -> bool:
        """Tell whether every record ended as clean as its checker can tell.

        ``anonymized`` (a model attacker found nothing) or ``scrubbed`` (the
        rules replaced all they know: all they can check).
        """
        records = sum(self.outcomes.values())
        clean = self.outcomes.get("anonymized", 0) + self.outcomes.get(SCRUBBED, 0)
        return (
            not self.failed and not self.bad_lines and records > 0 and clean == records
        )

    def report(self) -> str:
        """Render the summary for people."""
        lines = [
            f"run {self.run_id} ({self.method}): {self.done} done, "
            f"{self.failed} failed, "
            + (f"{self.waiting} waiting for review, " if self.waiting else "")
            + f"{self.skipped} already done, {len(self.bad_lines)} bad input "
            f"{self.bad_unit}(s)"
        ]
        if self.outcomes:
            lines.append(
                "  outcomes: "
                + ", ".join(f"{n} {name}" for name, n in self.outcomes.items())
            )
        if self.checked_by:
            lines.append(
                "  checked by: "
                + ", ".join(
                    f"{spec} ({n})"
                    + (" (identifiers and the explicit cues the rules know; "
                       "other phrasings, style and topics unchecked)"
                       if answers_from_cues(spec) else "")
                    for spec, n in self.checked_by.items()
                )
            )  # fmt: skip
        if self.identifiers:
            lines.append(
                "  identifiers replaced before any model: "
                + ", ".join(f"{n} {kind}" for kind, n in self.identifiers.items())
            )
        if self.refusals:
            lines.append(
                "  refused rewrites by check: "
                + ", ".join(f"{n} {name}" for name, n in self.refusals.items())
            )
        if self.table_rows:
            lines.append(
                f"  output table: {sum(self.table_rows.values())} rows: "
                + ", ".join(f"{n} {name}" for name, n in self.table_rows.items())
            )
        lines += [f"  bad input {b}" for b in self.bad_lines]
        lines += [f"  failed {f}" for f in self.failures]
        calls = self.totals.get("call_log", {})
        if calls.get("cut_off") or calls.get("redone"):
            lines.append(
                f"  model calls: {calls['started']} started, {calls['cut_off']} cut "
                f"off by a kill or crash, {calls['redone']} finished but redone "
                "after one"
            )
        if calls.get("replayed"):
            lines.append(
                f"  model calls: {calls['replayed']} answered call(s) served from "
                "the run's call journal after a fault, not sent again"
            )
        lines += [
            f"  structured output: {s} -> {m}" for s, m in self.structured.items()
        ]
        lines += [f"  search agent: {s} -> {m}" for s, m in self.search.items()]
        per = self.totals.get("per_record")
        wall = self.totals.get("wall_seconds", 0.0)
        if per and wall:
            # Stored wall times are never below the record's model time.
            outside = max(0.0, 1 - self.totals["model_seconds"] / wall)
            lines.append(
                f"  per record: {per['calls']} model calls, "
                f"{per['tokens_in']} tokens in, "
                f"{per['tokens_out']} tokens out, {per['wall_seconds']} s "
                f"({outside:.1%} of it outside model calls)"
            )
        return "\n".join(lines)


def fill_totals(summary: RunSummary, db: RunStore) -> None:
    """Add what the store knows of the whole run: totals, modes, outcomes."""
    summary.totals = db.run_totals(summary.run_id)
    recorder = StoreRecorder(db)
    used = db.models_used(summary.run_id)
    summary.structured = llm.structured_modes(used, recorder)
    stepped = db.models_used(summary.run_id, step="search_step")
    summary.search = llm.search_fallbacks(stepped, recorder)
    rows = db.records(summary.run_id)
    summary.outcomes, summary.refusals = tally_outcomes(rows)
    summary.checked_by = tally_checkers(rows)
    summary.identifiers = tally_identifiers(rows)


OUTCOMES: tuple[str, ...] = (
    "anonymized",
    SCRUBBED,
    "partly anonymized",
    PARTLY_SCRUBBED,
    "unchanged",
    WAITING_FOR_REVIEW,
    "failed",
)
"""What can happen to a record, in the order the summary lists them."""


def record_outcome(result: dict[str, Any]) -> str:
    """The outcome of a finished record; ``not checked`` when its method set none."""
    return str(result.get("outcome") or "not checked")


def result_of(row: dict[str, Any]) -> dict[str, Any]:
    """Return a stored record's result as data (empty when it has none yet)."""
    return dict(json.loads(row["result"])) if row.get("result") else {}


def tally_checkers(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Count a run's finished records per checker spec (``checked_by``)."""
    checkers: dict[str, int] = {}
    for row in rows:
        result = result_of(row)
        if result.get("checked_by"):
            spec = str(result["checked_by"])
            checkers[spec] = checkers.get(spec, 0) + 1
    return checkers


def tally_identifiers(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Count a run's replaced identifiers per kind, most first."""
    kinds: dict[str, int] = {}
    for row in rows:
        result = result_of(row)
        for kind, n in (result.get("identifiers") or {}).items():
            kinds[kind] = kinds.get(kind, 0) + int(n)
    return dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))


def tally_outcomes(rows: list[dict[str, Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """Count a run's records per outcome and its refused rewrites per check."""
    outcomes: dict[str, int] = {}
    refusals: dict[str, int] = {}
    for row in rows:
        result = result_of(row)
        name = "failed" if row.get("status") == "failed" else record_outcome(result)
        if row.get("status") == WAITING:
            name = WAITING_FOR_REVIEW  # paused: no outcome of its own yet
        outcomes[name] = outcomes.get(name, 0) + 1
        for snapshot in result.get("iterations", []) or []:
            for refusal in snapshot.get("rejections", []) or []:
                check = str(refusal.get("check", "?"))
                refusals[check] = refusals.get(check, 0) + 1
    order = {name: i for i, name in enumerate(OUTCOMES)}
    ordered = dict(sorted(outcomes.items(), key=lambda kv: order.get(kv[0], 99)))
    return ordered, dict(sorted(refusals.items(), key=lambda kv: -kv[1]))
