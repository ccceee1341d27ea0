"""``anonygraph reproduce dp-embed`` on a few PII examples with tiny models.

The inverter and corrector are written in vec2text's published layout (as a
user downloads them) and loaded as they are; the table shows the paper's
rows, then the original, the paper's regex rules alone and DP-Embed-Invert,
scored by gold-PII leak, raw similarity, length ratio and seconds.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from anonygraph.reporting.reproduce import ReproduceOptions, render, reproduce
from anonygraph.runs import store
from anonygraph.tools.dp_embed import vec2text_checkpoint as v2t
from integration_tests.test_vec2text_checkpoint import published  # noqa: F401

EXAMPLES = [
    {"id": "a", "text": "Contact Jane Doe at jane@example.com about the merger.",
     "gold_pii": ["Jane Doe", "jane@example.com"]},
    {"id": "b", "text": "Call me on 415-555-0188 after lunch, thanks.",
     "spans": [{"start": 11, "end": 23, "label": "phone_number"}]},
    {"id": "long", "text": "x" * 801, "gold_pii": ["x"]},
    {"id": "none", "text": "Nothing personal here at all.", "gold_pii": []},
    {"id": "c", "text": "Mail bob.smith@corp.io or see the office downtown.",
     "labels": {"gold_pii": ["bob.smith@corp.io"]}},
]  # fmt: skip


@pytest.fixture(scope="module")
def table(
    published: dict[str, Any],  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, Any, Path]:
    root = tmp_path_factory.mktemp("reproduce_dp")
    encoder = v2t.extract_embedder(
        published["inverter"]["dir"], root / "encoder", published["tokenizer"]
    )
    data = root / "pii.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in EXAMPLES), "utf-8")
    options = ReproduceOptions(
        paper="dp-embed",
        data=str(data),
        out=str(root / "out"),
        records=3,
        run_fields={
            "encoder_path": str(encoder),
            "inverter_path": str(published["inverter"]["dir"]),
            "corrector_path": str(published["corrector"]["dir"]),
            "device": "cpu",
            "max_tokens": 8,
        },
        progress=False,
    )
    result = asyncio.run(reproduce(options))
    return render(result), result, root / "out"


def test_when_dp_embed_is_reproduced_then_the_papers_columns_hold_our_rows(
    table: tuple[str, Any, Path],
) -> None:
    text, result, _ = table
    lines = text.splitlines()
    assert lines[0].startswith("dp-embed-comparison: Section 4.2 table (4.2)")
    assert "shape only" not in text  # no language model stands in here
    # The paper's draw (seed 0, note 4.2) out of the three usable examples.
    assert "ours: 3 record(s) of" in text
    assert "(drawn with seed 0 out of 3 usable), paper profile" in text
    assert "voids the privacy guarantee" in text
    header = next(line for line in lines if line.startswith("| row |"))
    assert header == (
        "| row | model | source | n | leak | sem_sim | len_ratio | sec_per_ex |"
    )
    published_rows = [line for line in lines if "| published |" in line]
    ours = [line for line in lines if "| this run (" in line]
    assert len(published_rows) == 3 and len(ours) == 3
    assert ours[0].startswith("| Original text | - |")
    assert ours[1].startswith("| Regex sanitizer alone | paper rules |")
    assert ours[2].startswith("| DP-Embed-Invert | inverter |")
    original, regex, dp = result.rows
    # Every gold string is in the original; the paper's rules catch the
    # name, both e-mail addresses and the phone number.
    assert original["PII"] == 1.0 and original["records"] == 3
    assert regex["PII"] == 0.0 and dp["PII"] == 0.0
    assert regex["SIM"] is not None and regex["LEN"] is not None
    assert dp["sec/ex"] is not None and dp["sec/ex"] > 0


def test_when_dp_embed_is_scored_then_no_attacker_or_judge_is_asked(
    table: tuple[str, Any, Path],
) -> None:
    _, result, out = table
    db = store.RunStore(str(out / "runs.sqlite"))
    run_ids = [row["run"] for row in result.rows[1:]]
    assert all(db.run_totals(run)["calls"] <= 3 for run in run_ids)
    for row in result.rows:
        assert (row["attacker"], row["judge"]) == ("none", "none")
        assert row["PRIV"] is None  # nothing was attacked
    regex_run = next(r for r in db.runs() if r["id"] == run_ids[0])
    assert json.loads(regex_run["params"])["redact_only"] is True
    dp_run = next(r for r in db.runs() if r["id"] == run_ids[1])
    context = json.loads(dp_run["params"])
    assert (context["num_steps"], context["noise_seed"]) == (20, 0)
    assert context["corrector_pick"] == "last" and context["profile"] == "paper"


def test_when_model_folders_are_missing_then_reproduce_names_the_flags(
    tmp_path: Path,
) -> None:
    options = ReproduceOptions(paper="dp-embed", data="x", out=str(tmp_path))
    with pytest.raises(ValueError, match="--encoder DIR.*--inverter DIR"):
        asyncio.run(reproduce(options))
