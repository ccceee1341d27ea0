"""A Ray cluster for the tests: a head and worker nodes, real raylets, on 127.0.0.1.

Every node is started by `ray.cluster_utils.Cluster` in this process's name
with ``node_ip_address="127.0.0.1"`` and ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
(without it Ray swaps a loopback address for the machine's own), so no Ray
traffic leaves the loopback; `RayCluster.check_loopback` fails a test that
finds a node, or a listening Ray port, on any other address. Usage stats are
off and no dashboard starts; the nodes and the drivers share one random auth
token (``RAY_AUTH_MODE=token``), as docs/ray.md asks of real clusters. Under
``CI=true`` a cluster that cannot start fails the run, elsewhere its tests skip.

The Ray settings live in environment variables that Ray reads when it is
imported and that its node processes inherit: the module fixture sets them
(`ray_environment`) before anything imports ray.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from servers import fail_or_skip

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
LOOPBACK = "127.0.0.1"

TOKEN = secrets.token_hex(32)
"""The test clusters' auth token: one per process (Ray reads it once)."""

HEALTH_CHECKS = {
    "health_check_period_ms": 500,
    "health_check_timeout_ms": 500,
    "health_check_failure_threshold": 3,
}
"""A node that stops answering is declared dead in about 2 s (Ray's default:
about 15 s), so the tests that remove one wait less; nothing else changes."""


@contextmanager
def ray_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Set the environment every node and driver of a test cluster runs with.

    Yields the cluster's temporary folder (Ray's sockets, logs, address file),
    removed afterwards. ``PYTHONPATH`` names this worktree and tests/, so Ray
    workers import the code under test and the tests' helper modules.
    """
    folder = Path(tempfile.mkdtemp(prefix="ag-ray-"))
    path = os.pathsep.join(
        p for p in (str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")) if p
    )
    values = {
        "RAY_TMPDIR": str(folder),
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": TOKEN,
        "RAY_DEDUP_LOGS": "0",
        "PYTHONPATH": path,
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class RayCluster:
    """A head node without CPUs (it schedules, never works) and worker nodes."""

    def __init__(self, workers: int = 2, cpus_per_node: int = 1) -> None:
        self.workers, self.cpus_per_node = workers, cpus_per_node
        self.cluster: Any = None
        self.nodes: list[Any] = []
        self.start_seconds = self.stop_seconds = 0.0

    @property
    def address(self) -> str:
        return str(self.cluster.address)

    def start(self) -> RayCluster:
        start = time.perf_counter()
        try:
            from ray.cluster_utils import Cluster
        except ImportError:
            fail_or_skip("ray is not installed (pip install -e '.[ray]')")
        try:
            self.cluster = Cluster(
                initialize_head=True,
                head_node_args={
                    "num_cpus": 0,
                    "node_ip_address": LOOPBACK,
                    "include_dashboard": False,
                    "_system_config": HEALTH_CHECKS,
                },
            )
            for _ in range(self.workers):
                self.add_worker()
            self.cluster.wait_for_nodes()
        except Exception as exc:  # noqa: BLE001 - any start failure is reported
            self.stop()
            fail_or_skip(f"the Ray test cluster did not start: {exc}")
        self.start_seconds = time.perf_counter() - start
        self.check_loopback()
        return self

    def add_worker(self) -> Any:
        node = self.cluster.add_node(
            num_cpus=self.cpus_per_node, node_ip_address=LOOPBACK
        )
        self.nodes.append(node)
        return node

    def remove_worker(self, node: Any) -> None:
        """Kill every process of a worker node at once (as if the machine died)."""
        self.cluster.remove_node(node, allow_graceful=False)
        self.nodes.remove(node)

    def busy_node(self, actor_prefix: str) -> Any:
        """The worker node whose actor named ``actor_prefix...`` is alive, or None.

        The last of them when several are: a test removes the node that it
        knows is working.
        """
        table = self.cluster.global_state.actor_table(None, actor_state_name="ALIVE")
        where = {
            a["Address"]["NodeID"] for a in table.values()
            if a["Name"].startswith(actor_prefix)
        }  # fmt: skip
        busy = [n for n in self.nodes if n.node_id in where]
        return busy[-1] if busy else None

    def node_addresses(self) -> list[str]:
        """Every node the cluster's control store knows, dead ones included."""
        table = self.cluster.global_state.node_table()
        return [str(n["NodeManagerAddress"]) for n in table]

    def processes(self) -> list[int]:
        """The process ids of the nodes' services and of the workers they started."""
        roots = {
            info.process.pid
            for node in self.cluster.list_all_nodes()
            for infos in node.all_processes.values()
            for info in infos
        }
        return sorted(descendants(roots))

    def check_loopback(self) -> None:
        """Fail when a node, or a port a cluster process listens on, is not loopback."""
        addresses = self.node_addresses()
        assert addresses and set(addresses) == {LOOPBACK}, addresses
        ports = listening(self.processes())
        assert ports, "no listening Ray port found: the check would see nothing"
        elsewhere = [p for p in ports if p[0] != LOOPBACK]
        assert not elsewhere, f"Ray ports open beyond the loopback: {elsewhere}"

    def stop(self) -> None:
        start = time.perf_counter()
        if self.cluster is not None:
            import ray

            ray.shutdown()
            # Cluster.shutdown leaves its control-store client connected to a
            # head that is gone; its threads would live until the process ends.
            self.cluster.global_state.disconnect()
            self.cluster.shutdown()
            self.cluster = None
        self.stop_seconds = time.perf_counter() - start


def descendants(roots: set[int]) -> set[int]:
    """``roots`` and every process below them (read from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(roots), list(roots)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def listening(pids: list[int]) -> list[tuple[str, int]]:
    """The (address, port) of every TCP socket the processes listen on."""
    inodes: set[str] = set()
    for pid in pids:
        try:
            links = [os.readlink(f) for f in Path(f"/proc/{pid}/fd").iterdir()]
        except OSError:
            continue
        inodes |= {x[8:-1] for x in links if x.startswith("socket:[")}
    found = []
    for table, size in (("tcp", 8), ("tcp6", 32)):
        try:
            lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A" and cols[9] in inodes:  # 0A: LISTEN
                host, port = cols[1].split(":")
                found.append((_address(host, size), int(port, 16)))
    return found


def _address(hex_host: str, size: int) -> str:
    if size == 8:
        return ".".join(str(int(hex_host[i : i + 2], 16)) for i in (6, 4, 2, 0))
    if hex_host == "0" * 32:
        return "::"
    if hex_host == "0000000000000000FFFF0000" + "0100007F":
        return LOOPBACK  # ::ffff:127.0.0.1
    if hex_host == "00000000000000000000000001000000":
        return "::1"
    return hex_host
