"""The Ray engine on a real cluster: a head and two worker nodes on 127.0.0.1.

One cluster for the module (`ray_cluster`), a real Postgres store per test,
and a fixed-latency OpenAI-compatible endpoint as every role's model
(`fixed_model.CityModel`), which counts the calls it answers per record and
role: a step that ran twice after a failure shows as a count above the calls
the record kept plus those a death cut off.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from city_records import write_records
from fixed_model import CityModel, calls_kept
from ray_cluster import RayCluster, ray_environment
from servers import fail_or_skip, free_port

import anonygraph
from anonygraph import cli
from anonygraph.runs.engines import ray_connect
from anonygraph.runs.engines.ray_connect import private_token
from anonygraph.runs.engines.ray_engine import (
    RayEngineError,
    RayOptions,
    RaySummary,
    run_on_ray,
)
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore

RECORDS = 200


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayCluster]:
    with pytest.MonkeyPatch.context() as patch, ray_environment(patch):
        cluster = RayCluster(workers=2).start()
        try:
            yield cluster
        finally:
            cluster.stop()


@pytest.fixture
def cluster(ray_cluster: RayCluster) -> Iterator[RayCluster]:
    """The module's cluster with two worker nodes (one added back if removed)."""
    while len(ray_cluster.nodes) < 2:
        ray_cluster.add_worker()
    ray_cluster.cluster.wait_for_nodes()
    yield ray_cluster
    ray_cluster.check_loopback()


@pytest.fixture
def model() -> Iterator[CityModel]:
    with CityModel(latency=0.05) as server:
        yield server


def options(tmp_path: Path, db: str, model: CityModel, **extra: Any) -> RunOptions:
    return RunOptions(
        method="rlaa",
        input=str(tmp_path / "in.jsonl"),
        output=str(tmp_path / "out.jsonl"),
        db=db,
        context=model.context(),
        concurrency=6,
        progress=False,
        **extra,
    )


def output_ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def assert_each_finished_once(
    db: RunStore, run_id: str, ids: list[str], out: Path, model: CityModel
) -> None:
    """Every record done once, the output in input order, no step asked twice."""
    assert output_ids(out) == ids
    assert db.record_statuses(run_id) == dict.fromkeys(ids, "done")
    kept, cut_off = calls_kept(db, run_id)
    assert sum(kept.values()) == 4 * len(ids)  # two rounds: 4 calls a record
    assert set(kept) == set(model.calls)
    for key, answered in model.calls.items():
        # Asked again only where a death cut the call off mid-way.
        assert kept[key] <= answered <= kept[key] + cut_off[key], key
    assert db.call_log_totals(run_id)["redone"] == 0


def done_count(db: RunStore, run_id: str) -> int:
    row = db.db.one(
        "select count(*) from records where run_id = ? and status = 'done'", [run_id]
    )
    return int(row[0]) if row else 0


def test_when_a_worker_node_dies_mid_run_then_200_records_finish_once_on_the_other(
    cluster: RayCluster, pg_url: str, model: CityModel, tmp_path: Path
) -> None:
    ids = write_records(tmp_path / "in.jsonl", RECORDS)
    run = options(tmp_path, pg_url, model, run_id="lose-a-node")
    watcher = RunStore(pg_url)
    removed: list[Any] = []

    def remove_when_under_way() -> None:
        # Both workers up, 40 records done, and more calls in flight than one
        # worker holds (6): the node removed is inside a call, which the last
        # assertion needs (under load a worker can sit between calls).
        deadline = time.monotonic() + 120
        while (
            done_count(watcher, "lose-a-node") < 40
            or len(
                {cluster.busy_node("lose-a-node/0"), cluster.busy_node("lose-a-node/1")}
                - {None}
            )
            < 2
            or sum(calls_kept(watcher, "lose-a-node")[1].values()) <= 6
        ):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        removed.append(cluster.busy_node("lose-a-node/"))
        cluster.remove_worker(removed[0])

    remover = threading.Thread(target=remove_when_under_way)
    remover.start()
    summary = run_on_ray(run, RayOptions(address=cluster.address, workers=2))
    remover.join()

    assert (summary.done, summary.failed, summary.skipped) == (RECORDS, 0, 0)
    assert summary.outcomes == {"anonymized": RECORDS}
    assert sum(summary.nodes.values()) == RECORDS
    # The dead node's records in flight went to the live one, which finished
    # them from their last committed step.
    assert summary.worker_losses == 1 and summary.handed_over >= 1
    assert "1 worker(s) lost, " in summary.report()
    assert watcher.get_run("lose-a-node")["status"] == "done"  # type: ignore[index]
    assert removed and removed[0] not in cluster.nodes
    assert_each_finished_once(
        watcher, "lose-a-node", ids, tmp_path / "out.jsonl", model
    )
    assert sum(calls_kept(watcher, "lose-a-node")[1].values()) >= 1  # cut off


