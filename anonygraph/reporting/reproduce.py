"""``anonygraph reproduce PAPER``: a paper's methods, protocol and table.

The paper's methods run in the paper profile, are scored under the paper's
protocol and are printed beside the paper's published table.

One plan per paper says which data set, which runs (each named as the
paper's table names its row), which evaluation protocol and which published
table; the figures come from ``data/paper_figures.json``. With the embedded
or ``rules`` models the command shows the shape of the reproduction on a few
records; with the paper's models it is the reproduction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.llm.registry import stands_in
from anonygraph.papers.figures import PublishedTable, paper_figures
from anonygraph.reporting.tables import (
    attribute_accuracy,
    original_row,
    overall,
    run_row,
)
from anonygraph.runs import store

ATTRIBUTE_COLUMNS: Mapping[str, str] = {
    "Age": "age",
    "Edu": "education",
    "Gnd": "sex",
    "Inc": "income_level",
    "Loc": "city_country",
    "Mar": "relationship_status",
    "Occ": "occupation",
    "PoB": "birth_city_country",
}
"""The papers' per-attribute column -> our attribute."""


Cell = Callable[[dict[str, Any]], Any]
"""Reads one paper column's value from our row."""


def _key(key: str) -> Cell:
    return lambda row: row.get(key)


def _attribute(name: str) -> Cell:
    return lambda row: row["attributes"].get(name)


def _tenth(key: str) -> Callable[[dict[str, Any]], float | None]:
    # SEAL and IntentAnony print the judge's 1-10 scores on 0-1.
    return lambda row: None if row.get(key) is None else row[key] / 10


def _intentanony_utility(row: dict[str, Any]) -> float | None:
    # IntentAnony Table 1's Utility, derived (docs/paper_profiles.md E8):
    # ((Mean + Read + Hall) / 3 + BLEU + ROUGE) / 3 on 0-1 scales.
    parts = [row.get(k) for k in ("UTIL", "BLEU", "ROUGE")]
    if any(p is None for p in parts):
        return None
    return sum(float(p) for p in parts if p is not None) / 3


_SAME = ("UTIL", "PRIV", "ROUGE", "BLEU", "MEAN", "READ", "HALL")


@dataclass(frozen=True)
class Plan:
    """How one paper is reproduced."""

    table: str
    """The published table the runs fill."""
    dataset: str
    """Which of the table's data sets the published rows shown come from."""
    data_format: str
    """The loader of the data given: personalreddit or synthpai."""
    runs: tuple[tuple[str, str], ...]
    """(the paper's row name, our method) per run, in the table's order."""
    protocol: str
    """The evaluator's paper protocol."""
    original: str
    """The paper's name of the original-text row."""
    columns: Mapping[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)
    """Paper column -> its value from our row (report keys, attributes)."""
    iterations: int = 0
    """T of the paper for this data set; 0: the method's default."""


def _columns(paper: str) -> dict[str, Callable[[dict[str, Any]], Any]]:
    if paper == "rlaa":
        return {key: _key(key) for key in _SAME}
    columns: dict[str, Cell] = {
        name: _attribute(attr) for name, attr in ATTRIBUTE_COLUMNS.items()
    }
    columns |= {
        "Privacy": lambda row: row.get("PRIV"),
        "Mean": _tenth("MEAN"),
        "Read": _tenth("READ"),
        "Hall": lambda row: row.get("HALL"),
        "BLEU": lambda row: row.get("BLEU"),
        "ROUGE": lambda row: row.get("ROUGE"),
        "Overall": lambda row: row.get("Overall"),
    }
    if paper == "seal":
        columns["Utility"] = lambda row: row.get("UTIL")
    else:
        columns["Utility"] = lambda row: row.get("Utility")
    return columns


