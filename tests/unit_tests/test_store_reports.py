"""A run's whole life on either store: run, eval, report, show, status, export.

The same commands a user types, through the CLI entry point, on a SQLite file
and on a real Postgres database; both must tell the same story.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scripted import Script, attack_json, judge_json, rewrite_json, verdicts_json

from anonygraph import cli as anonygraph_cli
from anonygraph.runs.store import RunStore

LABELS = {"city_country": "Calgary, Canada"}
RECORDS = [
    {"id": "a", "text": "I live in Calgary.", "labels": LABELS},
    {"id": "b", "text": "Calgary is home.", "labels": LABELS},
]


def test_when_a_run_is_evaluated_and_reported_on_either_store_then_all_commands_agree(
    store_location: str,
    tmp_path: Path,
    script: Script,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def attacker(prompt: str) -> str:
        if "Calgary" in prompt:
            return attack_json(city_country=("Calgary, Canada", 4))
        return attack_json()

    script.set("attacker", attacker)
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", lambda p: rewrite_json("I live in a city."))
    script.set("judge", judge_json(9, 7, 1))
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    out = tmp_path / "out.jsonl"
    db = ["--db", store_location]
    model = ["--model", "default=local"]

    assert anonygraph_cli.main(
        ["run", "--method", "rlaa", "--input", str(source), "--output", str(out),
         "--attributes", "city_country", "--max-iterations", "1", "--no-progress",
         *db, *model]
    ) == 0  # fmt: skip
    run_id = RunStore(store_location).runs()[0]["id"]
    assert anonygraph_cli.main(
        ["eval", "--run", run_id, "--no-progress", "--semantic", *db, *model]
    ) in (0, 3)  # fmt: skip

    assert anonygraph_cli.main(["report", "--out", str(tmp_path / "rep"), *db]) == 0
    capsys.readouterr()
    table = (tmp_path / "rep" / "report.md").read_text()
    assert "| original text | eval product | - | 2 | 1.0000 |" in table
    # PRIV counts every labelled attribute: guessing nothing is a miss (0), not
    # a row left out (which would print "-").
    assert re.search(
        rf"\| rlaa \| product; eval product \| {run_id} \| 2 \| [0-9.]+ \| 0\.0000 \|",
        table,
    )
    # E8, E9: a product evaluation is shown in RLAA's terms, MEAN/READ on 1-10.
    assert "## Under the rlaa paper's protocol" in table
    assert re.search(rf"\| rlaa \| {run_id} \| 2 \| [0-9.]+ \| 0\.0000 \| 0\.0000 "
                     r"\| [0-9.-]+ \| 7\.00 \| 9\.00 \| 1\.0000 \|", table)  # fmt: skip
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "<h2>Under the rlaa paper's protocol</h2>" in page
    assert "<td>7.00</td><td>9.00</td>" in page
    assert anonygraph_cli.main(
        ["report", "--out", str(tmp_path / "ia"), "--protocol", "intentanony", *db]
    ) == 0  # fmt: skip
    intent = (tmp_path / "ia" / "report.md").read_text()
    assert "## Under the intentanony paper's protocol" in intent
    assert "| 0.7000 | 0.9000 | 1.0000 |" in intent
    assert "does not state which k" in intent
    # I3 (IntentAnony 5.4): the similarity distribution of the run's rewrites.
    assert "## Semantic similarity, original vs rewrite (IntentAnony 5.4)" in table
    similar = rf"\| rlaa \({run_id}\) \| 2 \| 0\.\d{{4}} \| 0\.\d{{4}} \|"
    assert re.search(similar, table)
    assert (tmp_path / "rep" / "similarity.png").stat().st_size > 1000

    assert anonygraph_cli.main(["show", "--run", run_id, "--color", "never", *db]) == 0
    shown = capsys.readouterr().out
    assert "I live in [-Calgary-]{+a city+}." in shown
    # The evaluator's attacker guessed nothing on the final text: a miss, shown.
    assert "city_country: no guess (the attack missed)  [truth: Calgary" in shown

    assert anonygraph_cli.main(["status", "--run", run_id, *db]) == 0
    status = capsys.readouterr().out
    assert re.search(r"^total +2 +0 ", status, re.M), status
    # A local run: every record ran in the one process that worked the run.
    assert re.search(r"^this process \(local engine\) +- +2 +0 +0 +0 *$", status, re.M)
    assert f"run {run_id} (done): updated " in status

    exported = tmp_path / "exported.jsonl"
    assert anonygraph_cli.main(
        ["export", "--run", run_id, "--output", str(exported), *db]
    ) == 0  # fmt: skip
    lines = [json.loads(x) for x in exported.read_text().splitlines()]
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(x["id"] for x in lines) == ["a", "b"]
    assert {x["id"]: x["text"] for x in lines} == {x["id"]: x["text"] for x in written}

    # No judge scored the run: no utility composite to show under a protocol.
    assert anonygraph_cli.main(
        ["eval", "--run", run_id, "--no-progress", "--no-judge", *db, *model]
    ) in (0, 3)  # fmt: skip
    assert anonygraph_cli.main(["report", "--out", str(tmp_path / "nj"), *db]) == 0
    unjudged = (tmp_path / "nj" / "report.md").read_text()
    assert "| local | none |" in unjudged and "paper's protocol" not in unjudged
    assert "paper's protocol" not in (tmp_path / "nj" / "report.html").read_text()
