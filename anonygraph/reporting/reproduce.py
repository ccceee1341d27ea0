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

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.llm.registry import stands_in
from anonygraph.papers.figures import PublishedTable, paper_figures
from anonygraph.reporting.reproduce_data import write_sample
from anonygraph.reporting.tables import (
    attribute_accuracy,
    judge_score,
    original_row,
    overall,
    protocol_utility,
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


def _scaled(key: str, paper: str) -> Cell:
    # The judge's MEAN/READ on the paper's scale (E9).
    return lambda row: judge_score(row, key, paper)


_SAME = ("UTIL", "PRIV", "ROUGE", "BLEU", "MEAN", "READ", "HALL")


@dataclass(frozen=True)
class ModelRow:
    """A published row that runs from a model the user names (SEAL's own)."""

    method: str
    """Our method that the row is."""
    option: str
    """Its key in `ReproduceOptions.row_models`."""
    flag: str
    """The command-line option that names the model."""


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
    contexts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The paper's run settings per row name (context fields)."""
    needs: tuple[str, ...] = ()
    """Run fields the user must give (`ReproduceOptions.run_fields`)."""
    llm: bool = True
    """Whether the rows come from language models (the embedded one stands
    in for the paper's); DP-Embed's come from its encoder and inverters."""
    more_tables: tuple[str, ...] = ()
    """Further published tables the same runs fill."""
    extra_columns: Mapping[str, Mapping[str, tuple[str, str]]] = field(
        default_factory=dict
    )
    """Table id -> our own columns after the paper's: key -> (scale, what)."""
    eval_fields: tuple[str, ...] = ()
    """Run fields the evaluation gets too (AURA's adversary searches)."""
    records: int = 8
    """Records run when the user names no number (DP-Embed: the paper's 50)."""
    seed: int | None = None
    """Seed of the draw when the user names none; None: the first records."""
    model_rows: Mapping[str, ModelRow] = field(default_factory=dict)
    """Published rows of a method of ours that run only from a model the user
    trained (`ReproduceOptions.row_models`), by the row's name."""


def _columns(paper: str) -> dict[str, Callable[[dict[str, Any]], Any]]:
    if paper == "rlaa":
        return {key: _key(key) for key in _SAME}
    columns: dict[str, Cell] = {
        name: _attribute(attr) for name, attr in ATTRIBUTE_COLUMNS.items()
    }
    columns |= {
        "Privacy": lambda row: row.get("PRIV"),
        "Mean": _scaled("MEAN", paper),
        "Read": _scaled("READ", paper),
        "Hall": lambda row: row.get("HALL"),
        "BLEU": lambda row: row.get("BLEU"),
        "ROUGE": lambda row: row.get("ROUGE"),
        "Overall": lambda row: row.get("Overall"),
    }
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
        # Section 4.1: SEAL is compared as trained by its own code (SFT then
        # DPO); our SEAL runs from the user's `seal train` model.
        model_rows={
            "SEAL (SFT+DPO)": ModelRow("seal", "seal_model", "--seal-model SPEC")
        },
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
    "dp-embed": Plan(
        table="dp-embed-comparison",
        dataset="nvidia/Nemotron-PII (50)",
        data_format="gold-pii",
        runs=(
            ("Regex sanitizer alone", "dp-embed"),
            ("DP-Embed-Invert", "dp-embed"),
        ),
        protocol="dp-embed",
        original="Original text",
        columns={
            "n": _key("records"),
            "leak": _key("PII"),
            "sem_sim": _key("SIM"),
            "len_ratio": _key("LEN"),
            "sec_per_ex": _key("sec/ex"),
        },
        contexts={
            "Regex sanitizer alone": {"redact_only": True},
            # Note 4.2: epsilon 16, delta 1e-3, 20 corrector steps, seed 0.
            "DP-Embed-Invert": {
                "epsilon": 16.0,
                "delta": 1e-3,
                "num_steps": 20,
                "noise_seed": 0,
            },
        },
        needs=("encoder_path", "inverter_path", "corrector_path"),
        llm=False,
        # Note 4.2: 50 examples of at most 800 characters, seed 0. How its
        # script draws them with that seed is not printed: ours is a shuffle.
        records=50,
        seed=0,
    ),
    "aura": Plan(
        table="aura-reidentification",
        more_tables=("aura-utility-grid",),
        dataset="anthropic_interviewer_27",
        data_format="transcripts",
        runs=(
            *((f"AURA ({v})", "aura") for v in ("adaptive", "pure", "8attr")),
            # 'Baselines': the LLM anonymizer of Staab et al. is the
            # feedback-guided adversarial loop, our FgAA (its 8 attributes).
            ("Anonymizer [Staab+ 2025]", "fgaa"),
        ),
        protocol="aura",
        original="Original transcript",
        columns={
            "reid": lambda row: (
                None if row.get("REID") is None else f"{row['REID']} / {row['REID_n']}"
            ),
            "profile_pct": _key("PROFILE"),
            "codebook_pct": _key("CODEBOOK"),
            "grid_unit_pct": _key("GRID"),
        },
        extra_columns={
            "aura-reidentification": {
                "reid": ("count", "re-identified by this run's attacker model")
            },
            "aura-utility-grid": {
                "profile_pct": ("%", "interviewee-profile facts recovered"),
                "codebook_pct": ("%", "codebook facts recovered"),
            },
        },
        contexts={f"AURA ({v})": {"variant": v} for v in ("adaptive", "pure", "8attr")},
        needs=("search_backend",),
        eval_fields=(
            "search_backend",
            "search_corpus",
            "search_index",
            "allow_web",
        ),
    ),
}
"""The papers ``reproduce`` runs."""

