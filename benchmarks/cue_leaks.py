"""Explicit-cue leak rates before and after the rules anonymizer, on shared data.

Two steps, so that two versions of the code can be compared on one measure:

  python benchmarks/cue_leaks.py rewrite OUT.json
      Rewrite PersonalReddit's 404 texts and SynthPAI's profiles (comments
      joined, one text per author) the way `make run`'s rules roles do: up to
      three rounds of the rules anonymizer with every attribute in the policy,
      a round's rewrite kept only if it passes the acceptance checks (all but
      the MiniLM similarity floor, too slow on SynthPAI's long profiles; the
      score step reports the similarity instead). Uses
      whichever `anonygraph` is importable (PYTHONPATH=/path/to/other/tree for
      another version).

  python benchmarks/cue_leaks.py score NAME=OUT.json [NAME=OUT.json ...]
      Score each rewrite file with this tree's measure
      (`anonygraph.cues.leaks`: the label, or an exact cue of the labelled
      attribute, still in the text), beside the originals; print the leak rate
      per data set and attribute, the share of words changed, and the MiniLM
      similarity distribution of changed texts to their originals
      (PersonalReddit; SynthPAI's too with --all, minutes on 2 cores).
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
ROUNDS = 3


def _records() -> dict[str, list[Any]]:
    from anonygraph.runs.io.datasets import load_personalreddit, load_synthpai

    return {
        "personalreddit": load_personalreddit(
            DATA / "personalreddit" / "train.jsonl"
        ).records,
        "synthpai": load_synthpai(DATA / "synthpai" / "profiles.jsonl").records,
    }


def rewrite(out: str) -> None:
    from anonygraph.attributes.registry import DEFAULT_ATTRIBUTES
    from anonygraph.llm.backends import rules
    from anonygraph.state.answers import Rewrite
    from anonygraph.tools.acceptance import rejections

    policy = [{"attribute": a, "action": "generalize"} for a in DEFAULT_ATTRIBUTES]
    result: dict[str, dict[str, str]] = {}
    for name, records in _records().items():
        start = time.perf_counter()
        texts: dict[str, str] = {}
        for record in records:
            text = record.text
            for _ in range(ROUNDS):
                facts = {"text": text, "policy": policy}
                answer = rules.answer("anonymizer", Rewrite, facts)
                new = answer.text  # type: ignore[attr-defined]
                if new == text or rejections(
                    record.text, new, similarity=lambda a, b: 1.0
                ):
                    break
                text = new
            texts[record.id] = text
        seconds = time.perf_counter() - start
        per = seconds / len(records) * 1000
        print(f"{name}: {len(records)} texts, {per:.1f} ms a text", flush=True)
        result[name] = texts
    Path(out).write_text(json.dumps(result))


def _words(text: str) -> list[str]:
    return re.findall(r"\w+(?:'\w+)?", text.lower())


def _changed_share(before: str, after: str) -> float:
    old = _words(before)
    matcher = difflib.SequenceMatcher(None, old, _words(after), autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    return 1 - kept / len(old) if old else 0.0


def score(pairs: list[str]) -> None:
    import numpy as np

    from anonygraph.cues.leaks import explicit_leak_rates
    from anonygraph.tools.text_metrics import load_embedder

    records = _records()
    versions = {
        "original": {n: {r.id: r.text for r in rs} for n, rs in records.items()}
    }
    for pair in [p for p in pairs if not p.startswith("--")]:
        label, _, path = pair.partition("=")
        versions[label] = json.loads(Path(path).read_text())
    encoder = load_embedder()
    for name, rows in records.items():
        labelled = [(r.id, {k: v for k, v in r.labels.items()}) for r in rows]
        print(f"\n== {name}: {len(rows)} texts")
        table: dict[str, dict[str, tuple[int, int]]] = {}
        for version, texts in versions.items():
            rates = explicit_leak_rates(
                (texts[name][rid], labels) for rid, labels in labelled
            )
            table[version] = {a: (r.leaked, r.labelled) for a, r in rates.items()}
            leaked = sum(r.leaked for r in rates.values())
            total = sum(r.labelled for r in rates.values())
            texts_leaking = sum(
                any(
                    r.leaked
                    for r in explicit_leak_rates([(texts[name][rid], labels)]).values()
                )
                for rid, labels in labelled
            )
            line = (
                f"{version:<10} leaked labels {leaked}/{total} "
                f"({leaked / total:.1%}); texts leaking {texts_leaking}/{len(rows)}"
            )
            if version != "original":
                originals = [r.text for r in rows]
                new = [texts[name][r.id] for r in rows]
                shares = [_changed_share(a, b) for a, b in zip(originals, new)]
                changed = [i for i, (a, b) in enumerate(zip(originals, new)) if a != b]
                line += (
                    f"; changed {len(changed)} texts, words changed "
                    f"{np.mean(shares):.1%} of all, "
                    f"{np.mean([shares[i] for i in changed]) if changed else 0:.1%} "
                    "of changed texts"
                )
                if changed and (name == "personalreddit" or "--all" in sys.argv):
                    a = encoder.encode([originals[i] for i in changed])
                    b = encoder.encode([new[i] for i in changed])
                    sims = np.sum(a * b, axis=1)
                    q = np.percentile(sims, [0, 5, 25, 50, 75, 100])
                    line += (
                        "\n           MiniLM similarity of changed texts: min "
                        f"{q[0]:.3f} p5 {q[1]:.3f} p25 {q[2]:.3f} median {q[3]:.3f} "
                        f"p75 {q[4]:.3f} max {q[5]:.3f}"
                    )
            print(line, flush=True)
        attributes = sorted({a for v in table.values() for a in v})
        print("attribute".ljust(22) + "".join(v[:12].rjust(14) for v in table))
        for attribute in attributes:
            cells = "".join(
                f"{table[v].get(attribute, (0, 0))[0]}/{table[v].get(attribute, (0, 0))[1]}".rjust(
                    14
                )
                for v in table
            )
            print(attribute.ljust(22) + cells)


if __name__ == "__main__":
    if sys.argv[1:2] == ["rewrite"]:
        rewrite(sys.argv[2])
    elif sys.argv[1:2] == ["score"]:
        score(sys.argv[2:])
    else:
        print(__doc__)
