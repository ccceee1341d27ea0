"""The OpenAI-compatible gateway: a real uvicorn in front of a scripted upstream.

The app is the official ``openai`` client; the upstream is `FakeOpenAI` on the
loopback, whose request log is what a remote provider would have read.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import uvicorn
from scripted import Script, attack_json, rewrite_json, verdicts_json
from servers import FakeOpenAI, free_port

from anonygraph.cues import detect_cues
from anonygraph.identifiers import IdentifierBook, find_identifiers
from anonygraph.integrations.rewrite import RewriteBlocked, Rewriter
from anonygraph.llm.spec import ModelSpecError
from anonygraph.service import ServiceSettings, create_app
from anonygraph.service.gateway import StreamRestorer, Upstream

FIRST = (
    "Hi, I'm Anna Schmidt (anna.schmidt@example.org). I'm a 34-year-old nurse "
    "in Calgary; please draft a note to my landlord bob.jones@example.com."
)
SECOND = "Thanks. Sign it with my name and put anna.schmidt@example.org in copy."
ORIGINALS = ("Anna", "Schmidt", "anna.schmidt", "bob.jones", "Calgary", "nurse")
ALL_RESTORED = (
    "Dear Anna Schmidt and anna.schmidt@example.org and bob.jones@example.com, noted."
)
KEY = "sk-test-not-a-real-key-4242"


def answer(body: dict[str, Any]) -> str:
    """Answer with the placeholders the last user message holds."""
    last = body["messages"][-1]["content"]
    found = re.findall(r"\[(?:PERSON|EMAIL)_\d+\]", last)
    return "Dear " + " and ".join(found) + ", noted." if found else "Noted."


def user_texts(requests: list[dict[str, Any]]) -> list[str]:
    return [
        m["content"]
        for r in requests
        for m in r["messages"]
        if isinstance(m["content"], str)
    ]


class InProcess:
    """`create_app` under a real uvicorn server, in a thread of the test process.

    In-process so a test's scripted models (the `script` fixture) reach it;
    the docs page test runs the CLI's own `anonygraph serve` process.
    """

    def __init__(self, **settings: Any) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            create_app(ServiceSettings(port=self.port, **settings)),
            host="127.0.0.1", port=self.port, log_level="warning",
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def client(self) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=f"http://127.0.0.1:{self.port}/v1", api_key="unused", max_retries=0
        )

    def __enter__(self) -> InProcess:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(answer=answer) as fake:
        yield fake


@pytest.fixture(scope="module")
def gateway(upstream: FakeOpenAI) -> Iterator[InProcess]:
    """The gateway in front of the upstream, its key in an environment variable."""
    os.environ["GATEWAY_TEST_KEY"] = KEY
    try:
        with InProcess(
            upstream=f"openai:remote-model@{upstream.url}",
            upstream_key_variable="GATEWAY_TEST_KEY",
            context={"max_iterations": 2},
        ) as service:
            yield service
    finally:
        os.environ.pop("GATEWAY_TEST_KEY", None)


def test_when_an_app_talks_through_the_gateway_then_the_upstream_reads_no_identifier(
    gateway: InProcess, upstream: FakeOpenAI
) -> None:
    client = gateway.client
    headers = {"X-Conversation-Id": "chat-1"}
    history: list[dict[str, Any]] = [{"role": "user", "content": FIRST}]
    first = client.chat.completions.with_raw_response.create(
        model="whatever-the-app-names", messages=history, extra_headers=headers
    )
    reply = first.parse().choices[0].message.content
    history += [
        {"role": "assistant", "content": reply},
        {"role": "user", "content": SECOND},
    ]
    second = client.chat.completions.create(
        model="whatever-the-app-names", messages=history, extra_headers=headers
    )

    # The app reads the real values; the upstream never did.
    assert reply == ALL_RESTORED
    assert second.choices[0].message.content == "Dear anna.schmidt@example.org, noted."
    sent = [m for r in upstream.requests[-2:] for m in r["messages"]]
    for message in sent:
        text = message["content"]
        assert find_identifiers(text) == [], text
        assert not [o for o in ORIGINALS if o in text], text
        assert [c.quote for c in detect_cues(text) if c.exact] == [], text
    # One book per conversation: the same address is [EMAIL_1] in both requests.
    assert "[EMAIL_1]" in sent[0]["content"] and "[EMAIL_1]" in sent[-1]["content"]
    assert [r["model"] for r in upstream.requests[-2:]] == ["remote-model"] * 2
    assert upstream.authorizations[-1] == f"Bearer {KEY}"
    assert float(first.headers["X-Anonygraph-Added-Ms"]) > 0
    assert first.headers["X-Anonygraph-Identifiers"] == "EMAIL=2,PERSON=1"


def test_when_the_app_streams_then_the_answer_arrives_restored(
    gateway: InProcess, upstream: FakeOpenAI
) -> None:
    stream = gateway.client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": FIRST}], stream=True
    )
    pieces = [c.choices[0].delta.content or "" for c in stream if c.choices]

    assert "".join(pieces) == ALL_RESTORED
    assert len(pieces) > 5  # it did stream, in the upstream's 4-character chunks
    assert upstream.requests[-1]["stream"] is True
    assert not [o for o in ORIGINALS if o in json.dumps(upstream.requests[-1])]


@pytest.mark.parametrize(
    "body",
    [
        {"model": "m"},
        {"model": "m", "messages": []},
        {"model": "m", "messages": [{"role": "narrator", "content": "hi"}]},
        {"model": "m", "messages": [{"role": "user", "content": 42}]},
        {"model": "m", "messages": "Anna Schmidt"},
    ],
    ids=["no messages", "empty", "unknown role", "content not text", "not a list"],
)
def test_when_the_messages_are_malformed_then_400_and_nothing_is_sent(
    gateway: InProcess, upstream: FakeOpenAI, body: dict[str, Any]
) -> None:
    before = len(upstream.requests)
    response = httpx.post(f"{gateway.url}/v1/chat/completions", json=body, timeout=30)

    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert len(upstream.requests) == before


@pytest.mark.parametrize("status", [400, 401, 429])
def test_when_the_upstream_refuses_then_the_app_gets_its_status(status: int) -> None:
    with (
        FakeOpenAI(statuses=[status]) as fake,
        InProcess(
            upstream=f"openai:m@{fake.url}", context={"default_model": "rules"}
        ) as service,
    ):
        with pytest.raises(openai.APIStatusError) as refused:
            service.client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Hello there."}]
            )

    assert refused.value.status_code == status
    assert f"scripted status {status}" in str(refused.value)


def test_when_the_upstream_is_down_then_502_names_it() -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    with InProcess(upstream=f"openai:m@{dead}") as service:
        with pytest.raises(openai.APIStatusError) as down:
            service.client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Hello there."}]
            )

    assert down.value.status_code == 502
    assert f"upstream openai:m@{dead} cannot be reached" in str(down.value)


def refused_rewrite(script: Script) -> None:
    """RLAA's checks refuse every rewrite: the city stays, the text fails."""
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("I live in a city; ask Maria Lopez."))


