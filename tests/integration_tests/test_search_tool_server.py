"""One real tool-call round trip: the web-search adversary against llama_cpp.server.

The server runs the embedded GGUF with the `chatml-function-calling` chat
format, so it answers OpenAI `tools` requests; the agent's first turn forces
the `web_search` tool, which makes the tiny model's answer a tool call.
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


def test_when_a_server_calls_tools_then_the_search_agent_round_trips_a_call(
    llama_tool_server: LlamaServer, tmp_path: Path
) -> None:
    corpus = tmp_path / "pages"
    corpus.mkdir()
    (corpus / "heron.html").write_text(PAGE)
    spec = f"openai:smol@{llama_tool_server.url}"
    context = EvalContext(
        default_model=spec,
        attributes=["occupation"],
        judge=False,
        search_backend="offline",
        search_corpus=str(corpus),
        search_index=str(tmp_path / "index.sqlite"),
        max_search_steps=1,
    )
    # Stop before the closing attack: this test is about the tool loop.
    graph: Any = evaluate.build_graph().compile(
        checkpointer=InMemorySaver(), interrupt_before=["profile_author"]
    )
    config: Any = {"configurable": {"thread_id": "tools"}}
    text = "My glass studio on Vashon Island is busy; lampworking classes sold out."

    asyncio.run(graph.ainvoke({"text": text}, config, context=context))
    state = graph.get_state(config)

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
