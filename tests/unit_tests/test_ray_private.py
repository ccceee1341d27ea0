"""Ray's private names the engine uses: all in `ray_private`, all in the installed Ray.

A Ray upgrade that moves one of them fails here, naming it, before a run
meets it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anonygraph.runs.engines import ray_private

PACKAGE = Path(__file__).resolve().parents[2] / "anonygraph"


@pytest.mark.parametrize("name", ray_private.PRIVATE)
def test_when_ray_is_installed_then_each_private_name_the_engine_uses_exists(
    name: str,
) -> None:
    pytest.importorskip("ray")
    assert ray_private.look_up(name) is not None


def test_when_a_private_name_is_gone_then_the_look_up_says_so() -> None:
    pytest.importorskip("ray")
    with pytest.raises(AttributeError):
        ray_private.look_up("ray._private.services.no_such_call")


def test_when_a_module_reaches_into_ray_privately_then_it_is_ray_private() -> None:
    private = re.compile(r"ray\._(private|raylet)\b")
    users = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if private.search(path.read_text(encoding="utf-8"))
    }
    assert users == {"runs/engines/ray_private.py"}
    # Every private name the module uses is one the first test looks up.
    text = (PACKAGE / "runs" / "engines" / "ray_private.py").read_text(encoding="utf-8")
    listed = {name.rpartition(".")[2] for name in ray_private.PRIVATE}
    called = set(re.findall(r"(?:auth|generator|services|raylet)\.(\w+)", text))
    called |= set(re.findall(r"from ray\._raylet import (\w+)", text))
    assert called and called <= listed, called - listed