def test_when_a_rewrite_fails_its_checks_then_block_sends_nothing(
    script: Script,
) -> None:
    refused_rewrite(script)
    with (
        FakeOpenAI() as fake,
        InProcess(
            upstream=f"openai:m@{fake.url}",
            context={"default_model": "local", "max_iterations": 1},
        ) as service,
    ):
        with pytest.raises(openai.APIStatusError) as blocked:
            service.client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "I'm Anna, in Calgary."}],
            )

        assert blocked.value.status_code == 422
        assert "explicit cues left: city_country" in str(blocked.value)
        assert fake.requests == []


def test_when_on_failure_is_identifiers_only_then_only_identifiers_are_replaced(
    script: Script,
) -> None:
    refused_rewrite(script)
    with (
        FakeOpenAI(answer="Hi.") as fake,
        InProcess(
            upstream=f"openai:m@{fake.url}",
            context={"default_model": "local", "max_iterations": 1},
            on_failure="identifiers_only",
        ) as service,
    ):
        service.client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "I'm Anna Schmidt, in Calgary."}],
        )

    assert user_texts(fake.requests) == ["I'm [PERSON_1], in Calgary."]


def test_when_no_upstream_is_configured_then_the_gateway_says_how_to_start_one() -> (
    None
):
    with InProcess() as service:
        with pytest.raises(openai.NotFoundError, match="--upstream openai:NAME@URL"):
            service.client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Hello."}]
            )


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize("json_string", [False, True])
def test_when_a_placeholder_straddles_stream_chunks_then_it_is_restored(
    size: int, json_string: bool
) -> None:
    book = IdentifierBook()
    book.replacement_for("PERSON", 'Anna "Nan" Schmidt')
    book.replacement_for("EMAIL", "anna@example.org")
    text = "[PERSON_1] wrote [EMAIL_1] and [EMAIL_1]; [PERSON_9] stays ["
    restorer = StreamRestorer(book, json_string=json_string)
    out = "".join(restorer.feed(text[i : i + size]) for i in range(0, len(text), size))
    out += restorer.flush()

    name = 'Anna \\"Nan\\" Schmidt' if json_string else 'Anna "Nan" Schmidt'
    assert (
        out == f"{name} wrote anna@example.org and anna@example.org; [PERSON_9] stays ["
    )


