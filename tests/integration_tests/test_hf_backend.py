"""`hf:PATH` for real: a transformers causal LM loaded from a local folder runs RLAA.

The folder is the embedded SmolLM2 GGUF, loaded by transformers (`gguf_file=`,
the `gguf` package) and saved once per session as an ordinary checkpoint.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest
from conftest import EXAMPLES
from servers import fail_or_skip

from anonygraph import llm
from anonygraph.llm import decoding, loading
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore


@pytest.fixture(scope="session")
def hf_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Convert the embedded GGUF into a transformers folder, once."""
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError:
        fail_or_skip("hf: needs transformers and gguf: make install")
    gguf = llm.embedded_model_path()
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    # The weights are already dequantized: save them as a plain checkpoint.
    model.hf_quantizer = None
    folder = Path(tmp_path_factory.mktemp("smollm2-hf"))
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_when_a_role_spec_is_an_hf_folder_then_rlaa_runs_a_record_on_it(
    hf_checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tight token limits keep CPU generation short; the code path is the same.
    short = {
        role: dataclasses.replace(params, max_tokens=160)
        for role, params in decoding.ROLE_DECODING.items()
    }
    monkeypatch.setattr(decoding, "ROLE_DECODING", short)
    import torch

    torch.manual_seed(0)  # the attacker and anonymizer sample (temperature > 0)
    source = tmp_path / "one.jsonl"
    source.write_text(EXAMPLES.read_text().splitlines(keepends=True)[0])
    spec = f"hf:{hf_checkpoint}"
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={
            # The explicit-cue rules attack ("my husband"), so the hf model
            # has leaks to judge and rewrite: two roles, two answer schemas.
            "default_model": spec,
            "models": {"attacker": "rules"},
            "max_iterations": 1,
            "attributes": ["relationship_status"],
        },
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    assert not summary.failures, summary.failures
    store = RunStore(tmp_path / "runs.sqlite")
    calls = store.db.query("select * from model_calls where backend = 'hf'")
    assert {c["role"] for c in calls} == {"arbitrator", "anonymizer"}
    asked = [c for c in calls if not c["cached"]]  # a repeated verdict is cached
    assert asked and all(c["tokens_in"] > 0 and c["seconds"] > 0 for c in asked)
    # Constrained decoding: every answer parsed on its first try.
    assert all(c["ok"] and c["attempt"] == 0 for c in calls), calls
    assert summary.structured[spec] == "JSON schema (logits processor)"
    (line,) = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert line["id"] == "r01" and line["text"].strip()
    assert line["status"] in ("converged", "max_iterations")
    # What the line says matches the text: the cue the rules attack on is gone
    # from an "anonymized" text, and named as a leak left otherwise.
    if "husband" in line["text"].lower():
        assert line["outcome"] != "anonymized"
        assert line["leaks_left"] == ["relationship_status"]


def test_when_an_hf_model_answers_under_a_schema_then_the_json_parses(
    hf_checkpoint: Path,
) -> None:
    from anonygraph.state.answers import Rewrite

    model = loading.load_chat_model(f"hf:{hf_checkpoint}", "judge")
    bound = llm.constrained(model, llm.parse_spec(f"hf:{hf_checkpoint}"), Rewrite)
    prompt = "Rewrite so the author's city is hidden: 'I moved to Calgary.' JSON."
    for _ in range(2):  # the second call must not inherit the first one's state
        answer = bound.invoke(prompt)
        Rewrite.model_validate_json(str(answer.content))
