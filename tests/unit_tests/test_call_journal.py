"""The call journal: a step re-run after a fault never sends an answered call again.

A step that makes several model calls loses its answers when a later call of
the same step fails (its writes are never checkpointed); the journal in the
run store keeps each answer, and the re-run is served from it.
"""

from __future__ import annotations

import asyncio
import json
import operator
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, cast

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from scripted import Script, calgary_script, rewrite_json, rlaa_batch

from anonygraph import llm
from anonygraph.llm.faults import Fault, ServerError
from anonygraph.runs.engines.records import invoke_thread
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.recorder import record_calls
from anonygraph.runs.summary import RunSummary
from anonygraph.state.answers import Rewrite
from anonygraph.state.context import Context

URL = "http://127.0.0.1:9/v1"


class Faults:
    """Raise a server fault on chosen prompts, once each; count answered prompts."""

    def __init__(self, failing: set[str]) -> None:
        self.failing = set(failing)
        self.answered: Counter[str] = Counter()

    def __call__(self, answer: Any) -> Any:
        def reply(prompt: str) -> Any:
            for mark in sorted(self.failing):
                if mark in prompt:
                    self.failing.discard(mark)
                    raise ServerError(URL, Fault(None, "connection failed", True), 3)
            self.answered[prompt] += 1
            return answer(prompt) if callable(answer) else answer

        return reply


def rlaa(tmp_path: Path) -> RunSummary:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I live in Calgary."}) + "\n")
    return cast(RunSummary, rlaa_batch(tmp_path, source, cache_mode="off"))


def test_when_a_steps_second_call_fails_then_the_rerun_does_not_resend_the_first(
    script: Script, tmp_path: Path
) -> None:
    calgary = calgary_script()
    script.models.update(calgary.models)
    # The anonymize step: its first rewrite is refused (too short), the retry
    # that says why meets a dead server once; a re-run must not ask the first
    # rewrite again.
    faults = Faults({"was refused"})
    script.set(
        "anonymizer",
        faults(
            lambda p: rewrite_json("I live in a city." if "was refused" in p else "x")
        ),
    )

    first = rlaa(tmp_path)
    assert (first.done, first.failed) == (0, 1)
    assert "connection failed" in first.failures[0]
    second = rlaa(tmp_path)

    assert (second.done, second.failed) == (1, 0)
    prompts = script.prompts("anonymizer")
    assert len(prompts) == 3  # first rewrite, failed retry, retry again
    assert max(faults.answered.values()) == 1
    (line,) = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert (line["id"], line["text"]) == ("a", "I live in a city.")
    db = RunStore(tmp_path / "runs.sqlite")
    calls = db.db.query(
        "select * from model_calls where step = 'anonymize' and run_id = ?",
        [second.run_id],
    )
    assert sorted(c["ok"] for c in calls) == [0, 1, 1]  # the fault is accounted
    # The answered call is counted once, under the id it was logged with.
    assert second.totals["call_log"]["redone"] == 0
    assert second.totals["call_log"]["replayed"] == 1
    assert "1 answered call(s) served from the run's call journal" in second.report()
    # A finished record's journal keeps no text.
    rows = db.db.query("select * from call_journal where run_id = ?", [second.run_id])
    assert [(r["step"], r["answer"], r["replays"]) for r in rows] == [
        ("anonymize", "", 1)
    ]


@dataclass(kw_only=True)
class Sampled:
    """State of a one-step graph that samples three rewrites of one prompt."""

    texts: Annotated[list[str], operator.add] = field(default_factory=list)
    calls: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)