UNPLANNED: Mapping[str, str] = {}
"""Papers ``reproduce`` knows but cannot run yet, with why."""

NEEDS_FLAGS: Mapping[str, str] = {
    "encoder_path": "--encoder DIR (the paper's: gtr-t5-base)",
    "inverter_path": "--inverter DIR (the paper's: jxm/gtr__nq__32)",
    "corrector_path": "--corrector DIR (the paper's: jxm/gtr__nq__32__correct)",
    "search_backend": "--search-backend offline with --search-corpus FILE (or "
    "ddgs/tavily with --allow-web; the paper's agents search the web)",
}
"""A run field a plan needs -> the flag that gives it, with the paper's model."""


@dataclass
class ReproduceOptions:
    """What `anonygraph reproduce` needs."""

    paper: str
    data: str
    out: str = "reproduce"
    records: int = 0
    """How many records; 0: the plan's (8, DP-Embed's 50)."""
    seed: int | None = None
    """Draw the records by a shuffle with this seed; None: the plan's seed
    (DP-Embed's 0), else the first records in file order."""
    models: dict[str, Any] = field(default_factory=dict)
    """``default_model`` / ``models`` fields, for every role of every run."""
    max_iterations: int = 0
    """0: the paper's T."""
    db: str = ""
    """The run store; empty: OUT/runs.sqlite."""
    run_fields: dict[str, Any] = field(default_factory=dict)
    """Context fields for every run that takes them (DP-Embed's model folders,
    device, AURA's search)."""
    row_models: dict[str, str] = field(default_factory=dict)
    """`ModelRow.option` -> the model spec its row runs from (``seal_model``)."""
    concurrency: int = 1
    progress: bool = True


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
    from anonygraph.runs.engines.batch import run_batch
    from anonygraph.runs.options import RunOptions, context_schema

    if options.paper in UNPLANNED:
        raise ValueError(f"reproduce {options.paper}: {UNPLANNED[options.paper]}")
    if options.paper not in PLANS:
        raise ValueError(
            f"reproduce {options.paper!r}: choose one of "
            f"{', '.join([*PLANS, *UNPLANNED])}"
        )
    plan = PLANS[options.paper]
    missing = [name for name in plan.needs if not options.run_fields.get(name)]
    if missing:
        flags = ", ".join(NEEDS_FLAGS.get(name, name) for name in missing)
        raise ValueError(f"reproduce {options.paper} needs {flags}")
    iterations = options.max_iterations or plan.iterations
    runs = list(plan.runs)
    for label, model_row in plan.model_rows.items():
        if spec := options.row_models.get(model_row.option):
            runs.append((label, model_row.method))
    for label, method in runs:
        # A given option the paper profile cannot honour stops it before any
        # record is drawn or run.
        given = _run_context(plan, label, method, options, iterations)
        conflict = context_schema(method).paper_conflict(given)
        if conflict is not None:
            raise conflict
    out = Path(options.out)
    sample = write_sample(
        plan.data_format,
        options.data,
        options.records or plan.records,
        out,
        plan.seed if options.seed is None else options.seed,
    )
    count = sample.count
    db = options.db or str(out / "runs.sqlite")
    notes = [f"{count} record(s) of {options.data} ({sample.drawn}), paper profile"]
    if iterations:
        notes[0] += f", T = {iterations}"
    if plan.needs:
        notes += [
            f"{name.removesuffix('_path')}: {options.run_fields[name]}"
            for name in plan.needs
        ]
    for label, fields_ in plan.contexts.items():
        shown = ", ".join(f"{k} {v}" for k, v in fields_.items())
        notes.append(f"{label}: {shown}")
        if fields_.get("noise_seed", -1) >= 0:
            notes.append(
                f"{label}: a fixed noise seed reproduces the paper's benchmark "
                "and voids the privacy guarantee"
            )
    for label, model_row in plan.model_rows.items():
        if spec := options.row_models.get(model_row.option):
            notes.append(f"{label}: {spec} plays every role of {model_row.method}")
    evaluated: list[tuple[str, str, str]] = []
    for label, method in runs:
        context = _run_context(plan, label, method, options, iterations)
        summary = await run_batch(
            RunOptions(
                method=method,
                input=str(sample.path),
                # One file per row: AURA's three variants are one method.
                output=str(out / f"{method}-{_slug(label)}.jsonl"),
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
                    **{
                        k: v
                        for k, v in options.run_fields.items()
                        if k in plan.eval_fields
                    },
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
    rows = collect_rows(db, plan, evaluated)
    for (label, _, _), row in zip(evaluated, rows[1:], strict=True):
        if label in plan.model_rows:
            row["model"] = options.row_models[plan.model_rows[label].option]
    if not plan.llm:
        # DP-Embed's rows come from its inverter, or from the rules alone.
        inverter = Path(options.run_fields["inverter_path"]).name
        rows[0]["model"] = "-"
        for (label, _), row in zip(plan.runs, rows[1:], strict=True):
            rules = plan.contexts.get(label, {}).get("redact_only")
            row["model"] = "paper rules" if rules else inverter
    return Reproduction(options.paper, plan, count, rows, notes)


def _run_context(
    plan: Plan,
    label: str,
    method: str,
    options: ReproduceOptions,
    iterations: int,
) -> dict[str, Any]:
    """The options a row's run is given: the paper profile, the plan's, the user's."""
    from anonygraph.runs.options import context_schema

    known = context_schema(method).__dataclass_fields__
    context: dict[str, Any] = {
        "profile": "paper",
        **plan.contexts.get(label, {}),
        **{k: v for k, v in options.run_fields.items() if k in known},
        **_models_of(plan, label, options),
    }
    if iterations:
        context["max_iterations"] = iterations
    return context


def _models_of(plan: Plan, label: str, options: ReproduceOptions) -> dict[str, Any]:
    """The run's model fields: a model row's own model plays all its roles."""
    row = plan.model_rows.get(label)
    if row is None:
        return options.models
    return {"default_model": options.row_models[row.option]}


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
    for (_, run_id, _), row in zip(evaluated, rows[1:], strict=True):
        per = db.run_totals(run_id).get("per_record", {})
        row["sec/ex"] = per.get("wall_seconds")
    for row in rows:
        # The protocol's own composite (E8); Overall uses it.
        row["Utility"] = protocol_utility(row, plan.protocol)
    for row in rows[1:]:
        row["Overall"] = overall(
            {"PRIV": row["PRIV"], "UTIL": row["Utility"]},
            {"PRIV": original["PRIV"], "UTIL": original["Utility"]},
        )
    return rows


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def _cell(value: Any, scale: str = "") -> str:
    if value is None:
        return "-"
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if numeric and scale.startswith("count") and float(value).is_integer():
        return str(int(value))  # a count (records, re-identified) stays whole
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)  # means of integer scores print as the paper's
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) <= 1 else f"{value:.2f}"
    return str(value)


