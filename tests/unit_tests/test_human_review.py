"""Human review (--review): records pause before a rewrite and resume on an answer."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from pydantic import ValidationError
from scripted import Script, attack_json, rewrite_json, verdicts_json

from anonygraph import cli
from anonygraph.cli.commands.run import WAITING_EXIT
from anonygraph.graphs import fgaa, rlaa
from anonygraph.runs.engines import pending_reviews
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.engines.pending_reviews import parse_edit, review_run
from anonygraph.runs.engines.records import WAITING
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.state.context import Context

TESTS = Path(__file__).resolve().parents[1]
TEXT = "I am 34 and live in Calgary."


def script_two_leaks(script: Script) -> None:
    script.set(
        "attacker", attack_json(age=("34", 5), city_country=("Calgary, Canada", 5))
    )
    script.set("arbitrator", verdicts_json(age="high", city_country="high"))
    script.set("anonymizer", lambda p: rewrite_json(rewritten(p)))


def rewritten(prompt: str) -> str:
    text = re.search(r"<text>\n(.*?)\n</text>", prompt, re.S).group(1)  # type: ignore[union-attr]
    return text.replace("Calgary", "a city")


def options(tmp_path: Path, count: int = 2, **context: Any) -> RunOptions:
    source = tmp_path / "in.jsonl"
    source.write_text(
        "".join(json.dumps({"id": f"r{i}", "text": TEXT}) + "\n" for i in range(count))
    )
    return RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={
            "default_model": "local",
            "attributes": ["age", "city_country"],
            "max_iterations": 1,
            "cache_mode": "off",
            **context,
        },
        progress=False,
    )


def answers(*lines: str) -> Any:
    """A scripted terminal: returns ``lines`` in order, then end of input."""
    queue = list(lines)
    return lambda prompt: queue.pop(0) if queue else None


def review(tmp_path: Path, run_id: str, *lines: str) -> tuple[Any, list[str]]:
    shown: list[str] = []
    summary = asyncio.run(
        review_run(str(tmp_path / "runs.sqlite"), run_id, answers(*lines), shown.append)
    )
    return summary, shown


REJECT = {"decisions": [{"type": "reject", "message": "keep it as it is"}]}
"""LangChain's HITL response that rejects a proposal."""


def edit(action: str, **args: Any) -> dict[str, Any]:
    """LangChain's HITL response that edits the action's arguments."""
    edited = {"name": action, "args": args}
    return {"decisions": [{"type": "edit", "edited_action": edited}]}


