"""One record's thread: run or resume it, tell whether it finished, store it."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.errors import is_invalid_resume
from langgraph.types import Command

from anonygraph.runs import collector
from anonygraph.runs.io.output import Sink, output_line
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.recorder import record_calls
from anonygraph.runs.store.schema import WAITING
from anonygraph.state.domain import Record


def graph_input(record: Record) -> dict[str, Any]:
    """Turn a record into the graphs' common input."""
    payload: dict[str, Any] = {"text": record.text, "comments": record.comments}
    if record.meta.get("attributes"):
        payload["attributes"] = record.meta["attributes"]
    return payload


async def run_bounded(
    jobs: list[Callable[[], Awaitable[str]]], concurrency: int, bar: Any
) -> list[str]:
    """Run jobs, at most ``concurrency`` at once; return each one's error or ''."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(job: Callable[[], Awaitable[str]]) -> str:
        async with gate:
            error = await job()
        bar.update(1)
        return error

    return list(await asyncio.gather(*(one(job) for job in jobs)))


UNFINISHED = ("", "running")
"""Statuses of a record whose last step has not run (`RecordOutput.status`)."""


class UnfinishedError(RuntimeError):
    """A thread that ended without its last step setting a final status."""


class WaitingReview(UnfinishedError):
    """A thread paused at a review step: it goes on only with an answer."""

    def __init__(self, thread_id: str, requests: list[Any]) -> None:
        """Keep the pending review requests (the interrupt values)."""
        step = requests[0].get("details", {}).get("step", "?")
        super().__init__(
            f"the record waits for a review at {step}; "
            f"answer it with `anonygraph review`, or resume thread {thread_id!r} "
            "with Command(resume=...)"
        )
        self.requests = requests


def is_finished(values: dict[str, Any], status_key: str | None = "status") -> bool:
    """Tell whether a thread's values carry the final status of its last step."""
    if status_key is None:
        return bool(values)
    return str(values.get(status_key, "")) not in UNFINISHED


async def invoke_thread(
    app: Any,
    thread_id: str,
    payload: dict[str, Any],
    context: Any,
    *,
    finished: Callable[[dict[str, Any]], bool] = is_finished,
    resume: Any = None,
) -> tuple[dict[str, Any], Exception | None]:
    """Run one checkpointed thread to its end, resuming it where it stopped.

    A thread with a checkpoint is always continued with ``None`` input, never
    judged by its snapshot: a kill after a step's writes were saved but before
    the next checkpoint leaves a snapshot whose ``next`` is empty although the
    graph has steps left (LangGraph lists only tasks without saved writes).
    Continuing applies the saved writes, runs what is left, and returns the
    output at once when the graph had already ended. Whether the record is
    done is read from the output: ``finished`` (a final status by default).

    A thread paused at a review step is continued only with ``resume`` (the
    reviewer's answer); without one it is left as it is.

    Returns:
        The final state and None, or, when a step raised, the graph ended
        without a final status or paused for a review (`WaitingReview`), the
        state saved so far (with the failed step's call records added) and
        the exception.

    Raises:
        pydantic.ValidationError: when ``resume`` does not fit the review
            step's answer schema; the thread stays paused.
    """
    config = {"configurable": {"thread_id": thread_id}}
    snapshot = await app.aget_state(config)
    started = snapshot.created_at is not None
    if resume is None and snapshot.interrupts:
        requests = [i.value for i in snapshot.interrupts]
        return dict(snapshot.values), WaitingReview(thread_id, requests)
    if resume is not None:
        command: Any = Command(resume=resume)
    else:
        command = None if started else payload
    try:
        result = dict(
            await app.ainvoke(command, config, context=context, durability="sync")
        )
        if result.get("__interrupt__"):
            requests = [i.value for i in result["__interrupt__"]]
            raise WaitingReview(thread_id, requests)
        if not finished(result):
            raise UnfinishedError(
                "the graph ended without a final status (status "
                f"{result.get('status', '')!r}); nothing was written for it: "
                "run the same command again, or purge the run and start afresh"
            )
        return result, None
    except Exception as exc:  # noqa: BLE001 - the caller records it and goes on
        if is_invalid_resume(exc):
            raise
        state = dict((await app.aget_state(config)).values)
        state["calls"] = [*state.get("calls", []), *getattr(exc, "calls", [])]
        return state, exc
    finally:
        collector.started()  # a command's start ends with its first record


async def run_record(
    app: Any,
    context: Any,
    record: Record,
    run_id: str,
    db: RunStore,
    output: Sink,
    resume: Any = None,
) -> str:
    """Run (or resume) one record's thread; return an error message or ''.

    Returns `WAITING` for a record paused at a review step; ``resume`` is the
    reviewer's answer that continues it (`anonygraph.state.review`).
    """
    # A record resumed after a failure adds this session to the time it had.
    start = time.perf_counter() - db.wall_seconds(run_id, record.id)
    # Model calls log their start and end under this record (this task only).
    record_calls(db, run_id, record.id)
    result, error = await invoke_thread(
        app, f"{run_id}:{record.id}", graph_input(record), context, resume=resume
    )
    try:
        return _save_record(run_id, record, db, output, result, error, start)
    except (OSError, ValueError, sqlite3.Error) as exc:
        # One record that cannot be stored must not stop the batch.
        return f"record {record.id!r}: could not be stored: {exc}"


def _save_record(
    run_id: str,
    record: Record,
    db: RunStore,
    output: Sink,
    result: dict[str, Any],
    error: Exception | None,
    start: float,
) -> str:
    # A record resumed after a kill has model time from the killed session
    # too; its wall time is at least that.
    model_seconds = sum(c.get("seconds", 0.0) for c in result.get("calls", []))
    wall = max(time.perf_counter() - start, model_seconds)
    if isinstance(error, WaitingReview):
        # Kept in the store (never the output) with what it did so far.
        db.save_result(
            run_id,
            record.id,
            status=WAITING,
            original=record.text,
            result={
                key: result.get(key, [])
                for key in ("calls", "iterations", "reviews", "errors")
            },
            labels=record.labels,
            wall_seconds=wall,
        )
        return WAITING
    if error is not None:
        db.save_result(
            run_id,
            record.id,
            status="failed",
            original=record.text,
            result={
                "calls": result.get("calls", []),
                "iterations": result.get("iterations", []),
            },
            labels=record.labels,
            wall_seconds=wall,
            error=str(error),
        )
        return f"record {record.id!r}: {error}"
    db.save_result(
        run_id,
        record.id,
        status="done",
        original=record.text,
        result=result,
        labels=record.labels,
        wall_seconds=wall,
    )
    output.append(output_line(record, result, run_id))
    return ""
