"""Joining a Ray cluster for a run, and the checks made before any record moves.

A run refuses, with one line that says what to do, when Ray is not
installed, the address does not answer within ``connect_timeout``, the
driver lacks the cluster's token, no node has the resources a worker asks
for, or a store file would have to be reached from several nodes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.runs.engines import ray_private
from anonygraph.runs.engines.hosts import is_loopback
from anonygraph.runs.store import sql

LOOPBACK = "127.0.0.1"


class RayEngineError(ValueError):
    """A run the Ray engine refuses before any record is touched; one line."""


@dataclass
class RayOptions:
    """Where and how wide a run goes on Ray (the CLI's ``--engine ray`` flags).

    A field with a ``flag`` in its metadata is a flag of ``run`` and ``eval``
    (`anonygraph.cli.flags.add_engine`), its ``description`` the flag's help.
    """

    address: str | None = field(
        default=None,
        metadata={
            "flag": "--ray-address",
            "description": "the Ray cluster: a head node's HOST:PORT, 'auto' (the "
            "one RAY_ADDRESS names or `ray start` started here), or none for a "
            "cluster of this machine started for the run, on 127.0.0.1",
        },
    )
    """``None``: a local cluster started for the run, on 127.0.0.1; ``auto``:
    the cluster ``RAY_ADDRESS`` names or the one ``ray start`` started on this
    machine; else a head node's ``HOST:PORT``."""
    workers: int = field(
        default=1,
        metadata={
            "flag": "--workers",
            "description": "Ray workers (actors), each running --concurrency "
            "records and holding its own in-process models",
        },
    )
    """Actors working the run's records, ``RunOptions.concurrency`` each."""
    cpus_per_worker: float = field(
        default=1.0,
        metadata={"flag": "--cpus-per-worker", "description": "CPUs a worker takes"},
    )
    gpus_per_worker: float = field(
        default=0.0,
        metadata={
            "flag": "--gpus-per-worker",
            "description": "GPUs a worker takes (for in-process models: hf, "
            "llamacpp, local)",
        },
    )
    connect_timeout: float = 30.0
    """Seconds to wait for the cluster's address to answer."""
    max_attempts: int = 3
    """Worker deaths one record may see before it is failed."""
    runtime_env: dict[str, Any] | None = None
    """Ray's runtime environment for the workers (``env_vars`` such as an API
    key the nodes lack, ``py_modules``, ``worker_process_setup_hook``, ...);
    set when this run connects (a driver already connected keeps its own)."""


def check_engine_options(engine: RayOptions) -> None:
    """Refuse worker counts and sizes Ray cannot take.

    Raises:
        RayEngineError: naming the option.
    """
    if engine.workers < 1:
        raise RayEngineError(f"--workers {engine.workers}: give 1 or more")
    for name in ("cpus_per_worker", "gpus_per_worker"):
        if getattr(engine, name) < 0:
            flag = "--" + name.replace("_", "-")
            raise RayEngineError(f"{flag} {getattr(engine, name)}: give 0 or more")
    if engine.max_attempts < 1:
        raise RayEngineError(f"max_attempts {engine.max_attempts}: give 1 or more")
    if engine.address is not None and "://" in engine.address:
        raise RayEngineError(_bad_address(engine.address))


def _bad_address(given: str) -> str:
    return (
        f"--ray-address {given}: give a head node's HOST:PORT, 'auto' or none "
        "(Ray Client addresses, ray://, are not supported: run the command on a "
        "node of the cluster)"
    )


def import_ray(address: str | None) -> Any:
    """Import Ray with the settings a run needs, or refuse in one line.

    Usage stats stay off (the tool sends nothing out). A cluster on this
    machine's loopback (a run's own local cluster, a ``127.0.0.1`` address)
    needs ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` set before Ray is imported:
    without it Ray replaces a loopback address by the machine's own.

    Raises:
        RayEngineError: when Ray is not installed.
    """
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    if address is None or is_loopback(_host_port(address)[0]):
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
    except ImportError as exc:
        raise RayEngineError(
            "--engine ray needs Ray, which is not installed: "
            "pip install 'anonygraph[ray]' (on the driver and on every node)"
        ) from exc
    return ray


def _host_port(address: str) -> tuple[str, int]:
    rest = address.split("://", 1)[-1].rsplit("/", 1)[0]
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        return rest, 0
    return host.strip("[]"), int(port)


@contextlib.contextmanager
def connect(ray: Any, engine: RayOptions) -> Iterator[str]:
    """Join (or start) the cluster a run asks for; yield how to name it.

    A driver already connected (``ray.init`` called by the caller) is used as
    it is and left connected; otherwise this process disconnects at the end,
    which stops a local cluster started here.

    Raises:
        RayEngineError: when the address does not answer or refuses the driver.
    """
    if ray.is_initialized():
        yield "the connected Ray cluster"
        return
    quiet = {"logging_level": logging.WARNING, "runtime_env": engine.runtime_env}
    if engine.address is None:
        where = "the local Ray cluster"
        private_token()
        ray.init(
            address="local",
            include_dashboard=False,
            _node_ip_address=LOOPBACK,
            **quiet,
        )
        if {n["NodeManagerAddress"] for n in ray.nodes()} != {LOOPBACK}:
            ray.shutdown()
            raise RayEngineError(
                "the local Ray cluster did not start on 127.0.0.1 (Ray was imported "
                "before anonygraph): set RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 "
                "before importing ray"
            )
    else:
        address = _resolve(ray, engine.address)
        where = f"the Ray cluster at {address}"
        _wait_for_answer(engine.address, address, engine.connect_timeout)
        try:
            ray.init(address=engine.address, **quiet)
        except Exception as exc:  # noqa: BLE001 - Ray's errors have no common base
            raise RayEngineError(_refusal(engine.address, exc)) from exc
    try:
        yield where
    finally:
        ray.shutdown()


def private_token() -> Path | None:
    """Give a local cluster's token file 0600; return the file we checked, or None.

    A cluster started by ``ray.init`` turns token authentication on (unless
    ``RAY_AUTH_MODE`` says otherwise) and, without a token, writes one to
    ``~/.ray/auth_token`` with the umask's permissions: readable by every
    user of the machine, who could then run code on the cluster. We write
    that file first, 0600 (Ray then reads it), or tighten one left by an
    earlier run. A token in ``RAY_AUTH_TOKEN`` or a file the user named
    (``RAY_AUTH_TOKEN_PATH``) is left as it is.
    """
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None and mode.lower() != "token":
        return None
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH"):
        return None
    path = ray_private.default_token_path()
    if path.exists():
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return path
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "w") as token:
        token.write(ray_private.new_token())
    # Ray's loader may have looked for a token already (and found none).
    ray_private.forget_token_lookup()
    return path


