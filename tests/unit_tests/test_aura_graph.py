"""Control flow of AURA with scripted models: probe, masking, selection."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Command
from pydantic import ValidationError
from scripted import Script, attack_json, rewrite_json

from anonygraph.graphs import GRAPHS, aura, evaluate
from anonygraph.prompts.aura import SCOPE_PRIOR_NONE, VARIATIONS
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.state.answers import scope_answer_model
from anonygraph.state.aura import AuraContext, Candidate
from anonygraph.state.evaluate import EvalContext
from anonygraph.tools.aura.scope import scope_name
from anonygraph.tools.aura.selection import select_candidate
from anonygraph.tools.search import WebSearchDisabledError

TEXT = (
    "I run the Blue Heron glass studio on Vashon Island and teach lampworking on "
    "weekends. My wife keeps the books."
)
CONVERGED = (
    "I run a craft studio on an island and teach a craft on weekends. "
    "My partner keeps the books."
)
ATTRS = ["city_country", "occupation", "relationship_status"]
SEEDS = {"MASK_1": "a craft", "MASK_2": "an island", "MASK_3": "a craft",
         "MASK_4": "partner"}  # fmt: skip
GENERALIZE = {
    "the Blue Heron glass studio": ("a craft studio", ("occupation", "studio_name")),
    "Vashon Island": ("an island", ("city_country",)),
    "lampworking": ("a craft", ("occupation",)),
    "My wife": ("My partner", ("relationship_status",)),
}
"""Specific words -> (what the scripted anonymizer puts there, when asked for)."""

Reply = Callable[[str], str]


def tagged(prompt: str, tag: str) -> str:
    """Return what a prompt holds between <tag> and </tag>."""
    found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", prompt, re.S)
    assert found, f"no <{tag}> in the prompt"
    return found.group(1)


def probe_json(*findings: tuple[str, str, str], matched: str = "") -> str:
    """A probe answer: (attribute, kind, quote) per finding."""
    return json.dumps(
        {
            "findings": [
                {"attribute": a, "kind": k, "description": f"reveals {a}", "quote": q}
                for a, k, q in findings
            ],
            "matched_page": matched,
        }
    )


def step_json(query: str = "") -> str:
    """A search step: search ``query``, or stop when it is empty."""
    action = "search" if query else "answer"
    return json.dumps({"thought": "scripted", "action": action, "query": query})


def privacy_json(severity: int, *details: str) -> str:
    return json.dumps(
        {"reasoning": "scripted", "details": list(details), "severity": severity}
    )


def profile_json() -> str:
    return json.dumps(
        {"theme": "running a small craft business", "affect": "content",
         "relational": "a spouse helps", "expertise": "glass craft"}
    )  # fmt: skip


def utility_json(verdict: str = "kept") -> str:
    dims = ("theme", "affect", "relational", "expertise")
    return json.dumps({**{d: verdict for d in dims}, "note": "scripted"})


def leaks_in(text: str) -> str:
    """The scripted attacker: whatever specific words remain, it infers."""
    return attack_json(
        city_country=("Vashon Island, USA", 5) if "Vashon" in text else None,
        occupation=("glassblower", 4) if "glass" in text else None,
        relationship_status=("married", 4) if "wife" in text else None,
        studio_name=("Blue Heron", 5) if "Heron" in text else None,
    )


def attacker(
    probe: str = probe_json(),
    step: Reply = lambda prompt: step_json(),
    infer: Reply = lambda prompt: leaks_in(tagged(prompt, "text")),
    score: Reply = lambda prompt: privacy_json(1),
) -> Reply:
    """Dispatch the attacker role's four jobs on what the prompt asks."""

    def reply(prompt: str) -> str:
        if "Decide the next step" in prompt:
            return step(prompt)
        if '"matched_page"' in prompt:
            return probe
        if '"severity"' in prompt:
            return score(prompt)
        return infer(prompt)

    return reply


def anonymizer(prompt: str) -> str:
    """Generalize the words behind every leak the prompt lists."""
    text = tagged(prompt, "text")
    for specific, (general, attributes) in GENERALIZE.items():
        if any(f"] {attribute}:" in prompt for attribute in attributes):
            text = text.replace(specific, general)
    return rewrite_json(text)