PLANS: Mapping[str, Plan] = {
    "rlaa": Plan(
        table="rlaa-table-1",
        dataset="personalreddit",
        data_format="personalreddit",
        runs=(("FgAA (Naive)", "fgaa"), ("RLAA", "rlaa")),
        protocol="rlaa",
        original="Original Text",
        columns=_columns("rlaa"),
        iterations=10,  # Section 4.1, PersonalReddit
    ),
    "seal": Plan(
        table="seal-table-1",
        dataset="synthpai_main",
        data_format="synthpai",
        runs=(("Adv. Anon.", "fgaa"), ("SEAL", "seal")),
        protocol="seal",
        original="Original",
        columns=_columns("seal"),
        iterations=3,  # Tables 1-2 report iterations 1-3
    ),
    "intentanony": Plan(
        table="intentanony-table-1",
        dataset="personalreddit",
        data_format="personalreddit",
        runs=(("Adv. Anon.", "fgaa"), ("IntentAnony", "intentanony")),
        protocol="intentanony",
        original="Original",
        columns=_columns("intentanony"),
    ),
}
"""The papers ``reproduce`` runs. AURA needs its interview transcripts with
known identities and a re-identification count, DP-Embed its encoder,
inverter and corrector directories and gold-PII data; neither is planned yet
(`unplanned` says so)."""

UNPLANNED: Mapping[str, str] = {
    "aura": "AURA's tables count re-identifications of 27 interview "
    "transcripts by web-search agents; the evaluator has no re-identification "
    "count against a known identity yet",
    "dp-embed": "DP-Embed's tables need the vec2text encoder, inverter and "
    "corrector directories and gold-PII data; run `anonygraph run --method "
    "dp-embed --profile paper` and `anonygraph eval --profile paper` (the PII "
    "column: labels.gold_pii) yourself",
}
"""Papers ``reproduce`` knows but cannot run yet, with why."""


@dataclass
class ReproduceOptions:
    """What `anonygraph reproduce` needs."""

    paper: str
    data: str
    out: str = "reproduce"
    records: int = 8
    models: dict[str, Any] = field(default_factory=dict)
    """``default_model`` / ``models`` fields, for every role of every run."""
    max_iterations: int = 0
    """0: the paper's T."""
    db: str = ""
    """The run store; empty: OUT/runs.sqlite."""
    concurrency: int = 1
    progress: bool = True


def write_sample(plan: Plan, data: str, records: int, out: Path) -> tuple[Path, int]:
    """Write the first ``records`` records of the data set as our JSONL.

    PersonalReddit records carry every profile attribute as a label (K = 8),
    as the papers score them.

    Returns:
        The file and the number of records written.

    Raises:
        ValueError: when the data holds no usable record.
    """
    from anonygraph.runs.datasets import load_personalreddit, load_synthpai

    loaded = (
        load_personalreddit(data, all_labels=True)
        if plan.data_format == "personalreddit"
        else load_synthpai(data)
    )
    chosen = loaded.records[: max(1, records)]
    if not chosen:
        raise ValueError(f"{data}: no {plan.data_format} record could be read")
    out.mkdir(parents=True, exist_ok=True)
    sample = out / "sample.jsonl"
    with open(sample, "w", encoding="utf-8") as handle:
        for record in chosen:
            line = {"id": record.id, "text": record.text, "labels": record.labels}
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    sample.chmod(0o600)
    return sample, len(chosen)


@dataclass
class Reproduction:
    """What a reproduction ran and the rows it scored."""

    paper: str
    plan: Plan
    records: int
    rows: list[dict[str, Any]]
    """Our rows: the original first, then one per run (report keys plus
    ``label`` and ``attributes``)."""
    notes: list[str] = field(default_factory=list)


