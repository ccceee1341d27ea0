"""Flags generated from each method's `Context` and `EvalContext`, old spellings."""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

import pytest

import anonygraph
from anonygraph.cli import build_parser, flags, main
from anonygraph.cli.commands.eval import eval_fields
from anonygraph.cli.commands.run import run_exit_code
from anonygraph.runs.datasets import Format
from anonygraph.runs.ray_connect import RayOptions
from anonygraph.state.context import ModelContext
from anonygraph.state.evaluate import EvalContext
from anonygraph.state.intentanony import LEVELS, Level

SHADES = ("red", "blue")


@dataclass(kw_only=True)
class TinyContext(ModelContext):
    """Run parameters of a method that exists only in this test."""

    colour: str = field(
        default="red",
        metadata={"description": "Colour of the ink.", "choices": SHADES},
    )
    rounds: int = field(default=2, metadata={"description": "How often."})
    loud: bool = field(default=False, metadata={"description": "Shout."})
    tags: list[str] = field(default_factory=list, metadata={"description": "Tags."})


@dataclass(kw_only=True)
class OtherContext(ModelContext):
    """Run parameters of a second test method."""

    rounds: int = field(default=5, metadata={"description": "How often, here."})


SCHEMAS = {"tiny": TinyContext, "other": OtherContext, "plain": ModelContext}


def parse(argv: list[str], schemas: dict[str, type] = SCHEMAS) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="test")
    flags.add_common(parser, schemas)
    return parser.parse_args(argv)


def test_when_a_context_gets_a_field_then_it_is_a_flag_without_touching_cli() -> None:
    args = parse(
        ["--method", "tiny", "--colour", "blue", "--rounds", "4", "--loud",
         "--tags", "a, b", "--max-retries", "1"]
    )  # fmt: skip

    assert flags.context_fields(args, SCHEMAS) == {
        "colour": "blue",
        "rounds": 4,
        "loud": True,
        "tags": ["a", "b"],
        "max_retries": 1,
    }
    assert flags.context_fields(parse(["--method", "other"]), SCHEMAS) == {}
    with pytest.raises(SystemExit):
        parse(["--method", "tiny", "--colour", "green"])


def test_when_a_flag_is_not_the_methods_then_the_error_names_its_methods() -> None:
    args = parse(["--method", "other", "--colour", "blue"])

    with pytest.raises(flags.OptionError, match="--colour is an option of tiny"):
        flags.context_fields(args, SCHEMAS)


def test_when_help_is_shown_then_options_are_grouped_by_method_with_defaults() -> None:
    parser = argparse.ArgumentParser(prog="test")
    flags.add_common(parser, SCHEMAS)
    text = parser.format_help()

    tiny = text.index("--method tiny:")
    other = text.index("--method other:")
    assert text.index("options of every method:") < tiny < other
    assert tiny < text.index("  --colour {red,blue}", tiny) < other
    assert "Colour of the ink. Default: red." in text
    assert "How often. Default: 2; other: 5." in text
    assert "Also takes --rounds (above)." in text[other:]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--method", "aura", "--candidates", "2", "--variant", "pure",
             "--mask-rounds", "1", "--model", "local"],
            {"num_candidates": 2, "variant": "pure", "mask_rounds": 1,
             "default_model": "local"},
        ),
        (
            ["--method", "intentanony", "--verify", "--verify-rounds", "3",
             "--privacy-level", "L1", "--exposure-table", "t.json",
             "--model", "default=ollama:qwen2.5:7b"],
            {"verify": True, "max_verify_rounds": 3, "privacy_level": "L1",
             "exposure_table": "t.json", "default_model": "ollama:qwen2.5:7b"},
        ),
        (
            ["--method", "fgaa", "--fixed-rounds", "--max-iterations", "2",
             "--cache", "off", "--max-chars", "900"],
            {"max_iterations": 2, "cache_mode": "off", "max_chars": 900,
             "stop_when_nothing_inferred": False},
        ),
        (
            ["--method", "rlaa", "--set", "min_length_ratio=0.3"],
            {"min_length_ratio": 0.3},
        ),
        (
            ["--method", "dp-embed", "--composition", "zcdp", "--device", "cpu",
             "--no-redact-pii"],
            {"composition": "zcdp", "device": "cpu", "redact_pii": False},
        ),
    ],
)  # fmt: skip
def test_when_the_readme_spellings_are_used_then_they_still_set_the_fields(
    argv: list[str], expected: dict[str, object]
) -> None:
    args = build_parser().parse_args(["anonymize", "x", *argv])

    assert flags.context_fields(args) == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--method", "rlaa", "--variant", "pure"], "--variant is an option of aura"),
        (["--method", "aura", "--max-iterations", "2"], "an option of rlaa, fgaa"),
        (
            ["--max-iterations", "0"],
            r"--max-iterations \(or --set max_iterations\) must be at least 1",
        ),
    ],
)
def test_when_a_flag_does_not_fit_then_the_user_is_told_which(
    argv: list[str], message: str
) -> None:
    args = build_parser().parse_args(["anonymize", "x", *argv])

    with pytest.raises(flags.OptionError, match=message):
        flags.context_fields(args)