def keeper(verdict: Reply = lambda prompt: utility_json()) -> Reply:
    return lambda p: profile_json() if "<rewrite>" not in p else verdict(p)


def reconstructor(*fillings: dict[str, str]) -> Reply:
    """Candidate i (told by its variation hint) answers ``fillings[i]``."""

    def reply(prompt: str) -> str:
        index = next(i for i, hint in enumerate(VARIATIONS) if hint in prompt)
        return json.dumps(fillings[min(index, len(fillings) - 1)])

    return reply


def script_studio(
    script: Script,
    *fillings: dict[str, str],
    probe: str = probe_json(),
    infer: Reply | None = None,
    score: Reply = lambda prompt: privacy_json(1),
    verdict: Reply = lambda prompt: utility_json(),
) -> None:
    """The usual scripted record: one rewrite converges, N candidates follow."""
    script.set(
        "attacker",
        attacker(probe=probe, score=score, **({"infer": infer} if infer else {})),
    )
    script.set("anonymizer", anonymizer)
    script.set("keeper", keeper(verdict))
    script.set("reconstructor", reconstructor(*(fillings or (SEEDS,))))


def run(text: str = TEXT, **context: Any) -> dict[str, Any]:
    graph: Any = aura.build_graph().compile()
    settings = {"attributes": ATTRS, "num_candidates": 1, **context}
    return asyncio.run(graph.ainvoke({"text": text}, context=AuraContext(**settings)))


def candidate(
    index: int, severity: int, specific: int, loss: float, rejected: bool = False
) -> Candidate:
    return Candidate(
        index=index,
        severity=severity,
        specific=specific,
        loss=loss,
        rejected=["scripted problem"] if rejected else [],
    )


# --- Selection order -------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "max_specific", "winner", "rule"),
    [
        # Within C_max the lowest (S, L) wins, not the lowest C.
        ([(0, 2, 0, 0.1), (1, 1, 1, 0.9), (2, 1, 1, 0.2)], 1, 2, "within_c_max"),
        ([(0, 3, 0, 0.0), (1, 1, 1, 0.9)], 1, 1, "within_c_max"),
        # Nothing within C_max: the lowest (C, S, L) in that order.
        ([(0, 0, 3, 0.0), (1, 5, 2, 0.9), (2, 4, 2, 0.9)], 1, 2, "fewest_details"),
        ([(0, 1, 2, 0.5), (1, 1, 2, 0.4)], 0, 1, "fewest_details"),
        # Ties go to the lower index.
        ([(0, 1, 0, 0.5), (1, 1, 0, 0.5)], 1, 0, "within_c_max"),
    ],
)
def test_when_candidates_are_scored_then_selection_is_privacy_first(
    pool: list[tuple[int, int, int, float]], max_specific: int, winner: int, rule: str
) -> None:
    chosen, how = select_candidate([candidate(*c) for c in pool], max_specific)

    assert (chosen.index if chosen else None, how) == (winner, rule)


def test_when_the_best_scores_belong_to_a_rejected_candidate_then_it_is_skipped() -> (
    None
):
    pool = [candidate(0, 0, 0, 0.0, rejected=True), candidate(1, 3, 2, 0.8)]
    unscored = Candidate(index=2, rejected=[], severity=0, specific=0)

    chosen, how = select_candidate([*pool, unscored], 1)

    assert (chosen.index if chosen else None, how) == (1, "fewest_details")
    assert select_candidate(pool[:1], 1) == (None, "no_valid_candidate")


