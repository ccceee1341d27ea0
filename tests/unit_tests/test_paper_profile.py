"""The paper profile against the papers' facts (tests/data/papers); its control flow.

The tables come from the facts files, each value with its section; the
scripted runs show the paper's loop: forced guesses reach every step, no
acceptance refusal, no cue injection, and Algorithm 1's return of x(T).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, attack_json, judge_json

from anonygraph.graphs import fgaa, rlaa, seal
from anonygraph.llm.decoding import PAPER_DECODING, ROLE_DECODING
from anonygraph.prompts import adversary as adversary_prompts
from anonygraph.prompts import seal as seal_prompts
from anonygraph.prompts.evaluate import PAPER_JUDGE_PROMPT
from anonygraph.state.context import Context, FgaaContext
from anonygraph.state.seal import SealContext, TrajectoryContext

FACTS = Path(__file__).resolve().parents[1] / "data" / "papers"


def facts(method: str) -> dict[str, Any]:
    return dict(json.loads((FACTS / f"{method}.json").read_text()))


def decoding_rows() -> list[tuple[str, str, str, Any]]:
    """(method, role, key, the paper's value) for every value a paper gives."""
    rows = []
    for method in ("rlaa", "fgaa", "intentanony"):
        for role, row in facts(method)["decoding"].items():
            if role not in ROLE_DECODING or not isinstance(row, dict):
                continue
            for key in ("temperature", "top_p", "max_tokens"):
                if row.get(key) is not None:
                    rows.append((method, role, key, row[key]))
    teacher = facts("seal")["decoding"]["teacher"]
    for role in teacher["roles"]:
        for key in ("temperature", "top_p"):
            rows.append(("seal", role, key, teacher[key]))
    return rows


@pytest.mark.parametrize(("method", "role", "key", "value"), decoding_rows())
def test_when_the_paper_profile_decodes_then_each_role_has_the_papers_value(
    method: str, role: str, key: str, value: Any
) -> None:
    assert getattr(PAPER_DECODING[method][role], key) == value


def switch_rows() -> list[tuple[type[Context] | type[TrajectoryContext], str, Any]]:
    """(context, field, value in the paper profile) from the facts files."""
    rlaa_alg = facts("rlaa")["algorithm"]
    fgaa_alg = facts("fgaa")["algorithm"]
    return [
        (Context, "acceptance", rlaa_alg["acceptance_checks"]["value"]),
        (Context, "cue_check", rlaa_alg["cue_injection"]["value"]),
        (Context, "max_iterations", rlaa_alg["max_iterations"]["personalreddit"]),
        (FgaaContext, "acceptance", fgaa_alg["acceptance_checks"]["value"]),
        (FgaaContext, "cue_check", fgaa_alg["cue_injection"]["value"]),
        (FgaaContext, "stop_when_nothing_inferred", False),
        (
            FgaaContext,
            "anonymize_prompt",
            adversary_prompts.PAPER_FGAA_ANONYMIZE_PROMPT,
        ),  # noqa: E501
        (Context, "attack_prompt", adversary_prompts.PAPER_RLAA_ATTACK_PROMPT),
        (Context, "arbitrate_prompt", adversary_prompts.PAPER_RLAA_ARBITRATE_PROMPT),
        (Context, "anonymize_prompt", adversary_prompts.PAPER_RLAA_ANONYMIZE_PROMPT),
        (Context, "attack_format", "rlaa"),
        (TrajectoryContext, "attack_prompt", seal_prompts.PAPER_SEAL_INFER_PROMPT),
        (TrajectoryContext, "attack_format", "seal"),
        (TrajectoryContext, "acceptance", False),
        (SealContext, "anonymize_prompt", seal_prompts.PAPER_SEAL_REFINE_PROMPT),
        (SealContext, "stop_when_nothing_inferred", False),
        (SealContext, "min_utility", 0.0),
        (TrajectoryContext, "judge_prompt", PAPER_JUDGE_PROMPT),
    ]


@pytest.mark.parametrize(("context", "name", "value"), switch_rows())
def test_when_the_profile_is_paper_then_the_papers_switches_are_set(
    context: type[Context], name: str, value: Any
) -> None:
    assert getattr(context(profile="paper"), name) == value
    # A template set explicitly wins over the paper's (built directly, a value
    # equal to the field's default cannot be told from an unset one;
    # `from_given` can: test_profile_given.py).
    if isinstance(value, str) and "{text}" in value:
        mine = "My own template: {text} {attributes}"
        assert getattr(context(profile="paper", **{name: mine}), name) == mine


def test_when_a_decoding_override_is_given_then_it_replaces_one_value_only() -> None:
    ctx = Context(profile="paper", decoding=["anonymizer.temperature=0.2"])
    row = ctx.decoding_table()["anonymizer"]
    assert (row.temperature, row.top_p, row.max_tokens) == (0.2, 0.9, 512)
    with pytest.raises(ValueError, match="ROLE.KEY=VALUE"):
        Context(decoding=["anonymizer.temp=0.2"])
    with pytest.raises(ValueError, match="profile"):
        Context(profile="papers")


TEXT = "I moved to Calgary for work and my wife hates the cold."
ATTRS = ["city_country", "relationship_status"]


def rlaa_attack(city: str, status: str = "married") -> str:
    return json.dumps(
        {
            "inference": f"'moved to {city}' names the city; 'my wife' a marriage",
            "guess": {"current_city_country": city, "relationship_status": status},
        }
    )


def verdicts(**levels: str) -> str:
    return json.dumps(
        {
            "verdicts": [
                {
                    "attribute": name,
                    "validity_level": level,
                    "reasoning_evidence": [f"evidence-for-{name}"],
                    "leaked_concept": f"concept-of-{name}",
                    "validation_notes": "scripted",
                }
                for name, level in levels.items()
            ]
        }
    )


def run(module: Any, context_type: type[Context], **fields: Any) -> dict[str, Any]:
    graph = module.build_graph().compile()
    ctx = context_type(attributes=ATTRS, profile="paper", **fields)
    return dict(asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx)))


