"""A profile fills only the options not given; a given one is honoured or refused.

Issue 24: ``--profile paper --model default=rules`` ran the embedded model,
because the paper profile replaced every field equal to its product default.
No model runs here: contexts are built, commands refused before any record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from anonygraph.api import compile_graph
from anonygraph.cli import main
from anonygraph.runs.options import build_context
from anonygraph.service import ServiceSettings, create_app
from anonygraph.state.context import Context
from anonygraph.state.evaluate import EvalContext
from anonygraph.state.profile import ProfileError, from_given

PERSONALREDDIT = (
    Path(__file__).resolve().parents[3] / "shared" / "data" / "personalreddit"
)


def one_record(tmp_path: Path) -> Path:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I moved to Calgary."}) + "\n")
    return source


@pytest.mark.parametrize(
    ("method", "flags", "named", "fix"),
    [
        ("rlaa", ["--model", "default=rules"], "--model default=rules",
         "name a model, e.g. --model default=local"),
        ("rlaa", ["--model", "default=local", "--model", "attacker=rules"],
         "--model attacker=rules", "name a model, e.g. --model attacker=local"),
        ("seal", ["--model", "anonymizer=rules"], "--model anonymizer=rules",
         "name a model, e.g. --model anonymizer=local"),
        ("fgaa", ["--model", "default=local", "--set", "cue_check=true"],
         "--cue-check", "drop it"),
        ("rlaa", ["--model", "default=local", "--acceptance"], "--acceptance",
         "drop it"),
        ("intentanony", ["--model", "default=local", "--verify"], "--verify",
         "drop it"),
    ],
)  # fmt: skip
def test_when_paper_is_given_what_it_cannot_take_then_run_refuses_in_one_line(
    method: str,
    flags: list[str],
    named: str,
    fix: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        ["run", "--method", method, "--profile", "paper", *flags,
         "--input", str(one_record(tmp_path)), "--output", str(tmp_path / "o.jsonl"),
         "--db", str(tmp_path / "r.sqlite")]
    )  # fmt: skip

    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert f"--profile paper: {named} " in err
    assert f"; {fix}, or use --profile product" in err
    assert not (tmp_path / "o.jsonl").exists()
    assert not (tmp_path / "r.sqlite").exists()


def test_when_reproduce_is_given_rules_then_it_refuses_before_drawing_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"

    code = main(
        ["reproduce", "rlaa", "--data", str(PERSONALREDDIT / "train.jsonl"),
         "--records", "2", "--model", "default=rules", "--out", str(out)]
    )  # fmt: skip

    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "rlaa's paper profile: --model default=rules cannot play" in err
    assert err.endswith("name a model, e.g. --model default=local")
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    ("models", "options", "field"),
    [
        ({"default": "rules"}, {}, "default_model='rules'"),
        ({"default": "local", "arbitrator": "rules"}, {},
         "models['arbitrator']='rules'"),
        ({"default": "local"}, {"cue_check": True}, "cue_check=True"),
    ],
)  # fmt: skip
def test_when_the_api_is_given_what_paper_cannot_take_then_it_names_the_field(
    models: dict[str, str], options: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValueError, match=r"profile='paper': ") as refused:
        compile_graph("rlaa", models, {"profile": "paper", **options})

    assert isinstance(refused.value, ProfileError)
    assert field in str(refused.value)
    assert "or use profile='product'" in str(refused.value)


def test_when_the_service_is_asked_for_paper_with_rules_then_it_answers_400(
    tmp_path: Path,
) -> None:
    # A service started with `serve --model default=rules`; the request asks
    # for the paper profile (it may not name models itself).
    settings = ServiceSettings(
        db=str(tmp_path / "runs.sqlite"), context={"default_model": "rules"}
    )
    with TestClient(create_app(settings)) as client:
        answer = client.post(
            "/v1/anonymize",
            json={"text": "I moved to Calgary.", "options": {"profile": "paper"}},
        )

    assert answer.status_code == 400
    refusal = answer.json()
    assert refusal["field"] == "options"
    assert "default_model='rules' cannot play the paper's roles" in refusal["error"]


def test_when_paper_is_given_harmless_values_then_each_is_honoured() -> None:
    context = build_context(
        "rlaa",
        {
            "profile": "paper",
            "default_model": "ollama:qwen2.5",
            "models": {"attacker": "local"},
            "max_iterations": 3,
            "decoding": ["attacker.temperature=0.5"],
        },
    )

    assert context.default_model == "ollama:qwen2.5"
    assert context.models == {"attacker": "local"}
    assert context.max_iterations == 3
    assert context.decoding_table()["attacker"].temperature == 0.5
    # The fields not given are the paper's.
    assert (context.acceptance, context.cue_check) == (False, False)
    assert context.attack_format == "rlaa"


@pytest.mark.parametrize(
    ("method", "field", "value"),
    [
        # Each equals the product default and differs from the paper's value:
        # before issue 24 the paper's value replaced it without a word.
        ("intentanony", "intent_threshold", 0.3),
        ("seal", "min_utility", 0.0),
        ("fgaa", "max_iterations", 10),
    ],
)
def test_when_a_given_value_equals_the_default_then_paper_keeps_it(
    method: str, field: str, value: Any
) -> None:
    given = {"profile": "paper", "default_model": "local", field: value}

    assert getattr(build_context(method, given), field) == value


def test_when_paper_eval_is_given_a_protocol_field_then_it_is_honoured() -> None:
    given = from_given(
        EvalContext, {"profile": "paper", "protocol": "seal", "less_precise_score": 0}
    )
    filled = from_given(EvalContext, {"profile": "paper", "protocol": "seal"})

    assert given.less_precise_score == 0
    assert filled.less_precise_score == 0.5
    assert given.validator and given.matcher == "seal"


def test_when_an_option_is_given_then_it_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANONYGRAPH_DEFAULT_MODEL", "local")

    assert build_context("rlaa", {"default_model": "rules"}).default_model == "rules"
    assert build_context("rlaa", {}).default_model == "local"


def test_when_the_profile_is_product_then_given_values_are_kept_as_before() -> None:
    context = build_context(
        "rlaa", {"default_model": "rules", "acceptance": True, "cue_check": True}
    )

    assert context.profile == "product"
    assert (context.default_model, context.acceptance, context.cue_check) == (
        "rules",
        True,
        True,
    )


def test_when_a_context_is_built_directly_then_defaults_count_as_not_given() -> None:
    # Studio's form and Python callers: a field at its default is filled.
    assert Context(profile="paper").default_model == "local"
    assert Context(profile="paper", default_model="ollama:x").default_model == (
        "ollama:x"
    )
    with pytest.raises(ProfileError, match=r"models\['attacker'\]='rules'"):
        Context(profile="paper", models={"attacker": "rules"})
