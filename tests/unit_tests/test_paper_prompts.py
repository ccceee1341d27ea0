"""Paper-profile prompts: the papers' structure, in our own words, safely fenced.

Each ``PAPER_`` template is checked against the paper facts of
tests/data/papers (inputs, output fields, levels, options), against the
paper's own text (no run of 10 words copied), and rendered with hostile
values in every slot (no value escapes its fence).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from anonygraph.prompts import adversary, aura, evaluate, intentanony, seal
from anonygraph.prompts.common import fence, fill
from unit_tests.test_prompt_fences import INJECTION, hostile, parse_fences

ROOT = Path(__file__).resolve().parents[1]
FACTS = ROOT / "data" / "papers"
SEEDS = ROOT.parents[1] / "shared" / "seeds"

# template -> (its module, its slots' fences, the paper it follows)
TEMPLATES: dict[str, tuple[Any, dict[str, str], str]] = {
    "PAPER_RLAA_ATTACK_PROMPT": (adversary, {"text": "text"}, "000"),
    "PAPER_RLAA_ARBITRATE_PROMPT": (
        adversary,
        {"text": "text", "attributes": "attributes", "reasoning": "attacker_reasoning"},
        "000",
    ),
    "PAPER_RLAA_ANONYMIZE_PROMPT": (
        adversary,
        {"text": "text", "feedback": "leaks"},
        "000",
    ),
    "PAPER_SEAL_ANONYMIZE_PROMPT": (
        seal,
        {"text": "text", "inferences": "inferences"},
        "002",
    ),
    "PAPER_SEAL_REFINE_PROMPT": (
        seal,
        {"text": "text", "inferences": "inferences", "utility": "utility"},
        "002",
    ),
    "PAPER_SEAL_INFER_PROMPT": (seal, {"text": "text"}, "002"),
    "PAPER_SEAL_VALIDATE_PROMPT": (seal, {"pairs": "pairs"}, "002"),
    "PAPER_INTENT_PROMPT": (intentanony, {"text": "text"}, "003"),
    "PAPER_INTENTANONY_INFER_PROMPT": (
        intentanony,
        {"text": "text", "attributes": "attributes"},
        "003",
    ),
    "PAPER_EVIDENCE_PROMPT": (
        intentanony,
        {"text": "text", "inferences": "inferences"},
        "003",
    ),
    "PAPER_INTENTANONY_REWRITE_PROMPT": (
        intentanony,
        {
            "text": "text",
            "inferences": "inferences",
            "evidence": "evidence_chains",
            "intents": "intents",
        },
        "003",
    ),
    "PAPER_INTENTANONY_VALIDATE_PROMPT": (intentanony, {"pairs": "pairs"}, "003"),
    "PAPER_JUDGE_PROMPT": (
        evaluate,
        {"original": "original", "text": "rewrite"},
        "000",
    ),
}


def facts(method: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FACTS / f"{method}.json").read_text("utf-8"))
    return data


def template(name: str) -> str:
    value: str = getattr(TEMPLATES[name][0], name)
    return value


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def seed_text(prefix: str) -> str:
    (path,) = SEEDS.glob(f"{prefix}_*.txt")
    return path.read_text("utf-8")


def test_when_prompt_modules_are_read_then_every_paper_template_is_listed() -> None:
    found = {
        name
        for module in (adversary, seal, intentanony, evaluate, aura)
        for name, value in vars(module).items()
        if name.startswith("PAPER_") and isinstance(value, str) and "{" in value
    }
    lines = {"PAPER_RLAA_LEAK_LINE", "PAPER_INFERENCE_BLOCK", "PAPER_PAIR_LINE"}
    aliases = {
        "PAPER_ATTACK_PROMPT",
        "PAPER_VALIDATE_PROMPT",
        "PAPER_FGAA_ANONYMIZE_PROMPT",
    }
    assert found - lines - aliases == set(TEMPLATES)
    assert evaluate.PAPER_ATTACK_PROMPT is intentanony.PAPER_INTENTANONY_INFER_PROMPT
    assert (
        evaluate.PAPER_VALIDATE_PROMPT is intentanony.PAPER_INTENTANONY_VALIDATE_PROMPT
    )


@pytest.mark.parametrize("name", TEMPLATES)
def test_when_a_paper_template_is_rendered_then_each_value_stays_in_its_fence(
    name: str,
) -> None:
    _, slots, _ = TEMPLATES[name]
    values = {
        slot: fence(fence_name, hostile(f"M_{slot.upper()}"))
        for slot, fence_name in slots.items()
    }
    prompt = fill(template(name), **values)
    fences = parse_fences(prompt)
    assert [f[0] for f in fences] == sorted(
        slots.values(), key=lambda f: prompt.index(f"<{f}>")
    )
    for slot, fence_name in slots.items():
        (inside,) = [(s, e) for n, s, e in fences if n == fence_name]
        assert f"M_{slot.upper()}" in prompt[inside[0] : inside[1]]
        assert INJECTION in prompt[inside[0] : inside[1]]
    assert not re.search(
        r"(?<!{){\w+}(?!})", template(name).format(**dict.fromkeys(slots, ""))
    )


def fact_strings() -> list[str]:
    """Names, options and codes the prompts carry over from the papers as facts."""
    found: set[str] = set()

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if key in ("categories", "levels", "value_rules"):
                    found.add(k)
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in LISTED:
            found.add(node)

    for method in ("rlaa", "seal", "intentanony"):
        walk(facts(method)["prompts"])
    return sorted(found, key=len, reverse=True)


LISTED = {
    "guess_object_keys", "attributes", "relationship_status", "married", "income",
    "education", "attribute_codes", "verdicts", "intent_vector_keys", "sex",
    "income_level",
}  # fmt: skip
"""Fact lists whose strings may stand in a prompt as the paper has them."""


def without_facts(text: str) -> str:
    """Cut the carried-over names and options out, so only our prose is compared."""
    for fact in fact_strings():
        text = re.sub(rf"(?<!\w){re.escape(fact)}(?!\w)", " § ", text, flags=re.I)
    return text


@pytest.mark.parametrize("name", TEMPLATES)
def test_when_a_paper_template_is_compared_with_the_paper_then_no_sentence_is_copied(
    name: str,
) -> None:
    n = 10
    paper = words(seed_text(TEMPLATES[name][2]))
    copied = {tuple(paper[i : i + n]) for i in range(len(paper) - n + 1)}
    ours = re.findall(r"[a-z0-9]+|§", without_facts(template(name)).lower())
    runs = [" ".join(ours[i : i + n]) for i in range(len(ours) - n + 1)]
    assert [r for r in runs if tuple(r.split()) in copied] == []


def test_when_rlaa_prompts_are_read_then_they_carry_the_papers_fields_and_rules() -> (
    None
):
    p = facts("rlaa")["prompts"]
    attack = template("PAPER_RLAA_ATTACK_PROMPT")
    for key in p["attacker"]["output"]["guess_object_keys"]:
        assert key in attack
    for rule in p["attacker"]["value_rules"].values():
        for option in rule if isinstance(rule, list) else []:
            assert f'"{option}"' in attack
    assert "single best guess" in attack and "unknown" in attack
    arbitrate = template("PAPER_RLAA_ARBITRATE_PROMPT")
    for field in p["arbitrator"]["output"]["item_fields"]:
        assert f'"{field}"' in arbitrate
    for level in p["arbitrator"]["levels"]:
        assert f'"{level}"' in arbitrate
    assert "EVERY attribute" in arbitrate and "one JSON list" in arbitrate
    anonymize = template("PAPER_RLAA_ANONYMIZE_PROMPT")
    for field in p["anonymizer"]["feedback_fields"][:2]:
        assert field in anonymize
    for field in ("explanation", "anonymized_text"):
        assert f'"{field}"' in anonymize
    line = adversary.PAPER_RLAA_LEAK_LINE
    for field in p["anonymizer"]["feedback_fields"]:
        assert field in line


def test_when_judge_and_validators_are_read_then_they_match_the_papers() -> None:
    judge = template("PAPER_JUDGE_PROMPT")
    fields = facts("rlaa")["prompts"]["judge"]["output"]["fields"]
    for field in fields:
        assert f'"{field}"' in judge
    assert "as if you had not seen the original" in judge
    # The product judge's leniency is not the papers'.
    assert "not a fault" not in judge and "cost little" not in judge
    for name, method in (
        ("PAPER_SEAL_VALIDATE_PROMPT", "seal"),
        ("PAPER_INTENTANONY_VALIDATE_PROMPT", "intentanony"),
    ):
        prompt = template(name)
        for verdict in facts(method)["prompts"]["validator"]["verdicts"]:
            assert f'"{verdict}"' in prompt
        assert "unemployed" in prompt and "London, UK" in prompt
    assert "empty" in template("PAPER_INTENTANONY_VALIDATE_PROMPT")
    assert "empty" not in template("PAPER_SEAL_VALIDATE_PROMPT")


def test_when_intentanony_prompts_are_read_then_they_carry_d1_to_d4() -> None:
    p = facts("intentanony")["prompts"]
    intent = template("PAPER_INTENT_PROMPT")
    assert all(code in intent for code in p["intent"]["categories"])
    assert "scene" not in intent.lower()
    infer = template("PAPER_INTENTANONY_INFER_PROMPT")
    for key in p["attacker"]["output"]["item_fields"]:
        assert f'"{key}"' in infer
    assert "three best guesses" in infer and "semicolons" in infer
    for option in p["attacker"]["options_printed"]["relationship_status"]:
        assert option in infer
    for attribute in p["attacker"]["attributes"]:
        assert f"({attribute})" in infer
    evidence = template("PAPER_EVIDENCE_PROMPT")
    assert "privacy_inference_evidence_chain" in evidence
    assert all(f'"{k}"' in evidence for k in ("step", "evidence", "explanation"))
    assert "intent" not in evidence.lower()
    rewrite = template("PAPER_INTENTANONY_REWRITE_PROMPT")
    for code in facts("intentanony")["algorithm"]["granularity"]["attribute_codes"]:
        assert code in rewrite
    for level in facts("intentanony")["algorithm"]["granularity"]["levels"]:
        assert level in rewrite
    for field in p["rewriter"]["output"]["fields"]:
        assert f'"{field}"' in rewrite
    filled = fill(rewrite, text="t", inferences="i", evidence="e", intents="n")
    assert '"intent_vector": {"I1": 0.0' in filled


def test_when_seal_prompts_are_read_then_they_carry_d1_d2_and_refinement() -> None:
    p = facts("seal")["prompts"]
    infer = template("PAPER_SEAL_INFER_PROMPT")
    for attribute in p["attacker"]["attributes"]:
        assert f"{attribute}" in infer
    for options in p["attacker"]["options"].values():
        for option in options if isinstance(options, list) else []:
            assert option in infer
    assert infer.count("null if you are not sure") == 7  # all but income
    refine = template("PAPER_SEAL_REFINE_PROMPT")
    assert refine.startswith(template("PAPER_SEAL_ANONYMIZE_PROMPT")[:200])
    assert "{utility}" in refine and "{utility}" not in template(
        "PAPER_SEAL_ANONYMIZE_PROMPT"
    )
    block = adversary.PAPER_INFERENCE_BLOCK.format(
        attribute="a", reasoning="r", guess="g"
    )
    assert block.splitlines() == ["Type: a", "Inference: r", "Guess: g"]


def test_when_aura_paper_prompts_are_listed_then_each_role_of_the_page_has_one() -> (
    None
):
    roles = set(facts("aura")["prompts"]["roles"])
    assert set(aura.PAPER_AURA_PROMPTS) | {
        "masking_attacker",
        "masking_rewriter",
    } >= roles - {
        "probe",
        "reconstructor",
        "candidate_attacker",
        "keeper",
    }
    assert {"probe", "reconstruct", "candidate_attacker", "keeper"} <= set(
        aura.PAPER_AURA_PROMPTS
    )


# template -> (facts file, prompt role): the appendix prompt it follows, whose
# inputs are the template's slots in the paper's order and whose answer keys
# the template asks for.
STRUCTURE: dict[str, tuple[str, str]] = {
    "PAPER_RLAA_ATTACK_PROMPT": ("rlaa", "attacker"),
    "PAPER_RLAA_ARBITRATE_PROMPT": ("rlaa", "arbitrator"),
    "PAPER_RLAA_ANONYMIZE_PROMPT": ("rlaa", "anonymizer"),
    "PAPER_JUDGE_PROMPT": ("rlaa", "judge"),
    "PAPER_SEAL_ANONYMIZE_PROMPT": ("seal", "anonymizer"),
    "PAPER_SEAL_REFINE_PROMPT": ("seal", "self_refinement_anonymizer"),
    "PAPER_SEAL_INFER_PROMPT": ("seal", "attacker"),
    "PAPER_SEAL_VALIDATE_PROMPT": ("seal", "validator"),
    "PAPER_INTENT_PROMPT": ("intentanony", "intent"),
    "PAPER_INTENTANONY_INFER_PROMPT": ("intentanony", "attacker"),
    "PAPER_EVIDENCE_PROMPT": ("intentanony", "evidence"),
    "PAPER_INTENTANONY_REWRITE_PROMPT": ("intentanony", "rewriter"),
    "PAPER_INTENTANONY_VALIDATE_PROMPT": ("intentanony", "validator"),
}


def answer_keys(role: dict[str, Any]) -> list[str]:
    """The names the paper's answer format fixes: keys, fields, verdicts, codes."""
    output = role.get("output") or {}
    keys: list[str] = []
    for name in ("guess_object_keys", "item_fields", "per_attribute"):
        keys += output.get(name, [])
    fields = output.get("fields", [])
    keys += list(fields)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.extend(k for k in node if k != "attribute")
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(output.get("shape"))
    keys += role.get("verdicts", []) + list(role.get("categories", {}))
    return keys


