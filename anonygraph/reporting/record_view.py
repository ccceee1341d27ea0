"""Per-record view of a run: what changed, what the attacker guessed, why it stopped.

One data shape feeds both report.html (`html_page`) and `anonygraph show`.
(`anonygraph review`, which answers paused records, is `pending_reviews`.)
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from anonygraph.attributes import canonical_attribute
from anonygraph.runs import store
from anonygraph.runs.schema import WAITING
from anonygraph.state.record import WAITING_FOR_REVIEW
from anonygraph.tools.matching import ABSTAINED, match_inference
from anonygraph.tools.text_diff import changed_words, render_terminal, word_diff

# Iteration keys shown in their own columns; any other key a method stores
# (budgets, candidates, scores) is shown as-is under "details".
_KNOWN = {"round", "text", "rewritten", "inferences", "verdicts", "policy", "error"}


def label_values(labels: dict[str, Any]) -> dict[str, Any]:
    """Read labels that may carry their hardness (``{"value": 34, "hardness": 2}``).

    Data set names (``pobp``, ``income``) become ours, as the attacker uses them.
    """
    return {
        canonical_attribute(name): value.get("value", value.get("estimate"))
        if isinstance(value, dict)
        else value
        for name, value in labels.items()
    }


def judged_inferences(
    inferences: list[dict[str, Any]], labels: dict[str, Any]
) -> list[dict[str, Any]]:
    """Attach to each inference whether its guesses hit the label (None: no label).

    Inferences without a guess (the attacker found no clue) are left out.
    """
    out = []
    for inference in inferences:
        attribute = str(inference.get("attribute", ""))
        guesses = [str(g) for g in inference.get("guesses", [])]
        if not guesses:
            continue
        judged: list[dict[str, Any]] = [{"guess": g, "outcome": None} for g in guesses]
        truth_text, skipped = None, ""
        truth = labels.get(canonical_attribute(attribute))
        if truth is not None:
            match = match_inference(attribute, truth, guesses, k=len(guesses))
            truth_text, skipped = match.truth, match.skipped_reason
            outcomes = {m.guess: m.outcome for m in match.guesses}
            for guess in judged:
                guess["outcome"] = outcomes.get(guess["guess"].strip())
        entry = {
            "attribute": attribute,
            "certainty": inference.get("certainty"),
            "reasoning": str(inference.get("reasoning", "")),
            "truth": truth_text,
            "guesses": judged,
            "skipped": skipped,
        }
        out.append(entry)
    return out


def _eval_rows(db: store.RunStore, run_id: str) -> dict[str, dict[str, Any]]:
    eval_id = db.latest_eval(run_id)
    rows: dict[str, dict[str, Any]] = defaultdict(dict)
    if not eval_id:
        return rows
    for row in db.evaluations(eval_id):
        if row["status"] != "done" or row["row"] not in ("original", "final"):
            continue
        matches = json.loads(row["matches"] or "[]")
        rows[row["record_id"]][row["row"]] = [
            _eval_entry(m)
            for m in matches
            # An attacker that guessed nothing missed: show it, it is a result.
            if m.get("guesses") or m.get("skipped_reason") in ABSTAINED
        ]
    return rows


def _eval_entry(match: dict[str, Any]) -> dict[str, Any]:
    skipped = str(match.get("skipped_reason", ""))
    missed = skipped in ABSTAINED  # a missed attack, not an unscored label
    return {
        "attribute": match.get("attribute", ""),
        "truth": match.get("truth", ""),
        "missed": missed,
        "skipped": "" if missed else skipped,
        "guesses": [
            {"guess": g.get("guess", ""), "outcome": g.get("outcome")}
            for g in match.get("guesses", [])
        ],
    }


def record_reviews(
    db: store.RunStore, run_id: str, record_id: str | None = None
) -> list[dict[str, Any]]:
    """Build the review of a run's records (or one record), by record id.

    Raises:
        ValueError: naming the run or record when the store has no such thing.
    """
    run = db.get_run(run_id)
    if run is None:
        raise ValueError(f"no run {run_id!r} in {db.location}; see `anonygraph report`")
    records = sorted(db.records(run_id), key=lambda r: str(r["record_id"]))
    if record_id is not None:
        records = [r for r in records if r["record_id"] == record_id]
        if not records:
            raise ValueError(f"run {run_id!r} has no record {record_id!r}")
    evals = _eval_rows(db, run_id)
    return [_review(run, row, evals) for row in records]


def _review(
    run: dict[str, Any], row: dict[str, Any], evals: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    # The stored result holds every round with all the keys its method wrote
    # (a failed record keeps the rounds it finished).
    result = json.loads(row["result"] or "{}")
    labels = label_values(json.loads(row["labels"] or "{}"))
    original = row["original"] or ""
    # A failed record has no final text: show the original unchanged.
    anonymized = row["anonymized"] or ("" if row["status"] == "done" else original)
    diff = word_diff(original, anonymized)
    removed, inserted = changed_words(diff)
    rounds = []
    attributes = set(labels)
    for number, it in enumerate(result.get("iterations", [])):
        inferences = judged_inferences(it.get("inferences") or [], labels)
        policy = it.get("policy") or []
        attributes |= {i["attribute"] for i in inferences}
        attributes |= {str(p.get("attribute", "")) for p in policy}
        rounds.append(
            {
                # Stored rounds count from 0; people (and eval's round_N) from 1.
                "round": int(it.get("round", number)) + 1,
                "inferences": inferences,
                "verdicts": it.get("verdicts") or [],
                "policy": policy,
                "rewrite": _rewrite_state(it),
                "error": it.get("error") or "",
                "details": {k: v for k, v in it.items() if k not in _KNOWN},
            }
        )
    return {
        "run": run["id"],
        "method": run["method"],
        "id": row["record_id"],
        # The store's status, in the words the run's summary uses.
        "status": WAITING_FOR_REVIEW if row["status"] == WAITING else row["status"],
        "outcome": result.get("status", "") if row["status"] == "done" else "",
        # What happened to the text and who checked it (the output line's words).
        "result": str(result.get("outcome") or "") if row["status"] == "done" else "",
        "checked_by": str(result.get("checked_by") or ""),
        "identifiers": dict(result.get("identifiers") or {}),
        "error": row["error"] or "",
        "notes": [str(e) for e in result.get("errors", [])],
        "diff": diff,
        "removed": removed,
        "inserted": inserted,
        "labels": {k: str(v) for k, v in labels.items() if v is not None},
        "rounds": rounds,
        "evaluation": evals.get(row["record_id"], {}),
        "attributes": sorted(a for a in attributes if a),
        "cost": {
            "calls": row["calls"] or 0,
            "tokens_in": row["tokens_in"] or 0,
            "tokens_out": row["tokens_out"] or 0,
            "model_seconds": row["model_seconds"] or 0.0,
            "wall_seconds": row["wall_seconds"] or 0.0,
        },
    }


def _rewrite_state(iteration: dict[str, Any]) -> str:
    """Say what became of a round's rewrite: applied, rejected, or none asked."""
    if iteration.get("error"):
        return "rewrite rejected"
    return "rewritten" if iteration.get("rewritten") else "not rewritten"


