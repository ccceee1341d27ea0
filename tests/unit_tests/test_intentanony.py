"""Control flow and budget logic of IntentAnony with scripted models."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Command
from scripted import Script, attack_json

from anonygraph.graphs import intentanony
from anonygraph.state.intentanony import (
    EvidenceChain,
    ExposureBudget,
    ExposureTable,
    Intent,
    IntentAnonyContext,
    SpanEdit,
)
from anonygraph.tools.intentanony.exposure import ExposureTableError, effective_budget
from anonygraph.tools.spans import find_span, replacement

TEXT = (
    "Just started my residency as a surgeon in Boston. My husband and I bought "
    "a flat by the harbour. The hours are brutal but I love my patients."
)
ATTRS = ["occupation", "city_country", "relationship_status"]
INTENT_SPAN = "residency as a surgeon"
TABLE: dict[str, Any] = {
    "scenes": {
        "general": {
            "I1": {
                "occupation": "L1",
                "city_country": "BAN",
                "relationship_status": "L2",
            },
            "I3": {
                "occupation": "L2",
                "city_country": "L2",
                "relationship_status": "L3",
            },
            "I5": {
                "occupation": "BAN",
                "city_country": "BAN",
                "relationship_status": "BAN",
            },
        },
        "work_career": {"I3": {"occupation": "L0"}},
    }
}


def intent_json(scene: str = "general", **weights: float) -> str:
    """An intent answer: I1..I5 weights (absent ones 0) and a scene."""
    body: dict[str, Any] = {f"I{i}": 0.0 for i in range(1, 6)}
    return json.dumps({**body, **weights, "scene": scene})


def evidence_json(**chains: list[tuple[str, str]]) -> str:
    """An evidence answer: attribute=[(quote, intent code or 'none'), ...]."""
    return json.dumps(
        {
            name: {
                "steps": [
                    {
                        "step": f"step {n}",
                        "quote": quote,
                        "explanation": "scripted",
                        "intent": intent,
                    }
                    for n, (quote, intent) in enumerate(steps)
                ]
            }
            for name, steps in chains.items()
        }
    )


def rewrite_json(text: str) -> str:
    return json.dumps({"text": text})


def run(text: str = TEXT, **context: Any) -> dict[str, Any]:
    graph: Any = intentanony.build_graph().compile()
    ctx = IntentAnonyContext(
        **{"attributes": ATTRS, "exposure_table_inline": TABLE, **context}
    )
    return asyncio.run(graph.ainvoke({"text": text}, context=ctx))


def budget_of(out: dict[str, Any], attribute: str) -> ExposureBudget:
    (budget,) = [b for b in out["budgets"] if b["attribute"] == attribute]
    return ExposureBudget.model_validate(budget)


def edit_of(out: dict[str, Any], quote: str) -> SpanEdit:
    (edit,) = [e for e in out["edits"] if e["quote"] == quote]
    return SpanEdit.model_validate(edit)


def script_surgeon(script: Script, *rewrites: str) -> None:
    """The usual scripted pass: I1 and I3 recognized, three leaks, two chains."""
    script.set("intent", intent_json(I1=0.8, I3=0.6, I5=0.1))
    script.set(
        "attacker",
        attack_json(
            occupation=("surgeon", 5),
            city_country=("Boston, USA", 5),
            relationship_status=("married", 4),
        ),
    )
    script.set(
        "evidence",
        evidence_json(
            occupation=[(INTENT_SPAN, "I3")],
            city_country=[("in Boston", "none")],
        ),
    )
    script.set("rewriter", *(rewrite_json(r) for r in rewrites or ["unused"]))


def test_when_intents_disagree_then_the_budget_is_the_strictest_counted_level(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))

    out = run()

    occupation = budget_of(out, "occupation")
    assert occupation.by_intent == {"I1": "L1", "I3": "L2"}  # I5 is under 0.3
    assert (occupation.level, occupation.max_certainty) == ("L2", 3)
    assert budget_of(out, "relationship_status").level == "L3"
    assert budget_of(out, "city_country").level == "BAN"
    assert [i["code"] for i in out["intents"]] == ["I1", "I2", "I3", "I4", "I5"]


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        ({"I1": 0.9}, "L1"),
        ({"I1": 0.9, "I3": 0.3}, "L2"),
        ({"I1": 0.9, "I3": 0.3, "I5": 0.29}, "L2"),
        ({"I1": 0.9, "I3": 0.3, "I5": 0.3}, "BAN"),
    ],
)
def test_when_intents_are_counted_then_eq_6_takes_the_most_restrictive_level(
    weights: dict[str, float], expected: str
) -> None:
    from anonygraph.tools.intentanony.exposure import counted_intents

    intents = [
        Intent(code=code, name=code, weight=w).model_dump()  # type: ignore[arg-type]
        for code, w in weights.items()
    ]
    table = ExposureTable.model_validate(TABLE)

    budget = effective_budget(
        "occupation", "general", counted_intents(intents, 0.3), table, "L2"
    )

    assert budget.level == expected


def test_when_the_scene_has_its_own_entry_then_it_wins_over_the_fallback() -> None:
    table = ExposureTable.model_validate(TABLE)
    i3 = [Intent(code="I3", name="professional showcase", weight=1.0)]

    assert effective_budget("occupation", "work_career", i3, table, "L2").level == "L0"
    assert (
        effective_budget("city_country", "work_career", i3, table, "L2").level == "L2"
    )
    assert effective_budget("occupation", "unknown", i3, table, "L2").level == "L2"


def test_when_an_attribute_is_ban_then_its_span_goes_and_the_intent_span_stays(
    script: Script,
) -> None:
    edited = TEXT.replace(" in Boston", "")
    script_surgeon(script, edited)

    out = run()

    (prompt,) = script.prompts("rewriter")
    edits_part = prompt.split("Spans to edit")[1].split("Spans to keep")[0]
    keep_part = prompt.split("Spans to keep")[1].split("How to edit")[0]
    assert '[remove] "in Boston" (city_country)' in edits_part
    assert f'"{INTENT_SPAN}"' in keep_part and INTENT_SPAN not in edits_part
    assert "city_country (BAN): must leave no trace" in prompt
    assert out["anonymized"] == edited
    assert "Boston" not in out["anonymized"] and INTENT_SPAN in out["anonymized"]
    assert edit_of(out, "in Boston").outcome == "changed"
    assert edit_of(out, "in Boston").replaced_by == ""
    assert edit_of(out, INTENT_SPAN).outcome == "kept"
    assert out["errors"] == []
    assert out["status"] == "done"
    chains = {c["attribute"]: c for c in out["chains"]}
    (city_step,) = chains["city_country"]["steps"]
    (job_step,) = chains["occupation"]["steps"]
    assert (city_step["intent_relevant"], city_step["action"]) == (False, "remove")
    assert (job_step["intent_relevant"], job_step["action"]) == (True, "keep")


def test_when_a_quote_is_not_in_the_text_then_it_is_dropped_before_the_rewrite(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))
    script.set(
        "evidence",
        evidence_json(
            occupation=[
                ("I work at Mass General", "I3"),
                ("RESIDENCY   as a\nSurgeon", "I3"),
            ],
            city_country=[("“in Boston”", "none"), ("Boston Common", "none")],
        ),
    )

    out = run()

    chains = {c["attribute"]: EvidenceChain.model_validate(c) for c in out["chains"]}
    assert [s.quote for s in chains["occupation"].steps] == [INTENT_SPAN]
    assert chains["occupation"].dropped == ["I work at Mass General"]
    assert [s.quote for s in chains["city_country"].steps] == ["in Boston"]
    assert chains["city_country"].dropped == ["Boston Common"]
    assert sum("not in the text; dropped" in e for e in out["errors"]) == 2
    (prompt,) = script.prompts("rewriter")
    assert "Mass General" not in prompt and "Boston Common" not in prompt


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("in Boston", "in Boston"),
        ("IN   boston", "in Boston"),
        ('"in Boston."', "in Boston."),
        ("he", None),  # only inside "the": not a span of its own
        ("in Bost", None),
        ("", None),
        ("in Boston, Massachusetts", None),
    ],
)
def test_when_a_quote_is_looked_up_then_only_case_and_spacing_may_differ(
    quote: str, found: str | None
) -> None:
    assert find_span(quote, "I live in Boston. Love the harbour.") == found


def test_when_a_span_is_rewritten_then_its_replacement_is_reported() -> None:
    before = "I moved to Calgary for the oil sands job three winters ago."
    after = "I moved to a cold city for the job three winters ago."

    assert replacement("to Calgary", before, after) == "to a cold city"
    assert replacement("oil sands job", before, after) == "job"
    assert replacement("three winters ago", before, after) == "three winters ago"
    assert replacement("Calgary for the", before, after) == "a cold city for the"


def test_when_the_rewrite_edits_an_intent_relevant_span_then_it_is_reported(
    script: Script,
) -> None:
    edited = TEXT.replace(" in Boston", "").replace(INTENT_SPAN, "new job")
    script_surgeon(script, edited)

    out = run()

    edit = edit_of(out, INTENT_SPAN)
    assert (edit.outcome, edit.replaced_by, edit.violates_plan) == (
        "changed",
        "new job",
        True,
    )
    assert any(
        "altered intent-relevant span 'residency as a surgeon'" in e
        for e in out["errors"]
    )
    assert out["anonymized"] == edited  # reported, not silently undone


def test_when_the_rewrite_leaves_a_span_to_remove_then_it_is_reported(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace("My husband and I", "We"))

    out = run()

    assert edit_of(out, "in Boston").outcome == "kept"
    assert any("left span 'in Boston'" in e for e in out["errors"])


def test_when_no_intent_is_detected_then_every_attribute_gets_the_default_level(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace(INTENT_SPAN, "residency"))
    script.set("intent", intent_json(I1=0.1))

    out = run(default_level="L3")

    assert {(b["level"], b["source"]) for b in out["budgets"]} == {("L3", "no_intent")}
    assert any("no intent reached the weight threshold" in e for e in out["errors"])
    (evidence_prompt,) = script.prompts("evidence")
    assert "none recognized" in evidence_prompt
    steps = [s for c in out["chains"] for s in c["steps"]]
    assert not any(s["intent_relevant"] for s in steps)
    assert {s["action"] for s in steps} == {"remove"}  # L3 on non-intent evidence


def test_when_an_attribute_is_missing_from_the_table_then_the_default_level_applies(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))
    table = json.loads(json.dumps(TABLE))
    del table["scenes"]["general"]["I3"]["relationship_status"]

    out = run(exposure_table_inline=table, default_level="BAN")

    budget = budget_of(out, "relationship_status")
    assert budget.by_intent == {"I1": "L2", "I3": "BAN"}
    assert (budget.level, budget.defaulted) == ("BAN", ["I3"])
    assert any(
        "no level for relationship_status under I3" in e and "BAN" in e
        for e in out["errors"]
    )


def test_when_the_table_comes_from_a_file_then_it_is_read_and_aliases_resolve(
    script: Script, tmp_path: Path
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))
    table = {"scenes": {"general": {"I1": {"location": "L0"}, "I3": {"pobp": "L3"}}}}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))

    out = run(
        exposure_table=str(path),
        exposure_table_inline={},
        attributes=[*ATTRS, "birth_city_country"],
    )

    assert budget_of(out, "city_country").by_intent == {"I1": "L0", "I3": "L2"}
    assert budget_of(out, "birth_city_country").by_intent == {"I1": "L2", "I3": "L3"}


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("default_level", "L9", "default_level='L9' is not a level"),
        ("privacy_level", "high", "privacy_level='high' is not a level"),
        (
            "exposure_table_inline",
            {"scenes": {"general": {"I1": {"age": "L7"}}}},
            "invalid",
        ),
        (
            "exposure_table_inline",
            {"scenes": {"general": {"I1": {"shoe_size": "L1"}}}},
            "shoe_size",
        ),
        ("exposure_table_inline", {"scenes": {"work": {}}}, "fallback scene"),
        ("exposure_table", "/no/such/table.json", "No such file"),
    ],
)
def test_when_governance_options_are_bad_then_the_run_fails_before_any_call(
    script: Script, option: str, value: Any, message: str
) -> None:
    script_surgeon(script)
    context: dict[str, Any] = {option: value}
    if option == "exposure_table":
        context["exposure_table_inline"] = {}

    with pytest.raises(ExposureTableError, match=message):
        run(**context)

    assert script.prompts("intent") == []


def test_when_privacy_level_is_set_then_every_budget_takes_it(script: Script) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))

    out = run(privacy_level="L0")

    assert {(b["level"], b["source"]) for b in out["budgets"]} == {
        ("L0", "privacy_level")
    }
    assert script.prompts("rewriter") == []  # L0 keeps every span
    assert out["anonymized"] == TEXT
    assert out["status"] == "done"


def test_when_nothing_is_inferred_then_no_evidence_or_rewrite_call_is_made(
    script: Script,
) -> None:
    script.set("intent", intent_json(I1=0.9))
    script.set("attacker", attack_json(occupation=None, city_country=None))

    out = run()

    assert [c["role"] for c in out["calls"]] == ["intent", "attacker"]
    assert (out["anonymized"], out["status"], out["chains"]) == (TEXT, "done", [])
    assert [it["rewritten"] for it in out["iterations"]] == [None]
    # The attacker saw nothing, yet "Boston" and "My husband" stand: the
    # detectors' cues keep the text from being called anonymized.
    assert out["outcome"] == "unchanged"
    assert {"city_country", "relationship_status"} <= set(out["leaks"])


def test_when_verify_is_satisfied_then_the_loop_stops_after_one_check(
    script: Script,
) -> None:
    edited = TEXT.replace(" in Boston", "")
    script_surgeon(script, edited)
    script.set(
        "attacker",
        attack_json(occupation=("surgeon", 5), city_country=("Boston, USA", 5)),
        attack_json(occupation=("surgeon", 3), city_country=("USA", 1)),
    )

    out = run(verify=True, max_verify_rounds=3)

    assert len(script.prompts("rewriter")) == 1
    assert len(script.prompts("attacker")) == 2
    assert out["status"] == "within_budget"
    assert [c["step"] for c in out["calls"]] == [
        "intent",
        "attack",
        "evidence",
        "rewrite",
        "verify",
    ]
    assert [(it["round"], it["rewritten"]) for it in out["iterations"]] == [
        (0, edited),
        (1, None),
    ]


def test_when_verify_is_never_satisfied_then_it_stops_after_r_extra_rewrites(
    script: Script,
) -> None:
    # Spelled out: a digit the original lacks is refused as a new specific.
    names = ["one", "two", "three", "four", "five"]
    rewrites = [TEXT.replace("Boston", f"town {name}") for name in names]
    script_surgeon(script, *rewrites)

    out = run(verify=True, max_verify_rounds=2)

    assert len(script.prompts("rewriter")) == 3  # the pass + R = 2 extra
    assert len(script.prompts("attacker")) == 4  # the first attack + 3 checks
    assert out["status"] == "over_budget"
    assert out["anonymized"] == rewrites[2]
    later = script.prompts("rewriter")[1]
    assert "still infers these attributes" in later
    assert "city_country: guessed Boston, USA with certainty 5/5" in later
    assert "still infers" not in script.prompts("rewriter")[0]
    assert [it["round"] for it in out["iterations"]] == [0, 1, 2, 3]


def test_when_verify_is_off_then_the_single_pass_is_the_default(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))

    out = run()

    assert [c["role"] for c in out["calls"]] == [
        "intent",
        "attacker",
        "evidence",
        "rewriter",
    ]
    assert all(c["tokens_in"] > 0 and c["tokens_out"] > 0 for c in out["calls"])
    assert out["status"] == "done"


def test_when_comments_go_in_then_they_come_back_split(script: Script) -> None:
    script_surgeon(script, "Just started my residency as a surgeon.\n\nWe love it.")
    script.set("evidence", evidence_json(city_country=[("in Boston", "none")]))
    graph: Any = intentanony.build_graph().compile()
    ctx = IntentAnonyContext(attributes=ATTRS, exposure_table_inline=TABLE)

    out = asyncio.run(
        graph.ainvoke(
            {
                "comments": [
                    "Just started my residency as a surgeon in Boston.",
                    "We love it.",
                ]
            },
            context=ctx,
        )
    )

    assert out["anonymized_comments"] == [
        "Just started my residency as a surgeon.",
        "We love it.",
    ]


def test_when_checkpointed_in_sqlite_then_the_state_reads_back_as_plain_data(
    script: Script, caplog: pytest.LogCaptureFixture
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))
    ctx = IntentAnonyContext(attributes=ATTRS, exposure_table_inline=TABLE)
    config: Any = {"configurable": {"thread_id": "t1"}}

    async def go() -> Any:
        async with AsyncSqliteSaver.from_conn_string(":memory:") as saver:
            app: Any = intentanony.build_graph().compile(checkpointer=saver)
            await app.ainvoke({"text": TEXT}, config, context=ctx, durability="sync")
            return (await app.aget_state(config)).values

    values = asyncio.run(go())

    assert values["status"] == "done"
    assert isinstance(values["chains"][0], dict) and isinstance(
        values["budgets"][0], dict
    )
    assert values["edits"][0]["quote"] in (INTENT_SPAN, "in Boston")
    assert "unregistered type" not in caplog.text


def test_when_wiring_changes_then_this_snapshot_must_change_too() -> None:
    mermaid = intentanony.graph.get_graph().draw_mermaid(with_styles=False)
    assert mermaid.split("\n")[1:] == [
        "\t__start__ --> prepare;",
        "\tassign_budgets -.-> finish_budgets;",
        "\tassign_budgets -.-> review_budgets;",
        "\tassign_budgets -.-> rewrite;",
        "\tattack --> trace_evidence;",
        "\tprepare --> recognize_intents;",
        "\trecognize_intents --> attack;",
        "\treview_budgets -.-> finish_budgets;",
        "\treview_budgets -.-> rewrite;",
        "\trewrite -.-> finish_budgets;",
        "\trewrite -.-> verify;",
        "\ttrace_evidence -.-> assign_budgets;",
        "\ttrace_evidence -.-> rewrite;",
        "\tverify -.-> finish_budgets;",
        "\tverify -.-> review_budgets;",
        "\tverify -.-> rewrite;",
        "\tfinish_budgets --> __end__;",
        "",
    ]


def levels_answer(levels: dict[str, str]) -> dict[str, Any]:
    """LangChain's HITL response that sets these exposure levels."""
    edited = {"name": "apply_budgets", "args": {"levels": levels}}
    return {"decisions": [{"type": "edit", "edited_action": edited}]}