def test_when_three_candidates_compete_in_the_graph_then_lowest_s_then_l_wins(
    script: Script,
) -> None:
    close = SEEDS
    broad = {**SEEDS, "MASK_1": "a small", "MASK_3": "classes"}
    own = {**SEEDS, "MASK_1": "an art", "MASK_2": "the coast"}

    def score(prompt: str) -> str:
        text = tagged(prompt, "text")
        if "an art" in text:  # own: two details, severity 1
            return privacy_json(1, "an art studio", "the coast")
        if "a small" in text:  # broad: no detail, severity 2
            return privacy_json(2)
        return privacy_json(1, "a craft studio")  # close: one detail, severity 1

    def verdict(prompt: str) -> str:
        broad = "a small" in tagged(prompt, "rewrite")
        return utility_json("partly" if broad else "kept")

    script_studio(script, close, broad, own, score=score, verdict=verdict)

    out = run(num_candidates=3, max_specific=1)

    by_index = {c["index"]: c for c in out["candidates"]}
    assert [(c["specific"], c["severity"], c["loss"]) for c in by_index.values()] == [
        (1, 1, 0.0),
        (0, 2, 0.5),
        (2, 1, 0.0),
    ]
    assert out["choice"]["index"] == 0 and out["choice"]["rule"] == "within_c_max"
    assert "lowest (S, L)" in out["choice"]["reason"]
    assert out["status"] == "selected"
    assert out["anonymized"] == by_index[0]["text"] == CONVERGED
    assert len(script.prompts("reconstructor")) == 3
    assert sum('"severity"' in p for p in script.prompts("attacker")) == 3

    strict = run(num_candidates=3, max_specific=0)

    assert strict["choice"]["index"] == 1
    assert strict["anonymized"].startswith("I run a small studio")


# --- Convergence edge --------------------------------------------------------


def test_when_one_rewrite_hides_everything_then_masking_stops_converged(
    script: Script,
) -> None:
    script_studio(script)

    out = run(mask_rounds=3)

    assert len(script.prompts("anonymizer")) == 1
    assert out["mask_status"] == "converged"
    assert [it["round"] for it in out["iterations"]] == [0, 1]
    assert out["iterations"][0]["rewritten"] == CONVERGED
    assert out["iterations"][1]["rewritten"] is None
    policy = {p["attribute"]: p for p in out["iterations"][0]["policy"]}
    assert policy["city_country"]["action"] == "address"
    assert [c["step"] for c in out["calls"]][:4] == [
        "probe",
        "profile",
        "mask_attack",
        "anonymize",
    ]


def test_when_the_attacker_always_infers_then_r_mask_rewrites_bound_the_loop(
    script: Script,
) -> None:
    script_studio(script, infer=lambda p: attack_json(city_country=("Seattle, USA", 3)))

    out = run(mask_rounds=2)

    # Round 2 gets the same text back: refused as unchanged, asked once more.
    assert len(script.prompts("anonymizer")) == 3
    assert "unchanged" in script.prompts("anonymizer")[2]
    mask_attacks = [c for c in out["calls"] if c["step"] == "mask_attack"]
    assert len(mask_attacks) == 2
    assert out["mask_status"] == "max_rounds"
    assert [it["round"] for it in out["iterations"]] == [0, 1]


def test_when_guesses_are_wild_then_nothing_counts_as_inferable(
    script: Script,
) -> None:
    script_studio(script, infer=lambda p: attack_json(city_country=("Paris", 1)))

    out = run(min_certainty=2)

    assert script.prompts("anonymizer") == []
    assert out["mask_status"] == "converged"


def test_when_nothing_is_inferable_then_the_empty_template_returns_the_text(
    script: Script,
) -> None:
    script_studio(script, infer=lambda p: attack_json(city_country=None))

    out = run()

    assert out["template"]["masks"] == [] and out["template"]["text"] == TEXT
    assert out["status"] == "no_masks" and out["anonymized"] == TEXT
    assert script.prompts("reconstructor") == []
    assert out.get("choice", {}) == {} and out.get("candidates", []) == []


def test_when_the_attacker_misses_a_blacklisted_span_then_it_is_still_rewritten(
    script: Script,
) -> None:
    script_studio(
        script,
        probe=probe_json(("city_country", "personal", "Vashon Island")),
        infer=lambda p: attack_json(city_country=None),
    )

    out = run(mask_rounds=2)

    (rewrite,) = script.prompts("anonymizer")
    assert "[generalize] city_country: these words could re-identify" in rewrite
    assert '"Vashon Island"' in rewrite
    assert "Vashon" not in out["anonymized"] and out["mask_status"] == "converged"
    assert [m["original"] for m in out["template"]["masks"]] == ["Vashon Island"]


# --- The three variants ------------------------------------------------------