def test_when_rlaa_runs_in_the_paper_profile_then_it_follows_algorithm_1(
    script: Script,
) -> None:
    # The attacker's weak guess on relationship reaches the arbitrator too;
    # the rewrite keeps "Calgary" (no cue injection: the arbitrator's verdict
    # on it is all that counts) and is one word long (no acceptance refusal).
    script.set("attacker", rlaa_attack("Calgary, Canada"))
    script.set(
        "arbitrator",
        verdicts(city_country="low", relationship_status="high"),
        verdicts(city_country="low", relationship_status="medium"),
    )
    script.set(
        "anonymizer",
        json.dumps({"explanation": "e1", "anonymized_text": "Calgary."}),
        json.dumps({"explanation": "e2", "anonymized_text": "Calgary!"}),
    )

    out = run(rlaa, Context, max_iterations=2, decoding=["anonymizer.top_p=1.0"])

    # Two rounds of attack -> arbitrate -> anonymize, and x(T) returned unattacked.
    assert len(script.prompts("attacker")) == 2
    assert len(script.prompts("anonymizer")) == 2
    first = script.prompts("arbitrator")[0]
    assert "Inference: 'moved to Calgary, Canada'" in first
    assert "relationship_status: married" in first
    feedback = script.prompts("anonymizer")[0]
    assert 'validity_level: "high"' in feedback
    assert "city_country" not in feedback.split("Leaked concepts:")[1]
    assert out["anonymized"] == "Calgary!"
    assert (out["outcome"], out["status"], out["leaks"]) == (
        "not checked",
        "max_iterations",
        [],
    )
    assert all(not it.get("rejections") for it in out["iterations"])
    assert script.decodings["anonymizer"].top_p == 1.0


def test_when_rlaa_paper_policy_empties_then_it_stops_and_its_attacker_checked(
    script: Script,
) -> None:
    script.set("attacker", rlaa_attack("Calgary, Canada"))
    script.set("arbitrator", verdicts(city_country="low", relationship_status="low"))
    script.set("anonymizer", json.dumps({"explanation": "", "anonymized_text": "x"}))

    out = run(rlaa, Context)

    assert script.prompts("anonymizer") == []
    # "Calgary" stands, yet the paper's loop has converged: its outcome is
    # its arbitrator's word (the product's final check is off).
    assert (out["status"], out["outcome"], out["leaks"]) == (
        "converged",
        "anonymized",
        [],
    )


def test_when_fgaa_runs_in_the_paper_profile_then_every_inference_is_fed_back(
    script: Script,
) -> None:
    script.set(
        "attacker",
        rlaa_attack("Calgary, Canada"),
        rlaa_attack("Canada", "single"),
        rlaa_attack("Canada", "single"),
    )
    script.set("anonymizer", json.dumps({"anonymized_text": "I moved for work."}))

    out = run(fgaa, FgaaContext, max_iterations=3)

    prompts = script.prompts("anonymizer")
    assert len(prompts) == 3 and len(script.prompts("attacker")) == 3
    assert "Type: city_country" in prompts[0] and "Guess: Calgary, Canada" in prompts[0]
    assert "Type: relationship_status" in prompts[2] and "Guess: single" in prompts[2]
    assert out["outcome"] == "not checked"
    assert out["anonymized"] == "I moved for work."