def test_when_a_reviewer_bans_an_attribute_then_the_rewrite_edits_its_intent_span(
    script: Script,
) -> None:
    script_surgeon(script, TEXT.replace(" in Boston", ""))
    app = intentanony.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    ctx = IntentAnonyContext(attributes=ATTRS, exposure_table_inline=TABLE, review=True)

    paused = asyncio.run(app.ainvoke({"text": TEXT}, config, context=ctx))

    (pause,) = paused["__interrupt__"]
    assert pause.value["details"]["step"] == "review_budgets"
    levels = pause.value["action_requests"][0]["args"]["levels"]
    assert levels["occupation"] == "L2" and levels["city_country"] == "BAN"
    assert script.prompts("rewriter") == []
    answer = levels_answer({**levels, "occupation": "BAN"})
    out = asyncio.run(app.ainvoke(Command(resume=answer), config, context=ctx))

    (prompt,) = script.prompts("rewriter")
    edits = prompt.split("Spans to edit")[1].split("Spans to keep")[0]
    assert INTENT_SPAN in edits and "in Boston" in edits
    assert budget_of(out, "occupation").source == "review"
    assert out["reviews"][0]["levels"] == {"occupation": "BAN"}


def test_when_a_reviewer_keeps_every_edited_attribute_then_no_rewrite_is_asked(
    script: Script,
) -> None:
    script_surgeon(script)
    app = intentanony.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    ctx = IntentAnonyContext(attributes=ATTRS, exposure_table_inline=TABLE, review=True)
    asyncio.run(app.ainvoke({"text": TEXT}, config, context=ctx))

    answer = levels_answer({"city_country": "L0"})
    out = asyncio.run(app.ainvoke(Command(resume=answer), config, context=ctx))

    assert script.prompts("rewriter") == []
    assert (out["status"], out["anonymized"]) == ("done", TEXT)


