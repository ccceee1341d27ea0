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
    assert {label for label, _ in plan.runs} | set(plan.model_rows) <= published
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
    assert len(published) == 7 and len(ours) == 3
    # SEAL is ours but needs a trained model: the row says how to run it.
    assert any(
        line.startswith("| SEAL (SFT+DPO) | Llama3-8B | published only (run ours: "
                        "--seal-model SPEC) |")
        for line in lines
    )  # fmt: skip
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


SEAL_SPEC = "llamacpp:seal-final.gguf"
"""A `seal train` output (converted to GGUF), as `--seal-model` names it; the
scripted model answers for it. (An `hf:` folder takes the same path, but its
schema-constrained decoding needs a real transformers pipeline.)"""


def test_when_a_seal_model_is_given_then_rlaa_runs_the_seal_row_from_it(
    script: Script, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from anonygraph.llm import ModelSpec, loading

    paper_script(script)
    seal_model = Script()
    # D.2's answer: every attribute, a guess for income only (D.2 allows no
    # null there); SEAL's own judge (D.3).
    keys = ("location", "gender", "age", "occupation", "pobp", "married",
            "education")  # fmt: skip
    guessed = {k: {"reasoning": "no clue", "guess": None} for k in keys}
    guessed["income"] = {"reasoning": "rent", "guess": "Low (<30k USD)"}
    seal_model.set("attacker", json.dumps(guessed))
    seal_model.set("judge", script.models["judge"].answers[0])
    seal_model.set("anonymizer", json.dumps({"anonymized_text": "A SEAL rewrite."}))
    loaded: list[tuple[str, str]] = []

    def load(spec: ModelSpec, role: str, decoding: object = None) -> object:
        name = f"{spec.backend}:{spec.name}"
        loaded.append((name, role))
        chosen = seal_model if name == SEAL_SPEC else script
        return chosen.load(spec, role, decoding)

    monkeypatch.setattr(loading, "load_chat_model", load)
    options = rlaa_options(tmp_path)
    options.row_models = {"seal_model": SEAL_SPEC}
    result = asyncio.run(reproduce(options))
    text = render(result)

    lines = text.splitlines()
    ours = [line for line in lines if "| this run (" in line]
    assert [line.split(" | ")[0] for line in ours] == [
        "| Original Text", "| FgAA (Naive)", "| RLAA", "| SEAL (SFT+DPO)"
    ]  # fmt: skip
    assert ours[3].startswith(f"| SEAL (SFT+DPO) | {SEAL_SPEC} | this run (paper;")
    assert "published only" not in text
    assert f"ours: SEAL (SFT+DPO): {SEAL_SPEC} plays every role of seal" in text
    # The SEAL model refined (attack, judge, rewrite) and nothing else did.
    assert {role for spec, role in loaded if spec == SEAL_SPEC} == {
        "attacker", "judge", "anonymizer"
    }  # fmt: skip
    assert len(seal_model.prompts("anonymizer")) == 2  # 2 records, T = 1
    written = (tmp_path / "seal-seal-sft-dpo.jsonl").read_text().splitlines()
    assert [json.loads(line)["text"] for line in written] == ["A SEAL rewrite."] * 2
    assert {json.loads(line)["checked_by"] for line in written} == {SEAL_SPEC}
    # Scored under the same protocol as the other rows: rlaa's attacker and
    # judge (the scripted local model) read the SEAL rewrites.
    seal_row = result.rows[3]
    assert seal_row["label"] == "SEAL (SFT+DPO)" and seal_row["MEAN"] == 5
    assert any("A SEAL rewrite." in p for p in script.prompts("judge"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["seal", "--seal-model", "local"], "only `reproduce rlaa` has a SEAL row"),
        (["rlaa", "--seal-model", "nosuch:x"], "--seal-model nosuch:x: "),
        (["rlaa", "--seal-model", "rules"], "--seal-model rules: the SEAL row"),
    ],
)
def test_when_seal_model_cannot_be_used_then_the_cli_says_why(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from anonygraph.cli import main

    code = main(["reproduce", *argv, "--data", "x", "--out", str(tmp_path)])
    assert code == 2 and message in capsys.readouterr().err


def pii_lines(tmp_path: Path) -> Path:
    """Ten usable PII examples between two unusable ones (no gold, too long)."""
    lines = [{"id": "none", "text": "No PII.", "gold_pii": []}]
    lines += [
        {"id": f"e{n}", "text": f"Mail e{n}@x.io today.", "gold_pii": [f"e{n}@x.io"]}
        for n in range(10)
    ]
    lines.append({"id": "long", "text": "y" * 801, "gold_pii": ["y"]})
    data = tmp_path / "pii.jsonl"
    data.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return data


def test_when_a_seed_is_given_then_the_sample_is_a_seeded_shuffle(
    tmp_path: Path,
) -> None:
    from anonygraph.reporting.reproduce_data import write_sample

    data = pii_lines(tmp_path)

    def ids(seed: int | None) -> tuple[list[str], str]:
        sample = write_sample("gold-pii", str(data), 4, tmp_path / "out", seed)
        lines = sample.path.read_text().splitlines()
        assert sample.count == len(lines) == 4
        return [json.loads(line)["id"] for line in lines], sample.drawn

    assert ids(None) == (["e0", "e1", "e2", "e3"], "the first in file order")
    # random.Random(0).shuffle over the ten usable examples, first four.
    assert ids(0) == (["e7", "e8", "e1", "e5"], "drawn with seed 0 out of 10 usable")
    assert ids(0) == ids(0) and ids(1)[0] != ids(0)[0]


def test_when_dp_embed_samples_by_default_then_it_draws_the_papers_50() -> None:
    facts = json.loads(
        (Path(__file__).parents[1] / "data" / "papers" / "dp_embed.json").read_text()
    )["evaluation"]["dataset"]
    plan = PLANS["dp-embed"]
    assert (plan.records, plan.seed) == (facts["examples"], facts["seed"]) == (50, 0)
    # The other papers state no draw: their first records, 8 by default.
    assert {(p.records, p.seed) for n, p in PLANS.items() if n != "dp-embed"} == {
        (8, None)
    }  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ([], (0, None)),  # the plan's: dp-embed's 50 at seed 0, else the first 8
        (["--sample", "5", "--seed", "3"], (5, 3)),
        (["--records", "5"], (5, None)),
    ],
)
def test_when_sample_flags_are_given_then_the_options_carry_them(
    flags: list[str], expected: tuple[int, int | None]
) -> None:
    from anonygraph.cli import build_parser

    args = build_parser().parse_args(["reproduce", "dp-embed", "--data", "x", *flags])
    assert (args.records, args.seed) == expected
