"""Server backends: structured-output detection, faults, concurrency, Ollama's shape.

The OpenAI-compatible endpoint here is a local fake (tests/servers.py): it
shows what the real server cannot on demand (429, 5xx, refusals, latency).
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from servers import FakeOpenAI, ThreadingHTTPServer, _Quiet, completion, free_port

from anonygraph import cli, llm
from anonygraph.llm import loading
from anonygraph.llm.endpoints import EndpointPool
from anonygraph.llm.faults import ServerPolicy
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.recorder import StoreRecorder, calls_kept_in
from anonygraph.runs.summary import RunSummary
from anonygraph.state.answers import Rewrite
from anonygraph.state.context import Context


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANONYGRAPH_SERVER_RETRIES", "2")
    monkeypatch.setenv("ANONYGRAPH_SERVER_BACKOFF", "0.01")


async def ask(context: Context) -> tuple[Rewrite, list[dict[str, Any]]]:
    return await llm.ask_structured("anonymizer", "rewrite", Rewrite, context, step="s")


def run(tmp_path: Path, url: str, records: int = 1, concurrency: int = 1) -> RunSummary:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(EXAMPLES.read_text().splitlines(keepends=True)[:records]))
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={"default_model": f"openai:fake@{url}", "max_iterations": 1},
        concurrency=concurrency,
        progress=False,
    )
    return asyncio.run(run_batch(options))


def written(tmp_path: Path) -> list[str]:
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    return [json.loads(line)["id"] for line in lines]


def test_when_the_server_answers_429_then_503_then_the_retry_finishes_the_record(
    tmp_path: Path,
) -> None:
    with FakeOpenAI(statuses=[429, 503]) as fake:
        summary = run(tmp_path, fake.url)
    assert (summary.done, summary.failed) == (1, 0)
    assert len(fake.requests) == 3
    assert written(tmp_path) == ["r01"]


def test_when_the_server_keeps_failing_then_the_record_fails_naming_url_and_status(
    tmp_path: Path,
) -> None:
    with FakeOpenAI(statuses=[503] * 10) as fake:
        summary = run(tmp_path, fake.url)
    assert (summary.done, summary.failed) == (0, 1)
    assert len(fake.requests) == 3  # one try and two retries
    assert (
        f"server {fake.url} failed after 3 attempt(s): HTTP 503" in summary.failures[0]
    )
    assert written(tmp_path) == []
    row = RunStore(tmp_path / "runs.sqlite").records(summary.run_id)[0]
    assert row["status"] == "failed" and "HTTP 503" in row["error"]


def test_when_nothing_listens_then_the_record_fails_with_connection_refused(
    tmp_path: Path,
) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    summary = run(tmp_path, url)
    assert summary.failed == 1
    assert (
        f"server {url} failed after 3 attempt(s): connection failed"
        in (summary.failures[0])
    )
    assert written(tmp_path) == []


def test_when_the_server_is_too_slow_then_the_request_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANONYGRAPH_SERVER_RETRIES", "0")
    monkeypatch.setenv("ANONYGRAPH_REQUEST_TIMEOUT", "0.3")
    with FakeOpenAI(latency=2.0) as fake:
        summary = run(tmp_path, fake.url)
    assert summary.failed == 1 and "request timed out" in summary.failures[0]


def test_when_a_client_error_is_not_about_the_mode_then_it_is_not_retried() -> None:
    policy = ServerPolicy(retries=3, backoff=0.0)
    assert policy.wait(0) == 0.0
    with FakeOpenAI(statuses=[401]) as fake:
        context = Context(default_model=f"openai:fake@{fake.url}")
        with pytest.raises(llm.ModelServerError, match="HTTP 401") as caught:
            asyncio.run(llm.ask_structured("judge", "hi", Rewrite, context, step="s"))
    assert len(fake.requests) == 1
    assert caught.value.url == fake.url and caught.value.status == 401


@pytest.mark.parametrize(
    ("refuse", "mode"),
    [
        ((), "json_schema"),
        (("json_schema",), "json_object"),
        (("json_schema", "json_object"), "tools"),
        (("json_schema", "json_object", "tools"), "text"),
    ],
)
def test_when_the_server_refuses_a_mode_then_the_next_is_used_and_remembered(
    tmp_path: Path, refuse: tuple[str, ...], mode: str
) -> None:
    answer = json.dumps({"changes": "none", "text": "a rewrite"})
    db = str(tmp_path / "runs.sqlite")
    RunStore(db)
    with FakeOpenAI(answer=answer, refuse=refuse) as fake:
        spec = f"openai:fake@{fake.url}"
        context = Context(default_model=spec, cache_mode="off")
        with calls_kept_in(db):
            first, calls = asyncio.run(ask(context))
            again, _ = asyncio.run(ask(context))
    assert first.text == again.text == "a rewrite"
    # Detection costs one refused request per refused mode, once per server.
    assert len(fake.requests) == len(refuse) + 2
    assert [c["ok"] for c in calls] == [False] * len(refuse) + [True]
    assert calls[-1]["mode"] == mode
    assert llm.structured_modes([spec], StoreRecorder(RunStore(db))) == {spec: mode}
    stored = RunStore(db).db.query("select * from server_modes")
    assert [(r["base_url"], r["mode"]) for r in stored] == [(fake.url, mode)]
    if mode == "tools":
        assert fake.requests[-1]["tool_choice"]["function"]["name"] == "Rewrite"
    if mode in ("json_object", "tools", "text"):
        assert '"text"' in fake.requests[-1]["messages"][-1]["content"]  # the schema


def test_when_concurrency_is_4_then_4_requests_are_in_flight_at_once(
    tmp_path: Path,
) -> None:
    with FakeOpenAI(hold_until=4, latency=5.0) as fake:
        summary = run(tmp_path, fake.url, records=8, concurrency=4)
    assert summary.done == 8
    assert fake.max_in_flight == 4


def test_when_a_role_asks_an_openai_server_then_it_sends_its_fields_and_reads_usage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    class Server(_Quiet):
        def do_POST(self) -> None:
            request = json.loads(self.read_body())
            seen.append((self.headers.get("Authorization", ""), request))
            self.reply(200, json.dumps(completion(request, '{"text":"y"}')).encode())

    monkeypatch.setenv("OPENAI_API_KEY", "key-1")
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        context = Context(default_model=f"openai:m1@{url}", cache_mode="off")
        answer, calls = asyncio.run(ask(context))
    finally:
        server.shutdown()
        server.server_close()
    assert answer.text == "y"
    assert (calls[0]["tokens_in"], calls[0]["tokens_out"]) == (10, 2)
    header, request = seen[0]
    assert header == "Bearer key-1"
    assert request["model"] == "m1"
    assert (request["temperature"], request["top_p"]) == (0.5, 0.9)
    # A self-hosted server reads max_tokens, beside the mode's response format.
    assert request["max_tokens"] > 0 and "max_completion_tokens" not in request
    assert request["response_format"]["json_schema"]["schema"] == (
        Rewrite.model_json_schema()
    )


def test_when_a_role_runs_on_ollama_then_it_sends_the_schema_and_its_options(
    tmp_path: Path,
) -> None:
    seen: list[dict[str, Any]] = []

    class Ollama(_Quiet):
        def do_POST(self) -> None:
            seen.append(json.loads(self.read_body()))
            answer = {
                "model": "qwen", "created_at": "2026-01-01T00:00:00Z", "done": True,
                "message": {"role": "assistant", "content": '{"text":"y"}'},
                "done_reason": "stop", "prompt_eval_count": 5, "eval_count": 3,
            }  # fmt: skip
            self.reply(200, json.dumps(answer).encode())

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Ollama)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        context = Context(default_model=f"ollama:qwen@{url}")
        for role in ("anonymizer", "arbitrator"):
            answer, calls = asyncio.run(
                llm.ask_structured(role, "rewrite", Rewrite, context, step="s")
            )
            assert answer.text == "y" and calls[0]["tokens_out"] == 3
    finally:
        server.shutdown()
        server.server_close()
    assert [r["format"] for r in seen] == [Rewrite.model_json_schema()] * 2
    anonymizer, arbitrator = (r["options"] for r in seen)
    assert (anonymizer["temperature"], anonymizer["top_p"]) == (0.5, 0.9)
    assert anonymizer["num_predict"] == 512
    assert arbitrator["temperature"] == 0.0 and arbitrator["num_predict"] == 1024
    assert all(r["model"] == "qwen" for r in seen)


def test_when_server_retries_are_given_as_flags_then_the_policy_uses_them(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(EXAMPLES.read_text().splitlines(keepends=True)[0])
    with FakeOpenAI(statuses=[503] * 10) as fake:
        code = cli.main(
            ["run", "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
             "--db", str(tmp_path / "runs.sqlite"), "--max-iterations", "1",
             "--model", f"default=openai:fake@{fake.url}", "--no-progress",
             "--server-retries", "1", "--server-backoff", "0"]
        )  # fmt: skip
    assert code == 1
    assert len(fake.requests) == 2  # the flag's one retry, not the env's two
    db = RunStore(tmp_path / "runs.sqlite")
    (row,) = db.records(db.runs()[0]["id"])
    assert "failed after 2 attempt(s): HTTP 503" in row["error"]


def test_when_no_flag_is_given_then_the_env_variables_are_the_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANONYGRAPH_REQUEST_TIMEOUT", "12.5")
    monkeypatch.setenv("ANONYGRAPH_ENDPOINT_LIMIT", "2")
    settings = llm.settings_for(Context(), "judge")
    assert settings.policy == ServerPolicy(retries=2, backoff=0.01, timeout=12.5)
    assert settings.endpoint_limit == 2
    flagged = llm.settings_for(Context(server_retries=0, request_timeout=3), "j")
    assert (flagged.policy.retries, flagged.policy.timeout) == (0, 3.0)


def test_when_a_pool_runs_with_an_endpoint_limit_then_each_server_gets_that_many(
    tmp_path: Path,
) -> None:
    answer = json.dumps({"changes": "none", "text": "y"})
    with FakeOpenAI(answer=answer) as one, FakeOpenAI(answer=answer) as two:
        spec = f"openai:fake@{one.url},{two.url}"
        context = Context(default_model=spec, endpoint_limit=1)
        asyncio.run(ask(context))
        pool = loading.load_chat_model(spec, "anonymizer")
    assert isinstance(pool, EndpointPool) and pool.limit == 1
