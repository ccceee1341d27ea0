"""Reports across runs: a RLAA-style table, a privacy-utility plot, MRS per round.

Also report.html, the same tables and plots with a per-record review.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from statistics import mean
from typing import Any

from anonygraph import report_html, review, store
from anonygraph.cues.leaks import LeakRate
from anonygraph.evaluation import overall_leak_rate, run_leak_rates
from anonygraph.tools.matching import ABSTAINED

COLUMNS = (
    "method",
    "run",
    "records",
    "UTIL",
    "PRIV",
    "PRIV@3",
    "LEAK",
    "ROUGE",
    "BLEU",
    "MEAN",
    "READ",
    "HALL",
    "calls/rec",
    "tokens/rec",
    "attacker",
    "judge",
)
"""Every row names the attacker and judge model specs its numbers come from."""


def _avg(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def privacy(rows: list[dict[str, Any]], k: int = 1) -> float | None:
    """Share of labelled attributes the attacker got right (top-1 or top-k).

    Only "correct" counts; "less precise" does not, as in the RLAA paper. The
    share is over every labelled attribute (the papers' attack success rate):
    an attacker that guessed nothing missed; only a missing or unreadable
    label leaves an attribute out.
    """
    hits = total = 0
    for row in rows:
        for match in json.loads(row["matches"] or "[]"):
            skipped = match.get("skipped_reason", "")
            if skipped and skipped not in ABSTAINED:
                continue
            total += 1
            guesses = match.get("guesses", [])[:k]
            hits += any(g.get("outcome") == "correct" for g in guesses)
    return hits / total if total else None


def utility_parts(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """Average the judge's and the n-gram scores of some evaluated texts."""
    utils, reads, means, halls = [], [], [], []
    for row in rows:
        utility = json.loads(row["utility"] or "{}")
        if utility:
            utils.append(utility["util"])
            reads.append(utility["readability"])
            means.append(utility["meaning"])
            halls.append(utility["hallucination"])
    metrics = [json.loads(r["metrics"] or "{}") for r in rows]
    return {
        "UTIL": _avg(utils),
        "READ": _avg(reads),
        "MEAN": _avg(means),
        "HALL": _avg(halls),
        "ROUGE": _avg(m.get("rouge_l") for m in metrics),
        "BLEU": _avg(m.get("bleu") for m in metrics),
    }


def eval_models(db: store.RunStore, eval_id: str) -> dict[str, str]:
    """Return the attacker and judge model specs an evaluation used."""
    rows = db.db.query("select params from evals where id = ?", [eval_id])
    params = json.loads(rows[0]["params"] or "{}") if rows else {}
    chosen = params.get("models") or {}
    default = params.get("default_model", "local")
    judge = chosen.get("judge", default) if params.get("judge", True) else "none"
    return {"attacker": chosen.get("attacker", default), "judge": judge}


def run_row(db: store.RunStore, run: dict[str, Any], eval_id: str) -> dict[str, Any]:
    """Summarize one evaluated run as a table row."""
    rows = [r for r in db.evaluations(eval_id) if r["status"] == "done"]
    final = [r for r in rows if r["row"] == "final"]
    totals = db.run_totals(run["id"])
    per = totals.get("per_record", {})
    params = json.loads(run.get("params") or "{}")
    return {
        "method": run["method"],
        "profile": params.get("profile", ""),
        "run": run["id"],
        "records": len(final),
        "PRIV": privacy(final),
        "PRIV@3": privacy(final, k=3),
        "LEAK": overall_leak_rate(run_leak_rates(db, run["id"])["final"]),
        **utility_parts(final),
        "calls/rec": per.get("calls"),
        "tokens/rec": (per.get("tokens_in", 0) + per.get("tokens_out", 0))
        if per
        else None,
        **eval_models(db, eval_id),
    }


def original_row(db: store.RunStore, eval_id: str, run_id: str = "") -> dict[str, Any]:
    """The reference row: the original texts, attacked and scored the same way."""
    rows = [r for r in db.evaluations(eval_id) if r["row"] == "original"]
    leaks = run_leak_rates(db, run_id)["original"] if run_id else {}
    return {
        "method": "original text",
        "run": "-",
        "records": len(rows),
        "PRIV": privacy(rows),
        "PRIV@3": privacy(rows, k=3),
        "LEAK": overall_leak_rate(leaks),
        **utility_parts(rows),
        "calls/rec": 0,
        "tokens/rec": 0,
        **eval_models(db, eval_id),
    }


def iteration_curve(db: store.RunStore, eval_id: str) -> list[dict[str, Any]]:
    """Privacy and utility after each round, with the marginal rate of substitution.

    MRS_t = utility lost / privacy gained between rounds t-1 and t (RLAA eq. 6);
    undefined (None) when privacy did not change. Every record counts in every
    round: one that stopped early (converged) keeps its last text.
    """
    per_record: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for row in db.evaluations(eval_id):
        if row["status"] == "done" and row["row"] != "final":
            per_record[row["record_id"]][row["round"]] = row
    last = max((max(rounds) for rounds in per_record.values()), default=-1)
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for rounds in per_record.values():
        for number in range(last + 1):
            # A record that stopped early keeps its last text in later rounds.
            done = [r for r in rounds if r <= number]
            if done:
                by_round[number].append(rounds[max(done)])
    curve: list[dict[str, Any]] = []
    for number in sorted(by_round):
        rows = by_round[number]
        point = {"round": number, "PRIV": privacy(rows), **utility_parts(rows)}
        if curve:
            point["MRS"] = _mrs(curve[-1], point, "UTIL")
            point["MRS_ROUGE"] = _mrs(curve[-1], point, "ROUGE")
            point["MRS_BLEU"] = _mrs(curve[-1], point, "BLEU")
        curve.append(point)
    return curve


def _mrs(before: dict[str, Any], after: dict[str, Any], key: str) -> float | None:
    if None in (before["PRIV"], after["PRIV"], before[key], after[key]):
        return None
    gained = before["PRIV"] - after["PRIV"]
    lost = before[key] - after[key]
    return lost / gained + 0.0 if gained else None


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}" if value <= 1 else f"{value:.2f}"
    return str(value)


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """Render rows as a Markdown table in COLUMNS order."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_fmt(r.get(c)) for c in COLUMNS) + " |" for r in rows]
    return "\n".join(lines)


def write_report(
    db_path: str, out_dir: str, run_ids: list[str] | None = None
) -> dict[str, Path]:
    """Write report.md, report.csv, the plots and report.html for evaluated runs.

    Args:
        db_path: the run store.
        out_dir: where the files go (created).
        run_ids: runs to include; default: every run that has an evaluation.

    Returns:
        Name -> path of each file written.

    Raises:
        ValueError: when no chosen run has been evaluated yet.
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
    leaks = {"original text": run_leak_rates(db, evaluated[0][0]["id"])["original"]}
    leaks.update(
        {
            f"{run['method']} ({run['id']})": run_leak_rates(db, run["id"])["final"]
            for run, _ in evaluated
        }
    )
    curves = {
        f"{run['method']} ({run['id']}; {_models_note(db, eval_id or '')})": (
            iteration_curve(db, eval_id or "")
        )
        for run, eval_id in evaluated
    }
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {"markdown": out / "report.md", "csv": out / "report.csv"}
    sections = ["# anonygraph report", "", markdown_table(rows), ""]
    sections += [
        "## Explicit-cue leak rate per attribute",
        "",
        "Share of labelled records whose label, or an exact cue the detectors",
        "tie to it, is still in the text (no model; LEAK above pools them).",
        "",
        leak_table(leaks),
        "",
    ]
    for name, curve in curves.items():
        if len(curve) > 1:
            sections += [f"## Per round: {name}", "", _curve_table(curve), ""]
    files["markdown"].write_text("\n".join(sections))
    with open(files["csv"], "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    plots = _plots(rows, curves, out)
    files.update(plots)
    reviews = [r for run, _ in evaluated for r in review.record_reviews(db, run["id"])]
    files["html"] = out / "report.html"
    files["html"].write_text(
        report_html.render_html(COLUMNS, rows, curves, plots, reviews, _fmt),
        encoding="utf-8",
    )
    for path in files.values():
        path.chmod(0o600)
    return files


def _models_note(db: store.RunStore, eval_id: str) -> str:
    chosen = eval_models(db, eval_id)
    return f"attacker {chosen['attacker']}, judge {chosen['judge']}"


def leak_table(leaks: dict[str, dict[str, LeakRate]]) -> str:
    """Render texts x attributes explicit-cue leak rates as a Markdown table."""
    names = sorted({name for rates in leaks.values() for name in rates})
    lines = ["| texts | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
    for label, rates in leaks.items():
        cells = [
            f"{rates[n].rate:.2f} ({rates[n].leaked}/{rates[n].labelled})"
            if n in rates
            else "-"
            for n in names
        ]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _curve_table(curve: list[dict[str, Any]]) -> str:
    keys = ("round", "PRIV", "UTIL", "ROUGE", "BLEU", "MRS", "MRS_ROUGE", "MRS_BLEU")
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(_fmt(p.get(k)) for k in keys) + " |" for p in curve]
    return "\n".join(lines)


MARKERS = ("o", "s", "D", "^", "v", "P", "X", "p", "h", "<", ">", "d")
"""One marker per method and profile (the star is the original text's)."""


def privacy_utility_figure(rows: list[dict[str, Any]]) -> Any:
    """Plot PRIV against UTIL on fixed [0, 1] axes, so two reports compare by eye.

    The original text (the first row) is the reference point: a black star with
    dotted lines through it. Each method and profile has its own marker; its
    runs share it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 5))
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for row in rows:
        utility = row["UTIL"] if row["UTIL"] is not None else row["ROUGE"]
        if row["PRIV"] is not None and utility is not None:
            groups[_plot_label(row)].append((row["PRIV"], utility))
    reference = groups.pop("original text", [])
    for x, y in reference:
        ax.axvline(x, color="grey", linestyle=":", linewidth=1)
        ax.axhline(y, color="grey", linestyle=":", linewidth=1)
    if reference:
        ax.scatter([x for x, _ in reference], [y for _, y in reference], marker="*",
                   s=220, color="black", label="original text", zorder=3,
                   clip_on=False)  # fmt: skip
    for index, (label, points) in enumerate(groups.items()):
        ax.scatter([x for x, _ in points], [y for _, y in points], s=70, label=label,
                   marker=MARKERS[index % len(MARKERS)], zorder=3,
                   clip_on=False)  # fmt: skip
    # Points on an edge (the original text's UTIL is 1) are drawn whole.
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("PRIV: attacker top-1 accuracy (lower is better)")
    ax.set_ylabel("UTIL (judge; ROUGE-L when not judged)")
    ax.set_title("Privacy-utility trade-off")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def _plot_label(row: dict[str, Any]) -> str:
    """Name a row's point: its method, with its profile when the run has one."""
    profile = row.get("profile")
    return f"{row['method']} ({profile})" if profile else str(row["method"])


def _plots(
    rows: list[dict[str, Any]], curves: dict[str, list[dict[str, Any]]], out: Path
) -> dict[str, Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: dict[str, Path] = {}
    fig = privacy_utility_figure(rows)
    files["scatter"] = out / "privacy_utility.png"
    fig.savefig(files["scatter"], dpi=120)
    plt.close(fig)

    iterative = {name: c for name, c in curves.items() if len(c) > 1}
    if iterative:
        fig, axes = plt.subplots(1, 3, figsize=(14, 4))
        for name, curve in iterative.items():
            rounds = [p["round"] for p in curve]
            axes[0].plot(rounds, [p["PRIV"] for p in curve], marker="o", label=name)
            axes[1].plot(rounds, [p["UTIL"] for p in curve], marker="o", label=name)
            # ROUGE-L beside the judge: a weak judge can flatten UTIL.
            axes[1].plot(rounds, [p["ROUGE"] for p in curve], linestyle="--",
                         marker="x", label=f"{name} ROUGE-L")  # fmt: skip
            axes[2].plot(rounds[1:], [p.get("MRS") for p in curve[1:]], marker="o",
                         label=name)  # fmt: skip
        titles = ("PRIV per round", "UTIL (solid), ROUGE-L (dashed)", "MRS per round")
        for ax, title in zip(axes, titles, strict=True):
            ax.set_title(title)
            ax.set_xlabel("round")
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=7)
        axes[1].legend(fontsize=6)
        files["iterations"] = out / "iterations.png"
        fig.tight_layout()
        fig.savefig(files["iterations"], dpi=120)
        plt.close(fig)
    return files
