"""Answer a run's pending reviews in the terminal and resume each record.

`anonygraph review --run RUN` walks the records a ``--review`` batch left
waiting: it shows the diff so far and the proposal, reads one key per review
(approve, edit, reject, skip, quit) and, for an edit, one line of changes, then
resumes the record's thread with ``Command(resume=ANSWER)``, ANSWER being
LangChain's HITL response (`anonygraph.state.review`). Finished records
go to the run's output file as the batch runner writes them (a Postgres
run's file is written from the store when the session ends, `output.export`:
the session may run on another machine than the run did).
Questions and answers are plain lines on stdout and stdin, so a script can
drive it.
"""

from __future__ import annotations

import contextlib
import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from anonygraph.cues.engine import engine_loaded
from anonygraph.graphs import GRAPHS
from anonygraph.inputs import MAX_CHARS
from anonygraph.runs.checkpointers import open_checkpointer
from anonygraph.runs.locks import run_lock
from anonygraph.runs.options import (
    RETIRED_OPTIONS,
    TABLE_PARAM,
    build_context,
    stored_table,
    writes_table,
)
from anonygraph.runs.output import NoOutput, OutputFile, Sink, export
from anonygraph.runs.records import run_record
from anonygraph.runs.schema import WAITING
from anonygraph.runs.store import RunStore
from anonygraph.runs.table_output import TableOutput, sidecar_path, write_run_table
from anonygraph.runs.warm_up import warm_up_in_background
from anonygraph.state.domain import Record
from anonygraph.tools.review_requests import proposal_lines
from anonygraph.tools.text_diff import render_terminal, word_diff

KEYS = "[a]pprove, [e]dit, [r]eject (keep the current text), s[k]ip, [q]uit"
"""The keys a review takes."""

EDIT_HELP: dict[str, str] = {
    "review_policy": "-ATTR drops it, +ATTR[=ACTION] adds it, ATTR=ACTION changes "
    "it (ACTION: generalize, rephrase, address)",
    "review_budgets": "ATTR=LEVEL sets its budget (L0 keeps ... BAN suppresses)",
    "review_selection": "the index of the candidate to use",
}
"""How to write the edit line of each review step."""


class EditLineError(ValueError):
    """An edit line that cannot be read as changes."""


@dataclass
class ReviewSummary:
    """What one `anonygraph review` session did."""

    run_id: str
    answered: int = 0
    done: int = 0
    waiting: int = 0
    failed: list[str] = field(default_factory=list)

    def report(self) -> str:
        """Render the summary for people."""
        line = (
            f"run {self.run_id}: {self.answered} review(s) answered, {self.done} "
            f"record(s) finished, {len(self.failed)} failed, {self.waiting} still "
            "waiting for review"
        )
        return "\n".join([line, *(f"  failed {f}" for f in self.failed)])


def parse_edit(step: str, line: str) -> dict[str, Any]:
    """Turn one edit line into the changes of a review answer.

    Raises:
        EditLineError: naming the piece that cannot be read.
    """
    words = shlex.split(line)
    if not words:
        raise EditLineError("no change given")
    if step == "review_selection":
        if len(words) != 1 or not words[0].isdigit():
            raise EditLineError(f"expected one candidate index, got {line!r}")
        return {"pick": int(words[0])}
    changes: dict[str, Any] = {}
    for word in words:
        name, sep, value = word.lstrip("+-").partition("=")
        if step == "review_budgets":
            if not sep or word[0] in "+-":
                raise EditLineError(f"{word!r}: write ATTR=LEVEL")
            changes.setdefault("levels", {})[name] = value
        elif word.startswith("-") and not sep:
            changes.setdefault("drop", []).append(name)
        elif word.startswith("+"):
            changes.setdefault("add", []).append(name)
            if sep:
                changes.setdefault("actions", {})[name] = value
        elif sep:
            changes.setdefault("actions", {})[name] = value
        else:
            raise EditLineError(f"{word!r}: write -ATTR, +ATTR or ATTR=ACTION")
    return changes