DRIVER = """
import asyncio, json, sys
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.engines.ray_connect import RayOptions
run, engine = json.loads(sys.argv[1])
run.update(engine="ray", ray=RayOptions(**engine))
summary = asyncio.run(run_batch(RunOptions(**run)))
print(json.dumps({"done": summary.done, "skipped": summary.skipped,
                  "failed": summary.failed, "nodes": list(summary.nodes)}))
"""


def driver(
    run: RunOptions,
    engine: RayOptions,
    without: tuple[str, ...] = (),
    home: Path | None = None,
) -> subprocess.Popen[str]:
    """`run_batch` with ``engine`` in a process of its own, with this one's
    environment ``without`` some variables (and ``home`` as HOME)."""
    fields = {k: v for k, v in asdict(run).items() if k not in ("engine", "ray")}
    env = {k: v for k, v in os.environ.items() if k not in without}
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, json.dumps([fields, asdict(engine)])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_when_the_driver_is_killed_mid_run_then_the_rerun_loses_and_repeats_nothing(
    cluster: RayCluster, pg_url: str, model: CityModel, tmp_path: Path
) -> None:
    ids = write_records(tmp_path / "in.jsonl", RECORDS)
    run = options(tmp_path, pg_url, model, run_id="kill-the-driver")
    engine = RayOptions(address=cluster.address, workers=2)
    db = RunStore(pg_url)
    first = driver(run, engine)
    deadline = time.monotonic() + 120
    while done_count(db, "kill-the-driver") < 60:
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    first.kill()
    assert first.wait(timeout=30) == -signal.SIGKILL
    assert db.get_run("kill-the-driver")["status"] == "running"  # type: ignore[index]
    stopped_at = done_count(db, "kill-the-driver")

    again = driver(run, engine)
    out, err = again.communicate(timeout=300)

    assert again.returncode == 0, err
    counts = json.loads(out.splitlines()[-1])
    assert counts["skipped"] >= stopped_at
    assert counts["done"] + counts["skipped"] == RECORDS and counts["failed"] == 0
    assert_each_finished_once(db, "kill-the-driver", ids, tmp_path / "out.jsonl", model)
    # The records the kill cut off mid-call continued: their cut-off calls
    # were asked again, every answered one was kept.
    assert sum(calls_kept(db, "kill-the-driver")[1].values()) >= 1
    assert db.get_run("kill-the-driver")["status"] == "done"  # type: ignore[index]


def test_when_an_in_process_model_runs_on_ray_then_each_worker_loads_it_once(
    cluster: RayCluster, pg_url: str, tmp_path: Path
) -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        fail_or_skip("the embedded model needs llama-cpp-python: make install")
    write_records(tmp_path / "in.jsonl", 3)
    loads = tmp_path / "loads.txt"
    hook = {
        "worker_process_setup_hook": "load_counter.count_llama_loads",
        "env_vars": {"ANONYGRAPH_LOADS": str(loads), "ANONYGRAPH_MAX_TOKENS": "40"},
    }
    engine = RayOptions(address=cluster.address, workers=2, runtime_env=hook)

    # Through the Python API's file entry, as a user scripts a Ray run.
    summary = anonygraph.run_file(
        str(tmp_path / "in.jsonl"),
        str(tmp_path / "out.jsonl"),
        "rlaa",
        # One call to the embedded model a record (the attacker's); the
        # rules answer the other roles.
        models={"default": "rules", "attacker": "local"},
        db=pg_url,
        concurrency=1,  # the second worker gets records once it is up
        engine="ray",
        ray=engine,
        attributes=["city_country"],
        max_iterations=1,
    )
    assert isinstance(summary, RaySummary)

    assert (summary.done, summary.failed) == (3, 0), summary.report()
    calls = RunStore(pg_url).db.query(
        "select distinct record_id from model_calls where backend = 'local'"
    )
    assert len(calls) == 3  # every record asked the embedded model
    # One load in each worker that ran records (one worker a node), whatever
    # the number of records it ran: 3 records on at most 2 workers.
    pids = loads.read_text().split()
    assert len(pids) == len(set(pids)) == len(summary.nodes)