def test_when_seal_refines_in_the_paper_profile_then_it_runs_its_iterations(
    script: Script,
) -> None:
    nothing = json.dumps(
        {
            "location": {"reasoning": "none", "guess": None},
            "married": {"reasoning": "none", "guess": None},
        }
    )
    script.set("attacker", nothing)
    script.set("judge", PAPER_JUDGE)
    script.set("anonymizer", json.dumps({"anonymized_text": "A move for work."}))

    graph = seal.build_graph().compile()
    ctx = SealContext(attributes=ATTRS, profile="paper", max_iterations=2)
    out = asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx))

    # Nothing inferred, yet both iterations run (results at fixed iterations).
    assert len(script.prompts("anonymizer")) == 2
    assert "Comments:" in script.prompts("anonymizer")[0]
    assert out["anonymized"] == "A move for work."
    assert script.decodings["anonymizer"].temperature == 0.1
    # D.3: the papers' judge, without our leniency for hidden details.
    assert "Hiding personal details" not in script.prompts("judge")[0]
    assert out["trajectory"][1]["utility"]["meaning"]["score"] == 6


def test_when_intentanony_runs_in_the_paper_profile_then_d4_decides_granularity(
    script: Script,
) -> None:
    from anonygraph.graphs import intentanony
    from anonygraph.state.intentanony import IntentAnonyContext

    script.set("intent", json.dumps({"I1": 0.6, "I4": 0.1}))
    script.set(
        "attacker",
        json.dumps(
            {
                "attributes": [
                    {
                        "Type": "location",
                        "Inference": "names the city",
                        "Guess": "Calgary; Edmonton; Toronto",
                        "Certainty": 5,
                    },
                    {
                        "Type": "relationship_status",
                        "Inference": "a wife",
                        "Guess": "Married; In Relation; Divorced",
                        "Certainty": 4,
                    },
                ]
            }
        ),
    )
    script.set(
        "evidence",
        json.dumps(
            {
                "attributes": [
                    {
                        "attribute": "location",
                        "privacy_inference_evidence_chain": [
                            {
                                "step": "city named",
                                "evidence": ["Calgary", "the cold"],
                                "explanation": "a city",
                            }
                        ],
                    }
                ]
            }
        ),
    )
    script.set(
        "rewriter",
        json.dumps({"intent_vector": {"I1": 0.6}, "anonymized_text": "Moved."}),
    )

    graph = intentanony.build_graph().compile()
    ctx = IntentAnonyContext(attributes=ATTRS, profile="paper")
    out = asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx))

    (rewrite,) = script.prompts("rewriter")
    assert "Exposure granularity" in rewrite
    assert "Calgary / the cold" in rewrite  # quotes kept as the model wrote them
    assert "guesses Calgary, Edmonton, Toronto" in rewrite
    assert '"I4": 0.1' in rewrite  # a weak intent counts (no 0.3 threshold)
    assert "scene" not in script.prompts("intent")[0].lower()
    assert not out.get("budgets") and out["anonymized"] == "Moved."
    assert script.decodings["rewriter"].max_tokens == 8192


def test_when_aura_paper_profile_has_no_search_then_it_refuses_to_start() -> None:
    from anonygraph.state.aura import AuraContext

    with pytest.raises(ValueError, match="web-search probe"):
        AuraContext(profile="paper")
    with pytest.raises(ValueError, match="web-search probe"):
        AuraContext(profile="paper", search_backend="offline")
    ctx = AuraContext(profile="paper", search_backend="offline", search_corpus="c")
    assert ctx.acceptance is False


def test_when_aura_paper_candidates_are_checked_then_only_gaps_refuse_one() -> None:
    from types import SimpleNamespace

    from anonygraph.nodes.aura import check_candidates
    from anonygraph.state.aura import AuraContext
    from anonygraph.state.aura_state import State

    template = {
        "text": "I live in [MASK_1].",
        "masks": [
            {
                "placeholder": "[MASK_1]",
                "original": "Calgary",
                "seed": "a city",
                "start": 10,
                "end": 18,
                "original_start": 10,
                "original_end": 17,
            }
        ],
    }
    candidates = [
        # Brings the original word back: the product refuses it, the paper not.
        {
            "index": 0,
            "replacements": {"[MASK_1]": "Calgary"},
            "text": "I live in Calgary.",
        },
        {"index": 1, "replacements": {}, "text": "I live in [MASK_1]."},
    ]
    state = State(text="I live in Calgary.", template=template, candidates=candidates)
    verdicts = {}
    for profile in ("product", "paper"):
        ctx = AuraContext(
            profile=profile, search_backend="offline", search_corpus="corpus"
        )
        out = check_candidates(state, SimpleNamespace(context=ctx))  # type: ignore[arg-type]
        verdicts[profile] = [bool(c["rejected"]) for c in out["candidates"]]
    assert verdicts == {"product": [True, True], "paper": [False, True]}