async def sample(state: Sampled, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ask the same prompt three times (temperature > 0), then one more question.

    The third sample and the question are asked from a worker thread with its
    own event loop, as the evaluator's validator is.
    """

    def ask(prompt: str) -> tuple[Rewrite, list[dict[str, Any]]]:
        return asyncio.run(
            llm.ask_structured(
                "anonymizer", prompt, Rewrite, runtime.context, step="sample"
            )
        )

    texts, calls = [], []
    for n in range(3):
        if n < 2:
            answer, made = await llm.ask_structured(
                "anonymizer", "rewrite me", Rewrite, runtime.context, step="sample"
            )
        else:
            answer, made = await asyncio.to_thread(ask, "rewrite me")
        texts.append(answer.text)
        calls += made
    answer, made = await asyncio.to_thread(ask, "last question")
    return {"texts": [*texts, answer.text], "calls": [*calls, *made]}


def test_when_a_step_samples_one_prompt_n_times_then_the_rerun_replays_n_answers(
    script: Script, tmp_path: Path
) -> None:
    counter = iter(range(100))
    faults = Faults({"last question"})
    script.set("anonymizer", faults(lambda p: rewrite_json(f"sample {next(counter)}")))
    builder = StateGraph(Sampled, context_schema=Context)
    builder.add_node(sample)
    builder.add_edge(START, "sample")
    builder.add_edge("sample", END)
    app = builder.compile(checkpointer=InMemorySaver())
    db = RunStore(tmp_path / "runs.sqlite")
    context = Context(default_model="local", cache_mode="off")

    async def run_once() -> tuple[dict[str, Any], Exception | None]:
        record_calls(db, "run", "rec")
        return await invoke_thread(
            app, "run:rec", {}, context, finished=lambda v: bool(v.get("texts"))
        )

    _, error = asyncio.run(run_once())
    assert isinstance(error, llm.ModelServerError)
    result, error = asyncio.run(run_once())

    assert error is None
    assert result["texts"] == ["sample 0", "sample 1", "sample 2", "sample 3"]
    sent = {p.splitlines()[0]: n for p, n in faults.answered.items()}
    assert sent == {"rewrite me": 3, "last question": 1}
    assert [bool(c.get("replayed")) for c in result["calls"]] == [True] * 3 + [False]


def test_when_a_steps_answer_stays_unusable_then_the_rerun_asks_afresh(
    script: Script, tmp_path: Path
) -> None:
    script.set("anonymizer", "no json here")
    db = RunStore(tmp_path / "runs.sqlite")
    context = Context(default_model="local", cache_mode="off", max_retries=0)

    async def ask() -> None:
        record_calls(db, "run", "rec")
        await llm.ask_structured("anonymizer", "p", Rewrite, context, step="s")

    for _ in range(2):
        try:
            asyncio.run(ask())
        except llm.ModelOutputError:
            pass
    assert len(script.prompts("anonymizer")) == 2
    assert db.db.query("select * from call_journal") == []


CHILD = """
import os, sys
sys.path.insert(0, {tests!r})
from scripted import calgary_script, rewrite_json
from anonygraph import cli
from anonygraph.llm import loading
from anonygraph.llm.faults import Fault, ServerError

def anonymizer(prompt):
    retry = "was refused" in prompt
    if retry and not os.path.exists({flag!r}):
        open({flag!r}, "w").close()
        raise ServerError("{url}", Fault(None, "connection failed", True), 3)
    with open({log!r}, "a") as sent:
        sent.write(("retry" if retry else "first") + "\\n")
    return rewrite_json("I live in a city." if retry else "x")

script = calgary_script()
script.set("anonymizer", anonymizer)
loading.load_chat_model = script.load
sys.exit(cli.main(sys.argv[1:]))
"""


def test_when_the_cli_is_run_again_after_a_fault_then_no_answered_call_is_resent(
    tmp_path: Path,
) -> None:
    log, flag = tmp_path / "sent.log", tmp_path / "failed-once"
    child = tmp_path / "child.py"
    tests = str(Path(__file__).resolve().parents[1])
    child.write_text(CHILD.format(tests=tests, flag=str(flag), log=str(log), url=URL))
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I live in Calgary."}) + "\n")
    command = [
        sys.executable, str(child), "run", "--input", str(source),
        "--output", str(tmp_path / "out.jsonl"), "--db", str(tmp_path / "runs.sqlite"),
        "--attributes", "city_country", "--max-iterations", "1", "--cache", "off",
        "--no-progress", "--model", "local",
    ]  # fmt: skip

    first = subprocess.run(command, capture_output=True, text=True, timeout=120)
    second = subprocess.run(command, capture_output=True, text=True, timeout=120)

    assert first.returncode == 1 and "connection failed" in first.stderr
    assert second.returncode == 0, second.stderr
    assert log.read_text().splitlines() == ["first", "retry"]
    assert "1 answered call(s) served from the run's call journal" in second.stderr
    (line,) = (tmp_path / "out.jsonl").read_text().splitlines()
    assert json.loads(line)["text"] == "I live in a city."


def test_when_a_run_is_purged_then_its_and_its_evaluations_journal_go_too(
    tmp_path: Path,
) -> None:
    db = RunStore(tmp_path / "runs.sqlite")
    for run_id in ("r", "r/eval-1", "r2", "r_"):
        db.journal_put(run_id, "a", "t", "q", 0, {"id": run_id}, {"text": "raw"})

    db.purge_intermediates("r")

    left = db.db.query("select run_id from call_journal order by run_id")
    assert [row["run_id"] for row in left] == ["r2", "r_"]


async def ask_again(state: Sampled, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ask the same prompt once per round."""
    answer, made = await llm.ask_structured(
        "anonymizer", "rewrite me", Rewrite, runtime.context, step="ask_again"
    )
    return {"texts": [answer.text], "calls": made}


def test_when_a_node_asks_the_same_prompt_in_a_later_round_then_it_is_sent_again(
    script: Script, tmp_path: Path
) -> None:
    sent: list[str] = []

    def answer(prompt: str) -> str:
        if len(sent) == 2 and "failed" not in sent:
            sent.append("failed")
            raise ServerError(URL, Fault(None, "connection failed", True), 3)
        sent.append(f"round answer {len(sent)}")
        return rewrite_json(sent[-1])

    script.set("anonymizer", answer)
    builder = StateGraph(Sampled, context_schema=Context)
    builder.add_node(ask_again)
    builder.add_edge(START, "ask_again")
    builder.add_conditional_edges(
        "ask_again", lambda s: END if len(s.texts) >= 3 else "ask_again"
    )
    app = builder.compile(checkpointer=InMemorySaver())
    db = RunStore(tmp_path / "runs.sqlite")
    context = Context(default_model="local", cache_mode="off")

    async def run_once() -> tuple[dict[str, Any], Exception | None]:
        record_calls(db, "run", "rec")
        return await invoke_thread(
            app, "run:rec", {}, context, finished=lambda v: len(v["texts"]) >= 3
        )

    _, error = asyncio.run(run_once())  # the third round meets the fault
    assert isinstance(error, llm.ModelServerError)
    result, error = asyncio.run(run_once())

    # Each round is its own graph task: the re-run's round is asked afresh,
    # not answered with the first round's journaled answer to the same prompt.
    assert error is None
    assert result["texts"] == ["round answer 0", "round answer 1", "round answer 3"]
    assert not any(c.get("replayed") for c in result["calls"])
