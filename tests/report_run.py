"""A realistic evaluated store for report tests: RLAA and FGAA with scripted models.

The attacker guesses from cue words still in the text; the anonymizer swaps
each cue for a vaguer phrase, so rounds, verdicts, policies, right and wrong
guesses, converged and max_iterations records all occur. One record always
gets an unparsable attack (failed) and one carries hostile markup.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from scripted import Script, attack_json, fenced, rewrite_json

from anonygraph.llm import loading
from anonygraph.reporting.evaluation import EvalOptions, evaluate_run
from anonygraph.reporting.report import write_report
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "reddit_comments.jsonl"

# cue -> (attribute, guess while the cue is there, replacement, later guess)
CUES: dict[str, tuple[str, str, str, tuple[str, int] | None]] = {
    "husband": ("relationship_status", "married", "partner", None),
    "wife": ("relationship_status", "married", "partner", ("in a relationship", 2)),
    "children's ward": ("occupation", "nurse", "workplace", ("office worker", 2)),
    "Calgary": ("city_country", "Calgary, Canada", "a cold city", ("Canada", 3)),
    "Halifax": ("birth_city_country", "Halifax, Canada", "the coast", None),
    "thesis": ("education", "phd", "project", ("college degree", 3)),
    "Basel": ("city_country", "Basel, Switzerland", "Europe", None),
    "Retired": ("age", "65", "Stepped back", ("50", 2)),
    "Manchester": ("birth_city_country", "Manchester, United Kingdom", "home", None),
    "Lisbon": ("city_country", "Lisbon, Portugal", "a coastal city", None),
    "graphic designer": ("occupation", "graphic designer", "freelancer", None),
    "Austin": ("city_country", "Austin, United States", "town", ("Dallas, USA", 3)),
    "Leeds": ("city_country", "Leeds, United Kingdom", "the north", None),
    "Toronto": ("city_country", "Toronto, Canada", "a big city", None),
    "Osaka": ("birth_city_country", "Osaka, Japan", "abroad", None),
    "Berlin": ("city_country", "Berlin, Germany", "a capital", ("Paris, France", 3)),
    "CTO": ("occupation", "CTO", "lead", ("manager", 3)),
    "Phoenix": ("city_country", "Phoenix, United States", "the valley town", None),
    "Divorced": ("relationship_status", "divorced", "On my own", ("single", 3)),
}

HOSTILE_TEXT = (
    '</script><script>window.__pwned = 1</script><img src="x" '
    'onerror="window.__pwned = 2"> <!-- {{DATA}} --> Calgary born, see '
    "https://evil.example/track.png and @import url(https://evil.example/a.css)"
)


def text_of(prompt: str) -> str:
    found = fenced(prompt, "text")
    return prompt if found is None else found


def attacker(prompt: str) -> str:
    # The record marked FAILME never gets a parsable attack, retries included
    # (a retry prompt asks for a repair and does not quote the text).
    if "FAILME" in prompt or "<text>" not in prompt:
        return "no idea, sorry"
    text = text_of(prompt)
    guesses: dict[str, tuple[str, int] | None] = {}
    for cue, (attribute, guess, replacement, later) in CUES.items():
        if cue in text:
            guesses[attribute] = (guess, 4)
        elif replacement in text and later and attribute not in guesses:
            guesses[attribute] = later
    return attack_json(**guesses)


def arbitrator(prompt: str) -> str:
    verdicts = {}
    for attribute, certainty in re.findall(r"- (\w+): guesses .*?\(certainty (\d)/5\)",
                                           prompt):  # fmt: skip
        level = {"4": "high", "5": "high", "3": "medium"}.get(certainty, "low")
        verdicts[attribute] = {
            "validity": level,
            "evidence": [f"cue for {attribute}"],
            "concept": f"the text points at a {attribute}",
            "notes": "scripted",
        }
    return json.dumps(verdicts)


def anonymizer(prompt: str) -> str:
    text = text_of(prompt)
    for cue, (_, _, replacement, _) in CUES.items():
        text = text.replace(cue, replacement)
    return rewrite_json(text, "swapped cue words")


def judge(prompt: str) -> str:
    return json.dumps(
        {
            "readability": {"explanation": "reads fine", "score": 9},
            "meaning": {"explanation": "mostly kept", "score": 8},
            "hallucination": {"explanation": "nothing invented", "score": 1},
        }
    )


def install(script: Script) -> None:
    script.set("attacker", attacker)
    script.set("arbitrator", arbitrator)
    script.set("anonymizer", anonymizer)
    script.set("judge", judge)


@dataclass
class ReviewStore:
    db: str
    runs: dict[str, str]
    report: dict[str, Path]


def records() -> list[dict[str, object]]:
    lines = [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line]
    lines.append(
        {"id": "x-hostile", "text": HOSTILE_TEXT,
         "labels": {"city_country": "Calgary, Canada"}}
    )  # fmt: skip
    lines.append(
        {"id": "x-fails", "text": "FAILME: my husband and I moved to Leeds.",
         "labels": {"relationship_status": "married"}}
    )  # fmt: skip
    return lines


def build(folder: Path) -> ReviewStore:
    """Run RLAA and FGAA on the examples, evaluate both, write the report."""
    script = Script()
    install(script)
    source = folder / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records()))
    db = str(folder / "runs.sqlite")
    runs = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loading, "load_chat_model", script.load)
        for method in ("rlaa", "fgaa"):
            summary = asyncio.run(
                run_batch(
                    RunOptions(
                        method=method, input=str(source), db=db,
                        output=str(folder / f"{method}.jsonl"), run_id=method,
                        context={
                            "max_iterations": 3,
                            "max_retries": 1,
                            "default_model": "local",
                        },
                        progress=False,
                    )
                )
            )  # fmt: skip
            runs[method] = summary.run_id
            # RLAA scored per round too: the page's per-round table and plot.
            options = EvalOptions(
                run_id=summary.run_id, db=db, progress=False,
                per_iteration=method == "rlaa",
            )  # fmt: skip
            asyncio.run(evaluate_run(options))
    report = write_report(db, str(folder / "report"))
    return ReviewStore(db=db, runs=runs, report=report)


@pytest.fixture(scope="session")
def review_store(tmp_path_factory: pytest.TempPathFactory) -> ReviewStore:
    """The evaluated store and its report, built once per test session."""
    return build(tmp_path_factory.mktemp("review"))