def test_when_dp_embed_splits_in_the_paper_profile_then_the_papers_rules_tag_it() -> (
    None
):
    from types import SimpleNamespace

    from anonygraph.nodes.dp_embed import split
    from anonygraph.state.dp_embed import DpEmbedContext, State
    from anonygraph.state.evaluate import EvalContext

    text = "I'm 34 and my wife Dana moved to Calgary.\n\nMail d@x.io today."
    tags = {}
    for profile in ("product", "paper"):
        ctx = DpEmbedContext(profile=profile)
        out = split(State(text=text, current=text), SimpleNamespace(context=ctx))  # type: ignore[arg-type]
        tags[profile] = {s["placeholder"] for s in out["segments"] if s["placeholder"]}
    # The product profile places direct identifiers only (the wife's name, the
    # e-mail), numbered; the paper's rules also tag the age and the city.
    assert tags["product"] == {"[PERSON_1]", "[EMAIL_1]"}
    assert {"[AGE]", "[PERSON]", "[LOCATION]", "[EMAIL]"} <= tags["paper"]
    assert DpEmbedContext(profile="paper").precision == "fp32"
    pick = facts("dp_embed")["algorithm"]["corrector_pick"]
    assert "Section" in pick["source"]
    assert DpEmbedContext(profile="paper").corrector_pick == pick["value"]
    assert DpEmbedContext().corrector_pick == "best"
    # 4.2's metrics need neither an attacker nor a judge.
    metrics = facts("dp_embed")["evaluation"]["metrics"]
    assert set(metrics) == {"leak", "sem_sim", "len_ratio", "sec_per_ex"}
    scored = EvalContext(profile="paper", protocol="dp-embed")
    assert (scored.attack, scored.judge, scored.semantic) == (False, False, True)
    with pytest.raises(ValueError, match="corrector_pick"):
        DpEmbedContext(corrector_pick="first")
    # A blank line cuts a chunk in the product only (K counts the pieces
    # between placeholders in the paper).
    plain = "Good morning.\n\nSee you at noon."
    for profile, k in (("product", 2), ("paper", 1)):
        ctx = DpEmbedContext(profile=profile)
        out = split(State(text=plain, current=plain), SimpleNamespace(context=ctx))  # type: ignore[arg-type]
        assert sum(s["kind"] == "chunk" for s in out["segments"]) == k


def test_when_a_paper_answer_is_cut_off_then_it_is_asked_again_with_more_tokens(
    script: Script,
) -> None:
    from langchain_core.messages import AIMessage

    cut = AIMessage(
        content='{"inference": "the city is',
        response_metadata={"finish_reason": "length"},
    )
    script.set("attacker", cut, rlaa_attack("Calgary, Canada"))
    script.set("arbitrator", verdicts(city_country="low", relationship_status="low"))

    out = run(rlaa, Context)

    attacks = [c for c in out["calls"] if c["step"] == "attack"]
    assert [c["ok"] for c in attacks] == [False, True]
    assert "cut off at 1024 tokens; asked with 2048" in attacks[0]["error"]
    assert script.decodings["attacker"].max_tokens == 2048
    assert out["status"] == "converged"


def test_when_a_product_answer_is_cut_off_then_it_is_repaired_as_before(
    script: Script,
) -> None:
    from langchain_core.messages import AIMessage

    from anonygraph.graphs import rlaa as rlaa_graph
    from anonygraph.state.context import Context as ProductContext

    cut = AIMessage(
        content='{"city_country": {"reasoning": "x", "guesses": ["Calgary"], '
        '"certainty": 5}, "relationship_status": {"reasoning": "cut',
        response_metadata={"finish_reason": "length"},
    )
    script.set("attacker", cut)
    script.set("arbitrator", verdicts_json_low())
    graph = rlaa_graph.build_graph().compile()
    ctx = ProductContext(attributes=ATTRS, default_model="local", max_iterations=0)
    out = asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx))
    assert len(script.prompts("attacker")) == 1
    assert "attacker" not in script.decodings
    assert out["calls"][0]["ok"] is True


def verdicts_json_low() -> str:
    from scripted import verdicts_json

    return verdicts_json(city_country="low")


def seal_protocol_attack(occupation: str) -> str:
    return json.dumps(
        {
            "location": {"reasoning": "names the city", "guess": "Canada"},
            "occupation": {"reasoning": "talks shop", "guess": occupation},
        }
    )


PAPER_JUDGE = json.dumps(
    {
        "readability": {"explanation": "reads well", "score": 8},
        "meaning": {"explanation": "same", "score": 6},
        "hallucinations": {"explanation": "none added", "score": 1},
    }
)