PROBE_FINDINGS = probe_json(
    ("studio name", "institution", "Blue Heron glass studio"),
    ("location", "personal", "vashon  island"),
    ("craft_method", "domain_practice", "glass-fusing kiln schedules"),
)


def test_when_adaptive_then_the_scope_is_the_base_plus_what_the_probe_found(
    script: Script,
) -> None:
    script_studio(script, probe=PROBE_FINDINGS)

    out = run(variant="adaptive")

    (probe_prompt,) = [p for p in script.prompts("attacker") if "matched_page" in p]
    assert "- occupation: current job or occupation" in probe_prompt
    assert [(s["name"], s["source"]) for s in out["scope"]] == [
        ("city_country", "probe"),
        ("occupation", "base"),
        ("relationship_status", "base"),
        ("studio_name", "probe"),
    ]
    assert out["scope_source"] == "probe"
    assert [(b["quote"], b["attribute"]) for b in out["blacklist"]] == [
        ("Blue Heron glass studio", "studio_name"),
        ("Vashon Island", "city_country"),
    ]
    assert any("glass-fusing kiln schedules" in e for e in out["errors"])
    mask_attack = next(p for p in script.prompts("attacker") if "guessing game" in p)
    assert "- studio_name: reveals studio name" in mask_attack
    rewrite = script.prompts("anonymizer")[0]
    assert "[generalize] studio_name" in rewrite
    assert '"Blue Heron glass studio"' in rewrite


def test_when_8attr_then_no_probe_runs_and_the_scope_is_the_base(
    script: Script, tmp_path: Path
) -> None:
    script_studio(script, probe=PROBE_FINDINGS)
    corpus = tmp_path / "pages"
    corpus.mkdir()
    (corpus / "page.txt").write_text("Vashon Island glass")

    out = run(
        variant="8attr",
        search_corpus=str(corpus),
        search_index=str(tmp_path / "index.sqlite"),
    )

    assert not any("matched_page" in p for p in script.prompts("attacker"))
    assert not any("Decide the next step" in p for p in script.prompts("attacker"))
    assert [s["name"] for s in out["scope"]] == ATTRS
    assert out["scope_source"] == "fixed" and out.get("blacklist", []) == []
    assert out.get("search_log", []) == [] and out["status"] == "selected"


def test_when_pure_then_only_what_the_probe_found_is_protected(
    script: Script,
) -> None:
    script_studio(script, probe=PROBE_FINDINGS)

    out = run(variant="pure")

    (probe_prompt,) = [p for p in script.prompts("attacker") if "matched_page" in p]
    assert SCOPE_PRIOR_NONE in probe_prompt and "- occupation:" not in probe_prompt
    assert [(s["name"], s["source"]) for s in out["scope"]] == [
        ("studio_name", "probe"),
        ("city_country", "probe"),
    ]
    mask_attack = next(p for p in script.prompts("attacker") if "guessing game" in p)
    assert "relationship_status" not in mask_attack
    assert "My wife" in out["anonymized"]  # out of the pure scope: kept


@pytest.mark.parametrize("variant", ["adaptive", "pure"])
def test_when_the_probe_finds_nothing_then_the_scope_falls_back_to_the_base(
    script: Script, variant: str
) -> None:
    script_studio(script, probe=probe_json(("age", "personal", "not in the text")))

    out = run(variant=variant)

    assert [(s["name"], s["source"]) for s in out["scope"]] == [
        (name, "fallback") for name in ATTRS
    ]
    assert out["scope_source"] == "fallback" and out["blacklist"] == []
    assert any("falls back" in e for e in out["errors"])
    assert out["status"] == "selected"


@pytest.mark.parametrize(
    ("label", "kind", "name"),
    [
        ("Location", "personal", "city_country"),
        ("Lab Tool-Stack", "tool_stack", "lab_tool_stack"),
        ("3D printer", "tool_stack", "cue_3d_printer"),
        ("model_fields", "other", "cue_model_fields"),
        ("copy", "other", "copy_cue"),
        ("", "institution", "institution"),
    ],
)
def test_when_the_probe_names_an_attribute_then_it_becomes_a_safe_key(
    label: str, kind: str, name: str
) -> None:
    assert scope_name(label, kind) == name


