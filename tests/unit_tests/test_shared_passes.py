"""Concurrent callers share one batched pass (`anonygraph.tools.shared_passes`)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from anonygraph.tools.shared_passes import SharedPasses


class Passes:
    """A batch function that records its batches; the first one waits for a gate."""

    def __init__(self, fail_first: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.gate = threading.Event()
        self.fail_first = fail_first

    def __call__(self, items: list[str]) -> list[str]:
        self.batches.append(items)
        if len(self.batches) == 1:
            assert self.gate.wait(10)
            if self.fail_first:
                raise RuntimeError("the model broke")
        return [item.upper() for item in items]


def wait_for_waiting(passes: SharedPasses[str, str], count: int) -> None:
    """Return once ``count`` callers wait behind the running pass."""
    deadline = time.monotonic() + 10
    while len(passes._waiting) < count:
        assert time.monotonic() < deadline, "callers never queued"
        time.sleep(0.001)


def test_when_callers_arrive_during_a_pass_then_the_next_pass_serves_them_all() -> None:
    run = Passes()
    passes = SharedPasses(run, gather_s=0)
    asks = [["a"], ["b", "c"], ["d"], ["c", "e"]]
    with ThreadPoolExecutor(len(asks)) as pool:
        first = pool.submit(passes, asks[0])
        while not run.batches:
            time.sleep(0.001)
        rest = [pool.submit(passes, ask) for ask in asks[1:]]
        wait_for_waiting(passes, len(asks) - 1)
        run.gate.set()
        results = [first.result(10), *(f.result(10) for f in rest)]

    assert results == [["A"], ["B", "C"], ["D"], ["C", "E"]]
    assert run.batches[0] == ["a"]
    assert sorted(run.batches[1]) == ["b", "c", "d", "e"]  # "c" run once
    assert len(run.batches) == 2


def test_when_a_pass_fails_then_each_of_its_callers_gets_the_error() -> None:
    run = Passes(fail_first=True)
    passes = SharedPasses(run, gather_s=0)
    with ThreadPoolExecutor(3) as pool:
        first = pool.submit(passes, ["a"])
        while not run.batches:
            time.sleep(0.001)
        second = pool.submit(passes, ["b"])
        wait_for_waiting(passes, 1)
        run.gate.set()
        with pytest.raises(RuntimeError, match="the model broke"):
            first.result(10)
        assert second.result(10) == ["B"]  # its own pass, after the failed one

    assert passes(["z"]) == ["Z"]  # the next caller runs at once


def test_when_one_caller_asks_alone_then_its_pass_runs_at_once() -> None:
    run = Passes()
    run.gate.set()
    passes = SharedPasses(run)

    assert passes(["x", "y", "x"]) == ["X", "Y", "X"]
    assert passes(["y"]) == ["Y"]
    assert run.batches == [["x", "y"], ["y"]]
