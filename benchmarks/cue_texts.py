"""Run the user's command on the cue texts and count what it leaves.

The command is `make run`'s (`anonygraph run --method rlaa`, `rules` in
every role, three rounds), on one split of `tests/data/cues_*.jsonl`. For
each text: the cues (labelled spans) still in the output, the spans that had
to stay and were lost, and the outcome the run claimed. Prints every output
beside its input so a reader can look for broken sentences, then the counts:
texts with a cue left, outcomes that claim more than was checked over such a
text, lost spans.

Held-out 8 has a schema of its own (tests/data/README.md): its cues are
objects with the span in ``text``, its traps are the spans that must stay, and
a ``no_cue`` text must come back unchanged; `records` reads both kinds alike.

Run: python benchmarks/cue_texts.py tuning|heldout|heldout8 [--quiet] [-- EXTRA CLI ARGS]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
CLAIMS = ("anonymized",)
"""Outcomes that say the text is safe: over a text with a cue left, an overclaim
(``scrubbed`` says only what the rules did, so it claims nothing of the sort)."""


def present(span: str, text: str) -> bool:
    """Tell whether ``span`` stands in ``text`` as whole words, any case."""
    pattern = rf"(?<![\w]){re.escape(span)}(?![\w])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def records_of(split: str) -> list[dict[str, object]]:
    """Read one split as ``id``, ``text``, ``cues`` and ``keep`` (spans)."""
    records = []
    for line in (DATA / f"cues_{split}.jsonl").read_text().splitlines():
        record = json.loads(line)
        cues = record["cues"]
        if cues and isinstance(cues[0], dict):  # held-out 8's schema
            record["cues"] = [cue["text"] for cue in cues]
            record["keep"] = [trap["text"] for trap in record.get("traps", [])]
        records.append(record)
    return records


def identifier_spans(text: str) -> list[tuple[int, int]]:
    """Return where the default's identifier pass finds direct identifiers."""
    from anonygraph.identifiers import find_identifiers

    return [(i.start, i.end) for i in find_identifiers(text)]


def inside_identifier(span: str, text: str, ids: list[tuple[int, int]]) -> bool:
    """Tell whether every occurrence of ``span`` lies inside an identifier."""
    pattern = rf"(?<![\w]){re.escape(span)}(?![\w])"
    spots = [m.span() for m in re.finditer(pattern, text, re.IGNORECASE)]
    return bool(spots) and all(any(s <= a and b <= e for s, e in ids) for a, b in spots)


def only_identifiers_changed(
    text: str, ids: list[tuple[int, int]], output: str
) -> bool:
    """Tell whether ``output`` is ``text`` with at most its identifiers replaced."""
    pattern, last = "", 0
    for start, end in sorted(ids):
        pattern += re.escape(text[last:start]) + r"\[[A-Z_]+(?:_\d+)?\]"
        last = end
    pattern += re.escape(text[last:])
    return re.fullmatch(pattern, output) is not None


def run_split(split: str, extra: list[str]) -> list[dict[str, object]]:
    """Run the CLI on one split; return its output lines in input order."""
    source = DATA / f"cues_{split}.jsonl"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.jsonl"
        command = [
            sys.executable, "-m", "anonygraph.cli", "run", "--method", "rlaa",
            "--input", str(source), "--output", str(out),
            "--db", str(Path(folder) / "runs.sqlite"), "--max-iterations", "3",
            *extra,
        ]  # fmt: skip
        # Run from the temporary folder: `-m` puts the working directory first
        # on the path, and PYTHONPATH must decide which anonygraph runs.
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
        summary = [
            line for line in done.stderr.splitlines() + done.stdout.splitlines()
            if line.startswith(("run ", "  "))
        ]  # fmt: skip
        print("\n".join(summary))
        print(f"exit code {done.returncode}")
        lines = [json.loads(line) for line in out.read_text().splitlines() if line]
    return lines


def main() -> None:
    split = sys.argv[1] if len(sys.argv) > 1 else "tuning"
    quiet = "--quiet" in sys.argv
    extra = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    records = records_of(split)
    outputs = {str(line["id"]): line for line in run_split(split, extra)}
    left_texts = overclaims = lost_texts = changed_no_cue = 0
    lost_to_ids = cue_changed = 0
    outcomes: dict[str, int] = {}
    for record in records:
        line = outputs.get(record["id"], {})
        text = str(line.get("text", ""))
        outcome = str(line.get("outcome", "missing"))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        left = [c for c in record["cues"] if present(c, text)]
        lost = [k for k in record.get("keep", []) if not present(k, text)]
        # A keep span inside a direct identifier (a friend's name) went in the
        # identifier pass, which removes every private person's name; the
        # count of texts that lost a span to the cue rules leaves those out.
        ids = identifier_spans(str(record["text"]))
        by_ids = [k for k in lost if inside_identifier(k, str(record["text"]), ids)]
        lost = [k for k in lost if k not in by_ids]
        left_texts += bool(left)
        overclaims += bool(left) and outcome in CLAIMS
        lost_texts += bool(lost)
        lost_to_ids += bool(by_ids)
        changed_no_cue += bool(record.get("no_cue")) and text != record["text"]
        cue_changed += bool(record.get("no_cue")) and not only_identifiers_changed(
            str(record["text"]), ids, text
        )
        if not quiet:
            print(
                f"\n{record['id']} [{outcome}] left={left} lost={lost}"
                + (f" identifiers={by_ids}" if by_ids else "")
            )
            print(f"  in : {record['text']}")
            print(f"  out: {text}")
    n = len(records)
    print(f"\n{split}: {n} texts; outcomes {outcomes}")
    print(f"texts with a cue left: {left_texts}/{n} ({left_texts / n:.0%})")
    print(
        f"outcomes claiming {'/'.join(CLAIMS)} over a text with a cue left: "
        f"{overclaims}"
    )
    print(f"texts that lost a span they had to keep: {lost_texts}/{n}")
    print(
        f"texts that lost a kept span only as a direct identifier (a name): "
        f"{lost_to_ids}/{n}"
    )
    if any("no_cue" in record for record in records):
        no_cue = sum(bool(record.get("no_cue")) for record in records)
        print(f"texts with no cue that came back changed: {changed_no_cue}/{no_cue}")
        print(
            f"  of which changed beyond their direct identifiers: "
            f"{cue_changed}/{no_cue}"
        )


if __name__ == "__main__":
    main()
