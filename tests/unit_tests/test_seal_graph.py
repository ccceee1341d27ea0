"""SEAL graphs with scripted models: trajectories, refinement stops, one model."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, attack_json, rewrite_json

from anonygraph import cli, llm
from anonygraph.cli.commands.seal import seal_data_command
from anonygraph.graphs import GRAPHS, seal
from anonygraph.llm import loading
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.state.seal import SealContext, TrajectoryContext
from anonygraph.training.data import build_data, load_trajectories

TESTS = Path(__file__).resolve().parents[1]
TEXT = "I moved to Calgary for work and my wife hates the cold."
NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
ATTRS = ["city_country", "relationship_status"]


def utility_json(
    readability: int = 10, meaning: int = 10, hallucination: int = 1
) -> str:
    return json.dumps(
        {
            "readability": {"explanation": "fluent", "score": readability},
            "meaning": {"explanation": "same message", "score": meaning},
            "hallucination": {"explanation": "nothing new", "score": hallucination},
        }
    )


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the SEAL graphs, whether or not the registry lists them yet."""
    monkeypatch.setitem(GRAPHS, "seal", seal.build_graph)
    monkeypatch.setitem(GRAPHS, "seal_trajectory", seal.build_trajectory_graph)


def run(builder: Any, context: Any, text: str = TEXT) -> dict[str, Any]:
    graph = builder().compile()
    return asyncio.run(graph.ainvoke({"text": text}, context=context))


def edits(count: int) -> list[str]:
    # Spelled out: a digit the original lacks is refused as a new specific.
    return [rewrite_json(f"{TEXT} (edit {NUMBERS[i]})") for i in range(count)]


def test_when_trajectory_runs_to_t_then_every_state_is_kept_in_order(
    script: Script,
) -> None:
    script.set(
        "attacker",
        attack_json(
            city_country=("Calgary, Canada", 5), relationship_status=("married", 4)
        ),
        attack_json(city_country=("Canada", 3), relationship_status=("married", 4)),
        attack_json(city_country=("Canada", 2), relationship_status=None),
    )
    script.set("judge", utility_json(10, 10, 1), utility_json(9, 8, 1))
    script.set("anonymizer", *edits(5))

    out = run(
        seal.build_trajectory_graph,
        TrajectoryContext(attributes=ATTRS, max_iterations=2),
    )

    steps = out["trajectory"]
    assert [s["index"] for s in steps] == [0, 1, 2]
    assert [s["text"] for s in steps] == [
        TEXT,
        f"{TEXT} (edit one)",
        f"{TEXT} (edit two)",
    ]
    assert steps[0]["inferences"][0]["guesses"] == ["Calgary, Canada"]
    assert steps[0]["utility"]["meaning"] == {
        "explanation": "same message",
        "score": 10,
    }
    assert steps[2]["utility"]["meaning"]["score"] == 8
    assert out["status"] == "max_iterations"
    assert out["anonymized"] == f"{TEXT} (edit two)"
    # Every judgement compares with x_0; the first compares x_0 with itself.
    judged = script.prompts("judge")
    assert len(judged) == 3
    assert all(f"<source>\n{TEXT}\n</source>" in p for p in judged)
    assert f"<edited>\n{TEXT}\n</edited>" in judged[0]
    # The teacher rewrites from the inferences only (Algorithm 1).
    first = script.prompts("anonymizer")[0]
    assert "- city_country (certainty 5/5): Calgary, Canada." in first
    assert "- not assessed" in first
    assert [(c["role"], c["step"]) for c in out["calls"]][:3] == [
        ("judge", "judge"),
        ("attacker", "attack"),
        ("anonymizer", "anonymize"),
    ]


def test_when_trajectory_text_stops_leaking_then_it_ends_early(script: Script) -> None:
    script.set(
        "attacker",
        attack_json(city_country=("Calgary, Canada", 5)),
        attack_json(city_country=None, relationship_status=None),
    )
    script.set("judge", utility_json())
    script.set("anonymizer", *edits(5))

    out = run(seal.build_trajectory_graph, TrajectoryContext(attributes=ATTRS))

    assert len(out["trajectory"]) == 2
    assert len(script.prompts("anonymizer")) == 1
    assert out["status"] == "converged"


