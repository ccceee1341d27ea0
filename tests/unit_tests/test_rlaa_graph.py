"""Control flow of RLAA and FgAA with scripted models."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from scripted import Script, attack_json, rewrite_json, verdicts_json

from anonygraph.graphs import fgaa, rlaa
from anonygraph.llm import ModelOutputError
from anonygraph.state.context import Context

TEXT = "I moved to Calgary for work and my wife hates the cold."
ATTRS = ["city_country", "relationship_status"]
EXTRAS = ["Brr.", "Honestly.", "Sigh.", "Anyway.", "Oh well."]
"""Harmless additions: each makes a rewrite that passes the acceptance checks."""


def run(graph_module: Any, **context: Any) -> dict[str, Any]:
    graph = graph_module.build_graph().compile()
    ctx = Context(attributes=ATTRS, **{"default_model": "local", **context})
    return asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx))


def test_when_every_leak_is_low_or_invalid_then_one_arbitration_and_no_anonymizer(
    script: Script,
) -> None:
    script.set(
        "attacker",
        attack_json(
            city_country=("Calgary, Canada", 5), relationship_status=("married", 4)
        ),
    )
    script.set(
        "arbitrator", verdicts_json(city_country="low", relationship_status="invalid")
    )
    script.set("anonymizer", rewrite_json("never used"))

    out = run(rlaa)

    assert len(script.prompts("arbitrator")) == 1
    assert script.prompts("anonymizer") == []
    assert out["status"] == "converged"
    assert out["anonymized"] == TEXT
    assert [it["policy"] for it in out["iterations"]] == [[]]


def test_when_verdicts_are_high_and_medium_then_generalize_and_rephrase_are_sent(
    script: Script,
) -> None:
    script.set(
        "attacker",
        attack_json(
            city_country=("Calgary, Canada", 5), relationship_status=("married", 4)
        ),
        attack_json(city_country=("Canada", 2), relationship_status=None),
    )
    script.set(
        "arbitrator",
        verdicts_json(city_country="high", relationship_status="medium"),
        verdicts_json(city_country="low"),
    )
    edited = "I moved to a big city for work and my partner hates the cold."
    script.set("anonymizer", rewrite_json(edited))

    out = run(rlaa)

    (prompt,) = script.prompts("anonymizer")
    assert "[generalize] city_country: concept-of-city_country" in prompt
    assert "[rephrase] relationship_status: concept-of-relationship_status" in prompt
    assert '"evidence-for-city_country"' in prompt
    assert prompt.index("[generalize]") < prompt.index("[rephrase]")
    assert out["status"] == "converged"
    assert (out["outcome"], out["leaks"]) == ("anonymized", [])
    assert out["anonymized"] == edited
    assert [it["round"] for it in out["iterations"]] == [0, 1]


def test_when_policy_never_empties_then_max_iterations_bounds_the_loop(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", *(rewrite_json(f"{TEXT} {word}") for word in EXTRAS))

    out = run(rlaa, max_iterations=3)

    # T rewrites; the final text is attacked (and arbitrated) once more.
    assert len(script.prompts("attacker")) == 4
    assert len(script.prompts("arbitrator")) == 4
    assert len(script.prompts("anonymizer")) == 3
    assert out["status"] == "max_iterations"
    assert out["anonymized"].endswith(EXTRAS[2])
    assert out["outcome"] == "partly anonymized"
    assert "city_country" in out["leaks"]


def test_when_no_guess_is_made_then_the_arbitrator_is_not_called(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=None, relationship_status=None))

    out = run(rlaa)

    assert out["status"] == "converged"
    assert script.prompts("arbitrator") == []


def test_when_fgaa_runs_then_the_anonymizer_is_called_every_round(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Canada", 1)))
    script.set("anonymizer", *(rewrite_json(f"{TEXT} {word}") for word in EXTRAS))

    out = run(fgaa, max_iterations=4)

    assert len(script.prompts("anonymizer")) == 4
    assert "[address] city_country" in script.prompts("anonymizer")[0]
    assert out["status"] == "max_iterations"


def test_when_fgaa_attacker_infers_nothing_then_it_stops_unless_rounds_are_fixed(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=None))
    script.set("anonymizer", *(rewrite_json(f"{TEXT} {word}") for word in EXTRAS))

    stopped = run(fgaa, max_iterations=3)
    assert stopped["status"] == "converged"
    assert script.prompts("anonymizer") == []

    fixed = run(fgaa, max_iterations=3, stop_when_nothing_inferred=False)
    assert fixed["status"] == "max_iterations"
    assert len(script.prompts("anonymizer")) == 3


@pytest.mark.parametrize(
    ("rewrite", "problem"),
    [
        ("", "empty"),
        ("I moved.", "under 40%"),
        (TEXT.replace(" ", "  "), "unchanged"),
        (TEXT + " and so on" * 80, "over 3 times"),
    ],
)
def test_when_rewrite_is_unusable_then_previous_text_is_kept(
    script: Script, rewrite: str, problem: str
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set(
        "arbitrator",
        verdicts_json(city_country="high"),
        verdicts_json(city_country="low"),
    )
    script.set("anonymizer", rewrite_json(rewrite))

    out = run(rlaa, max_iterations=2)

    assert out["anonymized"] == TEXT
    assert problem in out["iterations"][0]["error"]
    assert any(problem in e for e in out["errors"])


def test_when_answers_never_parse_then_the_step_fails_after_bounded_retries(
    script: Script,
) -> None:
    script.set("attacker", "this is not json at all")

    with pytest.raises(ModelOutputError) as caught:
        run(rlaa, max_retries=2)

    assert len(script.prompts("attacker")) == 3
    assert caught.value.step == "attack"
    assert len(caught.value.calls) == 3
    assert "could not be used" in script.prompts("attacker")[1]


def test_when_an_answer_is_repairable_then_no_retry_is_needed(script: Script) -> None:
    broken = attack_json(city_country=None)[:-2]  # cut off like a max_tokens stop
    script.set("attacker", "```json\n" + broken)

    out = run(rlaa)

    assert out["status"] == "converged"
    assert len(script.prompts("attacker")) == 1


def test_when_graph_runs_then_every_call_is_accounted(script: Script) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="invalid"))

    out = run(rlaa)

    assert [(c["role"], c["step"]) for c in out["calls"]] == [
        ("attacker", "attack"),
        ("arbitrator", "arbitrate"),
    ]
    assert all(c["tokens_in"] > 0 and c["tokens_out"] > 0 for c in out["calls"])
    assert all(c["seconds"] >= 0 and c["cached"] is False for c in out["calls"])


def test_when_wiring_changes_then_this_snapshot_must_change_too() -> None:
    assert rlaa.graph.get_graph().draw_mermaid(with_styles=False).split("\n")[1:] == [
        "\t__start__ --> prepare;",
        "\tanonymize -.-> attack;",
        "\tanonymize -.-> finish_loop;",
        "\tarbitrate -.-> anonymize;",
        "\tarbitrate -.-> finish_loop;",
        "\tarbitrate -.-> review_policy;",
        "\tattack --> arbitrate;",
        "\tprepare --> attack;",
        "\treview_policy -.-> anonymize;",
        "\treview_policy -.-> finish_loop;",
        "\tfinish_loop --> __end__;",
        "",
    ]
    fgaa_mermaid = fgaa.graph.get_graph().draw_mermaid(with_styles=False)
    assert "attack --> forward_inferences" in fgaa_mermaid
    # The review step sits behind a router; without --review it is skipped.
    assert "forward_inferences -.-> anonymize" in fgaa_mermaid
    assert "forward_inferences -.-> review_policy" in fgaa_mermaid
    assert "review_policy -.-> finish_loop" in fgaa_mermaid


META = (
    "Here is the edited text in JSON format. I will provide the anonymized text "
    "as you asked, following the instructions above."
)


def test_when_the_rewrite_is_meta_text_then_it_is_refused_retried_and_the_text_stays(
    script: Script,
) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json(META))

    out = run(rlaa, max_iterations=1)

    first, retry = script.prompts("anonymizer")
    assert "refused" not in first
    assert "refused" in retry and "talks about the task" in retry
    assert out["anonymized"] == TEXT
    refusals = out["iterations"][0]["rejections"]
    assert {(r["attempt"], r["check"]) for r in refusals} >= {
        (0, "task_talk"),
        (1, "task_talk"),
    }
    assert any("task_talk" in e and "text kept as it was" in e for e in out["errors"])
    # "my wife" is an explicit cue the rewrite left: the final check lists it.
    assert out["outcome"] == "unchanged"
    assert out["leaks"] == ["city_country", "relationship_status"]


def test_when_a_model_anonymizer_leaves_an_explicit_cue_then_it_is_fed_back(
    script: Script,
) -> None:
    # The attacker overlooks the city after the first rewrite; the cue check
    # does not, and the next round is asked to generalize it.
    script.set(
        "attacker",
        attack_json(city_country=("Calgary, Canada", 5)),
        attack_json(city_country=None),
    )
    script.set("arbitrator", verdicts_json(city_country="high"))
    kept_city = "I moved to Calgary for work and my partner hates the cold."
    edited = "I moved to a city for work and my partner hates the cold."
    script.set("anonymizer", rewrite_json(kept_city), rewrite_json(edited))

    stopped = run(rlaa, max_iterations=1)
    assert (stopped["outcome"], stopped["leaks"]) == (
        "partly anonymized",
        ["city_country"],
    )

    script.set(
        "attacker",
        attack_json(city_country=("Calgary, Canada", 5)),
        attack_json(city_country=None),
    )
    script.set("anonymizer", rewrite_json(kept_city), rewrite_json(edited))
    out = run(rlaa, max_iterations=3)

    second = script.prompts("anonymizer")[1]
    assert '"Calgary"' in second and "explicit cue" in second
    assert out["anonymized"] == edited
    assert (out["outcome"], out["status"], out["leaks"]) == (
        "anonymized",
        "converged",
        [],
    )


def test_when_a_weak_attacker_calls_an_explicit_cue_clean_then_it_is_not_anonymized(
    script: Script,
) -> None:
    # Round 0: the attacker misses "Calgary", so no rewrite happens; the
    # detectors still find the city in the final text.
    script.set("attacker", attack_json(city_country=None, relationship_status=None))
    script.set("arbitrator", verdicts_json())
    script.set("anonymizer", rewrite_json("never used"))

    out = run(rlaa)

    assert script.prompts("anonymizer") == []
    assert out["status"] == "converged"
    assert out["outcome"] == "unchanged"
    assert "city_country" in out["leaks"]