_MARK = {"correct": "right", "less_precise": "close", "wrong": "wrong", None: "?"}


def _guesses(entry: dict[str, Any]) -> str:
    parts = []
    for g in entry["guesses"]:
        mark = _MARK.get(g["outcome"], str(g["outcome"]))
        parts.append(f"{g['guess']} ({mark})" if entry.get("truth") else g["guess"])
    text = ", ".join(parts) or "no guess"
    if entry.get("missed"):
        text += " (the attack missed)"
    if entry.get("truth"):
        text += f"  [truth: {entry['truth']}]"
    if entry.get("skipped"):
        text += f"  [not scored: {entry['skipped']}]"
    return text


def render_review(review: dict[str, Any], color: bool = False) -> str:
    """Render one record's review for a terminal.

    Removed words are shown as ``[-word-]``, inserted ones as ``{+word+}``.
    """
    cost = review["cost"]
    status = review["status"] + (f" ({review['outcome']})" if review["outcome"] else "")
    if review.get("result"):
        checker = review.get("checked_by") or ""
        status += f"; {review['result']}" + (
            f", checked by {checker}" if checker else ""
        )
    lines = [
        f"== {review['id']}  run {review['run']} ({review['method']})  {status}",
        f"   {len(review['rounds'])} round(s), {cost['calls']} call(s), "
        f"{cost['tokens_in']}+{cost['tokens_out']} tokens, "
        f"{cost['model_seconds']:.2f} s in models, {cost['wall_seconds']:.2f} s wall; "
        f"{review['removed']} word(s) removed, {review['inserted']} inserted",
    ]
    if review.get("identifiers"):
        lines.append(
            "   identifiers replaced before any model: "
            + ", ".join(f"{n} {kind}" for kind, n in review["identifiers"].items())
        )
    if review["error"]:
        lines.append(f"   error: {review['error']}")
    lines += [f"   note: {n}" for n in review["notes"]]
    lines += ["", render_terminal(review["diff"], color=color), ""]
    for rnd in review["rounds"]:
        lines.append(f"-- round {rnd['round']} ({rnd['rewrite']})")
        for inf in rnd["inferences"]:
            lines.append(
                f"   guess {inf['attribute']}: {_guesses(inf)}"
                f"  certainty {inf['certainty']}"
            )
        for verdict in rnd["verdicts"]:
            lines.append(
                f"   verdict {verdict.get('attribute')}: {verdict.get('validity')}"
                + (f" - {verdict['concept']}" if verdict.get("concept") else "")
            )
        for item in rnd["policy"]:
            evidence = "; ".join(str(e) for e in item.get("evidence", []))
            lines.append(
                f"   policy {item.get('attribute')}: {item.get('action')}"
                + (f" ({evidence})" if evidence else "")
            )
        if rnd["error"]:
            lines.append(f"   error: {rnd['error']}")
        for key, value in rnd["details"].items():
            lines.append(f"   {key}: {json.dumps(value, ensure_ascii=False)}")
    for row, matches in review["evaluation"].items():
        lines.append(f"-- evaluator's attack on the {row} text")
        lines += [f"   {m['attribute']}: {_guesses(m)}" for m in matches]
    return "\n".join(lines) + "\n"
