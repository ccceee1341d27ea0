"""Search agents with native tool calls: the web-search adversary and AURA's probe."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from scripted import Script, attack_json, tool_call
from servers import FakeOpenAI

from anonygraph import llm
from anonygraph.graphs import aura, evaluate, search_agent
from anonygraph.reporting.evaluation import EvalOptions, evaluate_run
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.recorder import calls_kept_in
from anonygraph.state.aura import AuraContext
from anonygraph.state.evaluate import EvalContext
from anonygraph.tools.search_tool import uses_tools, web_search
from tests.unit_tests.test_aura_graph import (
    ATTRS,
    TEXT,
    attacker,
    probe_json,
    script_studio,
)

PROFILE = """<html><head><title>Marta Okonkwo - glassblower</title></head><body>
Marta Okonkwo runs the Blue Heron glass studio on Vashon Island. She teaches
lampworking classes on weekends.</body></html>"""
OTHER = """<html><head><title>Island ferry schedule</title></head><body>
Ferries leave every hour. Tickets at the dock.</body></html>"""
CLUES = "My glass studio on Vashon Island is busy; lampworking classes sold out."


@pytest.fixture
def search(tmp_path: Path) -> dict[str, Any]:
    corpus = tmp_path / "pages"
    corpus.mkdir()
    (corpus / "marta.html").write_text(PROFILE)
    (corpus / "ferry.html").write_text(OTHER)
    return {
        "search_backend": "offline",
        "search_corpus": str(corpus),
        "search_index": str(tmp_path / "index.sqlite"),
        "search_mode": "tools",
    }


def evaluate_text(text: str, **context: Any) -> dict[str, Any]:
    graph: Any = evaluate.build_graph().compile()
    ctx = EvalContext(judge=False, attributes=["occupation"], **context)
    return dict(asyncio.run(graph.ainvoke({"text": text}, context=ctx)))


def identify(prompt: str) -> str:
    """The closing structured attack: name the page when the results show it."""
    found = "Marta Okonkwo - glassblower" if "Marta Okonkwo" in prompt else ""
    answer = json.loads(attack_json(occupation=("glassblower", 3)))
    return json.dumps({**answer, "identified_profile": found})


def adversary(*turns: AIMessage | str) -> Any:
    """The attacker: agent turns in order, then the structured identification."""
    queue = list(turns)

    def reply(prompt: str) -> AIMessage | str:
        if '"identified_profile"' in prompt:
            return identify(prompt)
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return reply


def test_when_the_agent_calls_the_tool_then_the_result_is_in_state_and_used(
    script: Script, search: dict[str, Any]
) -> None:
    script.set(
        "attacker",
        adversary(tool_call("Vashon Island lampworking"), "The first page is hers."),
    )

    out = evaluate_text(CLUES, **search)

    (entry,) = out["search_log"]
    assert entry["query"] == "Vashon Island lampworking"
    assert entry["backend"] == "offline" and entry["urls"][0] == "marta.html"
    assert out["identified_profile"] == "Marta Okonkwo - glassblower"
    requests = script.models["attacker"].requests
    assert [r["tools"] for r in requests] == [["web_search"], ["web_search"], []]
    # The first turn must search; later turns choose.
    assert [r["tool_choice"] for r in requests[:2]] == ["web_search", None]
    steps = [c["step"] for c in out["calls"]]
    assert steps == ["search_agent", "search_agent", "attack"]


def test_when_the_agent_loop_runs_then_messages_show_every_call_and_result(
    script: Script, search: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    script.set(
        "attacker",
        adversary(tool_call("Vashon Island lampworking"), "The first page is hers."),
    )
    ctx = EvalContext(judge=False, attributes=["occupation"], **search)
    config: Any = {"configurable": {"thread_id": "t1"}}

    async def go() -> Any:
        async with AsyncSqliteSaver.from_conn_string(":memory:") as saver:
            app = evaluate.build_graph().compile(checkpointer=saver)
            await app.ainvoke({"text": CLUES}, config, context=ctx, durability="sync")
            return (await app.aget_state(config)).values

    messages = asyncio.run(go())["search_messages"]

    assert [type(m) for m in messages] == [
        HumanMessage, AIMessage, ToolMessage, AIMessage
    ]  # fmt: skip
    assert "<text>\n" + CLUES + "\n</text>" in messages[0].content
    assert messages[1].tool_calls[0]["args"] == {"query": "Vashon Island lampworking"}
    assert messages[2].tool_call_id == messages[1].tool_calls[0]["id"]
    assert "Marta Okonkwo" in messages[2].content
    assert messages[3].content == "The first page is hers."
    assert "unregistered type" not in caplog.text


def test_when_the_agent_keeps_calling_then_max_searches_bounds_the_loop(
    script: Script, search: dict[str, Any]
) -> None:
    script.set("attacker", adversary(tool_call("ferry"), tool_call("ferry tickets")))

    out = evaluate_text(CLUES, max_search_steps=2, **search)

    assert [e["query"] for e in out["search_log"]] == ["ferry", "ferry tickets"]
    agent_turns = [c for c in out["calls"] if c["step"] == "search_agent"]
    assert len(agent_turns) == 2  # no searches left: no third turn
    assert out["errors"] == []


def test_when_one_turn_asks_more_searches_than_left_then_the_rest_are_refused(
    script: Script, search: dict[str, Any]
) -> None:
    turn = AIMessage(
        content="",
        tool_calls=[
            {"name": "web_search", "args": {"query": q}, "id": f"c{i}"}
            for i, q in enumerate(["Vashon", "ferry", "lampworking"])
        ],
    )
    script.set("attacker", adversary(turn, "never asked"))

    out = evaluate_text(CLUES, max_search_steps=2, **search)

    assert [e["query"] for e in out["search_log"]] == ["Vashon", "ferry"]
    assert "search 3: no searches left; give your answer now" in out["errors"]
    assert [c["step"] for c in out["calls"]] == ["search_agent", "attack"]


def test_when_the_probe_calls_the_tool_then_limits_apply_and_the_page_is_matched(
    script: Script, search: dict[str, Any]
) -> None:
    long = "the Heron glass Vashon lampworking weekends studio books teach"
    copy = "run the Blue Heron glass studio on Vashon Island"
    turns = [tool_call(copy), tool_call(long), AIMessage("found her page")]

    def probe(prompt: str) -> str:
        matched = "Marta Okonkwo - glassblower" if "Marta Okonkwo" in prompt else ""
        return probe_json(
            ("city_country", "personal", "Vashon Island"), matched=matched
        )

    script_studio(script)
    scripted = attacker()

    def reply(prompt: str) -> AIMessage | str:
        if '"matched_page"' in prompt:
            return probe(prompt)
        if "web_search" in prompt or "Not searched" in prompt or "[1]" in prompt:
            return turns.pop(0)
        return scripted(prompt)

    script.set("attacker", reply)
    graph: Any = aura.build_graph().compile()
    ctx = AuraContext(attributes=ATTRS, num_candidates=1, query_max_words=4, **search)

    out = asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx))

    (entry,) = out["search_log"]
    assert entry["query"] == "Heron glass Vashon lampworking"
    assert entry["urls"][0] == "marta.html"
    assert out["probe_match"] == "Marta Okonkwo - glassblower"
    assert any("search 1: query dropped: it repeats" in e for e in out["errors"])
    assert "search 2: query cut to its first 4 keywords" in out["errors"]
    assert turns == []


def test_when_search_mode_is_auto_then_tool_calling_backends_use_tools() -> None:
    assert uses_tools(EvalContext(default_model="openai:gpt-4o-mini"))
    assert uses_tools(EvalContext(models={"attacker": "ollama:qwen2.5"}))
    assert not uses_tools(EvalContext(default_model="local"))
    assert not uses_tools(EvalContext(default_model="hf:some/model"))
    assert not uses_tools(
        EvalContext(default_model="openai:gpt-4o-mini", search_mode="structured")
    )
    assert uses_tools(EvalContext(default_model="local", search_mode="tools"))
    with pytest.raises(ValueError, match="search_mode 'react' is unknown"):
        uses_tools(EvalContext(search_mode="react"))


def test_when_a_backend_has_no_tool_calling_then_the_error_says_what_to_set() -> None:
    with pytest.raises(llm.ModelSpecError, match="search_mode=structured"):
        asyncio.run(
            llm.ask_with_tools(
                "attacker", [HumanMessage("hi")], [], EvalContext(), step="search_agent"
            )
        )


def test_when_structured_mode_is_chosen_then_the_step_loop_runs_instead(
    script: Script, search: dict[str, Any]
) -> None:
    def reply(prompt: str) -> str:
        if '"identified_profile"' in prompt:
            return identify(prompt)
        query = "" if "Query 1" in prompt else "Vashon lampworking"
        action = "search" if query else "answer"
        return json.dumps({"thought": "t", "action": action, "query": query})

    script.set("attacker", reply)

    out = evaluate_text(CLUES, **{**search, "search_mode": "structured"})

    assert out["search_log"][0]["query"] == "Vashon lampworking"
    assert out["identified_profile"] == "Marta Okonkwo - glassblower"
    assert all(r["tools"] == [] for r in script.models["attacker"].requests)


def test_when_a_search_fails_midway_then_resuming_keeps_the_searches_done(
    script: Script, search: dict[str, Any], tmp_path: Path
) -> None:
    # The loop checkpoints inside its parent's thread: a step that fails after
    # one search resumes there, without asking or searching again.
    down = {"now": True}

    def reply(prompt: str) -> str:
        if '"identified_profile"' in prompt:
            return identify(prompt)
        if "Query 1" in prompt and down["now"]:
            raise RuntimeError("server went away")
        query = "" if "Query 2" in prompt else (
            "Blue Heron" if "Query 1" in prompt else "Vashon lampworking"
        )  # fmt: skip
        action = "search" if query else "answer"
        return json.dumps({"thought": "t", "action": action, "query": query})

    script.set("attacker", reply)
    ctx = EvalContext(
        judge=False, attributes=["occupation"], cache_mode="off",
        **{**search, "search_mode": "structured"},
    )  # fmt: skip
    config: Any = {"configurable": {"thread_id": "t"}}

    async def go() -> tuple[str, dict[str, Any]]:
        path = str(tmp_path / "checkpoints.sqlite")
        async with AsyncSqliteSaver.from_conn_string(path) as saver:
            app = evaluate.build_graph().compile(checkpointer=saver)
            failed = ""
            try:
                await app.ainvoke({"text": CLUES}, config, context=ctx)
            except RuntimeError as exc:
                failed = str(exc)
            down["now"] = False
            out = await app.ainvoke(None, config, context=ctx, durability="sync")
            return failed, out

    failed, out = asyncio.run(go())

    assert "server went away" in failed
    assert [e["query"] for e in out["search_log"]] == [
        "Vashon lampworking",
        "Blue Heron",
    ]
    asked = [p for p in script.prompts("attacker") if "identified_profile" not in p]
    assert sum("Query 1" not in p for p in asked) == 1  # the first step, once
    assert out["identified_profile"] == "Marta Okonkwo - glassblower"


def test_when_evaluate_wiring_changes_then_this_snapshot_must_change_too() -> None:
    # The search loop is one node here; its own wiring is the snapshot below.
    mermaid = evaluate.graph.get_graph().draw_mermaid(with_styles=False)
    assert mermaid.split("\n")[1:] == [
        "\t__start__ --> prepare_eval;",
        "\tjudge -.-> recover_facts;",
        "\tjudge -.-> score;",
        "\tprepare_eval -.-> judge;",
        "\tprepare_eval -.-> profile_author;",
        "\tprepare_eval -.-> recover_facts;",
        "\tprepare_eval -.-> score;",
        "\tprepare_eval -.-> search;",
        "\tprofile_author -.-> judge;",
        "\tprofile_author -.-> recover_facts;",
        "\tprofile_author -.-> score;",
        "\trecover_facts --> score;",
        "\tscore -.-> __end__;",
        "\tscore -.-> compare_intents;",
        "\tsearch --> profile_author;",
        "\tcompare_intents --> __end__;",
        "",
    ]


def test_when_the_search_loop_wiring_changes_then_this_snapshot_must_change_too() -> (
    None
):
    mermaid = search_agent.graph.get_graph().draw_mermaid(with_styles=False)
    assert mermaid.split("\n")[1:] == [
        "\t__start__ -.-> search_agent;",
        "\t__start__ -.-> search_step;",
        "\trun_search --> search_step;",
        "\tsearch_agent -.-> __end__;",
        "\tsearch_agent -.-> search_step;",
        "\tsearch_agent -.-> search_tools;",
        "\tsearch_step -.-> __end__;",
        "\tsearch_step -.-> run_search;",
        "\tsearch_tools -.-> __end__;",
        "\tsearch_tools -.-> search_agent;",
        "",
    ]


@pytest.mark.parametrize("parent", [aura.graph, evaluate.graph], ids=["aura", "eval"])
def test_when_a_graph_is_drawn_expanded_then_its_search_node_is_the_one_loop(
    parent: Any,
) -> None:
    # Studio and get_graph(xray=True) open the node: the same compiled loop in
    # both graphs, its steps named search:<step>.
    loop = search_agent.graph.get_graph().draw_mermaid(with_styles=False)
    inner = [
        re.sub(r"(\w+) (\S+) (\w+);", r"search\\3a\1 \2 search\\3a\3;", line)
        for line in loop.split("\n")[1:-1]
    ]
    expanded = parent.get_graph(xray=True).draw_mermaid(with_styles=False)
    block = expanded.split("\tsubgraph search\n")[1].split("\tend\n")[0]

    assert sorted(block.strip("\n").split("\n")) == sorted(inner)
    assert parent.nodes["search"].bound is search_agent.graph


def test_when_a_tool_turn_is_cached_then_the_replay_carries_its_tool_calls(
    script: Script, tmp_path: Path
) -> None:
    script.set("attacker", tool_call("Vashon glass", call_id="c1"), "changed")
    context = EvalContext(cache_mode="all")

    def ask() -> tuple[AIMessage, list[dict[str, Any]]]:
        with calls_kept_in(tmp_path / "cache.sqlite"):
            return asyncio.run(
                llm.ask_with_tools(
                    "attacker", [HumanMessage("find her")], [web_search], context,
                    step="search_agent",
                )
            )  # fmt: skip

    first, (call,) = ask()
    again, (replayed,) = ask()

    assert not call["cached"] and replayed["cached"]
    assert again.tool_calls == first.tool_calls
    assert again.tool_calls[0]["args"] == {"query": "Vashon glass"}
    assert len(script.prompts("attacker")) == 1


def test_when_an_openai_server_is_asked_then_the_request_carries_the_tool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANONYGRAPH_SERVER_RETRIES", "0")
    with FakeOpenAI(answer='{"query": "Vashon glass"}') as server:
        context = EvalContext(default_model=f"openai:fake@{server.url}")
        answer, (call,) = asyncio.run(
            llm.ask_with_tools(
                "attacker", [HumanMessage("find her")], [web_search], context,
                step="search_agent", tool_choice="web_search",
            )
        )  # fmt: skip
    (request,) = server.requests
    (sent,) = request["tools"]
    assert sent["function"]["name"] == "web_search"
    assert list(sent["function"]["parameters"]["properties"]) == ["query"]
    assert request["tool_choice"] == {
        "type": "function", "function": {"name": "web_search"}
    }  # fmt: skip
    assert answer.tool_calls[0]["args"] == {"query": "Vashon glass"}
    assert call["backend"] == "openai" and call["mode"] == "tools"


def test_when_a_server_refuses_tools_then_the_error_says_to_use_structured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANONYGRAPH_SERVER_RETRIES", "3")
    with FakeOpenAI(refuse=("tools",)) as server:
        context = EvalContext(default_model=f"openai:fake@{server.url}")
        with pytest.raises(llm.ModelServerError, match="search_mode=structured"):
            asyncio.run(
                llm.ask_with_tools(
                    "attacker", [HumanMessage("find her")], [web_search], context,
                    step="search_agent",
                )
            )  # fmt: skip
    assert len(server.requests) == 1  # a refusal is not retried


def test_when_a_tool_turn_goes_back_to_a_server_then_its_content_is_not_null(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # llama_cpp.server refuses `content: null` in an assistant turn (HTTP 500);
    # the real server's two-turn loop is in test_search_tool_server.py.
    monkeypatch.setenv("ANONYGRAPH_SERVER_RETRIES", "0")
    with FakeOpenAI(answer='{"query": "Vashon glass"}') as server:
        context = EvalContext(default_model=f"openai:fake@{server.url}")
        opening = HumanMessage("find her")
        turn = tool_call("Vashon glass", call_id="c1")
        result = ToolMessage("1. Blue Heron Glass", tool_call_id="c1")
        asyncio.run(
            llm.ask_with_tools(
                "attacker", [opening, turn, result], [web_search], context,
                step="search_agent",
            )
        )  # fmt: skip
    (request,) = server.requests
    assistant = request["messages"][1]
    assert assistant["role"] == "assistant" and assistant["tool_calls"]
    assert isinstance(assistant["content"], str)
    assert turn.content == ""  # the state keeps the turn as the model gave it


def test_when_auto_mode_meets_a_server_refusing_tools_then_structured_steps_search(
    search: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANONYGRAPH_SERVER_RETRIES", "0")
    source = tmp_path / "in.jsonl"
    record = {"id": "a", "text": CLUES + " Calgary winters are long."}
    source.write_text(json.dumps(record) + "\n")
    db = str(tmp_path / "runs.sqlite")
    run = asyncio.run(
        run_batch(
            RunOptions(
                method="rlaa", input=str(source), output=str(tmp_path / "out.jsonl"),
                db=db, context={"attributes": ["city_country"], "max_iterations": 1},
                progress=False,
            )
        )
    )  # fmt: skip
    # One answer fits both the search step and the closing attack.
    answer = {
        **json.loads(attack_json(city_country=("Calgary, Canada", 4))),
        "identified_profile": "",
        "thought": "look up the studio",
        "action": "search",
        "query": "Vashon glass",
    }
    options = {**search, "search_mode": "auto", "max_search_steps": 1}
    with FakeOpenAI(answer=json.dumps(answer), refuse=("tools",)) as server:
        spec = f"openai:fake@{server.url}"
        context = {"default_model": spec, "judge": False,
                   "attributes": ["city_country"], **options}  # fmt: skip
        evaluated = asyncio.run(
            evaluate_run(
                EvalOptions(run_id=run.run_id, db=db, context=context, progress=False)
            )
        )
        with pytest.raises(llm.ModelServerError, match="search_mode=structured"):
            evaluate_text(
                CLUES, default_model=spec, **{**options, "search_mode": "tools"}
            )
    assert evaluated.failed == 0 and evaluated.scored == 2  # original and final
    # The first row asked with tools once; the refusal is remembered.
    assert sum("tools" in r for r in server.requests) == 2  # + the tools-mode try
    rows = RunStore(db).evaluations(evaluated.eval_id)
    assert all(json.loads(r["inferences"]) for r in rows)
    queries = RunStore(db).db.query(
        "select * from search_queries where eval_id = ?", [evaluated.eval_id]
    )
    assert [q["query"] for q in queries] == ["Vashon glass"] * 2
    (mode,) = RunStore(db).db.query(
        "select * from server_modes where model = ?", ["fake (tool calls)"]
    )
    assert mode["mode"] == "refused"
    assert mode["note"].startswith(f"{server.url}: HTTP 400")
    expected = "structured steps (the server refused tool calls)"
    assert f"search agent: {spec} -> {expected}" in evaluated.report()
    with calls_kept_in(db):
        assert not uses_tools(EvalContext(default_model=spec, **options))
