"""One real tool-call round trip: the web-search adversary against llama_cpp.server.

The server runs the embedded GGUF with the `chatml-function-calling` chat
format, so it answers OpenAI `tools` requests; the agent's first turn forces
the `web_search` tool, which makes the tiny model's answer a tool call. With
a second search allowed, the agent's next turn sends the tool call and its
result back to the server (the turn llama_cpp.server once refused).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from servers import LlamaServer

from anonygraph.graphs import evaluate
from anonygraph.prompts.common import fence
from anonygraph.state.evaluate import EvalContext

PAGE = """<html><head><title>Blue Heron Glass</title></head><body>
Blue Heron Glass is a glass studio on Vashon Island with lampworking classes.
</body></html>"""


TEXT = "My glass studio on Vashon Island is busy; lampworking classes sold out."


def search_loop(server: LlamaServer, tmp_path: Path, searches: int) -> Any:
    """Run the adversary's tool loop on the server; stop before the closing attack."""
    corpus = tmp_path / "pages"
    corpus.mkdir()
    (corpus / "heron.html").write_text(PAGE)
    context = EvalContext(
        default_model=f"openai:smol@{server.url}",
        attributes=["occupation"],
        judge=False,
        search_backend="offline",
        search_corpus=str(corpus),
        search_index=str(tmp_path / "index.sqlite"),
        max_search_steps=searches,
    )
    graph: Any = evaluate.build_graph().compile(
        checkpointer=InMemorySaver(), interrupt_before=["profile_author"]
    )
    config: Any = {"configurable": {"thread_id": "tools"}}
    asyncio.run(graph.ainvoke({"text": TEXT}, config, context=context))
    return graph.get_state(config)


def test_when_a_server_calls_tools_then_the_search_agent_round_trips_a_call(
    llama_tool_server: LlamaServer, tmp_path: Path
) -> None:
    state = search_loop(llama_tool_server, tmp_path, searches=1)

    assert state.next == ("profile_author",)
    values = state.values
    # One search allowed: no second turn, the loop ends after the result.
    opening, call, result = values["search_messages"]
    assert isinstance(opening, HumanMessage)
    assert isinstance(call, AIMessage) and isinstance(result, ToolMessage)
    (asked,) = call.tool_calls
    assert asked["name"] == "web_search" and isinstance(asked["args"]["query"], str)
    assert result.tool_call_id == asked["id"]
    (entry,) = values["search_log"]
    assert entry["backend"] == "offline"
    # The agent reads the results fenced; the log keeps them as they came.
    assert result.content == fence("search_results", entry["results"])
    turns = [c for c in values["calls"] if c["step"] == "search_agent"]
    (turn,) = turns
    assert turn["backend"] == "openai" and turn["ok"] and turn["mode"] == "tools"
    assert turn["tokens_out"] > 0


def test_when_a_second_search_is_allowed_then_the_server_answers_the_next_turn(
    llama_tool_server: LlamaServer, tmp_path: Path
) -> None:
    state = search_loop(llama_tool_server, tmp_path, searches=2)

    assert state.next == ("profile_author",)
    messages = state.values["search_messages"]
    opening, call, result, turn = messages[:4]
    assert isinstance(opening, HumanMessage)
    assert isinstance(call, AIMessage) and call.tool_calls
    assert isinstance(result, ToolMessage)
    assert result.tool_call_id == call.tool_calls[0]["id"]
    # The second turn went to the server with the first turn's tool call and
    # its result, and was answered: a final answer, or one more search.
    assert isinstance(turn, AIMessage)
    assert turn.tool_calls or str(turn.content).strip()
    if turn.tool_calls:
        assert isinstance(messages[4], ToolMessage) and len(messages) == 5
    else:
        assert len(messages) == 4
    turns = [c for c in state.values["calls"] if c["step"] == "search_agent"]
    assert len(turns) == 2
    assert all(t["ok"] and t["mode"] == "tools" and t["tokens_out"] > 0 for t in turns)