def test_when_the_probe_claims_a_page_no_search_showed_then_it_is_dropped(
    script: Script,
) -> None:
    script_studio(
        script,
        probe=probe_json(("city_country", "personal", "Vashon Island"), matched="X"),
    )

    out = run()

    assert out["probe_match"] == ""
    assert "probe: page 'X' is not among the search results; dropped" in out["errors"]


def test_when_a_variant_is_unknown_then_the_context_refuses_it() -> None:
    with pytest.raises(ValueError, match="unknown AURA variant 'full'"):
        AuraContext(variant="full")
    with pytest.raises(ValueError, match="num_candidates"):
        AuraContext(num_candidates=0)


def test_when_scope_has_custom_attributes_then_the_attacker_schema_names_them() -> None:
    schema = scope_answer_model(
        ["age", "tool_stack"], {"tool_stack": "software they use"}, identify=True
    )

    assert list(schema.model_fields) == ["age", "tool_stack", "identified_profile"]
    properties = schema.model_json_schema()["properties"]
    assert properties["tool_stack"]["description"] == "software they use"
    assert schema.model_json_schema()["required"] == list(schema.model_fields)


# --- Bad candidates ----------------------------------------------------------


def test_when_a_candidate_restores_or_leaves_gaps_then_it_is_rejected_unscored(
    script: Script,
) -> None:
    restores = {**SEEDS, "MASK_2": "Vashon Island"}
    leaves_gap = {**SEEDS, "MASK_3": ""}
    blacklisted = {**SEEDS, "MASK_1": "my Blue Heron glass"}
    script_studio(
        script,
        restores,
        leaves_gap,
        blacklisted,
        probe=probe_json(("studio", "institution", "Blue Heron glass")),
    )

    out = run(num_candidates=3)

    rejected = {c["index"]: c["rejected"] for c in out["candidates"]}
    assert rejected == {
        0: ["fills [MASK_2] with the original words"],
        1: ["leaves [MASK_3] unfilled"],
        2: ["fills [MASK_1] with blacklisted words (studio)"],
    }
    assert not any('"severity"' in p for p in script.prompts("attacker"))
    assert not any("<rewrite>" in p for p in script.prompts("keeper"))
    assert out["status"] == "no_valid_candidate"
    assert out["anonymized"] == CONVERGED
    assert out["choice"]["index"] is None
    assert "converged text is kept" in out["choice"]["reason"]


def test_when_one_candidate_is_bad_then_the_other_is_chosen(script: Script) -> None:
    missing_key = {k: v for k, v in SEEDS.items() if k != "MASK_4"}
    script_studio(script, missing_key, SEEDS)

    out = run(num_candidates=2)

    assert out["candidates"][0]["rejected"] == ["leaves [MASK_4] unfilled"]
    assert out["candidates"][1]["rejected"] == []
    assert out["choice"]["index"] == 1 and out["anonymized"] == CONVERGED
    assert sum('"severity"' in p for p in script.prompts("attacker")) == 1


# --- Probe queries -----------------------------------------------------------


def write_corpus(folder: Path) -> None:
    folder.mkdir()
    (folder / "heron.html").write_text(
        "<html><head><title>Blue Heron Glass - Dana Pike</title></head><body>"
        "Dana Pike runs Blue Heron Glass on Vashon Island and teaches lampworking."
        "</body></html>"
    )
    (folder / "ferry.html").write_text(
        "<html><head><title>Island ferry schedule</title></head><body>"
        "Ferries leave every hour.</body></html>"
    )


def test_when_a_probe_query_copies_the_text_then_it_is_not_sent(
    script: Script, tmp_path: Path
) -> None:
    write_corpus(tmp_path / "pages")
    copy = "run the Blue Heron glass studio on Vashon Island"
    script_studio(script)
    script.set(
        "attacker",
        attacker(step=lambda p: step_json(copy if "Query 1" not in p else "")),
    )

    out = run(
        search_corpus=str(tmp_path / "pages"),
        search_index=str(tmp_path / "index.sqlite"),
    )

    assert out.get("search_log", []) == []
    assert "search 1: query dropped: it repeats 9 consecutive words" in out["errors"][0]