def test_when_no_address_is_given_then_a_local_cluster_runs_with_a_private_token(
    model: CityModel, tmp_path: Path, ray_cluster: RayCluster
) -> None:
    ids = write_records(tmp_path / "in.jsonl", 6)
    db = str(tmp_path / "runs.sqlite")
    run = options(tmp_path, db, model, run_id="local-cluster")
    home = tmp_path / "home"
    home.mkdir()

    # No token anywhere: Ray's default turns token mode on and would write
    # ~/.ray/auth_token with the umask's permissions (0644 here).
    previous = os.umask(0o022)
    try:
        started = driver(
            run,
            RayOptions(address=None, workers=2),
            without=("RAY_AUTH_TOKEN", "RAY_AUTH_MODE"),
            home=home,
        )
        out, err = started.communicate(timeout=300)
    finally:
        os.umask(previous)

    assert started.returncode == 0, err
    counts = json.loads(out.splitlines()[-1])
    assert (counts["done"], counts["failed"]) == (6, 0)
    assert {node.split()[0] for node in counts["nodes"]} == {"127.0.0.1"}
    assert_each_finished_once(
        RunStore(db), "local-cluster", ids, tmp_path / "out.jsonl", model
    )
    assert oct(os.stat(db).st_mode & 0o777) == "0o600"
    token = home / ".ray" / "auth_token"
    assert oct(token.stat().st_mode & 0o777) == "0o600" and token.read_text()


def test_when_a_token_file_of_an_earlier_cluster_is_readable_then_it_is_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ray_cluster: RayCluster
) -> None:
    token = tmp_path / ".ray" / "auth_token"
    token.parent.mkdir()
    token.write_text("a" * 32)
    token.chmod(0o644)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("RAY_AUTH_TOKEN")
    monkeypatch.delenv("RAY_AUTH_MODE")

    assert private_token() == token
    assert oct(token.stat().st_mode & 0o777) == "0o600"
    assert token.read_text() == "a" * 32

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    token.chmod(0o644)
    assert private_token() is None  # no token mode: not ours to touch
    assert oct(token.stat().st_mode & 0o777) == "0o644"


Case = Callable[[RayCluster, CityModel], tuple[RayOptions, dict[str, Any]]]


def _no_ray(patch: pytest.MonkeyPatch) -> None:
    patch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError


BAD_INPUTS: dict[str, tuple[Case, str]] = {
    "ray not installed": (
        lambda c, m: (RayOptions(address=c.address), {"patch": _no_ray}),
        "--engine ray needs Ray, which is not installed: pip install 'anonygraph[ray]'",
    ),
    "nobody answers": (
        lambda c, m: (
            RayOptions(address=f"127.0.0.1:{free_port()}", connect_timeout=1),
            {},
        ),  # fmt: skip
        "nobody answers at 127.0.0.1:",
    ),
    "something else answers": (
        lambda c, m: (
            RayOptions(address=f"127.0.0.1:{m.port}", connect_timeout=2),
            {},
        ),  # fmt: skip
        "takes connections but no Ray head node answered there within 2 s",
    ),
    "no node has a GPU": (
        lambda c, m: (RayOptions(address=c.address, gpus_per_worker=1), {}),
        "has no node with 1 CPU(s) and 1 GPU(s) for a worker",
    ),
    "no node has 4 CPUs": (
        lambda c, m: (RayOptions(address=c.address, cpus_per_worker=4), {}),
        "has no node with 4 CPU(s) and 0 GPU(s) for a worker",
    ),
    "a store file on several nodes": (
        lambda c, m: (RayOptions(address=c.address), {}),
        "is a file on this machine, which the 2 other node(s) of the Ray cluster "
        "at 127.0.0.1:",
    ),
}


def _ray_client_threads() -> int:
    """How many of this process's threads are a Ray GCS client's I/O thread."""
    count = 0
    for task in Path("/proc/self/task").iterdir():
        try:  # a thread may end between the listing and the read
            count += (task / "comm").read_text().startswith("gcs_client_io")
        except OSError:
            continue
    return count