def test_when_the_method_fails_then_the_rewrite_never_sends_the_text_raw(
    tmp_path: Path,
) -> None:
    """A model file that is not there: block, or identifiers only; never raw."""
    missing = f"llamacpp:{tmp_path / 'missing.gguf'}"
    blocking = Rewriter(models={"default": missing})
    with pytest.raises(RewriteBlocked, match="the method rlaa failed"):
        blocking.rewrite("I'm Anna Schmidt from Calgary.", blocking.new_book())
    lenient = Rewriter(models={"default": missing}, on_failure="identifiers_only")
    rewrite = lenient.rewrite("I'm Anna Schmidt from Calgary.", lenient.new_book())
    assert rewrite.text == "I'm [PERSON_1] from Calgary."
    assert rewrite.fallback.startswith("the method rlaa failed")


def test_when_the_upstream_calls_a_tool_then_the_app_gets_real_arguments_and_sends_none(
    gateway: InProcess, upstream: FakeOpenAI
) -> None:
    tools = [{"type": "function", "function": {
        "name": "send_email", "description": "Send an e-mail.",
        "parameters": {"type": "object", "properties": {"to": {"type": "string"}}},
    }}]  # fmt: skip
    history: list[dict[str, Any]] = [{"role": "user", "content": FIRST}]
    headers = {"X-Conversation-Id": "chat-tools"}

    def to_landlord(body: dict[str, Any]) -> str:
        return json.dumps({"to": re.findall(r"\[EMAIL_\d+\]", json.dumps(body))[-1]})

    upstream.answer = to_landlord
    try:
        first = gateway.client.chat.completions.create(
            model="m", messages=history, tools=tools, extra_headers=headers
        )
        call = first.choices[0].message.tool_calls[0]
        history += [
            {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
            {"role": "tool", "tool_call_id": call.id,
             "content": "Sent to bob.jones@example.com."},
        ]  # fmt: skip
        gateway.client.chat.completions.create(
            model="m", messages=history, tools=tools, extra_headers=headers
        )
    finally:
        upstream.answer = answer

    assert json.loads(call.function.arguments) == {"to": "bob.jones@example.com"}
    resent = upstream.requests[-1]["messages"]
    assert json.loads(resent[1]["tool_calls"][0]["function"]["arguments"]) == {
        "to": "[EMAIL_2]"
    }
    assert resent[2]["content"] == "Sent to [EMAIL_2]."
    assert not [o for o in ORIGINALS if o in json.dumps(upstream.requests[-2:])]


@pytest.mark.parametrize(
    "spec",
    ["ollama:llama3.1", "rules", "openai:m@http://a:1/v1,http://b:1/v1", "openai:"],
)
def test_when_the_upstream_is_not_one_openai_server_then_the_spec_is_refused(
    spec: str,
) -> None:
    with pytest.raises(ModelSpecError, match="model spec|openai:NAME@URL"):
        Upstream.parse(spec)


def test_when_the_upstream_names_its_server_then_the_url_is_the_specs() -> None:
    upstream = Upstream.parse("openai:gpt-4o-mini@http://127.0.0.1:9/v1/")
    assert (upstream.spec.name, upstream.url) == (
        "gpt-4o-mini",
        "http://127.0.0.1:9/v1",
    )
    assert str(upstream) == "openai:gpt-4o-mini@http://127.0.0.1:9/v1"