def test_when_a_probe_query_is_long_then_only_its_first_keywords_are_sent(
    script: Script, tmp_path: Path
) -> None:
    write_corpus(tmp_path / "pages")
    long = "the Heron glass Vashon lampworking weekends studio books teach"
    script_studio(script)
    script.set(
        "attacker",
        attacker(step=lambda p: step_json(long if "Query 1" not in p else "")),
    )

    out = run(
        search_corpus=str(tmp_path / "pages"),
        search_index=str(tmp_path / "index.sqlite"),
        query_max_words=4,
    )

    (entry,) = out["search_log"]
    assert entry["query"] == "Heron glass Vashon lampworking"
    assert entry["backend"] == "offline" and entry["urls"][0] == "heron.html"
    assert "query cut to its first 4 keywords" in out["errors"][0]


def test_when_a_web_backend_is_named_without_opt_in_then_nothing_is_sent(
    script: Script,
) -> None:
    script_studio(script)
    script.set("attacker", attacker(step=lambda p: step_json("Vashon glass")))

    with pytest.raises(WebSearchDisabledError, match="allow_web=True"):
        run(search_backend="ddgs")


# --- End to end, offline -----------------------------------------------------


def clue_words(prompt: str) -> list[str]:
    """What the scripted searchers look up: capitalized and long words."""
    text = tagged(prompt, "text")
    return [
        w
        for w in re.findall(r"[A-Za-z]+", text)
        if (w[0].isupper() or len(w) > 10) and w not in ("I", "My")
    ]


def page_matching(prompt: str) -> str:
    """Name the first result sharing two clue words with the text, or ''."""
    clues = {w.lower() for w in clue_words(prompt)}
    results = prompt.partition("<search_results>")[2]
    for title, _url, snippet in re.findall(r"\[\d+\] (.+)\n(.+)\n(.+)", results):
        if len(clues & set(re.findall(r"[a-z]+", (title + snippet).lower()))) >= 2:
            return str(title)
    return ""


def search_step_reply(prompt: str) -> str:
    query = " ".join(clue_words(prompt)) if "Query 1" not in prompt else ""
    return step_json(query)


def test_when_the_probe_finds_a_planted_page_then_the_final_text_no_longer_leads_to_it(
    script: Script, tmp_path: Path
) -> None:
    write_corpus(tmp_path / "pages")
    search = {
        "search_backend": "offline",
        "search_corpus": str(tmp_path / "pages"),
        "search_index": str(tmp_path / "index.sqlite"),
    }

    def probe(prompt: str) -> str:
        found = page_matching(prompt)
        return probe_json(
            ("studio_name", "institution", "Blue Heron glass studio"),
            ("city_country", "personal", "Vashon Island"),
            ("craft", "domain_practice", "lampworking"),
            matched=found,
        )

    script_studio(script, {**SEEDS, "MASK_1": "a small art"})
    reply = attacker(step=search_step_reply)
    script.set(
        "attacker",
        lambda p: probe(p) if '"matched_page"' in p else reply(p),
    )

    out = run(num_candidates=1, **search)

    assert out["search_log"][0]["query"] == "Blue Heron Vashon Island lampworking"
    assert out["search_log"][0]["urls"][0] == "heron.html"
    assert out["probe_match"] == "Blue Heron Glass - Dana Pike"
    assert {b["quote"] for b in out["blacklist"]} >= {"Vashon Island", "lampworking"}
    final = out["anonymized"]
    assert final == "I run a small art studio on an island and teach a craft on " + (
        "weekends. My partner keeps the books."
    )

    def adversary(prompt: str) -> str:
        if "Decide the next step" in prompt:
            return search_step_reply(prompt)
        answer = json.loads(attack_json(occupation=("glass artist", 3)))
        return json.dumps({**answer, "identified_profile": page_matching(prompt)})

    script.set("attacker", adversary)
    settings = {**search, "judge": False, "attributes": ["occupation"]}
    evaluator: Any = evaluate.build_graph().compile()
    before = asyncio.run(
        evaluator.ainvoke({"text": TEXT}, context=EvalContext(**settings))
    )
    after = asyncio.run(
        evaluator.ainvoke({"text": final}, context=EvalContext(**settings))
    )

    assert before["identified_profile"] == "Blue Heron Glass - Dana Pike"
    assert after.get("identified_profile", "") == ""
    assert "heron.html" not in [u for q in after["search_log"] for u in q["urls"]]


