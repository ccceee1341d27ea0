"""`detect`, `preview` and `anonymize`'s progress, run as a user runs them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from scripted import Script, attack_json, rewrite_json, verdicts_json

from anonygraph.cli import main
from anonygraph.runs.options import build_context
from anonygraph.runs.progress import slow_model_note

TEXT = "I'm a 34 year old nurse living in Calgary with my wife."


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line in this process; return exit code, stdout, stderr."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_jsonl(path: Path, texts: list[str]) -> Path:
    lines = [json.dumps({"id": f"r{i}", "text": t}) for i, t in enumerate(texts)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder: a command that stores something leaves it there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANONYGRAPH_DB", raising=False)
    return tmp_path


def test_when_a_text_is_detected_then_each_cue_is_a_line_and_nothing_is_stored(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "detect", TEXT)

    assert code == 0
    lines = out.splitlines()
    assert "  6-17  '34 year old'  age=34  (AGE, score 1.00)" in "\n".join(lines)
    assert any(
        "'Calgary'  city_country=Calgary, Canada  (LOCATION" in line for line in lines
    )
    assert any("relationship_status=married" in line for line in lines)
    assert list(workdir.iterdir()) == []


def test_when_an_input_is_detected_then_records_are_shown_and_bad_lines_counted(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_jsonl(workdir / "in.jsonl", [TEXT, "Nothing here.", ""])

    code, out, err = cli(
        capsys, "detect", "--input", str(source), "--attributes", "age"
    )

    assert code == 1  # the empty text is a bad line
    assert "line 3" in err and "empty" in err
    assert out.splitlines()[:2] == [
        "record r0: 1 explicit cue(s)",
        "  6-17  '34 year old'  age=34  (AGE, score 1.00) -> 'thirty-something'",
    ]
    assert "record r1: no cue the rules know (phrasings outside them are not " in out

    code, out, _ = cli(capsys, "detect", "--json", TEXT, "--attributes", "age")
    assert json.loads(out) == [
        {
            "entity_type": "AGE", "start": 6, "end": 17, "score": 1.0,
            "analysis_explanation": None,
            "recognition_metadata": {
                "recognizer_name": "AnonygraphCueRecognizer",
                "recognizer_identifier": "AnonygraphCueRecognizer",
                "attribute": "age", "kind": "age", "value": "34",
                "replacement": "thirty-something",
            },
        }
    ]  # fmt: skip
    assert sorted(p.name for p in workdir.iterdir()) == ["in.jsonl"]


def test_when_detect_gets_neither_or_both_inputs_then_it_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = cli(capsys, "detect")
    assert code == 2 and "give a text or --input FILE" in err


def test_when_an_input_is_previewed_then_its_first_records_show_diffs_and_cost(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_jsonl(
        workdir / "in.jsonl", [TEXT, "", "Hello there.", "I am 61 and retired."]
    )

    code, out, err = cli(
        capsys, "preview", "--input", str(source), "-n", "2", "--max-iterations", "2"
    )

    assert code == 1  # a bad line was met
    heads = [line for line in out.splitlines() if line.startswith("record ")]
    assert [h.split(":")[0] for h in heads] == ["record r0", "record r2"]
    assert heads[0].startswith("record r0: scrubbed · ")
    assert "model call(s), 0 tokens in, 0 tokens out" in heads[0]
    assert "[-34 year old nurse-]" in out or "[-34-]" in out
    assert "{+" in out and "Calgary-]" in out
    assert "record r2: scrubbed" in out and "Hello there." in out
    assert "r3" not in out
    assert "line 2" in err and "preview of 2 record(s) with rlaa; nothing stored" in err
    assert sorted(p.name for p in workdir.iterdir()) == ["in.jsonl"]

    code, _, err = cli(capsys, "preview", "--input", str(source), "--review")
    assert code == 2 and "cannot pause for a review" in err


def test_when_a_text_is_anonymized_then_each_step_is_shown_with_round_and_seconds(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "anonymize", TEXT, "--max-iterations", "2")

    assert code == 0 and "Calgary" not in out
    steps = err.splitlines()
    assert steps[0].startswith("round 1 · prepare · ")
    assert any(s.startswith("round 1 · attack · ") for s in steps)
    assert any(s.startswith("round 1 · anonymize · ") for s in steps)
    assert any(s.startswith("round 2 · attack · ") for s in steps)
    assert all(" s (total " in s for s in steps[:-1])
    assert steps[-1] == "outcome: scrubbed (checked by rules)"

    code, _, err = cli(capsys, "anonymize", TEXT, "--quiet")
    assert code == 0 and err == ""


def test_when_an_answer_is_slower_than_the_limit_then_its_role_and_time_are_named(
    workdir: Path, capsys: pytest.CaptureFixture[str], script: Script
) -> None:
    def slow_attacker(prompt: str) -> str:
        time.sleep(0.4)
        return attack_json(city_country=("Calgary, Canada", 5))

    script.set("attacker", slow_attacker)
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("I live in a city."))

    code, out, err = cli(
        capsys, "anonymize", "I live in Calgary.", "--model", "local",
        "--max-iterations", "2", "--slow-after", "0.3",
    )  # fmt: skip

    # The scripted attacker still names Calgary in the final text: exit 3.
    assert code == 3 and out.strip() == "I live in a city."
    lines = err.splitlines()
    assert lines[0].startswith("note: the model runs in this process (local for ")
    warnings = [s for s in lines if s.startswith("slow model: ")]
    # Every attacker answer was slow (one per round, and the final check): one
    # warning; the quick roles are not named.
    assert len(script.prompts("attacker")) == 3
    assert len(warnings) == 1
    took = warnings[0].removeprefix("slow model: the attacker (local) took ")
    assert took.endswith(" s for one answer at step attack (said once per role and "
                         "model)")  # fmt: skip
    assert 0.4 <= float(took.split()[0]) < 5


@pytest.mark.parametrize(
    ("rewrite", "outcome"),
    [
        ("I live in Calgary.", "unchanged"),
        ("I live in Calgary, a city.", "partly anonymized"),
    ],
)
def test_when_anonymize_leaves_leaks_then_it_exits_3_as_run_does(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    script: Script,
    rewrite: str,
    outcome: str,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json(rewrite))

    code, _, err = cli(
        capsys, "anonymize", "I live in Calgary.", "--model", "local",
        "--max-iterations", "2", "--quiet", "--json",
    )  # fmt: skip

    assert code == 3, err
    assert err.splitlines() == [
        f"outcome: {outcome} (leaks left: city_country); exit code 3"
    ]


def test_when_eval_names_no_model_then_it_refuses_in_one_line_as_run_does(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANONYGRAPH_DEFAULT_MODEL", raising=False)
    store = workdir / "runs.sqlite"
    store.touch()

    code, out, err = cli(capsys, "eval", "--run", "r1", "--db", str(store))
    _, _, refused_run = cli(
        capsys, "run", "--method", "seal", "--input", "in.jsonl", "--output", "o"
    )

    tail = (
        "and none was named (the default, the embedded 135M model, runs for minutes "
        "to no effect): name one, e.g. --model default=ollama:qwen2.5:7b, or "
        "--model local to try the pipeline anyway"
    )
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "anonygraph eval: `eval` needs a capable model for its attacker, judge and "
        f"validator {tail}"
    ]
    assert refused_run.strip().endswith(tail)  # run's refusal, word for word
    assert store.stat().st_size == 0  # the store was not opened


def test_when_a_role_runs_the_embedded_model_then_a_note_says_so_up_front() -> None:
    local = build_context("rlaa", {"default_model": "local"})
    mixed = build_context(
        "rlaa", {"default_model": "rules", "models": {"anonymizer": "local"}}
    )
    served = build_context("rlaa", {"default_model": "ollama:qwen2.5:7b"})

    assert "(local for default) on " in slow_model_note(local)
    assert "(local for anonymizer)" in slow_model_note(mixed)
    assert slow_model_note(served) == "" == slow_model_note(build_context("rlaa", {}))