def _resolve(ray: Any, address: str) -> str:
    if address != "auto":
        return address
    try:
        found = ray_private.find_local_cluster()
    except ConnectionError as exc:
        raise RayEngineError(f"--ray-address auto: {first_line(exc)}") from exc
    if found is None:
        raise RayEngineError(
            "--ray-address auto: no Ray cluster found (RAY_ADDRESS is unset and "
            "`ray start` started none on this machine); start one or name its "
            "head node's HOST:PORT"
        )
    return found


def _wait_for_answer(given: str, address: str, timeout: float) -> None:
    """Wait until a Ray head answers at ``address``, for ``timeout`` seconds.

    Ray's own connect keeps retrying for many minutes on an address where
    nothing, or something else than Ray, answers: first the port must take a
    connection, then Ray's control store there must answer.

    Raises:
        RayEngineError: when neither did in time, or the cluster refused.
    """
    host, port = _host_port(address)
    if "://" in address or not port:
        raise RayEngineError(_bad_address(given))
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            socket.create_connection((host, port), timeout=max(0.1, min(left, 2)))
            break
        except OSError as exc:
            if left <= 0:
                raise RayEngineError(
                    f"--ray-address {given}: nobody answers at {host}:{port} "
                    f"(waited {timeout:g} s: {exc.strerror or exc}); start the "
                    "cluster's head node (`ray start --head`) or pass the address "
                    "it printed"
                ) from exc
        time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
    _check_token(given)
    answer = _ask_control_store(f"{host}:{port}", deadline - time.monotonic())
    if answer == "silent":
        raise RayEngineError(
            f"--ray-address {given}: {host}:{port} takes connections but no Ray "
            f"head node answered there within {timeout:g} s; pass the address "
            "`ray start --head` printed"
        )
    if isinstance(answer, BaseException):
        raise RayEngineError(_refusal(given, answer)) from answer


def _check_token(given: str) -> None:
    """Refuse a driver in token mode without a token (Ray's client aborts on it).

    The same checks ``ray.init`` makes before it joins a cluster.
    """
    try:
        ray_private.check_driver_token(from_this_machine=given == "auto")
    except Exception as exc:  # noqa: BLE001 - reported as a refusal
        raise RayEngineError(_refusal(given, exc)) from exc


class _ProbeError(Exception):
    """What Ray's client raised in the probe process (its name and message)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def _ask_control_store(address: str, seconds: float) -> BaseException | str | None:
    """Ask the GCS at ``address`` for its cluster id: None, its error, or "silent".

    In a child process: Ray's client blocks for about 40 s on a port where
    something else answers and cannot be cut short, and when it gives up it
    leaves its I/O thread running in the process that asked, for good. A
    child is killed at the deadline and takes that thread with it.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-c", ray_private.PROBE, address],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=max(0.1, seconds),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "silent"
    if done.returncode == 0:
        return None
    try:
        name, message = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        tail = done.stderr.strip().splitlines()
        return _ProbeError(
            "ProbeFailed",
            f"the probe of {address} ended with exit code {done.returncode}"
            + (f": {tail[-1]}" if tail else ""),
        )
    return _ProbeError(str(name), str(message))