# --- Persistence and wiring --------------------------------------------------


def test_when_checkpointed_in_sqlite_then_the_state_reads_back_as_plain_data(
    script: Script, caplog: pytest.LogCaptureFixture
) -> None:
    script_studio(script, SEEDS, {**SEEDS, "MASK_1": "a small"})
    ctx = AuraContext(attributes=ATTRS, num_candidates=2)
    config: Any = {"configurable": {"thread_id": "aura-1"}}

    async def go() -> Any:
        async with AsyncSqliteSaver.from_conn_string(":memory:") as saver:
            app: Any = aura.build_graph().compile(checkpointer=saver)
            await app.ainvoke({"text": TEXT}, config, context=ctx, durability="sync")
            return (await app.aget_state(config)).values

    values = asyncio.run(go())

    assert values["status"] == "selected"
    assert all(isinstance(c, dict) for c in values["candidates"])
    assert isinstance(values["template"]["masks"][0], dict)
    assert "unregistered type" not in caplog.text


def test_when_run_as_a_batch_then_records_finish_and_queries_are_stored(
    script: Script, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GRAPHS, "aura", aura.build_graph)
    write_corpus(tmp_path / "pages")
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "s1", "text": TEXT}) + "\n")
    script_studio(script)
    script.set("attacker", attacker(step=search_step_reply))
    options = RunOptions(
        method="aura", input=str(source), output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"), progress=False,
        context={"attributes": ATTRS, "num_candidates": 1,
                 "search_corpus": str(tmp_path / "pages"),
                 "search_index": str(tmp_path / "index.sqlite")},
    )  # fmt: skip

    summary = asyncio.run(run_batch(options))

    assert (summary.done, summary.failed) == (1, 0)
    (line,) = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert line["status"] == "selected" and line["text"] == CONVERGED
    (row,) = RunStore(tmp_path / "runs.sqlite").records(summary.run_id)
    stored = json.loads(row["result"])
    assert stored["search_log"][0]["query"] == "Blue Heron Vashon Island lampworking"
    assert row["calls"] == len(script.prompts("attacker")) + 1 + 2 + 1
    again = asyncio.run(run_batch(options))
    assert (again.done, again.skipped) == (0, 1)


def test_when_wiring_changes_then_this_snapshot_must_change_too() -> None:
    # The probe's search loop is one node (`graphs.search_agent`, snapshot in
    # test_search_tools); get_graph(xray=True) shows its steps.
    mermaid = aura.graph.get_graph().draw_mermaid(with_styles=False)
    assert mermaid.split("\n")[1:] == [
        "\t__start__ --> prepare;",
        "\tanonymize -.-> build_template;",
        "\tanonymize -.-> infer_scope;",
        "\tbuild_template -.-> finish_selection;",
        "\tbuild_template -.-> reconstruct;",
        "\tcheck_candidates -.-> score_privacy;",
        "\tcheck_candidates -.-> score_utility;",
        "\tcheck_candidates -.-> select;",
        "\tdiscover_scope --> profile_utility;",
        "\tfix_scope --> profile_utility;",
        "\tinfer_scope -.-> build_template;",
        "\tinfer_scope -.-> plan_suppression;",
        "\tplan_suppression --> anonymize;",
        "\tprepare -.-> discover_scope;",
        "\tprepare -.-> fix_scope;",
        "\tprepare -.-> search;",
        "\tprofile_utility --> infer_scope;",
        "\treconstruct --> check_candidates;",
        "\treview_selection --> finish_selection;",
        "\tscore_privacy --> select;",
        "\tscore_utility --> select;",
        "\tsearch --> discover_scope;",
        "\tselect -.-> finish_selection;",
        "\tselect -.-> review_selection;",
        "\tfinish_selection --> __end__;",
        "",
    ]