async def reproduce(options: ReproduceOptions) -> Reproduction:
    """Run the paper's methods in the paper profile and score them its way.

    Raises:
        ValueError: for a paper without a plan (naming why) or unusable data.
    """
    from anonygraph.reporting.evaluation import EvalOptions, evaluate_run
    from anonygraph.runs.batch import run_batch
    from anonygraph.runs.options import RunOptions

    if options.paper in UNPLANNED:
        raise ValueError(f"reproduce {options.paper}: {UNPLANNED[options.paper]}")
    if options.paper not in PLANS:
        raise ValueError(
            f"reproduce {options.paper!r}: choose one of "
            f"{', '.join([*PLANS, *UNPLANNED])}"
        )
    plan = PLANS[options.paper]
    out = Path(options.out)
    sample, count = write_sample(plan, options.data, options.records, out)
    db = options.db or str(out / "runs.sqlite")
    iterations = options.max_iterations or plan.iterations
    notes = [f"{count} record(s) of {options.data}, paper profile"]
    if iterations:
        notes[0] += f", T = {iterations}"
    evaluated: list[tuple[str, str, str]] = []
    for label, method in plan.runs:
        context: dict[str, Any] = {"profile": "paper", **options.models}
        if iterations:
            context["max_iterations"] = iterations
        summary = await run_batch(
            RunOptions(
                method=method,
                input=str(sample),
                output=str(out / f"{method}.jsonl"),
                db=db,
                context=context,
                concurrency=options.concurrency,
                progress=options.progress,
                force=True,
            )
        )
        if summary.failed:
            notes.append(f"{label}: {summary.failed} record(s) failed")
            # Each with its record, step and what to do, as the run said it.
            notes += [f"{label}: {failure}" for failure in summary.failures]
        scored = await evaluate_run(
            EvalOptions(
                run_id=summary.run_id,
                db=db,
                context={
                    "profile": "paper",
                    "protocol": plan.protocol,
                    **options.models,
                },
                concurrency=options.concurrency,
                progress=options.progress,
            )
        )
        if scored.failed:
            notes.append(f"{label}: {scored.failed} text(s) failed to score")
            notes += [f"{label}: {failure}" for failure in scored.failures]
        evaluated.append((label, summary.run_id, scored.eval_id))
    return Reproduction(
        options.paper, plan, count, collect_rows(db, plan, evaluated), notes
    )


def collect_rows(
    db_path: str, plan: Plan, evaluated: list[tuple[str, str, str]]
) -> list[dict[str, Any]]:
    """Build our rows from the store: the original, then each run.

    Args:
        db_path: the run store.
        plan: the paper's plan.
        evaluated: (the paper's row name, run id, eval id) per run.
    """
    db = store.RunStore(db_path)
    first_run, first_eval = evaluated[0][1], evaluated[0][2]
    original = original_row(db, first_eval, first_run)
    original["label"] = plan.original
    original["attributes"] = attribute_accuracy(
        [r for r in db.evaluations(first_eval) if r["row"] == "original"]
    )
    rows = [original]
    runs = {r["id"]: r for r in db.runs()}
    for label, run_id, eval_id in evaluated:
        row = run_row(db, runs[run_id], eval_id)
        row["label"] = label
        row["attributes"] = attribute_accuracy(
            [
                r
                for r in db.evaluations(eval_id)
                if r["row"] == "final" and r["status"] == "done"
            ]
        )
        rows.append(row)
    for row in rows:
        row["Utility"] = _intentanony_utility(row)
    for row in rows[1:]:
        row["Overall"] = overall(row, original)
        if plan.protocol == "intentanony":
            # Its Overall uses its own Utility (derived; E8).
            row["Overall"] = overall(
                {"PRIV": row["PRIV"], "UTIL": row["Utility"]},
                {"PRIV": original["PRIV"], "UTIL": original["Utility"]},
            )
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)  # means of integer scores print as the paper's
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) <= 1 else f"{value:.2f}"
    return str(value)


def render(result: Reproduction) -> str:
    """Print the published table's rows, then ours, in the paper's columns."""
    plan = result.plan
    table: PublishedTable = paper_figures(result.paper).table(plan.table)
    keys = table.keys()
    models = sorted(
        {
            str(row.get(k))
            for row in result.rows
            for k in ("attacker", "judge")
            if row.get(k)
        }
    )
    lines = [
        f"{table.id}: {table.table} ({table.section}): {table.caption}",
        "columns: "
        + ", ".join(
            f"{c.key} ({c.scale}, {c.direction} is better)" for c in table.columns
        ),
    ]
    if all(m == "none" or stands_in(m) for m in models):  # "none": no judge
        lines.append("shape only: the embedded model is not the paper's")
    lines += [f"ours: {note}" for note in result.notes]
    head = ["row", "model", "source", *keys]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in table.rows:
        if row.dataset != plan.dataset:
            continue
        cells = [row.method, row.model or "-", "published"]
        cells += [_cell(row.values.get(k)) for k in keys]
        lines.append("| " + " | ".join(cells) + " |")
    for ours in result.rows:
        model = ours.get("attacker", "-")
        source = f"this run ({ours.get('profile', '')})"
        cells = [ours["label"], model, source]
        cells += [
            _cell(plan.columns[k](ours)) if k in plan.columns else "-" for k in keys
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