def render(result: Reproduction) -> str:
    """Print each published table's rows, then ours, in the paper's columns."""
    plan = result.plan
    models = sorted(
        {
            str(row.get(k))
            for row in result.rows
            for k in ("attacker", "judge")
            if row.get(k)
        }
    )
    head_lines = []
    if plan.llm and all(m == "none" or stands_in(m) for m in models):  # no judge
        head_lines.append("shape only: the embedded model is not the paper's")
    head_lines += [f"ours: {note}" for note in result.notes]
    tables = [
        _render_table(result, paper_figures(result.paper).table(table_id))
        for table_id in (plan.table, *plan.more_tables)
    ]
    first, *rest = tables
    return "\n\n".join(
        ["\n".join([first[0], first[1], *head_lines, *first[2:]])]
        + ["\n".join(t) for t in rest]
    )


def _published(result: Reproduction, name: str) -> str:
    """Say where a published row stands: run here too, or how to run it."""
    row = result.plan.model_rows.get(name)
    if row is None or any(ours["label"] == name for ours in result.rows):
        return "published"
    return f"published only (run ours: {row.flag})"


def _render_table(result: Reproduction, table: PublishedTable) -> list[str]:
    plan = result.plan
    extra = plan.extra_columns.get(table.id, {})
    keys = [*table.keys(), *extra]
    scales = {c.key: c.scale for c in table.columns} | {
        k: scale for k, (scale, _) in extra.items()
    }
    described = [f"{c.key} ({c.scale}, {c.direction} is better)" for c in table.columns]
    described += [f"{k} ({what}; ours only)" for k, (_, what) in extra.items()]
    lines = [
        f"{table.id}: {table.table} ({table.section}): {table.caption}",
        "columns: " + ", ".join(described),
    ]
    head = ["row", "model", "source", *keys]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in table.rows:
        if row.dataset != plan.dataset:
            continue
        name = f"{row.method} ({row.variant})" if row.variant else row.method
        cells = [name, row.model or "-", _published(result, name)]
        cells += [_cell(row.values.get(k), scales[k]) for k in keys]
        lines.append("| " + " | ".join(cells) + " |")
    for ours in result.rows:
        model = ours.get("model") or ours.get("attacker", "-")
        source = f"this run ({ours.get('profile', '')})"
        cells = [ours["label"], model, source]
        cells += [
            _cell(plan.columns[k](ours), scales[k]) if k in plan.columns else "-"
            for k in keys
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines
