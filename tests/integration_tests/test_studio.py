"""`langgraph dev` serves every registered graph offline."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from anonygraph.graphs import EVALUATOR, GRAPHS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(cwd: Path, port: int) -> subprocess.Popen[bytes]:
    """Start `langgraph dev` as docs/studio.md says, from ``cwd``, under umask 077."""
    binary = shutil.which("langgraph") or str(Path(sys.executable).parent / "langgraph")
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    server = subprocess.Popen(
        [binary, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1",
         "--port", str(port), "--config", str(ROOT / "langgraph.json")],
        cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.umask(0o077),
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/ok", timeout=2)
            return server
        except OSError:
            assert server.poll() is None, "langgraph dev exited"
            assert time.monotonic() < deadline, "langgraph dev did not start"
            time.sleep(0.5)


def test_when_studio_runs_a_record_from_another_folder_then_history_is_readable(
    tmp_path: Path,
) -> None:
    import asyncio

    from langgraph_sdk import get_client

    port = free_port()
    server = start_server(tmp_path, port)

    async def run_one() -> tuple[dict[str, object], list[object]]:
        client = get_client(url=f"http://127.0.0.1:{port}")
        thread = await client.threads.create()
        final = await client.runs.wait(
            thread["thread_id"],
            "rlaa",
            input={"text": "I moved to Calgary last year for my nursing job."},
            # The embedded model (Context default), kept short: one round.
            context={
                "attributes": ["city_country"],
                "max_iterations": 1,
                "max_retries": 0,
                "cache_mode": "off",
            },
        )
        history = await client.threads.get_history(thread["thread_id"], limit=50)
        return dict(final), list(history)  # type: ignore[arg-type]

    try:
        final, history = asyncio.run(run_one())
    finally:
        server.terminate()
        server.wait(timeout=30)
    # Finished (a final status) or failed with a model error, but never the
    # BlockingError of a blocking call inside an async node.
    assert "Blocking" not in json.dumps(final), final
    assert final.get("status") not in (None, "running"), final
    assert len(history) >= 4
    steps = {step for state in history for step in state["next"]}  # type: ignore[index]
    assert {"attack", "arbitrate"} <= steps
    files = list((tmp_path / ".langgraph_api").glob("*.pckl"))
    assert files
    for path in files:
        assert path.stat().st_mode & 0o077 == 0, path


def test_when_langgraph_json_is_read_then_it_lists_the_registry() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert sorted(config["graphs"]) == sorted({**GRAPHS, **EVALUATOR})


def test_when_langgraph_dev_starts_then_it_lists_every_graph_as_an_assistant(
    tmp_path: Path,
) -> None:
    binary = shutil.which("langgraph") or str(Path(sys.executable).parent / "langgraph")
    port = free_port()
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
    }
    server = subprocess.Popen(
        [binary, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/ok", timeout=2)
                break
            except OSError:
                assert server.poll() is None, "langgraph dev exited"
                assert time.monotonic() < deadline, "langgraph dev did not start"
                time.sleep(0.5)
        request = urllib.request.Request(
            f"{base}/assistants/search",
            data=b"{}",
            headers={"content-type": "application/json"},
        )
        assistants = json.load(urllib.request.urlopen(request, timeout=10))
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert sorted(a["graph_id"] for a in assistants) == sorted({**GRAPHS, **EVALUATOR})


def test_when_a_studio_run_reviews_then_it_pauses_and_resumes_with_an_answer(
    tmp_path: Path,
) -> None:
    import asyncio

    from langgraph_sdk import get_client

    port = free_port()
    server = start_server(tmp_path, port)
    # FgAA with fixed rounds always reaches its review step, whatever the
    # embedded model infers.
    context = {
        "attributes": ["city_country"],
        "max_iterations": 1,
        "max_retries": 0,
        "cache_mode": "off",
        "stop_when_nothing_inferred": False,
        "review": True,
    }
    text = "I moved to Calgary last year for my nursing job."

    async def pause_then_stop() -> tuple[Any, Any, Any]:
        client = get_client(url=f"http://127.0.0.1:{port}")
        thread = await client.threads.create()
        await client.runs.wait(
            thread["thread_id"], "fgaa", input={"text": text}, context=context
        )
        paused = await client.threads.get_state(thread["thread_id"])
        try:
            await client.runs.wait(
                thread["thread_id"],
                "fgaa",
                command={"resume": {"decisions": [{"type": "maybe"}]}},
                context=context,
            )
            bad = "accepted"
        except Exception as exc:  # noqa: BLE001 - the SDK raises a bare Exception
            bad = str(exc)
        final = await client.runs.wait(
            thread["thread_id"],
            "fgaa",
            command={"resume": {"decisions": [{"type": "reject"}]}},
            context=context,
        )
        return paused, bad, final

    try:
        paused, bad, final = asyncio.run(pause_then_stop())
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert paused["next"] == ["review_policy"], paused
    (request,) = [i["value"] for i in paused["interrupts"]]
    details = request["details"]
    assert details["step"] == "review_policy" and details["text"] == text
    assert request["action_requests"][0]["name"] == "apply_policy"
    # A bad answer is refused with the reason, and the thread stays paused.
    assert "'maybe' found using 'type' does not match" in bad, bad
    assert final["status"] == "stopped_by_reviewer" and final["anonymized"] == text
