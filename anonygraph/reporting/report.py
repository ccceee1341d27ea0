"""``anonygraph report``: report.md and .csv, plots, report.html of evaluated runs."""

from __future__ import annotations

import csv
from pathlib import Path

from anonygraph.reporting import html_page, record_view
from anonygraph.reporting.evaluation import run_leak_rates
from anonygraph.reporting.plots import absent_panels, write_plots
from anonygraph.reporting.tables import (
    COLUMNS,
    accuracy_table,
    attribute_accuracy,
    curve_table,
    eval_params,
    format_value,
    iteration_curve,
    leak_table,
    markdown_table,
    models_note,
    original_row,
    overall,
    protocol_cells,
    protocol_notes,
    protocol_table,
    report_protocol,
    run_row,
    similarities,
    similarity_table,
)
from anonygraph.runs import store


def write_report(
    db_path: str, out_dir: str, run_ids: list[str] | None = None, protocol: str = ""
) -> dict[str, Path]:
    """Write report.md, report.csv, the plots and report.html for evaluated runs.

    Args:
        db_path: the run store.
        out_dir: where the files go (created).
        run_ids: runs to include; default: every run that has an evaluation.
        protocol: whose utility composite, judge scale and top-k the paper
            table follows (rlaa, seal, intentanony); default: the paper
            protocol the evaluations ran under, else rlaa.

    Returns:
        Name -> path of each file written.

    Raises:
        ValueError: when no chosen run has been evaluated yet, or the protocol
            has no utility table.
    """
    db = store.RunStore(db_path)
    chosen = [r for r in db.runs() if not run_ids or r["id"] in run_ids]
    evaluated = [(run, db.latest_eval(run["id"])) for run in chosen]
    evaluated = [(run, e) for run, e in evaluated if e]
    if not evaluated:
        raise ValueError(
            "no evaluated run to report; score one first: anonygraph eval --run RUN_ID"
        )
    rows = [original_row(db, evaluated[0][1] or "", evaluated[0][0]["id"])]
    rows += [run_row(db, run, eval_id or "") for run, eval_id in evaluated]
    for row in rows[1:]:
        row["Overall"] = overall(row, rows[0])
    first_eval = evaluated[0][1] or ""
    accuracies = {
        "original text": attribute_accuracy(
            [r for r in db.evaluations(first_eval) if r["row"] == "original"]
        )
    }
    accuracies.update(
        {
            f"{run['method']} ({run['id']})": attribute_accuracy(
                [
                    r
                    for r in db.evaluations(eval_id or "")
                    if r["row"] == "final" and r["status"] == "done"
                ]
            )
            for run, eval_id in evaluated
        }
    )
    leaks = {"original text": run_leak_rates(db, evaluated[0][0]["id"])["original"]}
    leaks.update(
        {
            f"{run['method']} ({run['id']})": run_leak_rates(db, run["id"])["final"]
            for run, _ in evaluated
        }
    )
    # IntentAnony 5.4: the distribution, not only SIM's mean.
    samples = {
        f"{run['method']} ({run['id']})": similarities(
            [
                r
                for r in db.evaluations(eval_id or "")
                if r["row"] == "final" and r["status"] == "done"
            ]
        )
        for run, eval_id in evaluated
    }
    curves = {
        f"{run['method']} ({run['id']}; {models_note(db, eval_id or '')})": (
            iteration_curve(db, eval_id or "")
        )
        for run, eval_id in evaluated
    }
    chosen_protocol = report_protocol(
        [eval_params(db, e or "") for _, e in evaluated], protocol
    )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {"markdown": out / "report.md", "csv": out / "report.csv"}
    # No judge scored a run (dp-embed, aura, --no-judge): no utility to compose
    # (the original text is scored perfect without one).
    judged = any(row.get("MEAN") is not None for row in rows[1:])
    sections = ["# anonygraph report", "", markdown_table(rows), ""]
    if judged:
        sections += [
            f"## Under the {chosen_protocol} paper's protocol",
            "",
            protocol_table(rows, chosen_protocol),
            "",
        ]
    sections += [
        "## Explicit-cue leak rate per attribute",
        "",
        "Share of labelled records whose label, or an exact cue the detectors",
        "tie to it, is still in the text (no model; LEAK above pools them).",
        "",
        leak_table(leaks),
        "",
    ]
    sections += [
        "## Attacker accuracy per attribute (top-1)",
        "",
        "Share of labelled texts whose attribute the evaluation's attacker got",
        "right (a less precise guess counts as the evaluation scored it).",
        "",
        accuracy_table(accuracies),
        "",
    ]
    if any(samples.values()):
        sections += [
            "## Semantic similarity, original vs rewrite (IntentAnony 5.4)",
            "",
            "Cosine of the two texts' embeddings per rewrite (the eval's "
            "`semantic`: clipped to 0-1 in the product profile, raw in the "
            "paper's); histogram in similarity.png.",
            "",
            similarity_table(samples),
            "",
        ]
    for name, curve in curves.items():
        if len(curve) > 1:
            sections += [f"## Per round: {name}", "", curve_table(curve), ""]
    # iterations.png draws only the panels with data; say why one is absent.
    plot_notes = absent_panels(curves)
    sections += [*plot_notes, ""] if plot_notes else []
    files["markdown"].write_text("\n".join(sections))
    with open(files["csv"], "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    plots = write_plots(rows, curves, out, samples)
    files.update(plots)
    reviews = [
        r for run, _ in evaluated for r in record_view.record_reviews(db, run["id"])
    ]
    files["html"] = out / "report.html"
    files["html"].write_text(
        html_page.render_html(
            COLUMNS,
            rows,
            curves,
            plots,
            reviews,
            format_value,
            (
                chosen_protocol,
                protocol_notes(chosen_protocol),
                protocol_cells(rows, chosen_protocol),
            )
            if judged
            else None,
            plot_notes,
        ),
        encoding="utf-8",
    )
    for path in files.values():
        path.chmod(0o600)
    return files
