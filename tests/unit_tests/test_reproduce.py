"""``anonygraph reproduce``: its plan, runs and the table beside the paper's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from scripted import Script

from anonygraph.papers.figures import paper_figures
from anonygraph.reporting.reproduce import (
    PLANS,
    ReproduceOptions,
    render,
    reproduce,
)

PERSONALREDDIT = (
    Path(__file__).resolve().parents[3] / "shared" / "data" / "personalreddit"
)

GUESS = {
    "age": 30,
    "sex": "male",
    "current_city_country": "Toronto, Canada",
    "birth_city_country": "Toronto, Canada",
    "education": "Bachelor",
    "occupation": "engineer",
    "income_level": "middle",
    "relationship_status": "single",
}


def paper_script(script: Script) -> None:
    script.set("attacker", json.dumps({"inference": "style and topic", "guess": GUESS}))
    verdicts = [
        {
            "attribute": "age",
            "validity_level": "high",
            "reasoning_evidence": ["years"],
            "leaked_concept": "the author's age",
            "validation_notes": "stated",
        }
    ]
    script.set("arbitrator", json.dumps({"verdicts": verdicts}))
    script.set(
        "anonymizer",
        json.dumps({"explanation": "generalized", "anonymized_text": "A short note."}),
    )
    script.set(
        "judge",
        json.dumps(
            {
                "readability": {"explanation": "ok", "score": 9},
                "meaning": {"explanation": "some", "score": 5},
                "hallucinations": {"explanation": "none", "score": 1},
            }
        ),
    )


def rlaa_options(out: Path) -> ReproduceOptions:
    """Two PersonalReddit records, T = 1, every role the (scripted) local model."""
    return ReproduceOptions(
        paper="rlaa",
        data=str(PERSONALREDDIT / "train.jsonl"),
        out=str(out),
        records=2,
        models={"default_model": "local"},
        max_iterations=1,
        progress=False,
    )


@pytest.mark.parametrize("paper", sorted(PLANS))
def test_when_a_plan_names_a_table_then_its_rows_and_columns_exist(paper: str) -> None:
    plan = PLANS[paper]
    table = paper_figures(paper).table(plan.table)
    published = {
        f"{row.method} ({row.variant})" if row.variant else row.method
        for row in table.rows
        if row.dataset == plan.dataset
    }
    assert {label for label, _ in plan.runs} <= published
    # DP-Embed's and AURA's tables have no original row (AURA's 27 are the
    # transcripts a search re-identified); ours is printed as a reference.
    assert plan.original in published or plan.protocol in ("dp-embed", "aura")
    assert set(plan.contexts) <= {label for label, _ in plan.runs}
    # Every column gets our value, but a column that names the paper's
    # attacker (AURA's three web-search agents): ours gets its own column.
    for table_id in (plan.table, *plan.more_tables):
        keys = set(paper_figures(paper).table(table_id).keys())
        named = {k for k in keys if k.startswith("reid_")}
        assert keys - named <= set(plan.columns)
        assert set(plan.extra_columns.get(table_id, {})) <= set(plan.columns)
        assert not named or "reid" in plan.extra_columns[table_id]


def test_when_rlaa_is_reproduced_then_our_rows_follow_the_published_ones(
    script: Script, tmp_path: Path
) -> None:
    paper_script(script)
    options = rlaa_options(tmp_path)
    result = asyncio.run(reproduce(options))
    text = render(result)

    lines = text.splitlines()
    assert lines[0].startswith("rlaa-table-1: Table 1")
    assert "shape only: the embedded model is not the paper's" in text
    assert "ours: 2 record(s) of" in text and "T = 1" in text
    header = next(line for line in lines if line.startswith("| row |"))
    assert header == (
        "| row | model | source | UTIL | PRIV | ROUGE | BLEU | MEAN | READ | HALL |"
    )
    published = [line for line in lines if "| published |" in line]
    ours = [line for line in lines if "| this run (" in line]
    assert len(published) == 8 and len(ours) == 3
    assert ours[0].startswith("| Original Text | local |")
    assert ours[1].startswith("| FgAA (Naive) | local | this run (paper; eval paper")
    assert ours[2].startswith("| RLAA | local |")
    # The judge said 5 for meaning and 9 for readability on every rewrite.
    assert "| 5.00 | 9.00 | 1.0000 |" in ours[2]
    # Every one of the 8 labels was attacked on each text (K = 8).
    assert result.rows[0]["records"] == 2
    assert len(result.rows[0]["attributes"]) >= 6


def test_when_a_paper_is_unknown_then_reproduce_names_the_known_ones(
    tmp_path: Path,
) -> None:
    options = ReproduceOptions(paper="staab", data="x", out=str(tmp_path))
    with pytest.raises(ValueError, match="choose one of rlaa, seal, intentanony"):
        asyncio.run(reproduce(options))


def test_when_a_models_answers_loop_then_the_table_notes_each_failed_record(
    script: Script, tmp_path: Path
) -> None:
    from langchain_core.messages import AIMessage

    paper_script(script)
    script.set(
        "arbitrator",
        AIMessage(
            content="verdict " * 30,
            response_metadata={"finish_reason": "repetition", "repeated": "verdict "},
        ),
    )
    options = rlaa_options(tmp_path)
    text = render(asyncio.run(reproduce(options)))
    notes = [line for line in text.splitlines() if line.startswith("ours: RLAA")]
    assert notes[0] == "ours: RLAA: 2 record(s) failed"
    assert len(notes) == 3
    for note in notes[1:]:
        assert "record 'pr-" in note and "step 'arbitrate'" in note
        assert "started repeating 'verdict '" in note
        assert "use a larger model (--model arbitrator=SPEC)" in note
    # Nothing of a failed record is written out as a result.
    assert (tmp_path / "rlaa-rlaa.jsonl").read_text() == ""
    assert "| RLAA | local | this run (paper; eval paper (rlaa)) | - | - |" in text
    # A text the judge cannot score is named the same way.
    script.set(
        "judge",
        AIMessage(
            content="score " * 30,
            response_metadata={"finish_reason": "repetition", "repeated": "score "},
        ),
    )
    text = render(asyncio.run(reproduce(rlaa_options(tmp_path / "again"))))
    assert "ours: FgAA (Naive): 2 text(s) failed to score" in text
    assert "ours: FgAA (Naive): record 'pr-1' final: step 'judge'" in text