def test_when_the_evaluator_runs_the_seal_protocol_then_less_precise_scores_half(
    script: Script,
) -> None:
    from anonygraph.graphs import evaluate
    from anonygraph.prompts.seal import PAPER_SEAL_INFER_PROMPT
    from anonygraph.state.evaluate import EvalContext

    script.set("attacker", seal_protocol_attack("nurse"))
    script.set("judge", PAPER_JUDGE)
    # A.1 leaves places and occupations to the validator (D.4): both are asked.
    script.set(
        "validator",
        lambda prompt: json.dumps(
            {"verdicts": ["less precise" if "Calgary" in prompt else "no"]}
        ),
    )
    ctx = EvalContext(
        attributes=["city_country", "occupation"],
        default_model="local",
        profile="paper",
        protocol="seal",
    )
    assert ctx.attack_prompt == PAPER_SEAL_INFER_PROMPT and ctx.validator
    payload = {
        "text": "I moved to a city for work.",
        "original": TEXT,
        "labels": {"city_country": "Calgary, Canada", "occupation": "doctor"},
        "gold_pii": ["Calgary", "wife"],
    }
    graph = evaluate.build_graph().compile()
    out = asyncio.run(graph.ainvoke(payload, context=ctx))

    scores = {m["attribute"]: m.get("score") for m in out["matches"]}
    # "Canada" for "Calgary, Canada" is less precise: SEAL scores it 0.5 on
    # location; "nurse" for "doctor" is no.
    assert scores == {"city_country": 0.5, "occupation": 0.0}
    decided = {m["attribute"]: m["guesses"][0]["decided_by"] for m in out["matches"]}
    assert decided == {"city_country": "validator", "occupation": "validator"}
    assert len(script.prompts("validator")) == 2
    assert out["utility"]["hallucination"] == 1 and out["utility"]["meaning"] == 6
    assert out["metrics"]["gold_pii"] == {"leaked": 0, "total": 2}
    assert 0 < out["metrics"]["length_ratio"] < 1
    assert "semantic" in out["metrics"]
    assert script.decodings["attacker"].temperature == 0.1


def test_when_reports_score_paper_matches_then_overall_and_attributes_follow() -> None:
    from anonygraph.reporting.tables import attribute_accuracy, overall, privacy

    def row(*scores: float) -> dict[str, Any]:
        matches = [
            {"attribute": a, "score": s, "score@3": s, "guesses": []}
            for a, s in zip(("age", "sex"), scores, strict=False)
        ]
        return {"matches": json.dumps(matches)}

    rows = [row(1.0, 0.5), row(0.0, 1.0)]
    assert privacy(rows) == pytest.approx(2.5 / 4)
    assert attribute_accuracy(rows) == {"age": 0.5, "sex": 0.75}
    # SEAL 5.1: privacy gain 50 %, utility loss 20 % -> Overall 0.3.
    assert overall({"PRIV": 0.3, "UTIL": 0.8}, {"PRIV": 0.6, "UTIL": 1.0}) == (
        pytest.approx(0.3)
    )


def looping(text: str, unit: str) -> Any:
    from langchain_core.messages import AIMessage

    return AIMessage(
        content=text,
        response_metadata={"finish_reason": "repetition", "repeated": unit},
    )


def test_when_a_paper_answer_loops_then_it_is_asked_again_not_with_more_tokens(
    script: Script,
) -> None:
    # The re-ask with twice the budget is for an answer cut off at the limit;
    # a looping one (the embedded arbitrator's 1,024-4,096-token loops) only
    # loops longer: it is a bad answer, asked again with the error, the loop
    # shown only up to its first repeat.
    script.set("attacker", rlaa_attack("Calgary, Canada"))
    script.set(
        "arbitrator",
        looping('{"verdicts": [{"attribute": "' + "city city " * 20, "city "),
        verdicts(city_country="low", relationship_status="low"),
    )
    out = run(rlaa, Context)
    arbitrations = [c for c in out["calls"] if c["step"] == "arbitrate"]
    assert [c["ok"] for c in arbitrations] == [False, True]
    assert "started repeating 'city '" in arbitrations[0]["error"]
    assert "arbitrator" not in script.decodings  # never asked with more tokens
    again = script.prompts("arbitrator")[1]
    assert "do not repeat yourself" in again
    assert "city " * 3 not in again
    assert out["status"] == "converged"


def test_when_every_answer_loops_then_the_step_fails_naming_a_larger_model(
    script: Script,
) -> None:
    from anonygraph.llm import ModelOutputError

    script.set("attacker", rlaa_attack("Calgary, Canada"))
    script.set("arbitrator", looping("verdict " * 30, "verdict "))
    with pytest.raises(ModelOutputError) as caught:
        run(rlaa, Context)
    error = caught.value
    assert error.step == "arbitrate" and len(error.calls) == 3  # 1 + max_retries
    assert "started repeating 'verdict '" in str(error)
    assert re.search(r"stopped after \d+ tokens", str(error))
    assert "larger model (--model arbitrator=SPEC)" in str(error)
    assert "--max-retries" not in str(error) and "max_tokens" not in str(error)
    assert "arbitrator" not in script.decodings


