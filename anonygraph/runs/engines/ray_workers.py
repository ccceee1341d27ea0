"""A run's Ray workers: the actor that runs records, and the driver's pool of them.

`RecordWorker` is one actor per worker. It opens the run's graph, store
connection and checkpointer on its first call and keeps them, with whatever
models its process loads, for the whole run; it runs many records at once,
each through `records.run_record` (checkpointed steps, journaled calls), and
notes in the store which worker and node ran each (`worker_tables`). An
evaluation's job (``kind: eval``) scores texts instead: it brings its item
type, graph builder, context type and scoring function
(`reporting.evaluation` fills them; Ray sends functions and classes by name).

`WorkerPool` is the driver's side: it creates the actors (named after the
run, so that two drivers never work one run on one cluster), hands records
to free ones, and recovers from a worker's death:

- A call that fails because the actor died (``ActorDiedError``: its process
  or node is gone) hands the record to the next free worker, where it
  continues from its last committed step. Ray restarts the actor (up to
  `RESTARTS` times) wherever resources allow; the pool asks it whether it is
  up again (``ready``) and uses it once it answers. A worker that never
  comes up (its set-up fails on every start) is given up; when none can
  start, the run is refused before any record moved.
- A call that fails because the actor is unreachable
  (``ActorUnavailableError``) may still be running there: the record waits
  with that worker until the pool knows. The same process answering again
  gets the record back (the call joins the running one); a restarted
  process, an actor found dead, or a node Ray declares dead sends it to
  another worker. A record never runs in two places at once.
- Ray does not retry calls (``max_task_retries=0``): a retry stays pinned to
  its actor, so a record whose node died would wait for that node's
  resources instead of moving to a live node.

A record whose worker died ``max_attempts`` times is failed with the cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from anonygraph.graphs import GRAPHS
from anonygraph.runs.engines.ray_connect import (
    RayEngineError,
    RayOptions,
    check_worker_node,
    first_line,
)
from anonygraph.runs.engines.warm_up import warm_up_in_background
from anonygraph.runs.io.output import NoOutput
from anonygraph.runs.options import build_context
from anonygraph.runs.store import RunStore
from anonygraph.runs.tracing import tracing_scope
from anonygraph.state.domain import Record
from anonygraph.state.profile import from_given

Item = Any
"""What a pool hands its workers: a run's `Record`, or an evaluation's `EvalRow`
(each has an ``id`` unique in its job)."""

NAMESPACE = "anonygraph"
"""Ray namespace of the workers' actors (named ``RUN_ID/N``)."""

HANDOVER_SECONDS = 30.0
"""How long a driver waits for the workers of a killed driver of the same run
to go (Ray ends a job's actors within a second of its driver's death)."""

PROBE_SECONDS = 1.0
"""How often the pool asks a worker that failed whether it is up again, and
checks whether Ray declared the node of an unreachable worker dead."""

RESTARTS = 4
"""Times Ray restarts a worker whose process or node died. Finite: a worker
that dies on every start (its node lacks a package, its set-up hook fails)
must end up dead, which is how the pool learns it cannot start (calls to an
actor Ray keeps restarting just wait)."""

SETUP_ATTEMPTS = 3
"""Times a worker's set-up may raise before the pool gives the worker up."""

CLOSE_SECONDS = 10.0
"""How long the pool waits for its workers to close at the end of a run."""

Settle = Callable[[Item, str, str], None]
"""Told each record's end: the record, its error ('' when done), its node."""


