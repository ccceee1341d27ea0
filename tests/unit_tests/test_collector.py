"""The cycle collector while a command starts: rare passes, then Python's own."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import gc
    from anonygraph.runs import collector

    default = gc.get_threshold()
    collector.started()  # without starting: changes nothing
    untouched = gc.get_threshold() == default and gc.get_freeze_count() == 0
    collector.starting()
    rare = gc.get_threshold() == collector.START_THRESHOLDS
    loaded = [[i] for i in range(1000)]  # what a start keeps
    collector.started()
    collector.started()  # a second text: nothing more happens
    frozen = gc.get_freeze_count() >= 1000
    print(untouched, rare, frozen, gc.get_threshold() == default,
          collector.is_starting())
    """
)


def test_when_a_start_ends_then_its_objects_freeze_and_thresholds_return() -> None:
    # Its own process: freezing would keep this one's objects from the collector.
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "True", "False"]