def test_when_a_product_answer_loops_then_only_the_text_before_the_loop_is_repaired(
    script: Script,
) -> None:
    from anonygraph.graphs import rlaa as rlaa_graph
    from anonygraph.state.context import Context as ProductContext

    # The product repairs a cut answer; a looping one is cut where the loop
    # began, so "Calgary Calgary ..." never becomes a guess.
    script.set(
        "attacker",
        looping(
            '{"city_country": {"reasoning": "lives near the Bow", "guesses": '
            '["Calgary, Canada", "' + "Calgary " * 30,
            "Calgary ",
        ),
    )
    script.set("arbitrator", verdicts(city_country="low", relationship_status="low"))
    graph = rlaa_graph.build_graph().compile()
    ctx = ProductContext(attributes=ATTRS, default_model="local", max_iterations=0)
    out = asyncio.run(graph.ainvoke({"text": TEXT}, context=ctx))
    assert len(script.prompts("attacker")) == 1
    arbitrated = script.prompts("arbitrator")[0]
    assert "Calgary, Canada" in arbitrated and "Calgary Calgary" not in arbitrated
    attack = [c for c in out["calls"] if c["step"] == "attack"][0]
    assert "started repeating 'Calgary '" in attack["error"]


# IntentAnony 5.5: Intent Overlap and Stability F1 (Figure 5). The paper
# names them without a definition (tests/data/papers/intentanony.json); ours
# is in anonygraph.tools.intent_metrics.


@pytest.mark.parametrize(
    ("original", "rewrite", "overlap", "f1"),
    [
        ({"I1": 0.6, "I4": 0.4}, {"I1": 0.6, "I4": 0.4}, 1.0, 1.0),
        ({"I1": 0.6, "I4": 0.4}, {"I1": 0.5, "I2": 0.5}, 1 / 3, 0.5),
        ({"I1": 1.0}, {"I1": 0.5}, 0.5, 1.0),  # same intent, half its weight
        ({"I1": 0.5, "I4": 0.5}, {"I1": 1.0}, 1 / 3, 2 / 3),  # an intent lost
        ({"I3": 1.0}, {"I5": 1.0}, 0.0, 0.0),
        ({}, {}, 1.0, 1.0),
        ({"I2": 0.3}, {}, 0.0, 0.0),
    ],
)
def test_when_intents_are_compared_then_overlap_and_stability_f1_are_so(
    original: dict[str, float], rewrite: dict[str, float], overlap: float, f1: float
) -> None:
    from anonygraph.tools.intent_metrics import intent_overlap, stability_f1

    paper = facts("intentanony")["evaluation"]["intent_preservation"]
    assert paper["metrics"] == ["Intent Overlap", "Stability F1"]
    assert paper["definition"] is None  # ours, said so in the module
    assert intent_overlap(original, rewrite) == pytest.approx(overlap)
    assert stability_f1(original, rewrite) == pytest.approx(f1)


def test_when_the_evaluator_runs_the_intentanony_protocol_then_intents_are_compared(
    script: Script,
) -> None:
    from scripted import fenced

    from anonygraph.graphs import evaluate
    from anonygraph.reporting.tables import utility_parts
    from anonygraph.state.evaluate import EvalContext

    rewrite = "I moved to a city for work and we hate the cold."

    def intents(prompt: str) -> str:
        if fenced(prompt) == TEXT:
            return json.dumps({"I1": 0.6, "I4": 0.4})
        assert fenced(prompt) == rewrite
        return json.dumps({"I1": 0.5, "I2": 0.5})

    guess = {"Type": "location", "Inference": "x", "Guess": "Oslo; Bergen; Rome"}
    script.set("attacker", json.dumps({"attributes": [{**guess, "Certainty": 2}]}))
    script.set("judge", PAPER_JUDGE)
    script.set("validator", json.dumps({"verdicts": ["no", "no", "no"]}))
    script.set("intent", intents)
    kw: dict[str, Any] = {"attributes": ["city_country"], "default_model": "local"}
    assert not EvalContext(**kw, profile="paper", protocol="rlaa").intents
    ctx = EvalContext(**kw, profile="paper", protocol="intentanony")
    assert ctx.intents
    graph = evaluate.build_graph().compile()
    labels = {"city_country": "Calgary, Canada"}

    out = asyncio.run(
        graph.ainvoke(
            {"text": rewrite, "original": TEXT, "labels": labels}, context=ctx
        )
    )
    found = out["metrics"]["intents"]
    assert found["original"]["I1"] == 0.6 and found["rewrite"]["I2"] == 0.5
    assert found["overlap"] == pytest.approx(1 / 3)
    assert found["stability_f1"] == pytest.approx(0.5)
    assert "rouge_l" in out["metrics"]  # the score step's metrics stay
    assert [c["step"] for c in out["calls"]].count("intents") == 2
    row = {"utility": "{}", "metrics": json.dumps(out["metrics"])}
    parts = utility_parts([row, {"utility": "{}", "metrics": "{}"}])
    assert parts["IOV"] == pytest.approx(1 / 3) and parts["ISF1"] == 0.5

    # The original text is not compared with itself.
    before = len(script.prompts("intent"))
    same = asyncio.run(
        graph.ainvoke({"text": TEXT, "original": TEXT, "labels": labels}, context=ctx)
    )
    assert "intents" not in same["metrics"]
    assert len(script.prompts("intent")) == before