def _refusal(given: str, exc: BaseException) -> str:
    name = exc.name if isinstance(exc, _ProbeError) else type(exc).__name__
    if name == "AuthenticationError":
        return (
            f"--ray-address {given}: the cluster asks for its token: set "
            "RAY_AUTH_MODE=token and RAY_AUTH_TOKEN (or RAY_AUTH_TOKEN_PATH) to "
            "the token its nodes were started with"
        )
    return f"--ray-address {given}: Ray could not join the cluster: {first_line(exc)}"


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (Ray's run over many)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _demand(engine: RayOptions) -> dict[str, float]:
    wants = {"CPU": engine.cpus_per_worker, "GPU": engine.gpus_per_worker}
    return {name: amount for name, amount in wants.items() if amount}


def check_resources(ray: Any, engine: RayOptions, where: str) -> int:
    """Refuse a cluster where no node can hold a worker; return how many fit now.

    Raises:
        RayEngineError: naming what a worker asks for and what the nodes have.
    """
    nodes = [n for n in ray.nodes() if n["Alive"]]
    demand = _demand(engine)
    fits = [
        min(
            (int(n["Resources"].get(k, 0) // v) for k, v in demand.items()),
            default=engine.workers,
        )
        for n in nodes
    ]
    if not any(fits):
        have = "; ".join(
            f"{n['NodeManagerAddress']}: {n['Resources'].get('CPU', 0):g} CPU, "
            f"{n['Resources'].get('GPU', 0):g} GPU"
            for n in nodes
        )
        raise RayEngineError(
            f"{where} has no node with {engine.cpus_per_worker:g} CPU(s) and "
            f"{engine.gpus_per_worker:g} GPU(s) for a worker (nodes: {have}); pass "
            "smaller --cpus-per-worker / --gpus-per-worker or add a node that has them"
        )
    room = sum(fits)
    if room < engine.workers:
        print(  # noqa: T201 - the run goes on; the user should know why it is slower
            f"anonygraph: {where} holds {room} of the {engine.workers} workers asked "
            "for at once; the others start when its resources free up",
            file=sys.stderr,
        )
    return room


def check_store(ray: Any, location: str, where: str) -> str | None:
    """Refuse a store file that workers on other nodes would have to reach.

    Returns the driver's node id for a store file (each worker checks it
    runs there too: `check_worker_node`), None for Postgres.

    Raises:
        RayEngineError: naming the store and what to pass instead.
    """
    if sql.is_postgres(location):
        return None
    here = str(ray.get_runtime_context().get_node_id())
    others = [n for n in ray.nodes() if n["Alive"] and n["NodeID"] != here]
    if others:
        raise RayEngineError(
            f"--db {location} is a file on this machine, which the "
            f"{len(others)} other node(s) of {where} cannot reach; a run over "
            "several nodes needs a store all of them reach: pass "
            "--db postgresql://USER@HOST:PORT/DB"
        )
    return here


def check_worker_node(job: dict[str, Any], node: str, address: str) -> None:
    """Refuse, in a worker, a store file when the worker is not on the driver's node.

    The driver checks the nodes once, before its workers start
    (`check_store`); a node that joins later can still get a worker (one Ray
    restarts after its node died, one waiting for resources), which would
    open another file of the same name there, or none.

    Raises:
        RayEngineError: naming the node, the store and what to pass instead.
    """
    driver = job.get("driver_node")
    if driver and node != driver:
        raise RayEngineError(
            f"Ray worker on node {address} ({node[:8]}) cannot use the store "
            f"file {job['db']}: it is on the driver's node ({driver[:8]}) only, "
            "and this node joined the cluster after the run started; a run "
            "over several nodes needs a store all of them reach: pass "
            "--db postgresql://USER@HOST:PORT/DB"
        )


@contextlib.contextmanager
def joined(engine: RayOptions, job: dict[str, Any]) -> Iterator[tuple[Any, str]]:
    """Join the cluster for a run or an evaluation and check it can take it.

    Checks the options, imports Ray, joins (`connect`), refuses a cluster
    without room for a worker (`check_resources`) or out of the store's
    reach (`check_store`). Names ``job["db"]`` so every worker finds it and
    notes the driver's node in ``job["driver_node"]`` for a store file.
    Yields Ray and how to name the cluster.

    Raises:
        RayEngineError: for a run refused before any record was touched.
    """
    check_engine_options(engine)
    ray = import_ray(engine.address)
    job["db"] = store_location(job["db"])
    with connect(ray, engine) as where:
        check_resources(ray, engine, where)
        job["driver_node"] = check_store(ray, job["db"], where)
        yield ray, where


def store_location(location: str) -> str:
    """Name the store so every worker finds it: a Postgres URL or an absolute path.

    Workers start in their own folders, so a relative SQLite path would name
    another file there.
    """
    return location if sql.is_postgres(location) else str(Path(location).resolve())
