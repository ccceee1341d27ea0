"""The real path: AURA on the embedded SmolLM2 model, on one shipped record."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from conftest import EXAMPLES

from anonygraph.attributes import resolve_attributes
from anonygraph.graphs import aura
from anonygraph.runs.store.checkpointers import open_checkpointer
from anonygraph.state.aura import AuraContext, Candidate, MaskTemplate, ScopeItem
from anonygraph.tools.aura.mask_template import restore_original

log = logging.getLogger(__name__)


def test_when_aura_runs_on_the_embedded_model_then_one_record_is_accounted(
    tmp_path: Path,
) -> None:
    # r07 states its age and city outright, so even the 135M attacker guesses
    # and all three phases run; 8attr (no probe), one masking round and two
    # candidates keep it near a minute and a half on two cores.
    record = next(
        json.loads(line)
        for line in EXAMPLES.read_text().splitlines()
        if json.loads(line)["id"] == "r07"
    )
    ctx = AuraContext(
        variant="8attr",
        attributes=resolve_attributes(list(record["labels"])),
        mask_rounds=1,
        num_candidates=2,
    )
    config: Any = {"configurable": {"thread_id": f"aura:{record['id']}"}}

    async def go() -> dict[str, Any]:
        async with open_checkpointer(tmp_path / "runs.sqlite") as saver:
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
    assert [s.name for s in scope] == ctx.attributes
    assert result["scope_source"] == "fixed"
    assert set(result["profile"]) == {
        "theme", "experiential", "affect", "reasoning",
        "behavioral", "relational", "temporal", "expertise",
    }  # fmt: skip
    template = MaskTemplate.model_validate(result["template"])
    assert restore_original(template) == record["text"]
    candidates = [Candidate.model_validate(c) for c in result.get("candidates", [])]
    assert len(candidates) == (2 if template.masks else 0)
    assert all(c.rejected is not None for c in candidates)
    for c in candidates:
        assert (c.severity is not None) == (c.rejected == [])
    if result["status"] == "selected":
        assert result["anonymized"] in [c.text for c in candidates]
    assert (result["status"] == "no_masks") == (not template.masks)
    calls = result["calls"]
    steps = [c["step"] for c in calls]
    assert steps[:2] == ["profile", "mask_attack"]
    assert steps.count("reconstruct") == len(candidates)
    assert steps.count("score_privacy") == sum(c.rejected == [] for c in candidates)
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
