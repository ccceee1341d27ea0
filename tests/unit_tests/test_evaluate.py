"""Evaluator with scripted models: scoring, judge failures, web search, reports."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, attack_json, judge_json, rewrite_json, verdicts_json

from anonygraph.graphs import evaluate
from anonygraph.llm import ModelOutputError
from anonygraph.reporting.evaluation import EvalOptions, evaluate_run
from anonygraph.reporting.report import write_report
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.state.evaluate import EvalContext

ORIGINAL = "Three winters in Calgary and I still hate the cold. My wife agrees."


def evaluate_text(text: str, **context: Any) -> dict[str, Any]:
    graph = evaluate.build_graph().compile()
    ctx = EvalContext(attributes=["city_country", "relationship_status"], **context)
    payload = {
        "text": text,
        "original": ORIGINAL,
        "labels": {"city_country": "Calgary, Canada", "relationship_status": "married"},
    }
    return asyncio.run(graph.ainvoke(payload, context=ctx))


def test_when_a_text_is_evaluated_then_guesses_are_matched_and_utility_judged(
    script: Script,
) -> None:
    script.set(
        "attacker",
        attack_json(city_country=("Canada", 3), relationship_status=("married", 4)),
    )
    script.set("judge", judge_json(9, 8, 1))

    out = evaluate_text("Three winters in a big city and I still hate the cold.")

    outcomes = {m["attribute"]: m["guesses"][0]["outcome"] for m in out["matches"]}
    assert outcomes == {
        "city_country": "less_precise",
        "relationship_status": "correct",
    }
    assert out["utility"]["util"] == pytest.approx((0.9 + 0.8 + 1) / 3)
    assert 0 < out["metrics"]["rouge_l"] < 1 and 0 <= out["metrics"]["bleu"] < 1
    assert [c["role"] for c in out["calls"]] == ["attacker", "judge"]


def test_when_the_original_is_evaluated_then_the_judge_is_not_asked(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))

    out = evaluate_text(ORIGINAL)

    assert out["utility"]["util"] == 1.0
    assert out["metrics"]["rouge_l"] == pytest.approx(1.0)
    assert script.prompts("judge") == []


def test_when_the_judge_reply_never_parses_then_it_fails_instead_of_scoring(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=None))
    script.set("judge", '{"readability": {"score": 11}}', "garbage", "{}")

    with pytest.raises(ModelOutputError) as caught:
        evaluate_text("Three winters somewhere cold.", max_retries=2)

    assert caught.value.step == "judge" and len(script.prompts("judge")) == 3


PROFILE = """<html><head><title>Marta Okonkwo - glassblower</title></head><body>
Marta Okonkwo runs the Blue Heron glass studio on Vashon Island. She teaches
lampworking classes on weekends and sells at the Tacoma craft fair.</body></html>"""
OTHER = """<html><head><title>Island ferry schedule</title></head><body>
Ferries leave every hour. Tickets at the dock.</body></html>"""
CLUES = (
    "My glass studio on Vashon Island is finally busy; lampworking classes sold out."
)
GENERALIZED = "My craft studio in the Pacific Northwest is busy; the classes sold out."


def scripted_search_agent(script: Script) -> None:
    """A deterministic searcher: query the capitalized and rare words it reads."""

    def words(prompt: str) -> list[str]:
        text = re.search(r"<text>\n(.*?)\n</text>", prompt, re.S).group(1)  # type: ignore[union-attr]
        return [
            w for w in re.findall(r"[A-Za-z]+", text) if w[0].isupper() or len(w) > 10
        ]

    def step(prompt: str) -> str:
        if "Query 1:" in prompt:
            return json.dumps({"thought": "enough", "action": "answer", "query": ""})
        query = " ".join(w for w in words(prompt) if w not in ("My",))
        return json.dumps(
            {"thought": "look up clues", "action": "search", "query": query}
        )

    def identify(prompt: str) -> str:
        clues = {w.lower() for w in words(prompt)} - {"my"}
        results = prompt.partition("<search_results>")[2]
        profile = ""
        for title, _url, snippet in re.findall(
            r"\[\d+\] (.+)\n(.+)\n(.+(?:\n.+)*)", results
        ):
            if len(clues & set(re.findall(r"[a-z]+", snippet.lower()))) >= 2:
                profile = title
                break
        answer = json.loads(attack_json(occupation=("glassblower", 3)))
        return json.dumps({**answer, "identified_profile": profile})

    script.set("attacker", lambda p: step(p) if '"search"' in p else identify(p))


def test_when_clues_are_specific_then_the_search_adversary_finds_the_profile(
    script: Script, tmp_path: Path
) -> None:
    corpus = tmp_path / "pages"
    corpus.mkdir()
    (corpus / "marta.html").write_text(PROFILE)
    (corpus / "ferry.html").write_text(OTHER)
    scripted_search_agent(script)
    settings = {
        "search_backend": "offline",
        "search_corpus": str(corpus),
        "search_index": str(tmp_path / "index.sqlite"),
        "judge": False,
        "attributes": ["occupation"],
    }

    found = asyncio.run(
        evaluate.build_graph()
        .compile()
        .ainvoke({"text": CLUES}, context=EvalContext(**settings))
    )
    assert found["identified_profile"] == "Marta Okonkwo - glassblower"
    assert found["search_log"][0]["query"] == "Vashon Island lampworking"
    assert found["search_log"][0]["backend"] == "offline"

    hidden = asyncio.run(
        evaluate.build_graph()
        .compile()
        .ainvoke({"text": GENERALIZED}, context=EvalContext(**settings))
    )
    assert hidden["search_log"][0]["query"] == "Pacific Northwest"
    assert hidden.get("identified_profile", "") == ""


def test_when_runs_are_evaluated_then_report_has_table_plots_and_mrs(
    script: Script, tmp_path: Path
) -> None:
    records = [
        {"id": f"r{i}", "text": f"Record {i}: I live in Calgary with my wife.",
         "labels": {"city_country": "Calgary, Canada"}}
        for i in range(3)
    ]  # fmt: skip
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))

    def attacker(prompt: str) -> str:
        city = "Calgary, Canada" if "Calgary" in prompt else "Toronto, Canada"
        return attack_json(city_country=(city, 4))

    script.set("attacker", attacker)
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set(
        "anonymizer",
        lambda p: rewrite_json(
            re.search(r"<text>\n(.*?)\n</text>", p, re.S)
            .group(1)  # type: ignore[union-attr]
            .replace("Calgary", "a city")
            .replace("with my wife", "with family")
        ),
    )
    script.set("judge", judge_json(9, 7, 1))
    db = str(tmp_path / "runs.sqlite")
    summary = asyncio.run(
        run_batch(
            RunOptions(
                method="rlaa", input=str(source), output=str(tmp_path / "out.jsonl"),
                db=db, context={"attributes": ["city_country"], "max_iterations": 2,
                                 "default_model": "local"},
                progress=False,
            )
        )
    )  # fmt: skip

    evaluated = asyncio.run(
        evaluate_run(
            EvalOptions(run_id=summary.run_id, db=db, per_iteration=True,
                        context={"attributes": ["city_country"]}, progress=False)
        )
    )  # fmt: skip
    assert evaluated.failed == 0 and evaluated.scored == 3 * 4
    assert "city_country 100% -> 0% (of 3)" in evaluated.report()
    judged = len(script.prompts("judge"))
    assert judged == 3  # round_2 repeats round_1 (rejected rewrite), final too
    again = asyncio.run(
        evaluate_run(
            EvalOptions(run_id=summary.run_id, db=db, per_iteration=True,
                        context={"attributes": ["city_country"]}, progress=False)
        )
    )  # fmt: skip
    assert again.scored == 0 and again.reused == 12

    files = write_report(db, str(tmp_path / "report"))

    table = files["markdown"].read_text()
    assert "| original text | eval product | - | 3 | 1.0000 | 1.0000 |" in table
    assert re.search(
        r"\| rlaa \| product; eval product \| rlaa-\w+ \| 3 \| 0\.8667 \| 0\.0000 \|",
        table,
    )
    # The per-attribute accuracy table of the papers, top-1.
    assert "## Attacker accuracy per attribute (top-1)" in table
    assert "## Per round" in table and "MRS" in table
    assert "| LEAK |" in table
    assert "| original text | 1.00 (3/3) |" in table
    assert re.search(r"\| rlaa \(rlaa-\w+\) \| 0\.00 \(0/3\) \|", table)
    assert files["scatter"].stat().st_size > 1000
    assert files["iterations"].stat().st_size > 1000
    rows = RunStore(db).evaluations(evaluated.eval_id)
    assert {r["row"] for r in rows} == {"original", "round_1", "round_2", "final"}


@pytest.fixture(scope="module")
def rules_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A finished RLAA run of two records, every role played by the rules."""
    folder = tmp_path_factory.mktemp("rules-run")
    source = folder / "in.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": f"r{i}", "text": f"I moved to Calgary with my wife {i}."})
            + "\n"
            for i in range(2)
        )
    )
    db = str(folder / "runs.sqlite")
    summary = asyncio.run(
        run_batch(
            RunOptions(method="rlaa", input=str(source), db=db, progress=False,
                       output=str(folder / "out.jsonl"),
                       context={"default_model": "rules"})
        )
    )  # fmt: skip
    return summary.run_id, db