def test_when_aura_masks_in_the_paper_profile_then_the_blacklist_plays_no_part() -> (
    None
):
    from types import SimpleNamespace

    from anonygraph.graphs.aura import route_after_infer_scope
    from anonygraph.nodes.aura import plan_suppression
    from anonygraph.state.aura import AuraContext
    from anonygraph.state.aura_state import State

    use = facts("aura")["algorithm"]["blacklist_use"]["paper_profile"]
    assert "Phase 1" in use["source"]
    text = "I tune interferometers at the Lindqvist lab."
    # Nothing in A is inferred any more, but a span of B still stands.
    state = State(
        text=text,
        current=text,
        round=1,
        blacklist=[{"quote": "Lindqvist lab", "attribute": "workplace"}],
        inferences=[{"attribute": "age", "reasoning": "", "guesses": []}],
    )
    kw = {"search_backend": "offline", "search_corpus": "c"}
    paper = AuraContext(profile="paper", **kw)
    product = AuraContext(**kw)
    assert paper.blacklist_in_masking is use["blacklist_in_masking"]
    assert product.blacklist_in_masking is True

    def runtime(ctx: AuraContext) -> Any:
        return SimpleNamespace(context=ctx)

    assert route_after_infer_scope(state, runtime(product)) == "plan_suppression"
    assert route_after_infer_scope(state, runtime(paper)) == "build_template"
    policy = plan_suppression(state, runtime(product))["policy"]
    assert [p["evidence"] for p in policy] == [["Lindqvist lab"]]
    assert plan_suppression(state, runtime(paper))["policy"] == []


# E8, E9: each paper's table, rebuilt from our row keys (MEAN and READ as the
# judge gives them, 1-10; UTIL the judge's three scores on 0-1).
PROTOCOL_TABLES = [
    # RLAA Table 1 (4.1, eq. 9): MEAN/READ printed 1-10, no Overall.
    ("rlaa", "rlaa-table-1", "personalreddit", {"Utility": "UTIL", "MEAN": "MEAN",
     "READ": "READ", "PRIV": "PRIV", "HALL": "HALL"}, 10),
    # SEAL Table 2 (5.1): Mean/Read printed 0-1, Overall against Original.
    ("seal", "seal-table-2", "synthpai_hard", {"Utility": "Utility", "MEAN": "Mean",
     "READ": "Read", "PRIV": "Privacy", "HALL": "Hall", "Overall": "Overall"}, 1),
    # IntentAnony Table 1: Utility with BLEU and ROUGE (derived), 0-1 scales.
    ("intentanony", "intentanony-table-1", "personalreddit", {"Utility": "Utility",
     "MEAN": "Mean", "READ": "Read", "PRIV": "Privacy", "HALL": "Hall",
     "Overall": "Overall"}, 1),
]  # fmt: skip


@pytest.mark.parametrize(
    ("protocol", "table_id", "dataset", "printed", "scale"), PROTOCOL_TABLES
)
def test_when_a_report_follows_a_protocol_then_its_columns_are_the_papers(
    protocol: str, table_id: str, dataset: str, printed: dict[str, str], scale: int
) -> None:
    from anonygraph.papers.figures import paper_figures
    from anonygraph.reporting.tables import JUDGE_SCALE, protocol_rows

    assert JUDGE_SCALE[protocol] == scale
    published = [
        r.values
        for r in paper_figures(protocol).table(table_id).rows
        if r.dataset == dataset
    ]
    ours = []
    for v in published:
        mean, read = (v[printed["MEAN"]], v[printed["READ"]])
        mean, read = mean * 10 / scale, read * 10 / scale  # the judge's 1-10
        ours.append(
            {
                "method": "x",
                "PRIV": v[printed["PRIV"]],
                "MEAN": mean,
                "READ": read,
                "HALL": v[printed["HALL"]],
                "UTIL": (mean / 10 + read / 10 + v[printed["HALL"]]) / 3,
                "BLEU": v.get("BLEU"),
                "ROUGE": v.get("ROUGE"),
            }
        )
    for row, v in zip(protocol_rows(ours, protocol), published, strict=True):
        for ours_key, paper_key in printed.items():
            if v[paper_key] is not None:
                assert row[ours_key] == pytest.approx(v[paper_key], abs=1.5e-3), (
                    ours_key,
                    v,
                )


