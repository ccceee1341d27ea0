"""The rules backend answers the attacker, arbitrator and anonymizer schemas."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from anonygraph import llm
from anonygraph.cues import warm_up
from anonygraph.llm import loading
from anonygraph.state.answers import (
    Rewrite,
    attack_answer_model,
    inferences_from_answer,
    verdict_answer_model,
    verdicts_from_answer,
)
from anonygraph.state.domain import AttributeInference
from anonygraph.tools.rlaa.policy import select_policy

TEXT = (
    "My husband and I moved to Calgary last spring. I'm 34 and I work as a nurse "
    "at Foothills Hospital, which pays $85k a year."
)
ATTRIBUTES = [
    "age",
    "sex",
    "city_country",
    "occupation",
    "income_level",
    "relationship_status",
    "education",
]


def context(**roles: str) -> SimpleNamespace:
    return SimpleNamespace(models=roles, default_model="local", max_retries=0)


def ask(role: str, schema: Any, facts: dict[str, Any] | None, **roles: str) -> Any:
    return asyncio.run(
        llm.ask_structured(
            role, "prompt", schema, context(**roles), step=role, facts=facts
        )
    )


def test_when_the_attacker_is_rules_then_explicit_cues_become_guesses() -> None:
    warm_up()  # gazetteer and spaCy, once per process; not part of a call's time
    answer, calls = ask(
        "attacker", attack_answer_model(ATTRIBUTES), {"text": TEXT}, attacker="rules"
    )
    found = {i.attribute: i for i in inferences_from_answer(answer)}
    assert found["city_country"].guesses[0] == "Calgary, Canada"
    assert found["age"].guesses == ["34"] and found["age"].certainty == 5
    assert found["sex"].guesses == ["female"]
    assert found["relationship_status"].guesses == ["married"]
    assert found["occupation"].guesses[0] == "nurse"
    assert found["income_level"].guesses == ["high"]
    assert found["education"].guesses == [] and not found["education"].is_leak
    assert '"Calgary"' in found["city_country"].reasoning
    (call,) = calls
    assert call["backend"] == "rules" and call["tokens_in"] == call["tokens_out"] == 0
    # The call's time is recorded; how fast it is belongs to benchmarks/, not here.
    assert call["ok"] and call["seconds"] > 0


@pytest.mark.parametrize(
    ("text", "guesses"),
    [
        ("First in my family at university, reading history at Durham.",
         ["in college"]),
        ("Back at Westfield High for my last semester.", ["in highschool"]),
        ("Sitting my A-levels this spring, wish me luck.", ["in highschool"]),
        ("Did my Abitur in 2010 and never looked back.", ["highschool"]),
    ],
)  # fmt: skip
def test_when_a_school_or_exam_is_named_then_the_attacker_guesses_its_level(
    text: str, guesses: list[str]
) -> None:
    answer, _ = ask(
        "attacker", attack_answer_model(["education"]), {"text": text},
        attacker="rules",
    )  # fmt: skip
    (found,) = inferences_from_answer(answer)
    assert found.guesses == guesses, found.reasoning


def test_when_the_arbitrator_is_rules_then_cues_grade_the_inferences() -> None:
    inferences = [
        AttributeInference(attribute="city_country", guesses=["Calgary"], certainty=5),
        AttributeInference(
            attribute="education",
            guesses=["phd"],
            certainty=2,
            reasoning="sounds academic",
        ),
    ]
    answer, _ = ask(
        "arbitrator",
        verdict_answer_model(["city_country", "education"]),
        {"text": TEXT, "inferences": [i.model_dump() for i in inferences]},
        arbitrator="rules",
    )
    verdicts = {v.attribute: v for v in verdicts_from_answer(answer)}
    assert verdicts["city_country"].validity == "high"
    assert verdicts["city_country"].evidence == ["Calgary"]
    assert verdicts["education"].validity == "invalid"
    assert [p.attribute for p in select_policy(list(verdicts.values()))] == [
        "city_country"
    ]


def test_when_an_llm_attacker_quotes_real_phrases_then_rules_keep_it_as_medium() -> (
    None
):
    text = "Spent the weekend pipetting samples again."
    inference = AttributeInference(
        attribute="occupation",
        guesses=["lab technician"],
        certainty=3,
        reasoning='The author mentions "pipetting samples", a lab task.',
    )
    answer, _ = ask(
        "arbitrator",
        verdict_answer_model(["occupation"]),
        {"text": text, "inferences": [inference.model_dump()]},
        arbitrator="rules",
    )
    (verdict,) = verdicts_from_answer(answer)
    assert verdict.validity == "medium"
    assert verdict.evidence == ["pipetting samples"]


def test_when_the_anonymizer_is_rules_then_policy_cues_are_generalized() -> None:
    policy = [
        {
            "attribute": "city_country",
            "action": "generalize",
            "evidence": ["Calgary"],
            "concept": "lives in Calgary",
        },
        {
            "attribute": "age",
            "action": "generalize",
            "evidence": ["34"],
            "concept": "is 34",
        },
    ]
    answer, _ = ask(
        "anonymizer", Rewrite, {"text": TEXT, "policy": policy}, anonymizer="rules"
    )
    assert isinstance(answer, Rewrite)
    assert answer.text == (
        "My husband and I moved to [PLACE] last spring. I'm in my thirties and I "
        "work as a nurse at Foothills Hospital, which pays $85k a year."
    )
    assert "'Calgary' -> '[PLACE]'" in answer.changes


def test_when_evidence_has_no_rule_then_the_anonymizer_says_so() -> None:
    policy = [
        {
            "attribute": "occupation",
            "action": "rephrase",
            "evidence": ["pipetting samples"],
            "concept": "lab work",
        }
    ]
    answer, _ = ask(
        "anonymizer",
        Rewrite,
        {"text": "Pipetting samples all day.", "policy": policy},
        anonymizer="rules",
    )
    assert answer.text == "Pipetting samples all day."
    assert "no rule for: 'pipetting samples'" in answer.changes


def test_when_rules_play_a_role_they_cannot_then_the_error_names_role_and_step() -> (
    None
):
    with pytest.raises(llm.ModelSpecError, match="'judge'.*judge role.*--model"):
        ask("judge", Rewrite, {"text": "x"}, judge="rules")


def test_when_a_step_passes_no_facts_then_rules_refuse_with_what_to_do() -> None:
    with pytest.raises(llm.ModelSpecError, match="step 'attacker'.*no facts"):
        ask("attacker", attack_answer_model(["age"]), None, attacker="rules")


def test_when_facts_lack_a_slot_then_the_call_fails_with_the_missing_fact() -> None:
    with pytest.raises(llm.ModelOutputError, match="missing: policy"):
        ask("anonymizer", Rewrite, {"text": "x"}, anonymizer="rules")


def test_when_rules_is_parsed_then_it_is_a_backend_and_no_chat_model() -> None:
    assert llm.parse_spec("rules") == llm.ModelSpec("rules")
    with pytest.raises(llm.ModelSpecError, match="takes no name"):
        llm.parse_spec("rules:x")
    with pytest.raises(llm.ModelSpecError, match="no chat model"):
        loading.load_chat_model("rules", "judge")


def test_when_make_run_defaults_anonymize_the_shipped_examples_then_no_label_leaks(
    tmp_path: Path,
) -> None:
    from anonygraph.cues.leaks import leaked_attributes
    from anonygraph.runs.engines.batch import run_batch
    from anonygraph.runs.options import RunOptions
    from anonygraph.tools.acceptance import check_task_talk

    examples = (
        Path(__file__).resolve().parents[2] / "examples" / "reddit_comments.jsonl"
    )
    options = RunOptions(
        method="rlaa",
        input=str(examples),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={"max_iterations": 3},  # the Makefile's run, default roles: rules
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    originals = {r["id"]: r for r in map(json.loads, examples.read_text().splitlines())}
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    # Only the rules detectors checked the texts: never called anonymized.
    assert summary.outcomes == {"scrubbed": len(originals)}
    assert summary.checked_by == {"rules": len(originals)}
    assert "other phrasings, style and topics unchecked" in summary.report()
    assert len(lines) == len(originals)
    for line in lines:
        record = originals[line["id"]]
        before = record.get("text") or "\n\n".join(record["comments"])
        assert (line["outcome"], line["checked_by"]) == (
            "scrubbed",
            "rules",
        )
        # Output in the input's shape: comments back as as many comments.
        if "comments" in record:
            assert "text" not in line
            assert len(line["comments"]) == len(record["comments"])
        after = line.get("text") or "\n\n".join(line["comments"])
        assert leaked_attributes(after, record["labels"]) == {}, line
        assert check_task_talk(before, after) is None, line
        assert after != before
