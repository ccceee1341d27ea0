"""Choose the similarity floor of the acceptance checks on PersonalReddit data.

Acceptable rewrites: the rules anonymizer's rewrite of each of the 404
PersonalReddit texts (every explicit cue generalized). Unacceptable: each text
against an unrelated one, and each text against meta-text answers (talk about
the task, as weak models return). Prints both distributions of MiniLM cosine
similarity, the floor that separates them best, the other checks' verdicts on
the rules rewrites, the explicit-cue leak rate of original vs rules, and the
time per record.

Run: python benchmarks/acceptance_floor.py [PATH/TO/train.jsonl]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from anonygraph.attributes import DEFAULT_ATTRIBUTES
from anonygraph.cues import detect_cues
from anonygraph.cues.leaks import explicit_leak_rates
from anonygraph.cues.places import gazetteer
from anonygraph.llm.backends import rules
from anonygraph.runs.io.datasets import load_personalreddit
from anonygraph.state.domain import Rewrite
from anonygraph.tools.acceptance import (
    check_kept_parts,
    check_new_specifics,
    check_task_talk,
)
from anonygraph.tools.text_metrics import load_embedder

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data"
META_TEXTS = [
    "This is a new edit of the original text. I will provide a JSON object with "
    "the edited text.",
    "Your edit of [description] has been successfully reviewed and approved.",
    "Leaks to neutralize, most important first: city_country, age.",
    "Here is the anonymized text with all personal details removed.",
    "I cannot help with that request.",
    "Sure! Below is the rewritten comment in JSON format.",
    "The author is likely a 30-year-old woman living in a large city.",
    '{"changes": "generalized the location", "text": ""}',
]


def main() -> None:
    path = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else DEFAULT / "personalreddit" / "train.jsonl"
    )
    records = load_personalreddit(path).records
    policy = [{"attribute": a, "action": "generalize"} for a in DEFAULT_ATTRIBUTES]
    gazetteer()
    start = time.perf_counter()
    rewrites = [
        rules.answer("anonymizer", Rewrite, {"text": r.text, "policy": policy}).text  # type: ignore[attr-defined]
        for r in records
    ]
    per_record = (time.perf_counter() - start) / len(records)
    originals = [r.text for r in records]
    changed = [i for i, (a, b) in enumerate(zip(originals, rewrites)) if a != b]

    encoder = load_embedder()
    start = time.perf_counter()
    emb_orig = encoder.encode(originals)
    emb_new = encoder.encode(rewrites)
    emb_meta = encoder.encode(META_TEXTS)
    embed_seconds = time.perf_counter() - start
    n_texts = len(originals) + len(rewrites) + len(META_TEXTS)

    acceptable = np.array([float(emb_orig[i] @ emb_new[i]) for i in changed])
    shift = len(originals) // 2
    unrelated = np.array(
        [
            float(emb_orig[i] @ emb_orig[(i + shift) % len(originals)])
            for i in range(len(originals))
        ]
    )
    meta = (emb_orig @ emb_meta.T).ravel()
    bad = np.concatenate([unrelated, meta])

    def show(name: str, values: np.ndarray) -> None:
        q = np.percentile(values, [0, 1, 5, 50, 95, 99, 100])
        print(
            f"{name:<28} n={len(values):5d} min {q[0]:.3f} p1 {q[1]:.3f} "
            f"p5 {q[2]:.3f} median {q[3]:.3f} p95 {q[4]:.3f} p99 {q[5]:.3f} "
            f"max {q[6]:.3f}"
        )

    print(
        f"records {len(records)}; rules rewrites that changed the text: {len(changed)}"
    )
    show("acceptable (rules rewrite)", acceptable)
    show("unrelated text pairs", unrelated)
    show("meta-text answers", meta)
    grid = np.round(np.arange(0.20, 0.95, 0.01), 2)
    errors = [
        (float((acceptable < f).mean() + (bad >= f).mean()), float(f)) for f in grid
    ]
    best_error, best = min(errors)
    print(
        f"floor with fewest errors: {best:.2f} "
        f"(rejects {(acceptable < best).mean():.1%} of acceptable, "
        f"accepts {(bad >= best).mean():.1%} of unacceptable)"
    )
    for floor in (0.45, 0.5, 0.55, 0.6, 0.65, 0.7):
        rejected = (acceptable < floor).mean()
        print(
            f"  floor {floor:.2f}: rejects {rejected:.1%} acceptable, accepts "
            f"{(unrelated >= floor).mean():.2%} unrelated, "
            f"{(meta >= floor).mean():.2%} meta-text"
        )

    reasons: Counter[str] = Counter()
    for i in changed:
        if check_task_talk(originals[i], rewrites[i]):
            reasons["task talk"] += 1
        if check_new_specifics(originals[i], rewrites[i]):
            reasons["new specifics"] += 1
        # The evidence a policy would carry: the cues the rules generalized.
        evidence = [c.quote for c in detect_cues(originals[i]) if c.certainty >= 3]
        if check_kept_parts(originals[i], rewrites[i], evidence, 0.8):
            reasons["kept parts"] += 1
    print(
        f"other checks on the {len(changed)} rules rewrites: {dict(reasons) or 'all pass'}"
    )
    meta_talk = sum(
        bool(check_task_talk(o, m)) for o in originals[:50] for m in META_TEXTS
    )
    print(
        f"task-talk check on meta-text answers: {meta_talk}/{50 * len(META_TEXTS)} rejected"
    )

    before = explicit_leak_rates((r.text, r.labels) for r in records)
    after = explicit_leak_rates((text, r.labels) for text, r in zip(rewrites, records))
    print("explicit-cue leak rate per attribute: original -> rules")
    for name, rate in before.items():
        print(
            f"  {name:<20} n={rate.labelled:3d} {rate.rate:6.1%} -> "
            f"{after[name].rate:6.1%}"
        )
    print(
        f"rules anonymizer: {per_record * 1000:.2f} ms per record; "
        f"MiniLM (numpy): {embed_seconds:.1f} s for {n_texts} texts"
    )


if __name__ == "__main__":
    main()