def pick_answer(index: int) -> dict[str, Any]:
    """LangChain's HITL response that picks candidate ``index``."""
    edited = {"name": "use_candidate", "args": {"pick": index}}
    return {"decisions": [{"type": "edit", "edited_action": edited}]}


def test_when_a_reviewer_picks_another_candidate_then_it_is_the_output(
    script: Script,
) -> None:
    close, broad = SEEDS, {**SEEDS, "MASK_1": "a small", "MASK_3": "classes"}
    script_studio(script, close, broad)
    app = aura.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    context = AuraContext(attributes=ATTRS, num_candidates=2, review=True)

    paused = asyncio.run(app.ainvoke({"text": TEXT}, config, context=context))

    (pause,) = paused["__interrupt__"]
    details = pause.value["details"]
    assert details["step"] == "review_selection"
    assert details["proposal"]["choice"]["index"] == 0
    assert [c["index"] for c in details["proposal"]["candidates"]] == [0, 1]
    assert pause.value["action_requests"][0]["args"] == {"pick": 0}
    for bad in (5, 0):  # not a candidate; the rule's own choice
        with pytest.raises(ValidationError, match="pick"):
            asyncio.run(
                app.ainvoke(Command(resume=pick_answer(bad)), config, context=context)
            )
    out = asyncio.run(
        app.ainvoke(Command(resume=pick_answer(1)), config, context=context)
    )

    assert out["choice"]["index"] == 1 and out["choice"]["rule"] == "review"
    assert out["anonymized"] == out["candidates"][1]["text"] != CONVERGED
    assert out["anonymized"].startswith("I run a small studio")


def test_when_a_reviewer_stops_aura_then_the_converged_text_is_kept(
    script: Script,
) -> None:
    script_studio(script, {**SEEDS, "MASK_1": "a small", "MASK_3": "classes"})
    app = aura.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    context = AuraContext(attributes=ATTRS, num_candidates=1, review=True)
    paused = asyncio.run(app.ainvoke({"text": TEXT}, config, context=context))
    (candidate,) = paused["__interrupt__"][0].value["details"]["proposal"]["candidates"]
    assert candidate["text"] != CONVERGED

    reject = {"decisions": [{"type": "reject"}]}
    out = asyncio.run(app.ainvoke(Command(resume=reject), config, context=context))

    assert (out["status"], out["anonymized"]) == ("stopped_by_reviewer", CONVERGED)


def test_when_a_refill_is_meta_text_then_the_acceptance_checks_reject_it(
    script: Script,
) -> None:
    talk = {
        **SEEDS,
        "MASK_1": "the JSON object of the edited text, as the instructions ask, "
        "here is",
    }
    script_studio(script, talk, SEEDS)

    out = run(num_candidates=2)

    by_index = {c["index"]: c for c in out["candidates"]}
    assert any("task_talk" in r for r in by_index[0]["rejected"])
    assert not by_index[1]["rejected"]
    assert out["choice"]["index"] == 1
    assert out["anonymized"] == CONVERGED


def test_when_aura_runs_in_the_paper_profile_then_only_a_gap_rejects_a_candidate(
    script: Script, tmp_path: Path
) -> None:
    # The same three candidates as above: the paper selects by S, C and L
    # alone, so restoring or blacklisted words do not refuse one; a gap does.
    write_corpus(tmp_path / "pages")
    restores = {**SEEDS, "MASK_2": "Vashon Island"}
    leaves_gap = {**SEEDS, "MASK_3": ""}
    blacklisted = {**SEEDS, "MASK_1": "my Blue Heron glass"}
    script_studio(
        script,
        restores,
        leaves_gap,
        blacklisted,
        probe=probe_json(("studio", "institution", "Blue Heron glass")),
    )

    out = run(
        num_candidates=3,
        profile="paper",
        search_backend="offline",
        search_corpus=str(tmp_path / "pages"),
    )

    rejected = {c["index"]: c["rejected"] for c in out["candidates"]}
    assert rejected == {0: [], 1: ["leaves [MASK_3] unfilled"], 2: []}
    assert sum('"severity"' in p for p in script.prompts("attacker")) == 2
    assert out["choice"]["index"] in (0, 2)