def output_lines(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "out.jsonl"
    return (
        [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    )


def test_when_review_is_on_then_every_record_pauses_before_the_rewrite(
    tmp_path: Path, script: Script
) -> None:
    script_two_leaks(script)

    summary = asyncio.run(run_batch(options(tmp_path, review=True)))

    assert (summary.done, summary.waiting, summary.failed) == (0, 2, 0)
    assert "2 waiting for review" in summary.report()
    assert script.prompts("anonymizer") == []
    assert output_lines(tmp_path) == []
    db = RunStore(tmp_path / "runs.sqlite")
    assert db.record_statuses(summary.run_id) == {"r0": WAITING, "r1": WAITING}
    assert db.get_run(summary.run_id)["status"] == WAITING  # type: ignore[index]


def test_when_records_wait_for_review_then_their_outcome_says_so_not_unchecked(
    tmp_path: Path, script: Script, capsys: pytest.CaptureFixture[str]
) -> None:
    script_two_leaks(script)

    summary = asyncio.run(run_batch(options(tmp_path, review=True)))
    capsys.readouterr()
    code = cli.main(
        ["show", "--run", summary.run_id, "--db", str(tmp_path / "runs.sqlite"),
         "--color", "never"]
    )  # fmt: skip
    shown = capsys.readouterr().out

    assert summary.outcomes == {"waiting for review": 2}
    assert "  outcomes: 2 waiting for review" in summary.report().splitlines()
    assert "not checked" not in summary.report()
    assert code == 0
    heads = [line for line in shown.splitlines() if line.startswith("== ")]
    assert [h.split("  ")[-1] for h in heads] == ["waiting for review"] * 2


def test_when_a_comments_record_is_reviewed_then_its_comments_come_back_in_order(
    tmp_path: Path, script: Script
) -> None:
    script_two_leaks(script)
    run = options(tmp_path, count=0, review=True)
    comments = ["I am 34.", "I live in Calgary.", "Bye."]
    Path(run.input).write_text(json.dumps({"id": "c", "comments": comments}) + "\n")
    first = asyncio.run(run_batch(run))

    summary, _ = review(tmp_path, first.run_id, "a")

    assert summary.done == 1
    (line,) = output_lines(tmp_path)
    assert "text" not in line
    assert line["comments"] == ["I am 34.", "I live in a city.", "Bye."]


def test_when_an_answer_waits_for_the_detectors_to_load_then_the_review_says_so(
    tmp_path: Path, script: Script, monkeypatch: pytest.MonkeyPatch
) -> None:
    script_two_leaks(script)
    first = asyncio.run(run_batch(options(tmp_path, count=1, review=True)))
    warmed: list[str] = []
    monkeypatch.setattr(pending_reviews, "engine_loaded", lambda: False)
    monkeypatch.setattr(
        pending_reviews, "warm_up_in_background", lambda: warmed.append("started")
    )

    summary, shown = review(tmp_path, first.run_id, "e", "age=rephrase")

    assert summary.done == 1 and warmed == ["started"]
    loading = shown.index(
        "loading the explicit-cue detectors (spaCy's English pipeline, once per "
        "session; a few seconds) ..."
    )
    assert shown[loading + 1].startswith("record r0: finished")


def test_when_a_waiting_batch_is_run_again_then_no_record_resumes_without_an_answer(
    tmp_path: Path, script: Script
) -> None:
    script_two_leaks(script)
    first = asyncio.run(run_batch(options(tmp_path, review=True)))
    calls = len(script.prompts("attacker")) + len(script.prompts("arbitrator"))

    again = asyncio.run(run_batch(options(tmp_path, review=True)))

    assert (again.run_id, again.waiting, again.done) == (first.run_id, 2, 0)
    assert len(script.prompts("attacker")) + len(script.prompts("arbitrator")) == calls
    assert script.prompts("anonymizer") == []
    assert output_lines(tmp_path) == []


def test_when_review_is_off_then_nothing_pauses(tmp_path: Path, script: Script) -> None:
    script_two_leaks(script)

    summary = asyncio.run(run_batch(options(tmp_path)))

    assert (summary.done, summary.waiting) == (2, 0)
    assert [line["text"] for line in output_lines(tmp_path)] == [
        "I am 34 and live in a city."
    ] * 2
    (row, _) = RunStore(tmp_path / "runs.sqlite").records(summary.run_id)
    assert json.loads(row["result"])["reviews"] == []


def test_when_an_edit_drops_an_attribute_then_the_anonymizer_prompt_leaves_it_out(
    tmp_path: Path, script: Script
) -> None:
    script_two_leaks(script)
    run_id = asyncio.run(run_batch(options(tmp_path, count=1, review=True))).run_id

    summary, shown = review(tmp_path, run_id, "e", "-age")

    (prompt,) = script.prompts("anonymizer")
    assert "concept-of-city_country" in prompt
    assert "concept-of-age" not in prompt and "] age:" not in prompt
    assert "[generalize] city_country:" in prompt
    assert (summary.answered, summary.done, summary.waiting) == (1, 1, 0)
    (line,) = output_lines(tmp_path)
    assert line == {
        "id": "r0",
        "text": "I am 34 and live in a city.",
        "status": "max_iterations",
        "outcome": "partly anonymized",
        "checked_by": "local",
        "leaks_left": ["age", "city_country"],
        "identifiers_replaced": {},
        "run_id": run_id,
    }
    shown_text = "\n".join(shown)
    assert "review_policy" in shown_text and "age: generalize" in shown_text
    (row,) = RunStore(tmp_path / "runs.sqlite").records(run_id)
    (entry,) = json.loads(row["result"])["reviews"]
    assert (entry["decision"], entry["drop"]) == ("edit", ["age"])
    assert [p["attribute"] for p in entry["proposal"]["policy"]] == [
        "age",
        "city_country",
    ]
    assert RunStore(tmp_path / "runs.sqlite").get_run(run_id)["status"] == "done"  # type: ignore[index]


def test_when_a_reviewer_stops_then_the_record_ends_with_its_current_text(
    tmp_path: Path, script: Script
) -> None:
    script_two_leaks(script)
    run_id = asyncio.run(run_batch(options(tmp_path, count=1, review=True))).run_id

    summary, _ = review(tmp_path, run_id, "r")

    assert script.prompts("anonymizer") == []
    (line,) = output_lines(tmp_path)
    assert (line["text"], line["status"]) == (TEXT, "stopped_by_reviewer")
    assert summary.done == 1


def test_when_an_edit_is_invalid_then_it_is_refused_and_the_record_still_waits(
    tmp_path: Path, script: Script
) -> None:
    script_two_leaks(script)
    run_id = asyncio.run(run_batch(options(tmp_path, count=1, review=True))).run_id

    summary, shown = review(
        tmp_path, run_id, "e", "-sex", "e", "city_country=shout", "x", "q"
    )

    assert "not applied: -sex: sex is not in the policy (age, city_country)" in (
        "\n".join(shown)
    )
    assert (
        "not applied: decisions.0.edit.edited_action.args.policy.city_country: "
        "Input should be 'generalize', 'rephrase' or 'address'; the record "
        "still waits" in "\n".join(shown)
    )
    assert "unknown key 'x'" in "\n".join(shown)
    assert script.prompts("anonymizer") == [] and output_lines(tmp_path) == []
    assert summary.waiting == 1
    db = RunStore(tmp_path / "runs.sqlite")
    assert db.record_statuses(run_id) == {"r0": WAITING}

    later, _ = review(tmp_path, run_id, "a")

    assert (later.done, later.waiting) == (1, 0)
    assert len(script.prompts("anonymizer")) == 1


def test_when_an_answer_adds_an_attribute_then_the_anonymizer_addresses_it_too(
    script: Script,
) -> None:
    script.set(
        "attacker", attack_json(age=("34", 5), city_country=("Calgary, Canada", 5))
    )
    script.set("arbitrator", verdicts_json(age="invalid", city_country="high"))
    script.set("anonymizer", lambda p: rewrite_json(rewritten(p)))
    app = rlaa.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    context = Context(
        default_model="local",
        attributes=["age", "city_country"],
        max_iterations=1,
        review=True,
    )

    paused = asyncio.run(app.ainvoke({"text": TEXT}, config, context=context))
    (pause,) = paused["__interrupt__"]
    assert [p["attribute"] for p in pause.value["details"]["proposal"]["policy"]] == [
        "city_country"
    ]
    (action,) = pause.value["action_requests"]
    assert action["args"] == {"policy": {"city_country": "generalize"}}
    with pytest.raises(
        ValidationError, match="decisions.0.approve.add\n  Extra inputs"
    ):
        approve_with_changes = {"type": "approve", "add": ["age"]}
        asyncio.run(
            app.ainvoke(
                Command(resume={"decisions": [approve_with_changes]}),
                config,
                context=context,
            )
        )
    policy = {"city_country": "generalize", "age": "rephrase"}
    answer = edit("apply_policy", policy=policy)
    out = asyncio.run(app.ainvoke(Command(resume=answer), config, context=context))

    (prompt,) = script.prompts("anonymizer")
    assert "[rephrase] age:" in prompt and "[generalize] city_country:" in prompt
    assert out["iterations"][0]["policy"][-1]["attribute"] == "age"
    assert out["iterations"][0]["policy"][-1]["action"] == "rephrase"


def test_when_fgaa_reviews_then_it_pauses_after_forwarding_the_inferences(
    script: Script,
) -> None:
    script.set("attacker", attack_json(age=("34", 5)))
    script.set("anonymizer", lambda p: rewrite_json(p))
    app = fgaa.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    context = Context(
        default_model="local", attributes=["age"], max_iterations=1, review=True
    )

    paused = asyncio.run(app.ainvoke({"text": TEXT}, config, context=context))

    (pause,) = paused["__interrupt__"]
    assert pause.value["details"]["step"] == "review_policy"
    assert pause.value["details"]["proposal"]["policy"][0]["action"] == "address"
    assert script.prompts("anonymizer") == []
    stopped = asyncio.run(app.ainvoke(Command(resume=REJECT), config, context=context))
    assert (stopped["status"], stopped["anonymized"]) == ("stopped_by_reviewer", TEXT)


@pytest.mark.parametrize(
    ("step", "line", "changes"),
    [
        ("review_policy", "-age", {"drop": ["age"]}),
        (
            "review_policy",
            "+sex=rephrase city_country=generalize",
            {
                "add": ["sex"],
                "actions": {"sex": "rephrase", "city_country": "generalize"},
            },
        ),
        ("review_budgets", "age=L3 sex=L0", {"levels": {"age": "L3", "sex": "L0"}}),
        ("review_selection", "2", {"pick": 2}),
    ],
)
def test_when_an_edit_line_is_typed_then_it_becomes_the_answers_changes(
    step: str, line: str, changes: dict[str, Any]
) -> None:
    assert parse_edit(step, line) == changes


# --- A kill between pause and resume loses nothing --------------------------

CHILD = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from scripted import Script, attack_json, rewrite_json, verdicts_json
from anonygraph.runs.store.checkpointers import InLoopSqliteSaver
from anonygraph import cli
from anonygraph.cli.commands.run import WAITING_EXIT
from anonygraph.llm import loading

kill_on = os.environ.get("KILL_ON", "")
original = InLoopSqliteSaver.aput_writes

async def aput_writes(self, config, writes, task_id, task_path=""):
    await original(self, config, writes, task_id, task_path)
    if kill_on and any(channel == kill_on for channel, _ in writes):
        os.kill(os.getpid(), signal.SIGKILL)

InLoopSqliteSaver.aput_writes = aput_writes
script = Script()
script.set("attacker", attack_json(age=("34", 5), city_country=("Calgary, Canada", 5)))
script.set("arbitrator", verdicts_json(age="high", city_country="high"))
script.set("anonymizer", rewrite_json("I am in my thirties and live in a city."))
loading.load_chat_model = script.load
sys.exit(cli.main(sys.argv[1:]))
"""


def child(
    tmp_path: Path, kill_on: str, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(CHILD.format(tests=str(TESTS))))
    env = {**os.environ, "KILL_ON": kill_on}
    return subprocess.run(
        [sys.executable, str(script), *args],
        env=env,
        input=stdin,
        timeout=120,
        capture_output=True,
        text=True,
    )


def test_when_killed_between_pause_and_resume_then_nothing_is_lost(
    tmp_path: Path,
) -> None:
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "a", "text": TEXT}) + "\n")
    db = str(tmp_path / "runs.sqlite")
    run = [
        "run", "--input", str(tmp_path / "in.jsonl"), "--output",
        str(tmp_path / "out.jsonl"), "--db", db, "--attributes", "age,city_country",
        "--max-iterations", "1", "--cache", "off", "--no-progress", "--review",
        "--model", "local",
        "--run-id", "rv",
    ]  # fmt: skip

    # The batch dies right after saving the pause; the record waits all the same.
    killed = child(tmp_path, "__interrupt__", *run)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    waiting = child(tmp_path, "", *run)
    assert waiting.returncode == 3, waiting.stderr
    assert "anonygraph review --run rv" in waiting.stderr
    # The review process dies right after the answer is saved, before the rewrite.
    answered = child(
        tmp_path, "reviews", "review", "--run", "rv", "--db", db, stdin="e\n-age\n"
    )
    assert answered.returncode == -signal.SIGKILL, answered.stderr
    assert "review_policy" in answered.stdout

    # Another process finishes it without asking again.
    resumed = child(tmp_path, "", "review", "--run", "rv", "--db", db, stdin="")

    assert resumed.returncode == 0, resumed.stderr
    assert "review_policy" not in resumed.stdout
    (line,) = output_lines(tmp_path)
    assert (line["id"], line["text"], line["status"]) == (
        "a",
        "I am in my thirties and live in a city.",
        "max_iterations",
    )
    store = RunStore(db)
    (row,) = store.records("rv")
    assert row["status"] == "done"
    steps = sorted(c["step"] for c in store.db.query("select step from model_calls"))
    # The rewrite, then the final text attacked and arbitrated once more.
    assert steps == ["anonymize", "arbitrate", "arbitrate", "attack", "attack"]
    assert json.loads(row["result"])["reviews"][0]["drop"] == ["age"]


def test_when_the_one_call_api_is_asked_to_review_then_it_says_what_is_needed() -> None:
    import anonygraph

    with pytest.raises(ValueError, match="needs a checkpointer"):
        anonygraph.anonymize(TEXT, method="rlaa", review=True)


def test_when_dp_embed_is_asked_to_review_then_its_context_refuses() -> None:
    from anonygraph.state.dp_embed import DpEmbedContext

    with pytest.raises(ValueError, match="dp-embed has no review step"):
        DpEmbedContext(review=True)


# --- Review of a run on Postgres --------------------------------------------


def test_when_a_postgres_run_pauses_for_review_then_its_records_wait_there(
    tmp_path: Path, script: Script, pg_url: str
) -> None:
    script_two_leaks(script)
    shared = replace(options(tmp_path, review=True), db=pg_url)

    summary = asyncio.run(run_batch(shared))

    assert (summary.done, summary.waiting, summary.failed) == (0, 2, 0)
    assert "2 waiting for review" in summary.report()
    db = RunStore(pg_url)
    # Neither failed nor done: only an answer moves them on.
    waiting = dict.fromkeys(["r0", "r1"], WAITING)
    assert db.record_statuses(summary.run_id) == waiting
    assert db.get_run(summary.run_id)["status"] == WAITING  # type: ignore[index]
    again = asyncio.run(run_batch(shared))
    assert (again.waiting, again.failed) == (2, 0)
    assert db.record_statuses(summary.run_id) == waiting
    assert script.prompts("anonymizer") == []


def test_when_run_prints_the_review_command_on_postgres_then_that_command_works(
    tmp_path: Path,
    script: Script,
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    script_two_leaks(script)
    monkeypatch.setenv("ANONYGRAPH_DB", pg_url)
    shared = options(tmp_path, review=True)
    code = cli.main(
        ["run", "--method", "rlaa", "--input", shared.input, "--output",
         shared.output, "--model", "local", "--attributes", "age,city_country",
         "--max-iterations", "1", "--cache", "off", "--review", "--no-progress"]
    )  # fmt: skip
    assert code == WAITING_EXIT
    printed = re.search(r"answer them: anonygraph (review .*)", capsys.readouterr().err)
    assert printed is not None and f"--db {pg_url}" in printed.group(1)

    monkeypatch.setattr(sys, "stdin", io.StringIO("a\na\n"))
    code = cli.main(printed.group(1).split())

    assert code == 0, capsys.readouterr().err
    assert len(script.prompts("anonymizer")) == 2
    assert [line["text"] for line in output_lines(tmp_path)] == [
        "I am 34 and live in a city."
    ] * 2
    db = RunStore(pg_url)
    (run,) = db.runs()
    assert db.record_statuses(run["id"]) == {"r0": "done", "r1": "done"}
    assert run["status"] == "done"
    # The same command without --db finds the store through ANONYGRAPH_DB.
    assert cli.main(["review", "--run", run["id"]]) == 0


# --- LangChain's human-in-the-loop convention -------------------------------


def paused_rlaa(script: Script) -> tuple[Any, dict[str, Any], Context, Any]:
    """An RLAA thread paused at its policy review, with two attributes proposed."""
    script_two_leaks(script)
    app = rlaa.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    context = Context(
        default_model="local",
        attributes=["age", "city_country", "sex"],
        max_iterations=1,
        review=True,
    )
    paused = asyncio.run(app.ainvoke({"text": TEXT}, config, context=context))
    (pause,) = paused["__interrupt__"]
    return app, config, context, pause


def test_when_a_record_pauses_then_its_request_is_a_langchain_hitl_request(
    script: Script,
) -> None:
    from langchain.agents.middleware.human_in_the_loop import HITLRequest
    from pydantic import TypeAdapter

    _, _, _, pause = paused_rlaa(script)

    request = pause.value
    hitl = TypeAdapter(HITLRequest).validate_python(request)
    assert hitl == {k: v for k, v in request.items() if k != "details"}
    (action,) = hitl["action_requests"]
    (config,) = hitl["review_configs"]
    assert action["name"] == config["action_name"] == "apply_policy"
    assert action["args"] == {
        "policy": {"age": "generalize", "city_country": "generalize"}
    }
    assert "I am 34 and live in Calgary." in action["description"]
    assert "age: 34 (certainty 5)" in action["description"]
    assert config["allowed_decisions"] == ["approve", "edit", "reject"]
    names = config["args_schema"]["properties"]["policy"]["propertyNames"]["enum"]
    assert names == ["age", "city_country", "sex"]
    # Studio and other clients get the answer's schema with the pause.
    assert "decisions" in pause.response_schema["properties"]


def test_when_answered_with_langchain_decisions_then_the_record_goes_on(
    script: Script,
) -> None:
    from langchain.agents.middleware.human_in_the_loop import (
        Action,
        EditDecision,
        HITLResponse,
    )

    app, config, context, pause = paused_rlaa(script)
    # Agent Chat UI edits each argument in a text box and sends back its text.
    policy = json.dumps({"city_country": "rephrase", "sex": "generalize"})
    answer = HITLResponse(
        decisions=[
            EditDecision(
                type="edit",
                edited_action=Action(name="apply_policy", args={"policy": policy}),
            )
        ]
    )

    out = asyncio.run(app.ainvoke(Command(resume=answer), config, context=context))

    (prompt,) = script.prompts("anonymizer")
    assert "[rephrase] city_country:" in prompt and "[generalize] sex:" in prompt
    assert "] age:" not in prompt
    (entry,) = out["reviews"]
    assert (entry["decision"], entry["drop"], entry["add"]) == (
        "edit",
        ["age"],
        ["sex"],
    )
    assert entry["actions"] == {"city_country": "rephrase", "sex": "generalize"}


@pytest.mark.parametrize(
    ("decision", "problem"),
    [
        ({"type": "respond", "message": "hi"}, "does not match any of the expected"),
        (
            {"type": "edit", "edited_action": {"name": "send_email", "args": {}}},
            "Input should be 'apply_policy'",
        ),
        (
            {
                "type": "edit",
                "edited_action": {
                    "name": "apply_policy",
                    "args": {
                        "policy": {"age": "generalize", "city_country": "generalize"}
                    },
                },
            },
            "the edit changes nothing; approve instead",
        ),
        (
            {
                "type": "edit",
                "edited_action": {"name": "apply_policy", "args": {"policy": {}}},
            },
            "the edit drops every attribute; to rewrite nothing, reject",
        ),
    ],
)
def test_when_a_decision_does_not_fit_then_it_is_refused_and_the_record_stays_paused(
    script: Script, decision: dict[str, Any], problem: str
) -> None:
    app, config, context, _ = paused_rlaa(script)

    with pytest.raises(ValidationError, match=problem):
        asyncio.run(
            app.ainvoke(
                Command(resume={"decisions": [decision]}), config, context=context
            )
        )

    state = asyncio.run(app.aget_state(config))
    assert state.next == ("review_policy",) and script.prompts("anonymizer") == []
    out = asyncio.run(app.ainvoke(Command(resume=REJECT), config, context=context))
    assert out["status"] == "stopped_by_reviewer" and out["anonymized"] == TEXT
    assert out["reviews"][-1]["message"] == "keep it as it is"
