"""Agreement of the rule matcher with the reference verdicts of PersonalReddit.

Reads ``../shared/data/personalreddit/train.jsonl`` (relative to the repository
root; ``--data`` overrides). Each of its 404 records holds one GPT-4 inference
(``guess``: up to three ranked guesses for the attribute in ``feature``) and
``guess_correctness``, the verdicts of the data set's authors: four 0/1 flags
``[top-1, top-3, top-1, top-3]``; for the two place attributes the first pair
is judged at city level and the second at country level. ``model_aided_eval``
(a judge model checked by people) is the reference; ``model_free_eval`` (the
authors' own string rules) is printed beside ours for scale.

The data is binary (correct vs not) per record, so the 3-class view exists
only for places: city right / only the country right / neither.

``--fit`` searches the two occupation thresholds (similarity for near-synonym
titles, and the lower one within a job family) on a grid and prints every
pair that reaches the best occupation agreement (top-1 plus top-3); the
shipped near-synonym value is the middle of that best region. The
same-family value is fitted on people's SynthPAI verdicts instead
(``benchmarks/human_verdicts.py --fit``).

Run: ``python benchmarks/matching_agreement.py [--data DIR] [--show N] [--fit]``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from anonygraph.tools.matching import AttributeMatch, match_inference

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PLACES = ("city_country", "birth_city_country")


def guesses_of(text: str) -> list[str]:
    """Return the ranked guesses after the last ``Guess:`` of an inference."""
    tail = text.rsplit("Guess:", 1)[-1].strip()
    return [g.strip().rstrip(".").strip() for g in tail.split(";") if g.strip()][:3]


def load(data: Path) -> list[dict[str, Any]]:
    """Read the 404 records with truth, guesses and reference flags."""
    rows = []
    path = data / "personalreddit" / "train.jsonl"
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            attribute = record["feature"]
            flags = record["guess_correctness"]
            rows.append(
                {
                    "attribute": attribute,
                    "truth": str(record["personality"][attribute]),
                    "guesses": guesses_of(record["guess"]),
                    "ref": [bool(x) for x in flags["model_aided_eval"]],
                    "free": [bool(x) for x in flags["model_free_eval"]],
                }
            )
    return rows


def country_level(match: AttributeMatch, k: int) -> bool:
    """True when one of the first ``k`` guesses names the label's country."""
    from anonygraph.attributes.places import parse_place

    truth = parse_place(match.truth, first_is_city=True).country
    return bool(truth) and any(
        match.guesses[i].outcome == "correct" or parse_place(g.guess).country == truth
        for i, g in enumerate(match.guesses[:k])
    )


def score(rows: list[dict[str, Any]]) -> tuple[dict[str, dict[str, float]], list[str]]:
    """Return agreement figures per attribute (and 'all') and the disagreements."""
    counts: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    misses: list[str] = []
    for row in rows:
        match = match_inference(row["attribute"], row["truth"], row["guesses"])
        top1 = match.top1 == "correct"
        top3 = match.best(3) == "correct"
        ref1, ref3 = row["ref"][0], row["ref"][1]
        for group in ("all", row["attribute"]):
            c = counts[group]
            c["n"] += 1
            c["agree1"] += top1 == ref1
            c["agree3"] += top3 == ref3
            c["free_agree1"] += row["free"][0] == ref1
            c["rules1"] += top1
            c["rules3"] += top3
            c["people1"] += ref1
            c["people3"] += ref3
            if row["attribute"] in PLACES and not match.skipped:
                # 3 classes: city right / only country right / neither.
                ours = 2 if top1 else int(country_level(match, 1))
                ref = 2 if ref1 else int(row["ref"][2])
                c["n3"] += 1
                c["agree3class"] += ours == ref
        if top1 != ref1 or top3 != ref3:
            verdicts = "; ".join(
                f"{g.guess} -> {g.outcome} ({g.reason})" for g in match.guesses
            )
            misses.append(
                f"{row['attribute']}: truth {row['truth']!r} people top1={int(ref1)} "
                f"top3={int(ref3)} | {verdicts or match.skipped_reason}"
            )
    return counts, misses


def table(counts: dict[str, dict[str, float]]) -> str:
    """Render the agreement figures as a Markdown table."""
    lines = [
        "| attribute | n | agree top-1 | agree top-3 | 3-class (places) "
        "| top-1 rules/people | top-3 rules/people | eth-sri rules agree top-1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    order = ["all", *sorted(k for k in counts if k != "all")]
    for group in order:
        c = counts[group]
        n = c["n"]
        three = f"{c['agree3class'] / c['n3']:.3f}" if c.get("n3") else "-"
        lines.append(
            f"| {group} | {n:.0f} | {c['agree1'] / n:.3f} | {c['agree3'] / n:.3f} "
            f"| {three} | {c['rules1'] / n:.3f} / {c['people1'] / n:.3f} "
            f"| {c['rules3'] / n:.3f} / {c['people3'] / n:.3f} "
            f"| {c['free_agree1'] / n:.3f} |"
        )
    return "\n".join(lines)


def fit_occupation(rows: list[dict[str, Any]]) -> list[tuple[float, float, int]]:
    """Grid-search the two occupation thresholds; return the best pairs.

    Word-rule verdicts stay fixed; only guesses the words leave undecided are
    re-judged for each pair, from their similarity and job families.
    """
    from anonygraph.attributes import occupation as occ

    cases = []
    for row in rows:
        if row["attribute"] != "occupation":
            continue
        judged = []
        for guess in row["guesses"]:
            decision, _ = occ.match_words(row["truth"], guess)
            if decision == "undecided":
                same = occ.job_family(row["truth"])[0] == occ.job_family(guess)[0]
                judged.append((None, occ.title_similarity(row["truth"], guess), same))
            else:
                judged.append((decision == "correct", 0.0, False))
        cases.append((judged, row["ref"][0], row["ref"][1]))
    grid = [round(0.30 + 0.01 * i, 2) for i in range(66)]
    results = []
    for high in grid:
        for low in (x for x in grid if x <= high):
            agree = 0
            for judged, ref1, ref3 in cases:
                ok = [
                    fixed
                    if fixed is not None
                    else (sim >= high or (same and sim >= low))
                    for fixed, sim, same in judged
                ]
                agree += (bool(ok) and ok[0]) == ref1
                agree += any(ok[:3]) == ref3
            results.append((high, low, agree))
    best = max(a for _, _, a in results)
    return [r for r in results if r[2] == best]


def main() -> None:
    """Print the agreement table and, if asked, the disagreements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--show", type=int, default=0, help="disagreements to list")
    parser.add_argument("--fit", action="store_true", help="fit occupation thresholds")
    args = parser.parse_args()
    if args.fit:
        best = fit_occupation(load(args.data))
        highs = sorted({h for h, _, _ in best})
        lows = sorted({lo for _, lo, _ in best})
        print(  # noqa: T201
            f"best occupation agreement {best[0][2]} (of 2 x records) at "
            f"{len(best)} pairs; near-synonym {highs[0]}-{highs[-1]}, "
            f"same family {lows[0]}-{lows[-1]}"
        )
        for high, low, _ in best:
            print(f"  near-synonym {high:.2f}  same family {low:.2f}")  # noqa: T201
        return
    counts, misses = score(load(args.data))
    print(table(counts))  # noqa: T201 - a benchmark prints its result
    for line in misses[: args.show]:
        print(line)  # noqa: T201


if __name__ == "__main__":
    main()