def test_when_a_choice_is_not_in_the_constants_then_the_parser_refuses_it() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["anonymize", "x", "--privacy-level", "L9"])


@pytest.mark.parametrize(
    ("outcomes", "failed", "code"),
    [
        ({"anonymized": 3}, 0, 0),
        ({"anonymized": 2, "partly anonymized": 1}, 0, 3),
        ({"scrubbed": 2, "anonymized": 1}, 0, 0),
        ({"scrubbed": 2, "unchanged": 1}, 0, 3),
        ({"scrubbed": 2, "partly scrubbed": 1}, 0, 3),
        ({"anonymized": 2, "unchanged": 1}, 0, 3),
        ({"anonymized": 2, "not checked": 1}, 0, 3),
        ({"anonymized": 2, "failed": 1}, 1, 1),
        ({}, 0, 3),
    ],
)
def test_when_a_run_ends_then_the_exit_code_says_whether_every_text_is_anonymized(
    outcomes: dict[str, int], failed: int, code: int
) -> None:
    from anonygraph.runs.summary import RunSummary

    summary = RunSummary(run_id="r", method="rlaa", failed=failed, outcomes=outcomes)

    assert run_exit_code(summary) == code


def test_when_the_command_exits_then_its_code_is_mains_and_output_is_complete(
    tmp_path: Path,
) -> None:
    # `cli.run` (the console script) freezes the heap before exiting: what
    # was printed must still arrive, and the exit code must be main's.
    listed = subprocess.run(
        [sys.executable, "-m", "anonygraph.cli", "methods"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    refused = subprocess.run(
        [sys.executable, "-m", "anonygraph.cli", "status", "--run", "r",
         "--db", str(tmp_path / "runs.sqlite")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert listed.returncode == 0, listed.stderr
    assert "rlaa" in listed.stdout.split()
    assert refused.returncode == 2
    assert "no such run store" in refused.stderr


@pytest.mark.parametrize("method", ["intentanony", "aura", "seal"])
def test_when_a_method_needs_a_model_and_none_is_named_then_it_refuses_in_one_line(
    method: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I moved to Calgary."}) + "\n")

    code = main(
        ["run", "--method", method, "--input", str(source),
         "--output", str(tmp_path / "out.jsonl"), "--db", str(tmp_path / "r.sqlite")]
    )  # fmt: skip

    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "--model default=ollama:qwen2.5:7b" in err and "--model local" in err
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], {}),
        (
            ["--no-judge", "--validator", "--semantic", "--search", "offline",
             "--search-mode", "structured", "--allow-web"],
            {"judge": False, "validator": True, "semantic": True,
             "search_backend": "offline", "search_mode": "structured",
             "allow_web": True, "search_index": "s.sqlite.search-index"},
        ),
        (
            ["--search-backend", "ddgs", "--search-index", "i", "--max-search-steps",
             "2", "--server-retries", "0", "--model", "judge=rules"],
            {"search_backend": "ddgs", "search_index": "i", "max_search_steps": 2,
             "server_retries": 0, "models": {"judge": "rules"}},
        ),
        (["--set", "judge_prompt={original} {text}"],
         {"judge_prompt": "{original} {text}"}),
    ],
)  # fmt: skip
def test_when_eval_flags_are_given_then_they_set_the_eval_context_fields(
    argv: list[str], expected: dict[str, object]
) -> None:
    args = build_parser().parse_args(["eval", "--run", "r", "--db", "s.sqlite", *argv])

    assert eval_fields(args) == expected
    assert EvalContext(**eval_fields(args))


def test_when_eval_context_gets_a_field_then_eval_has_its_flag() -> None:
    @dataclass(kw_only=True)
    class WiderEval(EvalContext):
        """Parameters of an evaluation that also counts commas."""

        commas: int = field(default=0, metadata={"description": "Commas."})

    parser = argparse.ArgumentParser(prog="test")
    flags.add_schema_options(parser, "eval", WiderEval)
    args = parser.parse_args(["--commas", "3", "--no-judge"])

    assert flags.context_fields(args, {"eval": WiderEval}) == {
        "commas": 3,
        "judge": False,
    }
    text = parser.format_help()
    assert "WiderEval fields:" in text and "Commas. Default: 0." in text
    assert text.index("WiderEval fields:") < text.index("ModelContext fields:")


def test_when_a_choice_list_repeats_a_literal_then_it_comes_from_the_type() -> None:
    parser = build_parser()
    assert parser.parse_args(["eval", "--run", "r", "--search", "tavily"])
    with pytest.raises(SystemExit):
        parser.parse_args(["eval", "--run", "r", "--search", "bing"])
    for name in get_args(Format):
        assert parser.parse_args(["run", "--input", "i", "--output", "o",
                                  "--format", name]).format == name  # fmt: skip
    assert LEVELS == get_args(Level)


# --- The engine: --engine, --ray-address, --workers, per-worker sizes --------


@pytest.mark.parametrize("command", ["run", "eval"])
def test_when_engine_flags_are_given_then_the_command_gets_its_ray_options(
    command: str,
) -> None:
    head = (
        ["run", "--input", "i", "--output", "o"]
        if command == "run"
        else ["eval", "--run", "r"]
    )
    plain = build_parser().parse_args(head)
    ray = build_parser().parse_args(
        [*head, "--engine", "ray", "--ray-address", "10.0.0.1:6379", "--workers",
         "3", "--gpus-per-worker", "1", "--cpus-per-worker", "2.5"]
    )  # fmt: skip

    assert flags.engine_options(plain) == ("local", RayOptions())
    assert flags.engine_options(ray) == (
        "ray",
        RayOptions(
            address="10.0.0.1:6379", workers=3, gpus_per_worker=1, cpus_per_worker=2.5
        ),
    )


def test_when_ray_options_get_a_flag_field_then_run_and_eval_have_the_flag() -> None:
    fields = dataclasses.fields(RayOptions)
    named = [f.metadata["flag"] for f in fields if "flag" in f.metadata]
    assert named == ["--ray-address", "--workers", "--cpus-per-worker",
                     "--gpus-per-worker"]  # fmt: skip
    for command in ("run", "eval"):
        shown = subprocess.run(
            [sys.executable, "-m", "anonygraph.cli", command, "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for flag in ["--engine", *named]:
            assert flag in shown, (command, flag)


REFUSED_ENGINE_FLAGS = {
    "no workers": (
        ["--engine", "ray", "--workers", "0"],
        "--workers 0: give 1 or more",
    ),
    "negative GPUs": (
        ["--engine", "ray", "--gpus-per-worker", "-1"],
        "--gpus-per-worker -1.0: give 0 or more",
    ),
    "a Ray Client address": (
        ["--engine", "ray", "--ray-address", "ray://head:10001"],
        "--ray-address ray://head:10001: give a head node's HOST:PORT, 'auto' or "
        "none (Ray Client addresses, ray://, are not supported",
    ),
    "a Ray flag on the local engine": (
        ["--workers", "2", "--ray-address", "auto"],
        "--ray-address, --workers: an option of --engine ray; add --engine ray",
    ),
}


@pytest.mark.parametrize("command", ["run", "eval"])
@pytest.mark.parametrize("case", REFUSED_ENGINE_FLAGS)
def test_when_engine_flags_do_not_fit_then_one_line_says_so_and_nothing_starts(
    case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, expected = REFUSED_ENGINE_FLAGS[case]
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I moved to Calgary."}) + "\n")
    db = tmp_path / "r.sqlite"
    head = (
        ["run", "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
         "--model", "rules"]
        if command == "run"
        else ["eval", "--run", "r", "--model", "rules"]
    )  # fmt: skip

    code = main([*head, "--db", str(db), *argv])

    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith(f"anonygraph {command}: ") and expected in err, err
    assert len(err.splitlines()) == 1
    assert not db.exists() and not (tmp_path / "out.jsonl").exists()


def test_when_the_old_worker_command_is_run_then_one_line_names_the_ray_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["worker", "--run", "forum", "--db", "postgresql://x@h/db"])

    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "the lease queue is gone" in err
    assert "anonygraph run --engine ray --ray-address HEAD:PORT" in err


def test_when_the_engine_is_unknown_then_the_api_names_the_engines(
    tmp_path: Path,
) -> None:
    with pytest.raises(ValueError, match="engine 'spark': choose from local, ray"):
        anonygraph.run_file(
            str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl"), engine="spark"
        )
