"""Score a finished run: every record's original, final and (optionally) each round."""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from tqdm import tqdm

from anonygraph import llm
from anonygraph.cues.leaks import LeakRate, explicit_leak_rates
from anonygraph.graphs import evaluate
from anonygraph.runs import store
from anonygraph.runs.engines.ray_connect import RayOptions
from anonygraph.runs.engines.records import invoke_thread, run_bounded
from anonygraph.runs.options import check_engine
from anonygraph.runs.store.checkpointers import open_checkpointer
from anonygraph.runs.store.recorder import StoreRecorder, record_calls
from anonygraph.runs.tracing import tracing_scope
from anonygraph.state.evaluate import EvalContext
from anonygraph.state.profile import from_given


@dataclass
class EvalOptions:
    """What `anonygraph eval` needs."""

    run_id: str
    db: str = "runs.sqlite"
    context: dict[str, Any] = field(default_factory=dict)
    """Fields of `EvalContext`: attacker/judge models, search backend, ..."""
    per_iteration: bool = False
    """Also score the text after every round (for MRS curves)."""
    concurrency: int = 1
    """Texts at once (on each Ray worker with ``engine="ray"``)."""
    progress: bool = True
    trace: bool = False
    """Send LangSmith traces; off otherwise, whatever the environment says."""
    engine: str = "local"
    """``local`` (this process) or ``ray`` (Ray workers, set by `ray`)."""
    ray: RayOptions = field(default_factory=RayOptions)
    """The cluster and the workers of ``engine="ray"``; unused otherwise."""


@dataclass
class EvalSummary:
    """What an evaluation did."""

    eval_id: str
    run_id: str
    scored: int = 0
    reused: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    skipped_records: list[str] = field(default_factory=list)
    structured: dict[str, str] = field(default_factory=dict)
    """Model spec -> how structured answers were asked for (server modes)."""
    search: dict[str, str] = field(default_factory=dict)
    """Model spec -> how its search agent ran, where its server refused tools."""
    leak_rates: dict[str, dict[str, LeakRate]] = field(default_factory=dict)
    """original/final -> attribute -> explicit-cue leak rate (no model)."""
    ray_nodes: dict[str, int] = field(default_factory=dict)
    """On Ray: node (address and id) -> texts scored there."""

    def report(self) -> str:
        """Render for people."""
        lines = [
            f"eval {self.eval_id} of run {self.run_id}: {self.scored} text(s) scored, "
            f"{self.reused} reused, {self.failed} failed"
        ]
        original, final = self.leak_rates.get("original"), self.leak_rates.get("final")
        if original and final:
            lines.append(
                "  explicit-cue leak rate, original -> final: "
                + ", ".join(
                    f"{name} {original[name].rate:.0%} -> {final[name].rate:.0%} "
                    f"(of {rate.labelled})"
                    for name, rate in final.items()
                )
            )
        lines += [f"  skipped {s}" for s in self.skipped_records]
        lines += [f"  failed {f}" for f in self.failures]
        lines += [
            f"  structured output: {s} -> {m}" for s, m in self.structured.items()
        ]
        lines += [f"  search agent: {s} -> {m}" for s, m in self.search.items()]
        if self.ray_nodes:
            where = ", ".join(f"{n} on {node}" for node, n in self.ray_nodes.items())
            lines.append(f"  ray: texts per node: {where}")
        return "\n".join(lines)


@dataclass(frozen=True)
class EvalRow:
    """One text of a record to score."""

    record_id: str
    row: str
    """original, final, or round_N."""
    round: int
    text: str
    original: str
    labels: dict[str, Any]
    same_as: str = ""
    """An earlier row of the record with the same text, whose scores it copies."""

    @property
    def id(self) -> str:
        """Name the text within its evaluation (a Ray worker's key for it)."""
        return f"{self.record_id}/{self.row}"


def eval_id_for(run_id: str, context: EvalContext, per_iteration: bool) -> str:
    """Name an evaluation after its run and settings, so re-running resumes it."""
    settings = asdict(context)
    key = json.dumps([run_id, settings, per_iteration], sort_keys=True, default=str)
    return f"eval-{hashlib.sha256(key.encode()).hexdigest()[:10]}"