def test_when_a_rewrite_is_refused_then_it_is_retried_without_a_new_state(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("judge", utility_json())
    edited = "I moved to a city for work and my partner hates the cold."
    script.set("anonymizer", rewrite_json(TEXT), rewrite_json(edited))

    out = run(
        seal.build_trajectory_graph,
        TrajectoryContext(attributes=ATTRS, max_iterations=3),
    )

    assert [s["text"] for s in out["trajectory"]] == [TEXT, edited]
    # Round 1: refused, then accepted on the retry that names the reason;
    # rounds 2 and 3: the same text again, refused on both tries.
    prompts = script.prompts("anonymizer")
    assert len(prompts) == 6
    assert "refused" in prompts[1] and "unchanged" in prompts[1]
    assert "unchanged" in out["errors"][0] and "accepted on a retry" in out["errors"][0]
    assert out["status"] == "max_iterations"
    assert (out["outcome"], out["leaks"]) == ("partly anonymized", ["city_country"])


def test_when_refinement_reaches_t_then_it_stops_there(script: Script) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("judge", utility_json(9, 9, 1))
    script.set("anonymizer", *edits(9))

    out = run(seal.build_graph, SealContext(attributes=ATTRS, max_iterations=3))

    assert len(script.prompts("anonymizer")) == 3
    assert out["status"] == "max_iterations"
    assert out["anonymized"] == f"{TEXT} (edit three)"
    assert len(out["trajectory"]) == 4


def test_when_nothing_is_inferable_then_refinement_stops(script: Script) -> None:
    script.set(
        "attacker",
        attack_json(city_country=("Calgary, Canada", 5)),
        attack_json(city_country=None, relationship_status=None),
    )
    script.set("judge", utility_json(9, 9, 1))
    script.set("anonymizer", *edits(9))

    out = run(seal.build_graph, SealContext(attributes=ATTRS, max_iterations=5))

    assert len(script.prompts("anonymizer")) == 1
    assert out["status"] == "converged"
    assert out["anonymized"] == f"{TEXT} (edit one)"


def test_when_utility_falls_under_the_floor_then_the_previous_text_is_returned(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set(
        "judge",
        utility_json(10, 10, 1),  # x_0
        utility_json(9, 8, 1),  # x_1: 0.9, above the floor
        utility_json(4, 3, 0),  # x_2: 0.23, under it
    )
    script.set("anonymizer", *edits(9))

    out = run(seal.build_graph, SealContext(attributes=ATTRS, min_utility=0.7))

    assert out["status"] == "utility_floor"
    assert out["anonymized"] == f"{TEXT} (edit one)"
    assert len(script.prompts("anonymizer")) == 2
    assert len(script.prompts("attacker")) == 2  # x_2 is never attacked
    assert [s["text"] for s in out["trajectory"]] == [TEXT, f"{TEXT} (edit one)"]
    assert "under the floor 0.7" in out["errors"][-1]


def test_when_the_first_rewrite_is_under_the_floor_then_the_original_is_returned(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("judge", utility_json(10, 10, 1), utility_json(2, 2, 0))
    script.set("anonymizer", *edits(9))

    out = run(seal.build_graph, SealContext(attributes=ATTRS, min_utility=0.5))

    assert (out["status"], out["anonymized"]) == ("utility_floor", TEXT)


def test_when_refining_then_the_rewrite_sees_its_own_inferences_and_utility(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("judge", utility_json(10, 7, 1))
    script.set("anonymizer", *edits(9))

    run(seal.build_graph, SealContext(attributes=ATTRS, max_iterations=1))

    (prompt,) = script.prompts("anonymizer")
    assert "- city_country (certainty 5/5): Calgary, Canada." in prompt
    assert "- meaning 7/10: same message" in prompt
    assert "- invented details: none: nothing new" in prompt


def test_when_only_the_anonymizer_is_named_then_it_plays_every_role() -> None:
    context = SealContext(models={"anonymizer": "ollama:seal-8b"})
    pinned = SealContext(models={"anonymizer": "ollama:a", "judge": "openai:j"})

    assert {
        role: str(llm.settings_for(context, role).spec)
        for role in ("anonymizer", "attacker", "judge")
    } == dict.fromkeys(("anonymizer", "attacker", "judge"), "ollama:seal-8b")
    assert str(llm.settings_for(pinned, "judge").spec) == "openai:j"
    assert str(llm.settings_for(pinned, "attacker").spec) == "ollama:a"
    teacher = TrajectoryContext(models={"anonymizer": "ollama:a"})
    assert str(llm.settings_for(teacher, "judge").spec) == "local"


def test_when_seal_runs_from_the_cli_with_one_spec_then_every_call_uses_it(
    tmp_path: Path,
    script: Script,
    registered: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script.set(
        "attacker",
        attack_json(city_country=("Calgary, Canada", 5)),
        attack_json(city_country=None),
    )
    script.set("judge", utility_json())
    script.set(
        "anonymizer",
        rewrite_json("I moved to a city for work and my partner hates the cold."),
    )
    specs: list[tuple[str, str]] = []

    def load(spec: str, role: str) -> Any:
        specs.append((str(spec), role))
        return script.load(spec, role)

    monkeypatch.setattr(loading, "load_chat_model", load)
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I moved to Calgary for work."}))
    code = cli.main(
        ["run", "--method", "seal", "--model", "anonymizer=ollama:seal-8b",
         "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
         "--db", str(tmp_path / "runs.sqlite"), "--attributes", "city_country",
         "--set", "min_utility=0.5", "--no-progress"]
    )  # fmt: skip

    assert code == 0
    assert {spec for spec, _ in specs} == {"ollama:seal-8b"}
    assert {role for _, role in specs} == {"anonymizer", "attacker", "judge"}
    (line,) = (tmp_path / "out.jsonl").read_text().splitlines()
    assert json.loads(line)["text"] == (
        "I moved to a city for work and my partner hates the cold."
    )


def test_when_a_trajectory_run_finishes_then_the_store_feeds_seal_data(
    tmp_path: Path, script: Script, registered: None
) -> None:
    script.set(
        "attacker",
        attack_json(city_country=("Calgary, Canada", 5)),
        attack_json(city_country=("Canada", 2)),
        attack_json(city_country=None),
    )
    script.set("judge", utility_json(10, 10, 1), utility_json(10, 10, 1))
    script.set(
        "anonymizer",
        rewrite_json("I moved to a city for work and my partner hates the cold."),
        rewrite_json("I moved somewhere for work and my partner hates the cold."),
    )
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I moved to Calgary for work."}))
    options = RunOptions(
        method="seal_trajectory",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={"attributes": ["city_country"], "max_iterations": 3},
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    assert (summary.done, summary.failed) == (1, 0)
    (row,) = RunStore(tmp_path / "runs.sqlite").records(summary.run_id)
    assert len(json.loads(row["result"])["trajectory"]) == 3
    (steps,) = load_trajectories(tmp_path / "runs.sqlite", summary.run_id)
    assert build_data([steps]).counts() == {"anon": 3, "priv": 3, "util": 3, "pref": 1}
    from anonygraph.cli import build_parser

    db = str(tmp_path / "runs.sqlite")
    argv = ["seal", "data", "--db", db, "--run", summary.run_id, "--out"]
    args = build_parser().parse_args([*argv, str(tmp_path / "d")])
    assert seal_data_command(args) == 0
    assert (tmp_path / "d" / "sft_anon.jsonl").read_text().count("\n") == 3
    # SEAL Table 3's "A only" without "Conf.": no critique rows.
    ablated = [*argv, str(tmp_path / "a"), "--task-type", "a", "--no-confidence"]
    assert seal_data_command(build_parser().parse_args(ablated)) == 0
    assert (tmp_path / "a" / "sft_priv.jsonl").read_text() == ""
    summary_file = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary_file["options"]["critique"] is False
    assert summary_file["options"]["confidence"] is False
    args.run = "no-such-run"
    assert seal_data_command(args) == 2


CHILD = """
import os, re, signal, sys
sys.path.insert(0, {tests!r})
from scripted import Script, attack_json, rewrite_json
from anonygraph import cli
from anonygraph.llm import loading
from anonygraph.graphs import GRAPHS, seal

GRAPHS.setdefault("seal_trajectory", seal.build_trajectory_graph)
log = open({log!r}, "a")

def record_of(prompt):
    return re.findall(r"record (r\\d+)", prompt)[-1]

def attacker(prompt):
    log.write("attack " + record_of(prompt) + "\\n"); log.flush()
    return attack_json(city_country=("Calgary, Canada", 5))

def judge(prompt):
    log.write("judge " + record_of(prompt) + "\\n"); log.flush()
    return {utility!r}

def anonymizer(prompt):
    rid = record_of(prompt)
    log.write("anonymize " + rid + "\\n"); log.flush()
    if rid == os.environ.get("KILL_AT"):
        os.kill(os.getpid(), signal.SIGKILL)
    return rewrite_json("record " + rid + " lives in a city somewhere")

script = Script()
script.set("attacker", attacker)
script.set("judge", judge)
script.set("anonymizer", anonymizer)
loading.load_chat_model = script.load
sys.exit(cli.main(sys.argv[1:]))
"""


def test_when_trajectory_synthesis_is_killed_then_rerun_resumes_without_redoing(
    tmp_path: Path,
) -> None:
    ids = [f"r{i:02d}" for i in range(1, 5)]
    source = tmp_path / "in.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": rid, "text": f"record {rid} lives in Calgary"}) + "\n"
            for rid in ids
        )
    )
    log = tmp_path / "calls.log"
    child = tmp_path / "child.py"
    child.write_text(
        textwrap.dedent(
            CHILD.format(tests=str(TESTS), log=str(log), utility=utility_json())
        )
    )
    command = [
        sys.executable, str(child), "run", "--method", "seal_trajectory",
        "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
        "--db", str(tmp_path / "runs.sqlite"), "--attributes", "city_country",
        "--max-iterations", "1", "--cache", "off", "--no-progress",
    ]  # fmt: skip

    killed = subprocess.run(command, env={**os.environ, "KILL_AT": "r02"}, timeout=120)
    assert killed.returncode == -signal.SIGKILL

    resumed = subprocess.run(
        command, env=dict(os.environ), timeout=120, capture_output=True
    )
    # Exit 3: the scripted attacker still infers, so no text is anonymized.
    assert resumed.returncode == 3, resumed.stderr
    calls = log.read_text().splitlines()
    for rid in ids:
        assert calls.count(f"judge {rid}") == 2, rid  # x_0 and x_1
        assert calls.count(f"attack {rid}") == 2, rid
    # r02 was cut off inside its rewrite: only that step ran again.
    assert calls.count("anonymize r02") == 2
    assert calls.count("anonymize r01") == 1
    out = [
        json.loads(x)["id"] for x in (tmp_path / "out.jsonl").read_text().splitlines()
    ]
    assert sorted(out) == ids
    assert "1 already done" in resumed.stderr.decode()
    for row in RunStore(tmp_path / "runs.sqlite").db.query("select * from records"):
        assert len(json.loads(row["result"])["trajectory"]) == 2


def test_when_wiring_changes_then_these_snapshots_must_change_too() -> None:
    assert seal.graph.get_graph().draw_mermaid(with_styles=False).split("\n")[1:] == [
        "\t__start__ --> prepare;",
        "\tassess -.-> attack;",
        "\tassess -.-> revert;",
        "\tattack --> record;",
        "\tprepare --> assess;",
        "\trecord -.-> finish_refinement;",
        "\trecord -.-> revise;",
        "\trevert --> finish_refinement;",
        "\trevise -.-> assess;",
        "\trevise -.-> finish_refinement;",
        "\tfinish_refinement --> __end__;",
        "\trevise -.-> revise;",
        "",
    ]
    mermaid = seal.trajectory_graph.get_graph().draw_mermaid(with_styles=False)
    assert "\tassess --> attack;" in mermaid and "revert" not in mermaid