class RecordWorker:
    """One Ray worker of a run: its graph, store, checkpointer and models.

    Opened on the first call in the actor's event loop and kept for the run;
    the models its process loads stay loaded (the model layer caches them per
    process).
    """

    def __init__(self, job: dict[str, Any], name: str = "") -> None:
        """Keep the job's description; nothing is opened before the first call."""
        self.job = job
        self.name = name
        self.opened: tuple[Any, Any, RunStore] | None = None
        self.lock = asyncio.Lock()
        self.stack = contextlib.AsyncExitStack()
        self.where: dict[str, Any] = {}
        self.running: dict[str, asyncio.Future[str]] = {}

    async def _open(self) -> tuple[Any, Any, RunStore]:
        async with self.lock:
            if self.opened is None:
                try:
                    self.opened = await self._open_all()
                except BaseException:
                    # Nothing half-open is kept: the next call tries afresh.
                    await self.stack.aclose()
                    raise
            return self.opened

    async def _open_all(self) -> tuple[Any, Any, RunStore]:
        import ray

        # Here, in the worker, as `run_record` below: they import LangGraph,
        # which the driver (it imports this module for the class) never runs.
        from anonygraph.runs.store.checkpointers import open_checkpointer

        job = self.job
        # Before the store opens: a store file must not be created on a node
        # that joined after the driver checked the cluster.
        check_worker_node(
            job,
            str(ray.get_runtime_context().get_node_id()),
            str(cast(Any, ray.util).get_node_ip_address()),
        )
        saver = await self.stack.enter_async_context(open_checkpointer(job["db"]))
        if job.get("kind") == "eval":
            context: Any = from_given(job["context_type"], job["context"])
            app = job["graph"]().compile(checkpointer=saver, name="evaluate")
        else:
            context = build_context(job["method"], job["context"])
            app = GRAPHS[job["method"]]().compile(
                checkpointer=saver, name=job["method"]
            )
        db = RunStore(job["db"])
        self.stack.callback(db.close)
        # The actor owns its process: no tracing from threads that do not
        # inherit the records' context either.
        self.stack.enter_context(tracing_scope(job["trace"], process_wide=True))
        warm_up_in_background()
        return app, context, db

    async def ready(self) -> dict[str, Any]:
        """Open the run's store and graph; say where this worker runs."""
        import ray

        await self._open()
        runtime, util = ray.get_runtime_context(), cast(Any, ray.util)
        self.where = {
            "node": runtime.get_node_id(),
            "address": util.get_node_ip_address(),
            "pid": os.getpid(),
        }
        return self.where

    async def run(self, payload: dict[str, Any], position: int = 0) -> dict[str, Any]:
        """Run (or continue) one record; return its error ('' when done).

        A record already running here (its first call's answer was lost on
        the way to the driver) is joined, not started twice. ``position`` is
        the record's place in the input.
        """
        item = self._item(payload)
        task = self.running.get(item.id)
        if task is None:
            task = asyncio.ensure_future(self._run(item, position))
            self.running[item.id] = task
            task.add_done_callback(lambda _: self.running.pop(item.id, None))
        error = await asyncio.shield(task)
        return {"id": item.id, "error": error, **self.where}

    def _item(self, payload: dict[str, Any]) -> Item:
        if self.job.get("kind") == "eval":
            return self.job["item_type"](**payload)
        return Record(**payload)

    async def close(self) -> None:
        """Stop the records still running, then close the store and checkpointer.

        Closing commits what the checkpointer holds back (a kill would not).
        """
        for task in list(self.running.values()):
            task.cancel()
        await asyncio.gather(*self.running.values(), return_exceptions=True)
        async with self.lock:
            await self.stack.aclose()
            self.opened = None

    async def _run(self, item: Item, position: int) -> str:
        app, context, db = await self._open()
        job = self.job
        with tracing_scope(job["trace"]):
            if job.get("kind") == "eval":
                score = job["score"]
                return str(
                    await score(app, context, item, job["eval_id"], job["run_id"], db)
                )
            from anonygraph.runs.engines.records import run_record

            run_id = job["run_id"]
            place = (run_id, item.id, position, self.name, self.where)
            db.note_worker(*place)
            error = await run_record(app, context, item, run_id, db, NoOutput())
            db.note_worker(*place, ended=True)
            return error


@dataclass
class Worker:
    """The driver's view of one actor."""

    name: str
    handle: Any
    up: bool = False
    broken: str = ""
    """Why the worker can never start (its set-up failed), or ''."""
    probe: Any = None
    """The pending ``ready`` call, while the pool waits for the worker."""
    probe_after: float = 0.0
    failures: int = 0
    """Times in a row its set-up (``ready``) failed."""
    calls: int = 0
    """Calls in flight on it."""
    parked: list[Item] = field(default_factory=list)
    """Records whose call failed while the worker was unreachable."""
    where: dict[str, Any] = field(default_factory=dict)

    @property
    def node(self) -> str:
        """The worker's node: address and the start of its id."""
        return f"{self.where.get('address', '?')} {str(self.where.get('node'))[:8]}"