def edited_args(action: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Apply an edit line's changes to the action's arguments (the proposal).

    Raises:
        EditLineError: when the line drops an attribute the proposal lacks.
    """
    args = action["args"]
    if "pick" in changes:
        return {"pick": changes["pick"]}
    if "levels" in changes:
        return {"levels": {**args["levels"], **changes["levels"]}}
    policy = dict(args["policy"])
    for name in changes.get("drop", []):
        if name not in policy:
            raise EditLineError(
                f"-{name}: {name} is not in the policy ({', '.join(policy)})"
            )
        del policy[name]
    for name in changes.get("add", []):
        policy.setdefault(name, "generalize")
    return {"policy": {**policy, **changes.get("actions", {})}}


def render_request(record_id: str, request: dict[str, Any]) -> str:
    """Show one pending review: the diff so far, the inferences and the proposal."""
    details = request["details"]
    lines = [
        f"== record {record_id}: {details['step']} (after {details['round']} "
        "rewrite(s))",
        render_terminal(word_diff(details["original"], details["text"])),
        "-- attacker:",
    ]
    for inference in details["inferences"]:
        guesses = ", ".join(inference.get("guesses", [])) or "(no guess)"
        lines.append(
            f"  {inference['attribute']}: {guesses} "
            f"(certainty {inference.get('certainty', '?')})"
        )
    lines.append("-- proposal:")
    lines += proposal_lines(details["step"], details["proposal"])
    return "\n".join(lines)


async def review_run(
    db_path: str,
    run_id: str,
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
) -> ReviewSummary:
    """Walk the run's records waiting for review; resume each answered one.

    Args:
        db_path: the run store.
        run_id: the run whose reviews to answer.
        ask: shows a prompt and returns the answer line (None at end of input).
        say: shows a line.

    Raises:
        ValueError: when the store has no such run.
    """
    db = RunStore(db_path)
    try:
        return await _review_run(db, run_id, ask, say)
    finally:
        db.close()


async def _review_run(
    db: RunStore,
    run_id: str,
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
) -> ReviewSummary:
    run = _run(db, run_id)
    method = run["method"]
    context = build_context(method, _options(run))
    summary = ReviewSummary(run_id)
    # The rewrite after an answer checks the text with the cue detectors: load
    # them while the reviewer reads the first proposal, not after the answer.
    warm_up_in_background()
    with run_lock(db.location, run_id), _output(db, run) as output:
        async with open_checkpointer(db.location) as saver:
            app = GRAPHS[method]().compile(checkpointer=saver, name=method)
            for row in db.records(run_id, status=WAITING):
                record = await _waiting_record(app, run_id, row)
                go_on = await _review_record(
                    app, context, record, run_id, db, output, ask, say, summary
                )
                if not go_on:
                    break
    _close_session(db, run, summary)
    return summary


async def waiting_requests(db: RunStore, run_id: str) -> list[dict[str, Any]]:
    """Return each waiting record's id and its pending review request (HITL shape).

    Raises:
        ValueError: when the store has no such run.
    """
    run = _run(db, run_id)
    found = []
    async with open_checkpointer(db.location) as saver:
        app = GRAPHS[run["method"]]().compile(checkpointer=saver, name=run["method"])
        for row in db.records(run_id, status=WAITING):
            config = {"configurable": {"thread_id": f"{run_id}:{row['record_id']}"}}
            snapshot = await app.aget_state(config)
            requests = [i.value for i in snapshot.interrupts]
            found.append({"record_id": row["record_id"], "requests": requests})
    return found


async def answer_review(
    db: RunStore, run_id: str, record_id: str, answer: dict[str, Any]
) -> str:
    """Resume one waiting record with ``answer`` (LangChain's HITL response).

    The record goes on as `anonygraph review` resumes it: its result goes to
    the run's output (or output table) when it finishes.

    Returns:
        ``done``, ``failed: WHY`` or `WAITING` (it paused at another review).

    Raises:
        ValueError: for no such run, or a record that does not wait.
        pydantic.ValidationError: when ``answer`` does not fit the request;
            the record still waits.
        RunLockedError: when the run is being worked.
    """
    run = _run(db, run_id)
    waiting = db.records(run_id, status=WAITING)
    rows = [r for r in waiting if r["record_id"] == record_id]
    if not rows:
        raise ValueError(f"record {record_id!r} of run {run_id} waits for no review")
    method = run["method"]
    context = build_context(method, _options(run))
    summary = ReviewSummary(run_id, answered=1)
    with run_lock(db.location, run_id), _output(db, run) as output:
        async with open_checkpointer(db.location) as saver:
            app = GRAPHS[method]().compile(checkpointer=saver, name=method)
            record = await _waiting_record(app, run_id, rows[0])
            outcome = await run_record(
                app, context, record, run_id, db, output, resume=answer
            )
    if outcome != WAITING:
        _count(record, outcome, db, run_id, lambda _: None, summary)
    _close_session(db, run, summary)
    if outcome == WAITING:
        return WAITING
    return f"failed: {outcome}" if outcome else "done"


async def _waiting_record(app: Any, run_id: str, row: dict[str, Any]) -> Record:
    """Rebuild a waiting record as the run read it, comments included.

    The store keeps the original as one text (comments joined); the record's
    thread keeps the input itself, so a record given as comments is written
    back as the same comments, in the same order.
    """
    config = {"configurable": {"thread_id": f"{run_id}:{row['record_id']}"}}
    values = (await app.aget_state(config)).values
    return Record(
        id=row["record_id"],
        text=row["original"],
        comments=list(values.get("comments") or []),
        labels=json.loads(row["labels"] or "{}"),
    )


def _run(db: RunStore, run_id: str) -> dict[str, Any]:
    run = db.get_run(run_id)
    if run is None:
        raise ValueError(f"--run {run_id}: no such run in {db.location}")
    return run


def _close_session(db: RunStore, run: dict[str, Any], summary: ReviewSummary) -> None:
    """Write the output where the store is its source, and the run's new status."""
    run_id = run["id"]
    summary.waiting = len(db.records(run_id, status=WAITING))
    table = stored_table(run)
    if db.postgres:
        export(db, run_id, run["output"])
    elif table is not None and writes_table(run["input"], run["output"]):
        # The table is written whole from the store, the answered rows with it.
        write_run_table(
            db, run_id, run["input"], run["output"], table,
            max_chars=_options(run).get("max_chars", MAX_CHARS),
        )  # fmt: skip
    _update_run(db, run, summary)


def _options(run: dict[str, Any]) -> dict[str, Any]:
    # The context the run was started with; runs stored before the call
    # recorder also kept their store's location there, which is no option now.
    params = json.loads(run["params"] or "{}")
    return {
        k: v for k, v in params.items() if k not in RETIRED_OPTIONS and k != TABLE_PARAM
    }


async def _review_record(
    app: Any,
    context: Any,
    record: Record,
    run_id: str,
    db: RunStore,
    output: Sink,
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
    summary: ReviewSummary,
) -> bool:
    """Answer one record's reviews until it finishes; False: the reviewer quit."""
    config = {"configurable": {"thread_id": f"{run_id}:{record.id}"}}
    while True:
        snapshot = await app.aget_state(config)
        if not snapshot.interrupts:
            # Answered elsewhere (Python, Studio): finish it like the runner.
            return await _finish(app, context, record, run_id, db, output, say, summary)
        request = snapshot.interrupts[0].value
        say(render_request(record.id, request))
        answer = _read_answer(request, ask, say)
        if answer in ("skip", "quit"):
            return answer == "skip"
        if not engine_loaded():
            say("loading the explicit-cue detectors (spaCy's English pipeline, once "
                "per session; a few seconds) ...")  # fmt: skip
        try:
            outcome = await run_record(
                app, context, record, run_id, db, output, resume=answer
            )
        except ValidationError as exc:
            say(f"not applied: {_problems(exc)}; the record still waits")
            continue
        summary.answered += 1
        if outcome != WAITING:
            return _count(record, outcome, db, run_id, say, summary)


async def _finish(
    app: Any,
    context: Any,
    record: Record,
    run_id: str,
    db: RunStore,
    output: Sink,
    say: Callable[[str], None],
    summary: ReviewSummary,
) -> bool:
    outcome = await run_record(app, context, record, run_id, db, output)
    return outcome == WAITING or _count(record, outcome, db, run_id, say, summary)


def _count(
    record: Record,
    outcome: str,
    db: RunStore,
    run_id: str,
    say: Callable[[str], None],
    summary: ReviewSummary,
) -> bool:
    if outcome:
        summary.failed.append(outcome)
        say(f"record {record.id}: failed: {outcome}")
    else:
        summary.done += 1
        (row,) = [r for r in db.records(run_id, "done") if r["record_id"] == record.id]
        status = json.loads(row["result"] or "{}").get("status", "")
        say(f"record {record.id}: finished ({status}), written to the output")
    return True


def _read_answer(
    request: dict[str, Any],
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
) -> dict[str, Any] | str:
    """Read one key (and, to edit, one line); return the answer, skip or quit."""
    while True:
        key = ask(f"{KEYS}? ")
        if key is None:
            return "quit"
        key = key.strip().lower()
        if key in ("a", "approve"):
            return {"decisions": [{"type": "approve"}]}
        if key in ("r", "reject"):
            return {"decisions": [{"type": "reject"}]}
        if key in ("k", "skip"):
            return "skip"
        if key in ("q", "quit"):
            return "quit"
        if key in ("e", "edit"):
            step = request["details"]["step"]
            line = ask(f"edit ({EDIT_HELP[step]})? ")
            if line is None:
                return "quit"
            (action,) = request["action_requests"]
            try:
                args = edited_args(action, parse_edit(step, line))
            except EditLineError as exc:
                say(f"not applied: {exc}")
                continue
            edit = {"name": action["name"], "args": args}
            return {"decisions": [{"type": "edit", "edited_action": edit}]}
        say(f"unknown key {key!r}; keys: {KEYS}")


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}"
        for e in exc.errors()
    )


