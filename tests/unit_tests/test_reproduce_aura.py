"""``anonygraph reproduce aura``: the three variants, re-identification, facts.

Scripted models play every role on the offline search backend (the
`test_aura_graph` studio record); the adversary names the page it finds, and
the count is checked against the interviewee's known identity.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, attack_json

from anonygraph.nodes.evaluate import grid_recovery
from anonygraph.reporting.reproduce import ReproduceOptions, render, reproduce
from anonygraph.state.answers import facts_answer_model
from anonygraph.tools.aura.scope import reidentified
from unit_tests.test_aura_graph import (
    SEEDS,
    TEXT,
    attacker,
    page_matching,
    probe_json,
    script_studio,
    search_step_reply,
    write_corpus,
)

FACTS = {
    "profile_facts": ["works with glass", "teaches on weekends"],
    "codebook_facts": ["the partner keeps the books", "lives on Vashon Island"],
}


def facts_reply(prompt: str) -> str:
    """A fact is recovered when its key word is still in the rewrite."""
    rewrite = re.search(r"<rewrite>\n(.*?)\n</rewrite>", prompt, re.S)
    assert rewrite
    text = rewrite.group(1).lower()
    listed = re.findall(r"^(\d+)\. (.+)$", prompt.partition("<facts>")[2], re.M)
    keys = {"glass": "glass", "weekends": "weekends", "books": "books",
            "vashon": "vashon"}  # fmt: skip
    checks = [
        {"fact": int(n), "recovered": any(k in text for k in keys if k in f.lower())}
        for n, f in listed
    ]
    return json.dumps({"facts": checks})


def script_all(script: Script) -> None:
    def probe(prompt: str) -> str:
        return probe_json(
            ("studio_name", "institution", "Blue Heron glass studio"),
            ("city_country", "personal", "Vashon Island"),
            ("craft", "domain_practice", "lampworking"),
            matched=page_matching(prompt),
        )

    script_studio(script, {**SEEDS, "MASK_1": "a small art"})
    reply = attacker(step=search_step_reply)

    def attacker_role(prompt: str) -> str:
        if "Here is a guessing game" in prompt:
            # Staab et al.'s anonymizer (our FgAA, paper profile): RLAA's format.
            guess = {"occupation": "glass artist"}
            return json.dumps({"inference": "a glass studio", "guess": guess})
        if '"matched_page"' in prompt:
            return probe(prompt)
        if "identified_profile" in prompt and "Decide the next step" not in prompt:
            # The evaluation's adversary: it names the page its searches found.
            answer = json.loads(attack_json(occupation=("glass artist", 3)))
            return json.dumps({**answer, "identified_profile": page_matching(prompt)})
        return reply(prompt)

    script.set("attacker", attacker_role)
    script.set("judge", facts_reply)
    aura_anonymizer = script.models["anonymizer"].answers[0]

    def anonymizer_role(prompt: str) -> str:
        if "Comments:" in prompt:  # FgAA's rewrite of the whole text
            return json.dumps({"anonymized_text": STAAB_REWRITE})
        return str(aura_anonymizer(prompt))

    script.set("anonymizer", anonymizer_role)


STAAB_REWRITE = "I teach a craft on weekends; my partner keeps the books."
"""The FgAA row's rewrite: glass and Vashon gone, weekends and the books kept."""