def test_when_something_else_answers_then_the_probe_leaves_no_ray_thread_behind(
    model: CityModel,
) -> None:
    # Ray's client, given up on, keeps its I/O thread in the process that
    # made it: the probe runs in a child so a driver process keeps none.
    before = _ray_client_threads()
    answer = ray_connect._ask_control_store(f"127.0.0.1:{model.port}", 6)
    assert answer == "silent"
    assert _ray_client_threads() == before


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_when_a_run_cannot_go_on_ray_then_one_line_says_why_and_nothing_starts(
    case: str,
    cluster: RayCluster,
    model: CityModel,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    make, expected = BAD_INPUTS[case]
    write_records(tmp_path / "in.jsonl", 3)
    db = tmp_path / "runs.sqlite"
    engine, extra = make(cluster, model)
    if "patch" in extra:
        extra["patch"](monkeypatch)
    with pytest.raises(RayEngineError) as refused:
        run_on_ray(options(tmp_path, str(db), model), engine)
    message = str(refused.value)
    assert expected in message and "\n" not in message
    assert not db.exists() and not (tmp_path / "out.jsonl").exists()
    assert model.calls == {}


def test_when_a_worker_starts_on_a_node_the_store_file_is_not_on_then_it_refuses(
    cluster: RayCluster,
    model: CityModel,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_records(tmp_path / "in.jsonl", 3)
    db = tmp_path / "runs.sqlite"

    def one_node_at_start(ray: Any, location: str, where: str) -> str:
        # As when the cluster was the driver's node alone when the run
        # checked it, and the worker nodes joined afterwards.
        return str(ray.get_runtime_context().get_node_id())

    monkeypatch.setattr(ray_connect, "check_store", one_node_at_start)
    with pytest.raises(RayEngineError) as refused:
        run_on_ray(
            options(tmp_path, str(db), model, run_id="late-node"),
            RayOptions(address=cluster.address, workers=2),
        )
    message = str(refused.value)
    start = "no Ray worker could start: Ray worker on node 127.0.0.1 "
    assert message.startswith(start)
    assert f"cannot use the store file {db}: it is on the driver's node" in message
    assert message.endswith("pass --db postgresql://USER@HOST:PORT/DB")
    assert "\n" not in message
    assert RunStore(str(db)).get_run("late-node") is None and model.calls == {}


@pytest.mark.parametrize(
    "without",
    [("RAY_AUTH_TOKEN",), ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN")],
    ids=["token mode without a token", "no token mode"],
)
def test_when_the_driver_lacks_the_cluster_token_then_it_is_refused_in_one_line(
    without: tuple[str, ...],
    cluster: RayCluster,
    pg_url: str,
    model: CityModel,
    tmp_path: Path,
) -> None:
    write_records(tmp_path / "in.jsonl", 3)
    run = options(tmp_path, pg_url, model, run_id="no-token")
    refused = driver(run, RayOptions(address=cluster.address), without)
    _, err = refused.communicate(timeout=120)
    assert refused.returncode == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("anonygraph.runs.engines.ray_connect.RayEngineError: ")
    assert "the cluster asks for its token: set RAY_AUTH_MODE=token and " in last
    assert RunStore(pg_url).get_run("no-token") is None
    assert model.calls == {}


def test_when_no_worker_can_start_then_the_run_is_refused_before_it_starts(
    cluster: RayCluster, pg_url: str, model: CityModel, tmp_path: Path
) -> None:
    write_records(tmp_path / "in.jsonl", 3)
    run = options(tmp_path, pg_url, model, run_id="no-worker")
    # Every worker process of the job fails its set-up.
    broken = {"worker_process_setup_hook": "load_counter.no_such_hook"}
    engine = RayOptions(address=cluster.address, workers=2, runtime_env=broken)
    with pytest.raises(RayEngineError) as refused:
        run_on_ray(run, engine)
    message = str(refused.value)
    assert message.startswith("no Ray worker could start: ") and "\n" not in message
    assert RunStore(pg_url).get_run("no-worker") is None
    assert not (tmp_path / "out.jsonl").read_text() and model.calls == {}


def test_when_run_and_eval_go_on_ray_from_the_cli_then_status_shows_each_worker(
    cluster: RayCluster,
    pg_url: str,
    model: CityModel,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ids = write_records(tmp_path / "in.jsonl", 8)
    out = tmp_path / "out.jsonl"
    ray = ["--engine", "ray", "--ray-address", cluster.address, "--workers", "2"]

    code = cli.main(
        ["run", *ray, "--concurrency", "3", "--db", pg_url, "--run-id", "cli-ray",
         "--model", f"default={model.spec}", "--attributes", "city_country",
         "--max-iterations", "2", "--cache", "off", "--no-progress",
         "--input", str(tmp_path / "in.jsonl"), "--output", str(out)]
    )  # fmt: skip

    err = capsys.readouterr().err
    assert code == 0, err
    assert "ray: 2 worker(s); records per node: " in err
    assert_each_finished_once(RunStore(pg_url), "cli-ray", ids, out, model)

    assert cli.main(["status", "--run", "cli-ray", "--db", pg_url]) == 0
    status = capsys.readouterr().out
    rows = re.findall(
        r"^cli-ray/([01]) +127\.0\.0\.1 [0-9a-f]{8} +(\d+) +0 +0 +0 *$", status, re.M
    )
    assert rows and sum(int(done) for _, done in rows) == 8, status
    assert re.search(r"^total +8 +0 +0 +0 *$", status, re.M), status
    assert "run cli-ray (done): updated " in status
    exported = tmp_path / "exported.jsonl"
    assert cli.main(
        ["export", "--run", "cli-ray", "--db", pg_url, "--output", str(exported)]
    ) == 0  # fmt: skip
    assert output_ids(exported) == ids  # input order, from where each ran

    code = cli.main(
        ["eval", "--run", "cli-ray", *ray, "--db", pg_url, "--model", "rules",
         "--no-judge", "--no-progress"]
    )  # fmt: skip

    err = capsys.readouterr().err
    assert code == 0, err
    scored = RunStore(pg_url).db.one(
        "select count(*) from evaluations where run_id = ? and status = 'done'",
        ["cli-ray"],
    )
    assert scored is not None and scored[0] == 16  # original and final of each
    (line,) = [x for x in err.splitlines() if x.startswith("  ray: texts per node: ")]
    assert set(re.findall(r"on (\S+) [0-9a-f]{8}", line)) == {"127.0.0.1"}
    assert sum(int(n) for n in re.findall(r"(\d+) on ", line)) == 16


def test_when_a_table_runs_on_ray_then_the_table_comes_back_with_bad_rows_named(
    cluster: RayCluster,
    pg_url: str,
    model: CityModel,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import pandas as pd

    source = tmp_path / "in.csv"
    pd.DataFrame(
        {
            "k": ["a", "b", "c"],
            "body": ["record r1 lives in Calgary", "", "record r2 lives in Calgary"],
        }
    ).to_csv(source, index=False)
    out = tmp_path / "out.csv"

    code = cli.main(
        ["run", "--engine", "ray", "--ray-address", cluster.address, "--workers", "2",
         "--db", pg_url, "--model", f"default={model.spec}",
         "--attributes", "city_country", "--max-iterations", "2", "--cache", "off",
         "--no-progress", "--input", str(source), "--output", str(out),
         "--text-column", "body", "--id-column", "k"]
    )  # fmt: skip

    err = capsys.readouterr().err
    assert code == 1, err  # one bad row
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table["k"]) == ["a", "b", "c"]
    assert list(table["outcome"])[1] == "bad input"
    done = "record {} lives in a city somewhere"
    assert list(table["anonymized"]) == [done.format("r1"), "", done.format("r2")], err
    assert "bad input row" in err and "output table: 3 rows" in err


def test_when_a_cli_run_names_a_store_file_and_a_cluster_of_nodes_then_it_refuses(
    cluster: RayCluster,
    model: CityModel,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_records(tmp_path / "in.jsonl", 3)
    db = tmp_path / "runs.sqlite"

    code = cli.main(
        ["run", "--engine", "ray", "--ray-address", cluster.address, "--db", str(db),
         "--model", f"default={model.spec}", "--no-progress",
         "--input", str(tmp_path / "in.jsonl"),
         "--output", str(tmp_path / "out.jsonl")]
    )  # fmt: skip

    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith(f"anonygraph run: --db {db} is a file on this machine")
    assert "pass --db postgresql://USER@HOST:PORT/DB" in err
    assert not db.exists() and not (tmp_path / "out.jsonl").exists()
    assert model.calls == {}