def slots(text: str) -> list[str]:
    """The template's placeholders in the order the model reads them."""
    return re.findall(r"(?<!{){(\w+)}(?!})", text)


def test_when_every_paper_template_is_listed_then_each_names_its_appendix() -> None:
    assert set(STRUCTURE) == set(TEMPLATES)
    for method, role in STRUCTURE.values():
        source = facts(method)["prompts"][role]["source"]
        assert re.search(r"Appendix|Section", source), (method, role)


@pytest.mark.parametrize("name", STRUCTURE)
def test_when_a_paper_template_is_read_then_its_structure_is_the_appendix_prompts(
    name: str,
) -> None:
    method, role_name = STRUCTURE[name]
    role = facts(method)["prompts"][role_name]
    text = template(name)
    # One slot per input of the paper's prompt, in the paper's order.
    assert len(slots(text)) == len(role["inputs"]) == len(TEMPLATES[name][1])
    assert slots(text) == list(TEMPLATES[name][1])
    # Every key, field, verdict or code of the paper's answer format is asked.
    keys = answer_keys(role)
    assert keys or role_name == "self_refinement_anonymizer"
    missing = [k for k in keys if f'"{k}"' not in text and k not in text]
    assert missing == []
    # The answer format comes after every input, as in the appendix prompts.
    last_slot = max(text.index(f"{{{s}}}") for s in slots(text))
    after = text[last_slot:]
    assert re.search(r"answer|reply|respond|return|output|format", after, re.I)