def rows_of(record: dict[str, Any], per_iteration: bool) -> list[EvalRow]:
    """List the texts of one finished record to score."""
    original = record["original"]
    labels = json.loads(record["labels"] or "{}")
    result = json.loads(record["result"] or "{}")
    rows = [EvalRow(record["record_id"], "original", 0, original, original, labels)]
    if per_iteration:
        for entry in result.get("iterations", []):
            after = entry.get("rewritten")
            if after:
                n = int(entry.get("round", 0)) + 1
                rows.append(
                    EvalRow(
                        record["record_id"], f"round_{n}", n, after, original, labels
                    )
                )
    final_round = max((r.round for r in rows), default=0)
    rows.append(
        EvalRow(
            record["record_id"],
            "final",
            final_round,
            record["anonymized"],
            original,
            labels,
        )
    )
    # A rejected rewrite or the last round repeats an earlier text: score once.
    first: dict[str, str] = {}
    for i, row in enumerate(rows):
        if row.text in first:
            rows[i] = replace(row, same_as=first[row.text])
        else:
            first[row.text] = row.row
    return rows


def run_leak_rates(db: store.RunStore, run_id: str) -> dict[str, dict[str, LeakRate]]:
    """Explicit-cue leak rate per attribute of a run's originals and final texts.

    Model-free (`anonygraph.cues.leaks`): the share of labelled records whose
    label, or an exact cue the detectors tie to it, is still in the text.
    """
    rows = db.records(run_id, status="done")
    labelled = [(row, json.loads(row.get("labels") or "{}")) for row in rows]
    return {
        "original": explicit_leak_rates(
            (str(row["original"] or ""), labels) for row, labels in labelled
        ),
        "final": explicit_leak_rates(
            (str(row["anonymized"] or ""), labels) for row, labels in labelled
        ),
    }


def overall_leak_rate(rates: dict[str, LeakRate]) -> float | None:
    """Leaked share of all labelled (record, attribute) pairs; None without labels."""
    labelled = sum(r.labelled for r in rates.values())
    return sum(r.leaked for r in rates.values()) / labelled if labelled else None


async def evaluate_run(options: EvalOptions) -> EvalSummary:
    """Score every finished record of a run; reuse scores already stored.

    Raises:
        ValueError: when the run does not exist in the store.
    """
    check_engine(options.engine)
    with tracing_scope(options.trace):
        return await _evaluate_run(options)


def refuse_unplayable_roles(context: EvalContext) -> None:
    """Refuse, before any text is scored, a role whose model cannot play it.

    Without this, an evaluation with ``--model default=rules`` scored nothing
    and reported every text as failed at its judge step.

    Raises:
        ValueError: naming the role, its spec and what to give instead.
    """
    asked = (("judge", context.judge), ("validator", context.validator))
    for role in (name for name, on in asked if on):
        settings = llm.settings_for(context, role)
        if not settings.backend.plays(role):
            raise ValueError(
                f"the {role} role is set to {str(settings.spec)!r}, which "
                f"cannot play it; give it a model (--model {role}=local or "
                "another spec)"
            )


async def _evaluate_run(options: EvalOptions) -> EvalSummary:
    db = store.RunStore(options.db)
    if db.get_run(options.run_id) is None:
        raise ValueError(
            f"no run {options.run_id!r} in {options.db}; "
            "list runs with `anonygraph report --db ...`"
        )
    context = from_given(EvalContext, options.context)
    refuse_unplayable_roles(context)
    eval_id = eval_id_for(options.run_id, context, options.per_iteration)
    summary = EvalSummary(eval_id=eval_id, run_id=options.run_id)
    summary.leak_rates = run_leak_rates(db, options.run_id)
    db.start_eval(eval_id, options.run_id, asdict(context))
    done = db.evaluated_rows(eval_id)
    summary.skipped_records = [
        f"record {r['record_id']!r}: not anonymized ({r['status']})"
        for r in db.records(options.run_id)
        if r["status"] != "done"
    ]
    todo = [
        row
        for record in db.records(options.run_id, status="done")
        for row in rows_of(record, options.per_iteration)
        if (row.record_id, row.row) not in done
    ]
    summary.reused = len(done)
    bar = tqdm(
        total=len(todo), desc="eval", disable=not options.progress, file=sys.stderr
    )
    errors = await _score_rows(
        options, context, summary, [r for r in todo if not r.same_as], db, bar
    )
    summary.failures = [e for e in errors if e]
    summary.failed = len(summary.failures)
    summary.scored = len(errors) - summary.failed
    for row in todo:
        if row.same_as:
            copied = db.copy_evaluation(eval_id, row.record_id, row.same_as, row.row)
            summary.scored += copied
            bar.update(1)
    bar.close()
    used = db.models_used(f"{options.run_id}/{eval_id}")
    recorder = StoreRecorder(db)
    summary.structured = llm.structured_modes(used, recorder)
    stepped = db.models_used(f"{options.run_id}/{eval_id}", step="search_step")
    summary.search = llm.search_fallbacks(stepped, recorder)
    return summary


