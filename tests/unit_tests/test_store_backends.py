"""The run store's interface on both backends: a SQLite file and a real Postgres."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any, cast

from scripted import Script, attack_json, rewrite_json, verdicts_json

from anonygraph import cli as anonygraph_cli
from anonygraph.llm.recording import Slot
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.checkpointers import checkpoint_path, open_checkpointer
from anonygraph.runs.store.recorder import StoreRecorder

CALLS: list[dict[str, Any]] = [
    {"id": "c1", "step": "attack", "role": "attacker", "tokens_in": 10,
     "tokens_out": 5, "seconds": 0.5},
    {"id": "c2", "step": "anonymize", "role": "anonymizer", "tokens_in": 7,
     "tokens_out": 3, "seconds": 0.25},
]  # fmt: skip


def test_when_a_record_is_saved_twice_then_each_backend_keeps_one_row_with_totals(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    db.start_run("run1", "rlaa", {"max_iterations": 2}, "in.jsonl", "out.jsonl")
    for _ in range(2):  # a resumed record saves again: upserts, not duplicates
        db.save_result(
            "run1",
            "r1",
            status="done",
            original="I live in Calgary",
            result={
                "anonymized": "I live in a city",
                "status": "done",
                "calls": CALLS,
                "iterations": [{"round": 0, "text": "I live in Calgary"}],
                "search_log": [{"backend": "offline", "query": "q", "urls": ["u"]}],
            },
            labels={"city_country": "Calgary"},
            wall_seconds=1.0,
        )
    db.finish_run("run1", "done", {"done": 1})

    assert db.record_statuses("run1") == {"r1": "done"}
    assert db.get_run("run1")["status"] == "done"  # type: ignore[index]
    assert [r["id"] for r in db.runs()] == ["run1"]
    totals = db.run_totals("run1")
    assert (totals["records"], totals["calls"], totals["tokens_in"]) == (1, 2, 17)
    assert totals["model_seconds"] == 0.75
    assert db.wall_seconds("run1", "r1") == 1.0
    db.purge_intermediates("run1")
    assert db.records("run1")[0]["result"] is None
    assert db.records("run1")[0]["anonymized"] == "I live in a city"


def test_when_calls_are_logged_then_cut_off_and_redone_calls_are_counted(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    recorder = StoreRecorder(db, "run1", "r1")
    for call in ({"id": "a", "step": "attack"}, {"id": "b", "step": "attack"}):
        recorder.started(call)
        recorder.ended(call)
    recorder.started({"id": "c", "step": "arbitrate"})  # killed here
    db.save_calls("run1", "r1", [{"id": "a", "step": "attack"}])
    assert db.call_log_totals("run1") == {"started": 3, "cut_off": 1, "redone": 1}


def test_when_evaluations_are_saved_then_both_backends_return_and_copy_them(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    db.start_eval("e1", "run1", {"judge": "x"})
    db.start_eval("e1", "run1", {"judge": "changed"})  # a resumed evaluation
    db.save_evaluation(
        "e1", "run1", "r1", "round_0", round_no=0, status="done", error="",
        result={"text": "t", "calls": CALLS, "metrics": {"bleu": 1.0}}, seconds=0.1,
    )  # fmt: skip
    assert db.copy_evaluation("e1", "r1", "round_0", "final")
    assert not db.copy_evaluation("e1", "r1", "round_9", "final")
    assert db.evaluated_rows("e1") == {("r1", "round_0"), ("r1", "final")}
    assert db.latest_eval("run1") == "e1"
    assert sorted(r["row"] for r in db.evaluations("e1")) == ["final", "round_0"]


def test_when_answers_are_cached_then_either_backend_returns_them(
    store_location: str,
) -> None:
    recorder = StoreRecorder(RunStore(store_location))
    assert asyncio.run(recorder.cached("k")) is None
    asyncio.run(recorder.keep("k", {"text": "hello", "usage": [1, 2]}))
    asyncio.run(recorder.keep("k", {"text": "again", "usage": [1, 2]}))
    assert asyncio.run(recorder.cached("k")) == {"text": "again", "usage": [1, 2]}


def test_when_a_batch_runs_twice_on_either_backend_then_the_rerun_redoes_nothing(
    store_location: str, tmp_path: Path, script: Script
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", lambda p: rewrite_json("I live in a city."))
    source = tmp_path / "in.jsonl"
    source.write_text(
        json.dumps({"id": "a", "text": "I live in Calgary."})
        + "\n"
        + json.dumps({"id": "b", "text": "Calgary is home."})
        + "\n"
    )
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=store_location,
        context={
            "attributes": ["city_country"],
            "max_iterations": 1,
            "default_model": "local",
        },
        progress=False,
    )

    first = asyncio.run(run_batch(options))
    second = asyncio.run(run_batch(options))

    assert (first.done, first.failed, first.skipped) == (2, 0, 0)
    assert (second.done, second.failed, second.skipped) == (0, 0, 2)
    db = RunStore(store_location)
    assert db.record_statuses(first.run_id) == {"a": "done", "b": "done"}
    # Per record: attack, arbitrate, anonymize, then the final attack + arbitrate.
    assert db.db.one("select count(*) from model_calls") == (10,)
    # Two records, each attacked before and after its rewrite; none again.
    assert len(script.prompts("attacker")) == 4
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(x["id"], x["text"]) for x in lines] == [
        ("a", "I live in a city."),
        ("b", "I live in a city."),
    ]
    assert db.get_run(first.run_id)["status"] == "done"  # type: ignore[index]


def test_when_a_run_is_purged_on_either_backend_then_its_checkpoints_go_too(
    store_location: str, tmp_path: Path, script: Script
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("I live in a city."))
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": "I live in Calgary."}) + "\n")
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=store_location,
        context={
            "attributes": ["city_country"],
            "max_iterations": 1,
            "default_model": "local",
        },
        progress=False,
    )
    run_id = asyncio.run(run_batch(options)).run_id

    async def checkpoints() -> int:
        async with open_checkpointer(store_location) as saver:
            config = {"configurable": {"thread_id": f"{run_id}:a"}}
            return len([c async for c in saver.alist(config)])

    assert asyncio.run(checkpoints()) > 0
    assert anonygraph_cli.main(["purge", "--db", store_location, "--run", run_id]) == 0
    assert asyncio.run(checkpoints()) == 0
    (row,) = RunStore(store_location).records(run_id)
    assert row["result"] is None and row["anonymized"] == "I live in a city."


def test_when_the_checkpointer_writes_then_another_connection_sees_each_commit(
    store_location: str,
) -> None:
    # The savers write in the event loop's thread. A checkpoint is committed
    # when its write returns (a kill right after it loses nothing); a task's
    # writes wait for the next checkpoint, a read of the thread, or at most
    # WRITES_COMMIT_DELAY seconds; a reviewer's answer does not wait.
    from langgraph.checkpoint.base import empty_checkpoint

    from anonygraph.runs.store.checkpointers import WRITES_COMMIT_DELAY

    thread = {"configurable": {"thread_id": "run1:a", "checkpoint_ns": ""}}
    writes = "checkpoint_writes" if "postgres" in store_location else "writes"
    seen: dict[str, tuple[int, int]] = {}

    def count() -> tuple[int, int]:
        query = (
            f"select (select count(*) from checkpoints), "
            f"(select count(*) from {writes})"
        )
        if store_location.startswith("postgresql://"):
            import psycopg

            with psycopg.connect(store_location) as conn:
                row = conn.execute(query).fetchone()
        else:
            import sqlite3

            path = checkpoint_path(store_location)
            with sqlite3.connect(path) as conn:
                row = conn.execute(query).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    async def write() -> None:
        async with open_checkpointer(store_location) as saver:
            config = await saver.aput(thread, empty_checkpoint(), {"step": -1}, {})
            seen["checkpoint"] = count()
            await saver.aput_writes(config, [("text", "I live in Calgary.")], "t1")
            seen["writes held"] = count()
            config = await saver.aput(config, empty_checkpoint(), {"step": 0}, {})
            seen["next checkpoint"] = count()
            await saver.aput_writes(config, [("text", "a city")], "t2")
            await asyncio.sleep(WRITES_COMMIT_DELAY * 4)
            seen["after the delay"] = count()
            await saver.aput_writes(config, [("text", "a town")], "t3")
            tuple_ = await saver.aget_tuple(config)
            seen["after a read"] = count()
            assert tuple_ is not None
            assert [w[0] for w in tuple_.pending_writes] == ["t2", "t3"]
            await saver.aput_writes(config, [("__resume__", "keep")], "t4")
            seen["an answer"] = count()
            await saver.aput_writes(config, [("text", "a village")], "t5")
        seen["closed"] = count()
        async with open_checkpointer(store_location) as saver:
            await saver.adelete_thread("run1:a")
        seen["deleted"] = count()

    asyncio.run(write())

    assert seen == {
        "checkpoint": (1, 0),
        "writes held": (1, 0),
        "next checkpoint": (2, 1),
        "after the delay": (2, 2),
        "after a read": (2, 3),
        "an answer": (2, 4),
        "closed": (2, 5),
        "deleted": (0, 0),
    }


def test_when_langgraph_names_its_channels_then_writes_on_them_commit_at_once() -> None:
    # Private in LangGraph; checked here so a rename there cannot go unseen.
    from langgraph._internal._constants import ERROR, INTERRUPT, RESUME

    from anonygraph.runs.store.checkpointers import COMMIT_AT_ONCE

    assert {ERROR, INTERRUPT, RESUME} == COMMIT_AT_ONCE


def test_when_a_record_has_no_journaled_answer_then_a_call_reads_the_journal_once(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    reads: list[str] = []
    real_one, real_query = db.db.one, db.db.query

    def one(sql: str, args: Any = ()) -> Any:
        reads.append(sql)
        return real_one(sql, args)

    def query(sql: str, args: Any = ()) -> Any:
        reads.append(sql)
        return real_query(sql, args)

    db.db.one, db.db.query = one, query  # type: ignore[method-assign]
    for n in range(3):  # three calls of a fresh record: nothing to replay
        assert db.journal_take("run1", "a", "attack:t1", f"req{n}", 0) is None
    assert len(reads) == 1

    call = {"id": "c1", "step": "attack"}
    db.journal_put("run1", "a", "attack:t1", "req0", 0, call, {"text": "x"})
    hit = db.journal_take("run1", "a", "attack:t1", "req0", 0)  # same thread run
    other = RunStore(store_location)  # another process resuming the record
    again = other.journal_take("run1", "a", "attack:t1", "req0", 0)

    assert hit is not None and hit["answer"] == {"text": "x"}
    assert again is not None and again["call"]["id"] == "c1"
    db.journal_close("run1", "a")
    assert db.journal_take("run1", "a", "attack:t1", "req0", 0) is None
    assert db.journal_replays("run1") == 2


def test_when_a_call_ends_then_its_end_and_journaled_answer_commit_together(
    store_location: str,
) -> None:
    db = RunStore(store_location)
    call = {"id": "c1", "role": "attacker", "step": "attack"}
    recorder = StoreRecorder(db, "run1", "a")
    recorder.started(call)
    seen_inside: list[tuple[int, int]] = []

    def log_call(*args: Any) -> None:
        RunStore.log_call(db, *args)
        if args[1] == "end":  # inside the batch, before the journaled answer
            seen_inside.append(_ended_and_journaled(store_location))

    db.log_call = log_call  # type: ignore[method-assign]
    recorder.ended(call, Slot("attack:t1", "req", 0), {"text": "x"})
    seen_inside.append(_ended_and_journaled(store_location))

    # Another connection sees neither until both are in.
    assert seen_inside == [(0, 0), (1, 1)]
    assert db.call_log_totals("run1") == {"started": 1, "cut_off": 0, "redone": 1}


def _ended_and_journaled(location: str) -> tuple[int, int]:
    query = (
        "select (select count(*) from call_log where ended is not null), "
        "(select count(*) from call_journal)"
    )
    if location.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(location) as conn:
            row = conn.execute(query).fetchone()
    else:
        import sqlite3

        with sqlite3.connect(location) as conn:
            row = conn.execute(query).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def test_when_workers_create_the_postgres_schema_at_once_then_none_waits_forever(
    pg_url: str,
) -> None:
    # Ray workers of a new run open the store together: one creates the
    # tables (LangGraph's migrations include CREATE INDEX CONCURRENTLY, which
    # waits for every other session's running statement) while the others
    # wait for its lock. Each in its own session, as each worker process is.
    from anonygraph.runs.store import schema, sql

    sessions = [sql.connect(pg_url) for _ in range(4)]
    start = threading.Barrier(len(sessions))
    errors: list[BaseException] = []

    def create(session: sql.Connection) -> None:
        start.wait()
        try:
            schema.create_postgres_schema(session, pg_url)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    schema._SET_UP.discard(pg_url)
    threads = [threading.Thread(target=create, args=[s], daemon=True) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    stuck = [t for t in threads if t.is_alive()]
    if stuck:  # end the blocked sessions so the test database can go
        for session in sessions:
            cast(Any, session).conn.cancel()
    assert not stuck and not errors, errors
    assert schema._postgres_schema_ready(sessions[0])
    for session in sessions:
        session.close()