def test_when_verify_finds_an_overrun_under_review_then_the_next_rewrite_waits_too(
    script: Script,
) -> None:
    first = TEXT.replace(" in Boston", "")
    script_surgeon(script, first)
    app = intentanony.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    ctx = IntentAnonyContext(
        attributes=ATTRS, exposure_table_inline=TABLE, review=True, verify=True
    )
    asyncio.run(app.ainvoke({"text": TEXT}, config, context=ctx))

    approve = {"decisions": [{"type": "approve"}]}
    again = asyncio.run(app.ainvoke(Command(resume=approve), config, context=ctx))

    (pause,) = again["__interrupt__"]
    details = pause.value["details"]
    assert (details["round"], details["text"]) == (1, first)
    over = {e["attribute"] for e in details["proposal"]["exceeded"]}
    assert "city_country" in over
    reject = {"decisions": [{"type": "reject"}]}
    out = asyncio.run(app.ainvoke(Command(resume=reject), config, context=ctx))
    assert (out["status"], out["anonymized"]) == ("stopped_by_reviewer", first)
    assert len(script.prompts("rewriter")) == 1
    assert [r["decision"] for r in out["reviews"]] == ["approve", "reject"]


def test_when_the_rewrite_is_meta_text_then_it_is_refused_retried_and_the_text_stays(
    script: Script,
) -> None:
    meta = (
        "Here is the rewritten text as a JSON object. I will keep the intents and "
        "edit the spans as the instructions ask, nothing else."
    )
    script_surgeon(script, meta)

    out = run(verify=True, max_verify_rounds=0)

    first, retry = script.prompts("rewriter")
    assert "refused" in retry and "talks about the task" in retry
    assert out["anonymized"] == TEXT
    assert {r["check"] for r in out["iterations"][0]["rejections"]} >= {"task_talk"}
    assert any("text kept as it was" in e for e in out["errors"])
    assert out["outcome"] == "unchanged" and "city_country" in out["leaks"]