async def _score_rows(
    options: EvalOptions,
    context: EvalContext,
    summary: EvalSummary,
    rows: list[EvalRow],
    db: store.RunStore,
    bar: Any,
) -> list[str]:
    """Score ``rows`` in this process or on Ray workers; return their errors."""
    eval_id = summary.eval_id
    if options.engine == "ray":
        from anonygraph.runs.engines.ray_engine import evaluate_on_ray

        job = {
            "run_id": options.run_id,
            "eval_id": eval_id,
            "db": options.db,
            "context": options.context,
            "trace": options.trace,
            "item_type": EvalRow,
            "graph": evaluate.build_graph,
            "context_type": EvalContext,
            "score": score_row,
        }
        # Blocking, as a Ray run is (`batch.run_batch`).
        errors, summary.ray_nodes = evaluate_on_ray(
            job, rows, options.ray, options.concurrency, bar
        )
        return errors
    async with open_checkpointer(options.db) as saver:
        app = evaluate.build_graph().compile(checkpointer=saver, name="evaluate")
        return await run_bounded(
            [
                partial(score_row, app, context, row, eval_id, options.run_id, db)
                for row in rows
            ],
            options.concurrency,
            bar,
        )


async def score_row(
    app: Any,
    context: EvalContext,
    row: EvalRow,
    eval_id: str,
    run_id: str,
    db: store.RunStore,
) -> str:
    """Evaluate one text (resuming its thread); store it; return an error or ''."""
    start = time.perf_counter()
    # Judge and attacker calls log their start too (named as save_evaluation does).
    record_calls(db, f"{run_id}/{eval_id}", f"{row.record_id}/{row.row}")
    result, failure = await invoke_thread(
        app,
        f"{eval_id}:{row.record_id}:{row.row}",
        _payload(row),
        context,
        finished=scored,
    )
    status, error = ("failed", str(failure)) if failure else ("done", "")
    result["text"] = row.text  # the output schema leaves inputs out
    db.save_evaluation(
        eval_id,
        run_id,
        row.record_id,
        row.row,
        round_no=row.round,
        status=status,
        error=error,
        result=result,
        seconds=time.perf_counter() - start,
    )
    return f"record {row.record_id!r} {row.row}: {error}" if error else ""


def scored(values: dict[str, Any]) -> bool:
    """Tell whether an evaluation thread ran its last step (`score` sets metrics)."""
    return bool(values.get("metrics"))


def _payload(row: EvalRow) -> dict[str, Any]:
    labels: dict[str, Any] = {}
    hardness: dict[str, int] = {}
    gold_pii: list[str] = []
    identity: list[str] = []
    facts: dict[str, list[str]] = {}
    grid: list[list[int]] = []
    for name, value in row.labels.items():
        if name == "gold_pii":
            # Not an attribute: the PII strings DP-Embed's leak looks for.
            gold_pii = [str(v) for v in value] if isinstance(value, list) else []
            continue
        # Not attributes either: AURA's identity, utility facts and grid units.
        if name == "identity":
            identity = [str(v) for v in (value if isinstance(value, list) else [value])]
            continue
        if name in ("profile_facts", "codebook_facts"):
            facts[name.removesuffix("_facts")] = [str(v) for v in value or []]
            continue
        if name == "grid_units":
            grid = [[int(i), int(j)] for i, j in value or []]
            continue
        # Labels may carry their hardness: {"age": {"value": 34, "hardness": 2}}.
        if isinstance(value, dict):
            labels[name] = value.get("value", value.get("estimate"))
            if value.get("hardness") is not None:
                hardness[name] = int(value["hardness"])
        else:
            labels[name] = value
    return {
        "text": row.text,
        "original": row.original,
        "labels": labels,
        "hardness": hardness,
        "gold_pii": gold_pii,
        "identity": identity,
        "facts": facts,
        "grid_units": grid,
    }