@pytest.mark.parametrize(
    ("context", "role"),
    [
        ({"default_model": "rules"}, "judge"),
        ({"models": {"judge": "rules"}}, "judge"),
        ({"default_model": "rules", "judge": False, "validator": True}, "validator"),
    ],
)
def test_when_a_role_the_eval_asks_is_rules_then_it_refuses_before_any_text(
    rules_run: tuple[str, str], context: dict[str, Any], role: str
) -> None:
    run_id, db = rules_run
    scored = list(RunStore(db).db.query("select count(*) n from evaluations"))
    with pytest.raises(ValueError, match=f"the {role} role is set to 'rules'"):
        asyncio.run(
            evaluate_run(
                EvalOptions(run_id=run_id, db=db, context=context, progress=False)
            )
        )
    after = list(RunStore(db).db.query("select count(*) n from evaluations"))
    assert after == scored


def test_when_rules_play_only_the_attacker_then_the_eval_scores_every_text(
    rules_run: tuple[str, str],
) -> None:
    run_id, db = rules_run
    summary = asyncio.run(
        evaluate_run(
            EvalOptions(run_id=run_id, db=db, progress=False,
                        context={"default_model": "rules", "judge": False})
        )
    )  # fmt: skip
    assert (summary.scored, summary.failed) == (4, 0)