class WorkerPool:
    """The run's actors: created named after the run, killed when it ends."""

    def __init__(self, ray: Any, engine: RayOptions, job: dict[str, Any]) -> None:
        """Describe the pool; `__enter__` creates the actors.

        ``job`` names the pool (``name``: the run id, or the run's and an
        evaluation's) and says what its workers open (`RecordWorker`).
        """
        self.ray, self.engine, self.job = ray, engine, job
        self.workers: list[Worker] = []
        self.todo: deque[Item] = deque()
        self.positions: dict[str, int] = {}
        """Record id -> its place in the input (stored with where it ran)."""
        self.calls: dict[Any, tuple[Worker, Item, int]] = {}
        """Call -> its worker, record, and the worker's process id when sent."""
        self.attempts: Counter[str] = Counter()
        self.lost: set[tuple[str, int]] = set()
        """Worker processes (node, pid) that died or went out of reach under
        records they ran."""
        self.handed_over = 0
        """Records given to another worker after theirs died."""
        self.nodes_checked = 0.0

    def __enter__(self) -> WorkerPool:
        """Create the actors and wait until one of them is up.

        Raises:
            RayEngineError: when another driver works the run on this cluster,
                or no worker can start (before any record moved).
        """
        ray, job_name = self.ray, self.job["name"]
        _wait_for_names_to_go(ray, job_name)
        actor = ray.remote(RecordWorker)
        try:
            for i in range(self.engine.workers):
                name = f"{job_name}/{i}"
                handle = actor.options(
                    name=name,
                    namespace=NAMESPACE,
                    num_cpus=self.engine.cpus_per_worker,
                    num_gpus=self.engine.gpus_per_worker,
                    max_restarts=RESTARTS,
                    max_task_retries=0,
                ).remote(self.job, name)
                self.workers.append(Worker(name, handle))
            self._wait_for_one()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the workers that are up, then kill every actor.

        The actors would die with the driver anyway; closing first commits
        what their checkpointers hold back.
        """
        closing = [w.handle.close.remote() for w in self.workers if w.up]
        with contextlib.suppress(Exception):
            if closing:
                self.ray.wait(closing, num_returns=len(closing), timeout=CLOSE_SECONDS)
        for worker in self.workers:
            with contextlib.suppress(Exception):
                self.ray.kill(worker.handle, no_restart=True)

    def _wait_for_one(self) -> None:
        # A worker that cannot start (anonygraph missing on its node, the
        # store out of its reach) refuses the run before any record moved.
        told = time.monotonic() + 10
        while not any(w.up for w in self.workers):
            if all(w.broken for w in self.workers):
                raise RayEngineError(
                    f"no Ray worker could start: {self.workers[0].broken}"
                )
            self._wait(1.0)
            if time.monotonic() > told:
                told = float("inf")
                print(  # noqa: T201 - a wait the user should see
                    "anonygraph: waiting for a Ray worker to start (the cluster's "
                    "resources are in use)",
                    file=sys.stderr,
                )

    def up(self) -> int:
        """Count the workers taking records now."""
        return sum(w.up for w in self.workers)

    def work(
        self,
        records: list[Item],
        per_worker: int,
        settle: Settle,
        progress: Callable[[], None],
    ) -> None:
        """Run ``records`` on the workers, ``per_worker`` at once on each.

        Raises:
            RuntimeError: when every worker is broken with records to go.
        """
        self.todo.extend(records)
        for n, record in enumerate(records):
            self.positions.setdefault(record.id, n)
        while self.todo or self.calls or any(w.parked for w in self.workers):
            if all(w.broken for w in self.workers):
                raise RuntimeError(
                    f"no Ray worker is left to run the {len(self.todo)} record(s) "
                    f"to go: {self.workers[0].broken}; run the same command again "
                    "to resume"
                )
            for worker in self.workers:
                while worker.up and self.todo and worker.calls < per_worker:
                    self._submit(worker, self.todo.popleft())
            for ref in self._wait(0.5):
                self._finished(ref, settle)
            self._check_nodes()
            progress()

    def _submit(self, worker: Worker, record: Item) -> None:
        ref = worker.handle.run.remote(_payload(record), self.positions[record.id])
        worker.calls += 1
        self.calls[ref] = (worker, record, int(worker.where.get("pid", 0)))

    def _wait(self, timeout: float) -> list[Any]:
        """Wait up to ``timeout`` for calls; settle probes; return finished calls."""
        now = time.monotonic()
        for worker in self.workers:
            if not (worker.up or worker.broken or worker.probe) and (
                now >= worker.probe_after
            ):
                worker.probe = worker.handle.ready.remote()
        probes = {w.probe: w for w in self.workers if w.probe is not None}
        waiting = [*probes, *self.calls]
        if not waiting:
            time.sleep(timeout)
            return []
        done, rest = self.ray.wait(waiting, num_returns=1, timeout=timeout)
        if done and rest:
            more, _ = self.ray.wait(rest, num_returns=len(rest), timeout=0)
            done += more
        finished = []
        for ref in done:
            if ref in probes:
                self._settle_probe(probes[ref])
            else:
                finished.append(ref)
        return finished

    def _settle_probe(self, worker: Worker) -> None:
        errors = self.ray.exceptions
        ref, worker.probe = worker.probe, None
        worker.probe_after = time.monotonic() + PROBE_SECONDS
        try:
            where = self.ray.get(ref)
        except errors.ActorUnavailableError:
            return  # not known yet: ask again
        except errors.RayError as exc:
            # Its set-up failed: its constructor raised (never retried), or
            # its process died or its ``ready`` raised before it came up (the
            # node lacks a package, the store is out of reach): asked again a
            # few times in a row, in case the cause passes.
            worker.failures += 1
            dead = isinstance(exc, errors.RayActorError)
            if (dead and exc.actor_init_failed) or (worker.failures >= SETUP_ATTEMPTS):
                self._broken(worker, exc)
            self._release(worker, "its worker died")
            return
        same = worker.where and (where["node"], where["pid"]) == (
            worker.where["node"],
            worker.where["pid"],
        )
        if not same:
            self._release(worker, "its worker restarted")
        worker.where, worker.up, worker.failures = where, True, 0
        for record in worker.parked:
            self._submit(worker, record)  # joins the call still running there
        worker.parked = []

    def _broken(self, worker: Worker, exc: Exception) -> None:
        worker.broken = _cause(exc)
        if any(w.up for w in self.workers):  # else the run stops, saying why
            print(  # noqa: T201 - the run goes on with fewer workers
                f"anonygraph: Ray worker {worker.name} could not start: "
                f"{worker.broken}; the run goes on with the others",
                file=sys.stderr,
            )

    def _finished(self, ref: Any, settle: Settle) -> None:
        errors = self.ray.exceptions
        worker, record, pid = self.calls.pop(ref)
        worker.calls -= 1
        try:
            error = str(self.ray.get(ref)["error"])
        except errors.RayActorError as exc:
            current = pid == worker.where.get("pid")
            if current:  # not a late answer from a process replaced since
                self._down(worker)
            if current and isinstance(exc, errors.ActorUnavailableError):
                worker.parked.append(record)  # may still be running there
                return
            if current:  # the process is gone: so are the parked records' runs
                self._release(worker, first_line(exc))
            self._hand_over(record, first_line(exc), settle)
            return
        except errors.RayError as exc:
            error = f"record {record.id!r}: {_cause(exc)}"
        settle(record, error, worker.node)

    def _down(self, worker: Worker) -> None:
        self.lost.add((str(worker.where.get("node")), int(worker.where["pid"])))
        if worker.up:  # the first of its calls to report it
            worker.up = False
            worker.probe_after = time.monotonic() + PROBE_SECONDS

    def _release(self, worker: Worker, cause: str) -> None:
        """Send a worker's parked records elsewhere: their process is gone."""
        for record in worker.parked:
            self._hand_over(record, cause, None)
        worker.parked = []

    def _hand_over(self, record: Item, cause: str, settle: Settle | None) -> None:
        self.attempts[record.id] += 1
        if self.attempts[record.id] < self.engine.max_attempts or settle is None:
            self.handed_over += 1
            self.todo.appendleft(record)  # continues on the next free worker
            return
        settle(
            record,
            f"record {record.id!r}: its Ray worker died {self.attempts[record.id]} "
            f"time(s) while running it (last: {cause}); run the same command "
            "again to retry it",
            "",
        )

    def _check_nodes(self) -> None:
        # An unreachable worker's node that Ray declares dead took the
        # process with it: its records go elsewhere.
        parked = [w for w in self.workers if w.parked]
        if not parked or time.monotonic() < self.nodes_checked + PROBE_SECONDS:
            return
        self.nodes_checked = time.monotonic()
        dead = {n["NodeID"] for n in self.ray.nodes() if not n["Alive"]}
        for worker in parked:
            if worker.where.get("node") in dead:
                self._release(worker, "its node died")