def _output(db: RunStore, run: dict[str, Any]) -> Any:
    """Open the run's output file as the batch runner does (same owner check).

    A Postgres run's file is written from the store at the end (`export`).
    """
    if db.postgres:
        return contextlib.nullcontext(NoOutput())
    identity = {
        "run_id": run["id"],
        "method": run["method"],
        "input": run["input"],
        "options": {},
    }
    sidecar = sidecar_path(run["output"])
    if sidecar.is_file():
        owner = json.loads(sidecar.read_text())
        if isinstance(owner, dict) and owner.get("run_id") == run["id"]:
            identity = owner
    if stored_table(run) is not None and writes_table(run["input"], run["output"]):
        return TableOutput(run["output"], identity)
    return OutputFile(run["output"], identity)


def _update_run(db: RunStore, run: dict[str, Any], summary: ReviewSummary) -> None:
    """Carry the session's results into the run's status and summary."""
    totals = json.loads(run["summary"] or "{}")
    totals["done"] = totals.get("done", 0) + summary.done
    totals["failures"] = [*totals.get("failures", []), *summary.failed]
    totals["failed"] = len(totals["failures"])
    totals["waiting"] = summary.waiting
    totals["totals"] = db.run_totals(summary.run_id)
    status = "partial" if totals["failed"] else WAITING if summary.waiting else "done"
    db.finish_run(summary.run_id, status, totals)
