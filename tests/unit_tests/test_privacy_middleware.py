"""AnonymizingMiddleware in a real `create_agent`: what the model is handed.

The agent's model is a scripted chat model that records every message it
receives; the tool records the arguments it is called with.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import PIIMiddleware
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from scripted import Script, attack_json, recording, rewrite_json, verdicts_json

from anonygraph.cues import detect_cues
from anonygraph.identifiers import find_identifiers
from anonygraph.integrations.langchain import (
    AnonymizingMiddleware,
    RewriteBlocked,
    identifier_detector,
)

FIRST = (
    "Hi, I'm Anna Schmidt and my e-mail is anna.schmidt@example.org. I'm a "
    "34-year-old nurse in Calgary. Please send a note to my landlord at "
    "bob.jones@example.com saying the heating is broken."
)
SECOND = (
    "Thanks! Tell him my card for the repair deposit is 4111 1111 1111 1111 "
    "and copy anna.schmidt@example.org."
)
ORIGINALS = ("Anna", "Schmidt", "anna.schmidt", "bob.jones", "4111", "Calgary", "nurse")


def placeholder(kind: str, text: str, index: int = 0) -> str:
    return re.findall(rf"\[{kind}_\d+\]", text)[index]


def email_call(prompt: str) -> AIMessage:
    """Write to the second address the user named (the landlord's)."""
    to = placeholder("EMAIL", prompt, 1)
    call = {"name": "send_email", "args": {"to": to, "body": "The heating is broken."},
            "id": "call_1"}  # fmt: skip
    return AIMessage(content="", tool_calls=[call])


def texts(message: BaseMessage) -> list[str]:
    """Every string the model reads in a message: content and tool-call args."""
    out = [
        message.content
        if isinstance(message.content, str)
        else json.dumps(message.content)
    ]
    for call in getattr(message, "tool_calls", []) or []:
        out.append(json.dumps(call["args"]))
    return out


class Mailbox:
    """A `send_email` tool that keeps the arguments of every call."""

    def __init__(self) -> None:
        self.sent: list[dict[str, str]] = []

        @tool
        def send_email(to: str, body: str) -> str:
            """Send an e-mail to an address."""
            self.sent.append({"to": to, "body": body})
            return f"Sent to {to}."

        self.tool = send_email


@pytest.fixture
def mailbox() -> Mailbox:
    return Mailbox()


def conversation(
    middleware: AnonymizingMiddleware, model: Any, mailbox: Mailbox
) -> Any:
    agent = create_agent(
        model=model,
        tools=[mailbox.tool],
        middleware=[middleware],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t1"}}
    agent.invoke({"messages": [{"role": "user", "content": FIRST}]}, config)
    return agent, agent.invoke(
        {"messages": [{"role": "user", "content": SECOND}]}, config
    )


def test_when_an_agent_talks_over_turns_and_a_tool_then_the_model_sees_no_identifier(
    mailbox: Mailbox,
) -> None:
    model = recording(
        email_call,
        lambda p: f"I wrote to {placeholder('EMAIL', p)} for you.",
        lambda p: "Noted, [PERSON_1]; I will pass on [CARD_1].",
    )
    _, state = conversation(AnonymizingMiddleware(), model, mailbox)

    assert len(model.received) == 3
    seen = [t for call in model.received for m in call for t in texts(m)]
    for text in seen:
        assert find_identifiers(text) == [], text
        assert [c.quote for c in detect_cues(text) if c.exact] == [], text
        assert not [o for o in ORIGINALS if o in text], text
    # The tool got the real address; the model only ever saw a placeholder.
    assert mailbox.sent == [
        {"to": "bob.jones@example.com", "body": "The heating is broken."}
    ]
    # One book for the conversation: Anna's address is [EMAIL_1] in both turns.
    first, second = model.received[0][-1].content, model.received[2][-1].content
    assert placeholder("EMAIL", first) == placeholder("EMAIL", second) == "[EMAIL_1]"
    # The answers in the agent's state carry the real values back.
    answers = [m.content for m in state["messages"] if m.type == "ai" and m.content]
    assert answers == [
        "I wrote to bob.jones@example.com for you.",
        "Noted, Anna Schmidt; I will pass on 4111 1111 1111 1111.",
    ]


def test_when_the_agent_ran_then_its_state_holds_kinds_and_counts_but_no_original(
    mailbox: Mailbox,
) -> None:
    model = recording(email_call, "Done.", "Noted.")
    _, state = conversation(AnonymizingMiddleware(), model, mailbox)

    record = json.dumps(state["anonygraph"])
    assert not [o for o in ORIGINALS if o in record]
    human = [c for c in state["anonygraph"]["changes"] if c["role"] == "human"]
    assert [c["identifiers"] for c in human] == [
        {"PERSON": 1, "EMAIL": 2},
        {"CARD": 1, "EMAIL": 1},
    ]
    assert all(c["outcome"] and c["seconds"] >= 0 for c in human)
    assert "book" not in state["anonygraph"]


def test_when_keep_originals_is_asked_then_the_book_is_in_the_state(
    mailbox: Mailbox,
) -> None:
    model = recording(email_call, "Done.", "Noted.")
    _, state = conversation(AnonymizingMiddleware(keep_originals=True), model, mailbox)

    originals = {e["original"] for e in state["anonygraph"]["book"]["entries"]}
    assert {"anna.schmidt@example.org", "bob.jones@example.com"} <= originals


def test_when_restore_is_off_then_the_tool_gets_the_placeholder(
    mailbox: Mailbox,
) -> None:
    model = recording(
        email_call, lambda p: f"Wrote to {placeholder('EMAIL', p)}.", "Ok."
    )
    _, state = conversation(AnonymizingMiddleware(restore=False), model, mailbox)

    assert mailbox.sent[0]["to"] == "[EMAIL_2]"
    assert state["messages"][3].content == "Wrote to [EMAIL_2]."


def test_when_the_process_forgot_the_book_then_the_next_turn_numbers_values_the_same(
    mailbox: Mailbox,
) -> None:
    model = recording(email_call, "Done.", "Noted.")
    middleware = AnonymizingMiddleware()
    agent = create_agent(model=model, tools=[mailbox.tool], middleware=[middleware],
                         checkpointer=InMemorySaver())  # fmt: skip
    config = {"configurable": {"thread_id": "t1"}}
    agent.invoke({"messages": [{"role": "user", "content": FIRST}]}, config)
    middleware._books.clear()  # as after a restart: the book is rebuilt from state
    agent.invoke({"messages": [{"role": "user", "content": SECOND}]}, config)

    assert "[EMAIL_1]" in model.received[2][-1].content
    assert mailbox.sent[0]["to"] == "bob.jones@example.com"


def test_when_the_agent_runs_async_then_the_model_sees_only_rewritten_text(
    mailbox: Mailbox,
) -> None:
    model = recording(email_call, "Done.")
    agent = create_agent(
        model=model, tools=[mailbox.tool], middleware=[AnonymizingMiddleware()]
    )

    asyncio.run(agent.ainvoke({"messages": [{"role": "user", "content": FIRST}]}))

    seen = " ".join(t for call in model.received for m in call for t in texts(m))
    assert not [o for o in ORIGINALS if o in seen]
    assert mailbox.sent[0]["to"] == "bob.jones@example.com"


def leaky_rewrite(script: Script) -> None:
    """An anonymizer writing an address into its rewrite, which RLAA refuses."""
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set(
        "anonymizer", rewrite_json("I live in a city; mail me at z.q@example.net")
    )


def test_when_a_rewrite_fails_its_checks_then_block_sends_nothing(
    script: Script,
) -> None:
    leaky_rewrite(script)
    model = recording("Hello.")
    middleware = AnonymizingMiddleware(models={"default": "local"}, max_iterations=1)
    agent = create_agent(model=model, tools=[], middleware=[middleware])

    with pytest.raises(RewriteBlocked, match="not sent"):
        agent.invoke({"messages": [{"role": "user", "content": "I live in Calgary."}]})
    assert model.received == []


def test_when_a_rewrite_fails_and_identifiers_only_is_chosen_then_identifiers_change(
    script: Script,
) -> None:
    leaky_rewrite(script)
    model = recording("Hello.")
    middleware = AnonymizingMiddleware(
        models={"default": "local"}, max_iterations=1, on_failure="identifiers_only"
    )
    agent = create_agent(model=model, tools=[], middleware=[middleware])

    text = "I'm Anna Schmidt and I live in Calgary."
    state = agent.invoke({"messages": [{"role": "user", "content": text}]})

    assert model.received[0][-1].content == "I'm [PERSON_1] and I live in Calgary."
    change = state["anonygraph"]["changes"][0]
    assert change["outcome"] == "identifiers only"
    assert change["fallback"] == "explicit cues left: city_country"


def test_when_pii_middleware_takes_our_detector_then_names_and_mails_go() -> None:
    model = recording("Hello.")
    redact = PIIMiddleware(
        "identifier", detector=identifier_detector(), strategy="redact"
    )
    agent = create_agent(model=model, tools=[], middleware=[redact])

    agent.invoke({"messages": [{"role": "user", "content": FIRST}]})

    assert model.received[0][-1].content == (
        "Hi, I'm [REDACTED_PERSON] and my e-mail is [REDACTED_EMAIL]. I'm a "
        "34-year-old nurse in Calgary. Please send a note to my landlord at "
        "[REDACTED_EMAIL] saying the heating is broken."
    )