def _payload(item: Item) -> dict[str, Any]:
    if isinstance(item, Record):
        return item.model_dump()
    return dataclasses.asdict(item)


def _cause(exc: Exception) -> str:
    """Say in one line why a worker failed: Ray's exit detail when it has one.

    An error the worker's own code raised comes wrapped in Ray's task error,
    whose first line names only the call: the line is the error's own.
    """
    cause = getattr(exc, "cause", None)
    if isinstance(cause, Exception):
        return first_line(cause)
    text = str(exc)
    marker = "Worker exit detail: "
    if marker in text:
        return text.split(marker, 1)[1].splitlines()[0][:300]
    return first_line(exc)


def _wait_for_names_to_go(ray: Any, run_id: str) -> None:
    """Wait for the workers of an earlier driver of this run (or evaluation) to go.

    Raises:
        RayEngineError: when they are still alive after `HANDOVER_SECONDS`.
    """
    prefix = f"{run_id}/"
    deadline = time.monotonic() + HANDOVER_SECONDS
    while True:
        names = [
            a["name"]
            for a in ray.util.list_named_actors(all_namespaces=True)
            if a["namespace"] == NAMESPACE and a["name"].startswith(prefix)
        ]
        if not names:
            return
        if time.monotonic() > deadline:
            raise RayEngineError(
                f"run {run_id!r} is being worked on this Ray cluster by another "
                f"driver (workers {', '.join(sorted(names))}); wait for it or stop "
                "it, then run the same command again to resume"
            )
        time.sleep(0.2)
