"""The two examples of docs/privacy-layer.md, run as the page writes them.

The middleware example runs with a recording scripted model and a recording
tool in place of the reader's own; the gateway example starts the page's
``anonygraph serve`` command (the upstream's URL pointed at a scripted
server on the loopback) and runs the page's client code against it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from scripted import recording
from servers import FakeOpenAI
from service import Service

PAGE = Path(__file__).resolve().parents[2] / "docs" / "privacy-layer.md"
ORIGINALS = ("Anna", "Schmidt", "bob.jones", "Calgary", "nurse", "34")


def blocks() -> list[tuple[str, str]]:
    """Return the page's fenced code blocks as (language, code), in order."""
    return re.findall(r"^```(\w+)\n(.*?)^```", PAGE.read_text(), re.S | re.M)


def test_when_the_page_is_read_then_it_holds_the_two_examples() -> None:
    assert [language for language, _ in blocks()] == ["python", "bash", "python"]
    assert all(len(code.splitlines()) <= 12 for _, code in blocks())


def test_when_the_readme_shows_the_examples_then_they_are_the_ones_run_here() -> None:
    readme = (PAGE.parents[1] / "README.md").read_text()
    section = readme.split("## A privacy layer in front of any LLM", 1)[1]
    section = section.split("\n## ", 1)[0]
    shown = re.findall(r"^```(\w+)\n(.*?)^```", section, re.S | re.M)
    assert shown == blocks()


def test_when_the_middleware_example_runs_then_the_model_never_reads_an_original(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def call(prompt: str) -> AIMessage:
        to = re.findall(r"\[EMAIL_\d+\]", prompt)[0]
        args = {"to": to, "body": "The heating is broken."}
        return AIMessage(content="", tool_calls=[{"name": "send_email", "args": args,
                                                   "id": "call_1"}])  # fmt: skip

    model = recording(call, lambda p: "Done: " + re.findall(r"\[EMAIL_\d+\]", p)[0])
    sent: list[dict[str, str]] = []

    @tool
    def send_email(to: str, body: str) -> str:
        """Send an e-mail to an address."""
        sent.append({"to": to, "body": body})
        return f"Sent to {to}."

    exec(blocks()[0][1], {"model": model, "send_email": send_email})

    seen = " ".join(
        str(m.content) + str(getattr(m, "tool_calls", ""))
        for c in model.received
        for m in c
    )
    assert not [o for o in ORIGINALS if o in seen]
    assert sent == [{"to": "bob.jones@example.com", "body": "The heating is broken."}]
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "Done: bob.jones@example.com"
    assert "'identifiers': {'PERSON': 1, 'EMAIL': 1}" in printed[1]


def test_when_the_gateway_example_runs_then_the_upstream_never_reads_an_original(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    key = "sk-docs-test-key-0000"
    shell, client = blocks()[1][1], blocks()[2][1]
    command = next(
        line for line in shell.splitlines() if line.startswith("anonygraph serve")
    )
    monkeypatch.setenv("OPENAI_API_KEY", key)

    def answer(body: dict[str, Any]) -> str:
        found = re.findall(r"\[(?:PERSON|EMAIL)_\d+\]", body["messages"][-1]["content"])
        return "Dear " + ", ".join(found)

    with FakeOpenAI(answer=answer) as upstream:
        flags = [
            re.sub(r"@https://api\.openai\.com/v1$", f"@{upstream.url}", flag)
            for flag in shlex.split(command)[2:]
        ]
        service = Service(tmp_path, *flags)
        service.start(timeout=300)
        try:
            code = client.replace("http://127.0.0.1:8765/v1", f"{service.url}/v1")
            exec(code, {})
        finally:
            service.stop()

    assert capsys.readouterr().out == "Dear Anna Schmidt, bob.jones@example.com\n"
    assert upstream.requests[0]["model"] == "gpt-4o-mini"
    assert not [o for o in ORIGINALS if o in str(upstream.requests)]
    assert upstream.authorizations == [f"Bearer {key}"]
    assert key not in service.log.read_text()
    # Nothing of the text was written to disk: not the store, not the log.
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"Schmidt" not in path.read_bytes(), path
