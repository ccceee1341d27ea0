"""The real path: AURA on the embedded SmolLM2 model, on one shipped record."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from conftest import EXAMPLES

from anonygraph import store
from anonygraph.graphs import aura
from anonygraph.nodes.evidence import find_span
from anonygraph.state.attributes import resolve_attributes
from anonygraph.state.aura import AuraContext
from anonygraph.state.domain import (
    BlacklistSpan,
    Candidate,
    MaskTemplate,
    ScopeItem,
)
from anonygraph.tools.mask_template import restore_original

log = logging.getLogger(__name__)

PAGES = [
    {
        "title": "Ward 4 night staff",
        "url": "hospital/ward4",
        "text": "The children's ward at St. Mungo's runs twelve-hour night shifts.",
    },
    {
        "title": "Coffee machines compared",
        "url": "shop/coffee",
        "text": "Our office coffee machines rarely break.",
    },
]


def test_when_aura_runs_on_the_embedded_model_then_one_record_is_accounted(
    tmp_path: Path,
) -> None:
    record = json.loads(EXAMPLES.read_text().splitlines()[0])
    corpus = tmp_path / "pages.jsonl"
    corpus.write_text("".join(json.dumps(p) + "\n" for p in PAGES))
    # Adaptive scope over a two-page corpus, one search, one masking round and
    # two candidates keep the record near a minute on two cores.
    ctx = AuraContext(
        attributes=resolve_attributes(list(record["labels"])),
        search_corpus=str(corpus),
        search_index=str(tmp_path / "index.sqlite"),
        max_search_steps=1,
        max_findings=4,
        mask_rounds=1,
        num_candidates=2,
    )
    config: Any = {"configurable": {"thread_id": f"aura:{record['id']}"}}

    async def go() -> dict[str, Any]:
        async with store.open_checkpointer(tmp_path / "runs.sqlite") as saver:
            app: Any = aura.build_graph().compile(checkpointer=saver)
            result: dict[str, Any] = await app.ainvoke(
                {"text": record["text"]}, config, context=ctx, durability="sync"
            )
            return result

    result = asyncio.run(go())

    assert result["status"] in ("selected", "no_masks", "no_valid_candidate")
    assert result["anonymized"].strip()
    assert result["mask_status"] in ("converged", "max_rounds")
    scope = [ScopeItem.model_validate(s) for s in result["scope"]]
    assert scope and result["scope_source"] in ("probe", "fallback")
    for span in map(BlacklistSpan.model_validate, result.get("blacklist", [])):
        assert find_span(span.quote, record["text"]) == span.quote
    assert set(result["profile"]) == {
        "theme", "experiential", "affect", "reasoning",
        "behavioral", "relational", "temporal", "expertise",
    }  # fmt: skip
    template = MaskTemplate.model_validate(result["template"])
    assert restore_original(template) == record["text"]
    candidates = [Candidate.model_validate(c) for c in result.get("candidates", [])]
    assert all(c.rejected is not None for c in candidates)
    if result["status"] == "selected":
        assert result["anonymized"] in [c.text for c in candidates]
    for entry in result.get("search_log", []):
        assert entry["backend"] == "offline" and len(entry["query"].split()) <= 6
    calls = result["calls"]
    steps = [c["step"] for c in calls]
    assert steps[steps.index("probe") :][:3] == ["probe", "profile", "mask_attack"]
    assert steps.count("reconstruct") == (2 if template.masks else 0)
    assert {c["backend"] for c in calls} == {"local"}
    assert all(c["tokens_in"] > 0 and c["tokens_out"] > 0 for c in calls)
    assert all(c["seconds"] > 0 and c["cached"] is False for c in calls)
    log.info(
        "aura on %s (%s, %d masks): %d calls (%s), %d tokens in, %d tokens out, %.1f s",
        record["id"],
        result["status"],
        len(template.masks),
        len(calls),
        ", ".join(steps),
        sum(c["tokens_in"] for c in calls),
        sum(c["tokens_out"] for c in calls),
        sum(c["seconds"] for c in calls),
    )
