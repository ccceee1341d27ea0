"""Report tables: a row per evaluated run (RLAA's columns), per-round curves, leaks."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from statistics import mean
from typing import Any, cast

from anonygraph.cues.leaks import LeakRate
from anonygraph.reporting.evaluation import overall_leak_rate, run_leak_rates
from anonygraph.runs import store
from anonygraph.tools.matching import ABSTAINED

COLUMNS = (
    "method",
    "profile",
    "run",
    "records",
    "UTIL",
    "PRIV",
    "PRIV@3",
    "Overall",
    "LEAK",
    "ROUGE",
    "BLEU",
    "SIM",
    "LEN",
    "PII",
    "IOV",
    "ISF1",
    "MEAN",
    "READ",
    "HALL",
    "calls/rec",
    "tokens/rec",
    "attacker",
    "judge",
)
"""Every row names the attacker and judge model specs its numbers come from.

Overall (SEAL 5.1) = (P0 - P) / P0 - (U0 - U) / U0 against the original row;
SIM the mean semantic similarity, LEN the mean length ratio and PII the
gold-PII leak rate (DP-Embed 4.2), IOV and ISF1 IntentAnony's Intent Overlap
and Stability F1 (5.5, our definitions: `anonygraph.tools.intent_metrics`),
where the evaluation computed them."""


def _avg(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def privacy(rows: list[dict[str, Any]], k: int = 1) -> float | None:
    """Share of labelled attributes the attacker got right (top-1 or top-k).

    Only "correct" counts; "less precise" does not, as in the RLAA paper,
    unless the evaluation scored the match itself (``score``, ``score@3``:
    SEAL's protocol gives a less precise guess 0.5). The share is over every
    labelled attribute (the papers' attack success rate): an attacker that
    guessed nothing missed; only a missing or unreadable label leaves an
    attribute out.
    """
    hits: float = 0
    total = 0
    for row in rows:
        for match in json.loads(row["matches"] or "[]"):
            skipped = match.get("skipped_reason", "")
            if skipped and skipped not in ABSTAINED:
                continue
            total += 1
            key = "score" if k == 1 else "score@3"
            if key in match:
                hits += float(match[key])
                continue
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
    gold = [m["gold_pii"] for m in metrics if m.get("gold_pii")]
    gold_total = sum(g["total"] for g in gold)
    return {
        "UTIL": _avg(utils),
        "READ": _avg(reads),
        "MEAN": _avg(means),
        "HALL": _avg(halls),
        "ROUGE": _avg(m.get("rouge_l") for m in metrics),
        "BLEU": _avg(m.get("bleu") for m in metrics),
        "SIM": _avg(m.get("semantic") for m in metrics),
        "LEN": _avg(m.get("length_ratio") for m in metrics),
        "IOV": _avg(m["intents"]["overlap"] for m in metrics if m.get("intents")),
        "ISF1": _avg(m["intents"]["stability_f1"] for m in metrics if m.get("intents")),
        # Pooled over every gold string, as DP-Embed's leak (4.2).
        "PII": sum(g["leaked"] for g in gold) / gold_total if gold_total else None,
        **aura_parts(metrics),
    }


def _pooled(parts: list[dict[str, int]]) -> float | None:
    total = sum(p["total"] for p in parts)
    return 100 * sum(p["recovered"] for p in parts) / total if total else None


def aura_parts(metrics: list[dict[str, Any]]) -> dict[str, Any]:
    """AURA's figures: re-identifications and percent of facts recovered.

    REID counts the texts re-identified among those with a known identity
    (REID_n); PROFILE, CODEBOOK and GRID pool every fact or unit (the grid's
    weighted recovery rate).
    """
    known = [m["reidentified"] for m in metrics if "reidentified" in m]
    facts = [m["facts"] for m in metrics if m.get("facts")]
    return {
        "REID": sum(known) if known else None,
        "REID_n": len(known) if known else None,
        "PROFILE": _pooled([f["profile"] for f in facts if "profile" in f]),
        "CODEBOOK": _pooled([f["codebook"] for f in facts if "codebook" in f]),
        "GRID": _pooled([m["grid"] for m in metrics if m.get("grid")]),
    }


def overall(row: dict[str, Any], original: dict[str, Any]) -> float | None:
    """SEAL's Overall: relative privacy gain minus relative utility loss (5.1).

    None when either row lacks PRIV or UTIL, or the original's is 0.
    """
    p0, p, u0, u = original["PRIV"], row["PRIV"], original["UTIL"], row["UTIL"]
    if None in (p0, p, u0, u) or not p0 or not u0:
        return None
    return float((p0 - p) / p0 - (u0 - u) / u0)


def attribute_accuracy(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Top-1 privacy score per attribute (the papers' per-attribute tables)."""
    per: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for match in json.loads(row["matches"] or "[]"):
            skipped = match.get("skipped_reason", "")
            if skipped and skipped not in ABSTAINED:
                continue
            if "score" in match:
                value = float(match["score"])
            else:
                guesses = match.get("guesses", [])[:1]
                value = float(any(g.get("outcome") == "correct" for g in guesses))
            per[match["attribute"]].append(value)
    return {name: mean(values) for name, values in sorted(per.items())}


def accuracy_table(accuracies: dict[str, dict[str, float]]) -> str:
    """Render texts x attributes top-1 accuracies as a Markdown table."""
    names = sorted({name for values in accuracies.values() for name in values})
    lines = ["| texts | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
    for label, values in accuracies.items():
        cells = [format_value(values.get(n)) for n in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def eval_params(db: store.RunStore, eval_id: str) -> dict[str, Any]:
    """Return the `EvalContext` fields an evaluation ran with."""
    rows = db.db.query("select params from evals where id = ?", [eval_id])
    return dict(json.loads(rows[0]["params"] or "{}")) if rows else {}


def profile_note(run_params: dict[str, Any], eval_params: dict[str, Any]) -> str:
    """Name the run's profile and the evaluation's (with its paper protocol)."""
    run = run_params.get("profile") or "product"
    scored = eval_params.get("profile") or "product"
    if scored == "paper":
        scored = f"paper ({eval_params.get('protocol', '')})"
    return f"{run}; eval {scored}"


def eval_models(db: store.RunStore, eval_id: str) -> dict[str, str]:
    """Return the attacker and judge model specs an evaluation used."""
    params = eval_params(db, eval_id)
    chosen = params.get("models") or {}
    default = params.get("default_model", "local")
    judge = chosen.get("judge", default) if params.get("judge", True) else "none"
    attacker = chosen.get("attacker", default) if params.get("attack", True) else "none"
    return {"attacker": attacker, "judge": judge}


def run_row(db: store.RunStore, run: dict[str, Any], eval_id: str) -> dict[str, Any]:
    """Summarize one evaluated run as a table row."""
    rows = [r for r in db.evaluations(eval_id) if r["status"] == "done"]
    final = [r for r in rows if r["row"] == "final"]
    totals = db.run_totals(run["id"])
    per = totals.get("per_record", {})
    params = json.loads(run.get("params") or "{}")
    return {
        "method": run["method"],
        "profile": profile_note(params, eval_params(db, eval_id)),
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
        "profile": profile_note({}, eval_params(db, eval_id)).split("; ")[1],
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


def format_value(value: Any) -> str:
    """Write a table value: - for none, 4 decimals for a share, 2 above 1."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}" if value <= 1 else f"{value:.2f}"
    return str(value)


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """Render rows as a Markdown table in COLUMNS order."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += [
        "| " + " | ".join(format_value(r.get(c)) for c in COLUMNS) + " |" for r in rows
    ]
    return "\n".join(lines)


def models_note(db: store.RunStore, eval_id: str) -> str:
    """Name the attacker and judge of an evaluation, for a curve's title."""
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


def curve_table(curve: list[dict[str, Any]]) -> str:
    """Render one run's per-round points as a Markdown table."""
    keys = ("round", "PRIV", "UTIL", "ROUGE", "BLEU", "MRS", "MRS_ROUGE", "MRS_BLEU")
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += [
        "| " + " | ".join(format_value(p.get(k)) for k in keys) + " |" for p in curve
    ]
    return "\n".join(lines)


JUDGED_PROTOCOLS = ("rlaa", "seal", "intentanony")
"""The protocols whose tables print a judged utility (`protocol_table`)."""

JUDGE_SCALE: dict[str, int] = {"rlaa": 10, "seal": 1, "intentanony": 1}
"""The highest MEAN and READ of each protocol's tables: RLAA prints the
judge's 1-10, SEAL (5.1) and IntentAnony (Table 1) divide by 10 (E9)."""

UTILITY_LABELS: dict[str, str] = {
    "rlaa": "UTIL = (READ/10 + MEAN/10 + HALL)/3 (RLAA 4.1, eq. 9)",
    "seal": "Utility = (Mean + Read + Hall)/3, each on 0-1 (SEAL 5.1)",
    "intentanony": "Utility = ((Mean + Read + Hall)/3 + BLEU + ROUGE)/3, Mean and "
    "Read on 0-1 (IntentAnony Table 1; derived from its cells, not written in "
    "the paper)",
}
"""How each protocol's utility composite is made (E8)."""

PRIVACY_LABELS: dict[str, str] = {
    "rlaa": "PRIV: top-1, one best guess per attribute (RLAA 4.1)",
    "seal": "PRIV: top-1, one guess per attribute (SEAL 5.1, D.2)",
    "intentanony": "PRIV: top-1 is the headline; PRIV@3 counts any of the three "
    "guesses (D.2). The paper does not state which k its accuracy uses",
}
"""Which guesses each protocol's privacy counts (E11)."""

PROTOCOL_COLUMNS = (
    "method",
    "run",
    "records",
    "Utility",
    "PRIV",
    "PRIV@3",
    "Overall",
    "MEAN",
    "READ",
    "HALL",
    "BLEU",
    "ROUGE",
)


def judge_score(row: dict[str, Any], key: str, protocol: str) -> float | None:
    """Return a row's MEAN or READ (stored 1-10) on the protocol's scale."""
    value = row.get(key)
    if value is None:
        return None
    return float(value) * JUDGE_SCALE.get(protocol, 10) / 10


def protocol_utility(row: dict[str, Any], protocol: str) -> float | None:
    """Return the utility composite of the protocol's tables (E8).

    RLAA's and SEAL's is UTIL (the judge's three scores on 0-1, averaged);
    IntentAnony's averages that with BLEU and ROUGE. Protocols without a
    judged utility of their own (aura, dp-embed) get UTIL.
    """
    if protocol != "intentanony":
        return cast(float | None, row.get("UTIL"))
    parts = [row.get(k) for k in ("UTIL", "BLEU", "ROUGE")]
    if any(p is None for p in parts):
        return None
    return sum(float(p) for p in parts if p is not None) / 3


def protocol_rows(rows: list[dict[str, Any]], protocol: str) -> list[dict[str, Any]]:
    """Rewrite report rows (the original first) in a protocol's terms.

    Utility is the protocol's composite, MEAN and READ are on its scale and
    Overall (SEAL 5.1's definition) uses that Utility.
    """
    out = [
        {
            **{k: row.get(k) for k in PROTOCOL_COLUMNS},
            "Utility": protocol_utility(row, protocol),
            "MEAN": judge_score(row, "MEAN", protocol),
            "READ": judge_score(row, "READ", protocol),
            "HALL": None if row.get("HALL") is None else float(row["HALL"]),
        }
        for row in rows
    ]
    for row in out[1:]:
        row["Overall"] = overall(
            {"PRIV": row["PRIV"], "UTIL": row["Utility"]},
            {"PRIV": out[0]["PRIV"], "UTIL": out[0]["Utility"]},
        )
    if out:
        out[0]["Overall"] = None
    return out


def report_protocol(evaluations: list[dict[str, Any]], asked: str = "") -> str:
    """Choose the protocol a report's paper table follows.

    The one asked for; else the first judged paper protocol an evaluation ran
    under; else RLAA's (the product's UTIL is RLAA's eq. 9).
    """
    if asked:
        if asked not in JUDGED_PROTOCOLS:
            raise ValueError(
                f"no utility table for protocol {asked!r}; choose one of "
                + ", ".join(JUDGED_PROTOCOLS)
            )
        return asked
    for params in evaluations:
        if params.get("profile") == "paper" and params.get("protocol") in JUDGE_SCALE:
            return str(params["protocol"])
    return "rlaa"


def protocol_notes(protocol: str) -> list[str]:
    """Say how a protocol's table is made: its composite, scale and top-k."""
    scale = "1-10" if JUDGE_SCALE[protocol] == 10 else "0-1"
    return [
        UTILITY_LABELS[protocol],
        f"MEAN and READ on {scale}; HALL 0-1",
        PRIVACY_LABELS[protocol],
        "Overall = (P0 - P)/P0 - (U0 - U)/U0 against the original text, "
        "with this Utility (SEAL 5.1)",
    ]


def protocol_cells(rows: list[dict[str, Any]], protocol: str) -> list[dict[str, str]]:
    """Write `protocol_rows` as text: a 1-10 score with 2 decimals, even a 1."""
    out = []
    for row in protocol_rows(rows, protocol):
        cells = {c: format_value(row.get(c)) for c in PROTOCOL_COLUMNS}
        for key in ("MEAN", "READ"):
            if JUDGE_SCALE[protocol] == 10 and row[key] is not None:
                cells[key] = f"{row[key]:.2f}"
        out.append(cells)
    return out


def protocol_table(rows: list[dict[str, Any]], protocol: str) -> str:
    """Render the rows under a protocol: its labels, then a Markdown table."""
    lines = [f"- {note}" for note in protocol_notes(protocol)] + [""]
    lines += [
        "| " + " | ".join(PROTOCOL_COLUMNS) + " |",
        "|" + "---|" * len(PROTOCOL_COLUMNS),
    ]
    lines += [
        "| " + " | ".join(cells[c] for c in PROTOCOL_COLUMNS) + " |"
        for cells in protocol_cells(rows, protocol)
    ]
    return "\n".join(lines)


SIMILARITY_QUANTILES = (("min", 0.0), ("p10", 0.1), ("median", 0.5), ("p90", 0.9),
                        ("max", 1.0))  # fmt: skip
"""The points of the similarity distribution a report prints (IntentAnony 5.4)."""


def similarities(rows: list[dict[str, Any]]) -> list[float]:
    """Return the stored semantic similarity of each evaluated text that has one."""
    metrics = [json.loads(r["metrics"] or "{}") for r in rows]
    return [float(m["semantic"]) for m in metrics if m.get("semantic") is not None]


def quantile(values: list[float], q: float) -> float:
    """Linear interpolation between the two nearest ranks (numpy's default)."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def similarity_table(samples: dict[str, list[float]]) -> str:
    """Render each run's similarity distribution: n, mean and quantiles."""
    keys = ["texts", "n", "mean", *(name for name, _ in SIMILARITY_QUANTILES)]
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for label, values in samples.items():
        if not values:
            cells = ["0", *(["-"] * (len(keys) - 2))]
        else:
            cells = [str(len(values)), f"{mean(values):.4f}"]
            cells += [f"{quantile(values, q):.4f}" for _, q in SIMILARITY_QUANTILES]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