@pytest.fixture
def transcripts(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    write_corpus(tmp_path / "pages")
    data = tmp_path / "transcripts.jsonl"
    lines = [
        {"id": "no-identity", "text": "Nothing to find.", **FACTS},
        {"id": "dana", "text": TEXT, "identity": ["Dana Pike", "heron.html"],
         **FACTS},
    ]  # fmt: skip
    data.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    search = {
        "search_backend": "offline",
        "search_corpus": str(tmp_path / "pages"),
        "search_index": str(tmp_path / "index.sqlite"),
    }
    return data, search


def test_when_aura_is_reproduced_then_both_tables_show_our_counts_and_facts(
    script: Script, tmp_path: Path, transcripts: tuple[Path, dict[str, Any]]
) -> None:
    script_all(script)
    data, search = transcripts
    options = ReproduceOptions(
        paper="aura",
        data=str(data),
        out=str(tmp_path / "out"),
        records=1,
        models={"default_model": "local"},
        run_fields={**search, "num_candidates": 1, "attributes": ["occupation"]},
        progress=False,
    )
    result = asyncio.run(reproduce(options))
    text = render(result)

    lines = text.splitlines()
    assert lines[0].startswith("aura-reidentification: Agentic Re-Identification")
    assert "shape only: the embedded model is not the paper's" in text
    assert "ours: 1 record(s) of" in text
    header = next(line for line in lines if line.startswith("| row |"))
    assert header.endswith("| reid_gpt_5_1 | reid_gpt_5_4_mini | reid_gemini_3_flash "
                           "| reid |")  # fmt: skip
    grid_at = next(i for i, line in enumerate(lines) if line.startswith("aura-utility"))
    grid_header = next(line for line in lines[grid_at:] if line.startswith("| row |"))
    assert grid_header.endswith("| grid_unit_pct | profile_pct | codebook_pct |")
    assert "| AURA (adaptive) | Qwen3.5-27B | published | 2 | 4 | 0 | - |" in text
    original, adaptive, pure, eight, staab = result.rows
    # The adversary finds Dana Pike's page from the original text only.
    assert (original["REID"], original["REID_n"]) == (1, 1)
    # 8attr has no probe: only occupation is in its scope here, "Vashon
    # Island" stays, and the adversary's search still finds the page.
    assert [r["REID"] for r in (adaptive, pure, eight)] == [0, 0, 1]
    assert original["PROFILE"] == original["CODEBOOK"] == original["GRID"] == 100.0
    # The probed variants keep weekends and the books, drop glass and Vashon.
    assert (adaptive["PROFILE"], adaptive["CODEBOOK"]) == (50.0, 50.0)
    assert adaptive["GRID"] == 25.0
    assert (eight["PROFILE"], eight["CODEBOOK"], eight["GRID"]) == (50.0, 100.0, 50.0)
    # Staab et al.'s anonymizer is our FgAA loop, run and scored the same way.
    assert staab["label"] == "Anonymizer [Staab+ 2025]" and staab["REID_n"] == 1
    assert (staab["PROFILE"], staab["CODEBOOK"], staab["GRID"]) == (50.0, 50.0, 25.0)
    assert "| Anonymizer [Staab+ 2025] | local | this run (paper;" in text
    # Each variant's texts go to their own file.
    out = tmp_path / "out"
    assert len(list(out.glob("aura-*.jsonl"))) == 3
    staab_out = (out / "fgaa-anonymizer-staab-2025.jsonl").read_text()
    assert json.loads(staab_out)["text"] == STAAB_REWRITE
    ours = [line for line in lines if "| this run (" in line]
    assert ours[0].startswith("| Original transcript | local |")
    assert "| 1 / 1 |" in ours[0] and "| 0 / 1 |" in ours[1]
    assert sum("| published |" in line for line in lines) == 18 + 13


def test_when_aura_is_reproduced_without_search_then_it_names_the_flag(
    tmp_path: Path,
) -> None:
    options = ReproduceOptions(paper="aura", data="x", out=str(tmp_path))
    with pytest.raises(ValueError, match="--search-backend offline"):
        asyncio.run(reproduce(options))


@pytest.mark.parametrize(
    ("page", "identity", "shown", "expected"),
    [
        ("Blue Heron Glass - Dana Pike", ["Dana Pike"], True, True),
        ("https://www.heron.example/dana/", ["heron.example/dana"], True, True),
        ("Blue Heron Glass - Dana Pike", ["Sam Lee"], True, False),
        # A page the searches never showed is not a re-identification.
        ("Blue Heron Glass - Dana Pike", ["Dana Pike"], False, False),
        ("", ["Dana Pike"], True, False),
    ],
)
def test_when_a_page_is_named_then_it_reidentifies_only_a_known_identity(
    page: str, identity: list[str], shown: bool, expected: bool
) -> None:
    log = [{"query": "q", "backend": "offline", "urls": [],
            "results": page if shown else "other"}]  # fmt: skip
    assert reidentified(page, identity, log) is expected


def test_when_grid_units_are_counted_then_both_facts_must_be_recovered() -> None:
    recovered: dict[str, list[bool | None]] = {
        "profile": [True, False, True],
        "codebook": [True, None],
    }
    # Every pair with an answered fact: (0,0) yes, (1,0) no, (2,0) yes.
    assert grid_recovery(recovered, []) == {"recovered": 2, "total": 3}
    assert grid_recovery(recovered, [[0, 0], [1, 0], [0, 1]]) == {
        "recovered": 1,
        "total": 2,
    }


def test_when_facts_are_asked_then_the_answer_has_one_entry_per_fact() -> None:
    schema = facts_answer_model(3).model_json_schema()["properties"]["facts"]
    assert (schema["minItems"], schema["maxItems"]) == (3, 3)
    with pytest.raises(ValueError, match="at least 3"):
        facts_answer_model(3).model_validate({"facts": []})