def test_when_the_protocols_are_labelled_then_scales_and_top_k_are_the_facts() -> None:
    from anonygraph.reporting.tables import JUDGE_SCALE, protocol_table

    rlaa_columns = facts("rlaa")["evaluation"]["reported_columns"]
    seal_parts = facts("seal")["evaluation"]["utility"]["components"]
    intent = facts("intentanony")["evaluation"]
    # E9: RLAA Tables 1-2 print 1-10; SEAL 5.1 and IntentAnony Table 1 divide.
    assert rlaa_columns["MEAN"]["scale"] == "1-10" and JUDGE_SCALE["rlaa"] == 10
    assert seal_parts["Mean"] == "meaning/10" and JUDGE_SCALE["seal"] == 1
    assert intent["utility_components"]["Mean"]["scale"] == "0-1"
    assert JUDGE_SCALE["intentanony"] == 1
    row = {"method": "original text", "PRIV": 0.5, "PRIV@3": 0.75, "MEAN": 10.0,
           "READ": 9.0, "HALL": 1.0, "UTIL": 29 / 30, "BLEU": 1.0,
           "ROUGE": 1.0}  # fmt: skip
    rlaa_table = protocol_table([row], "rlaa")
    assert "UTIL = (READ/10 + MEAN/10 + HALL)/3" in rlaa_table
    assert "| 10.00 | 9.00 | 1.0000 |" in rlaa_table
    # E8: IntentAnony's composite is derived from Table 1, and says so.
    assert intent["utility"]["stated_in_paper"] is False
    table = protocol_table([row], "intentanony")
    assert "+ BLEU + ROUGE)/3" in table and "not written in the paper" in table
    assert "| 1.0000 | 0.9000 | 1.0000 |" in table
    # E11: three guesses (D.2), k not stated: top-1 headline, PRIV@3 beside it.
    assert intent["attacker"]["guesses_per_attribute"] == 3
    assert intent["accuracy_k"]["value"] is None
    assert "top-1 is the headline" in table and "does not state which k" in table
    assert "| 0.5000 | 0.7500 |" in table


# S12: SEAL's self-refinement judge. The product's carries our leniency for
# hidden details; the paper's is D.3 (seal.json prompts.judge), which has none.
LENIENCY = ("do not count it against the edit", "costs little")


@pytest.mark.parametrize("profile", ["product", "paper"])
def test_when_seal_judges_its_own_rewrite_then_the_profile_picks_the_judge(
    script: Script, profile: str
) -> None:
    judge = facts("seal")["prompts"]["judge"]
    nothing = json.dumps(
        {
            "location": {"reasoning": "none", "guess": None},
            "married": {"reasoning": "none", "guess": None},
        }
    )
    paper = profile == "paper"
    script.set("attacker", nothing if paper else attack_json())
    script.set("judge", PAPER_JUDGE if paper else judge_json())
    script.set("anonymizer", json.dumps({"anonymized_text": "A move for work."}))
    ctx = SealContext(attributes=ATTRS, profile=profile, max_iterations=1)
    asyncio.run(seal.build_graph().compile().ainvoke({"text": TEXT}, context=ctx))

    prompt = script.prompts("judge")[0]
    lenient = [s for s in LENIENCY if s in prompt]
    if profile == "product":
        assert lenient == list(LENIENCY)
        return
    assert judge["source"] == "Appendix D.3"
    assert judge["leniency_for_hiding_details"] is False and lenient == []
    # D.3's inputs in order (original, then adapted), then its three fields.
    assert prompt.index("Original text:") < prompt.index("Adapted text:")
    fields = [prompt.index(f'"{name}"') for name in judge["output"]["fields"]]
    assert fields == sorted(fields)


# I3 (IntentAnony 5.4, Figures 4 and 7): a distribution of similarity per run.
SIMILARITY_SAMPLES = [
    [0.5],
    [0.9, 0.1],
    [0.83, 0.91, 0.42, 0.77, 0.95, 0.66, 0.88],
    [-0.12, 0.07, 0.31, 0.02],  # the paper profile keeps the raw cosine
]


@pytest.mark.parametrize("values", SIMILARITY_SAMPLES)
def test_when_similarities_are_summarized_then_the_quantiles_are_numpys(
    values: list[float],
) -> None:
    import numpy as np

    from anonygraph.reporting.tables import (
        SIMILARITY_QUANTILES,
        similarities,
        similarity_table,
    )

    assert facts("intentanony")["evaluation"]["semantic_similarity"]["source"] == (
        "Section 5.4; Figures 4 and 7"
    )
    stored = [{"metrics": json.dumps({"semantic": v, "bleu": 0.5})} for v in values]
    stored += [{"metrics": json.dumps({"bleu": 0.5})}, {"metrics": None}]
    assert similarities(stored) == values  # rows never measured are left out
    row = similarity_table({"run": similarities(stored)}).splitlines()[2]
    expected = [np.quantile(values, q) for _, q in SIMILARITY_QUANTILES]
    cells = row.strip("| ").split(" | ")
    assert cells[:3] == ["run", str(len(values)), f"{np.mean(values):.4f}"]
    assert cells[3:] == [f"{v:.4f}" for v in expected]
