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

from anonygraph import models
from anonygraph.runner import RunOptions, run_batch
from anonygraph.store import RunStore


@pytest.fixture(scope="session")
def hf_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Convert the embedded GGUF into a transformers folder, once."""
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError:
        fail_or_skip("hf: needs transformers and gguf: make install")
    gguf = models.embedded_model_path()
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
    # Tight token limits keep CPU generation short, and greedy decoding makes
    # the 135M model's answer (free text, no constrained decoding) repeatable;
    # the code path is the same.
    for role, params in list(models.ROLE_PARAMS.items()):
        monkeypatch.setitem(
            models.ROLE_PARAMS,
            role,
            dataclasses.replace(params, max_tokens=200),
        )
    import torch

    torch.manual_seed(0)  # the attacker and anonymizer sample (temperature > 0)
    source = tmp_path / "one.jsonl"
    source.write_text(EXAMPLES.read_text().splitlines(keepends=True)[0])
    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={
            # The explicit-cue rules find "my husband" and ask the hf model for
            # the rewrite: the role whose answer (a text) this model can give.
            "default_model": "rules",
            "models": {"anonymizer": f"hf:{hf_checkpoint}"},
            "max_iterations": 1,
            "attributes": ["relationship_status"],
            # A 135M model without constrained decoding often needs another try.
            "max_retries": 4,
        },
        progress=False,
    )

    summary = asyncio.run(run_batch(options))

    store = RunStore(tmp_path / "runs.sqlite")
    calls = store.db.query("select * from model_calls where backend = 'hf'")
    assert calls and {c["role"] for c in calls} == {"anonymizer"}
    assert all(c["tokens_in"] > 0 and c["seconds"] > 0 for c in calls), calls
    assert summary.structured[f"hf:{hf_checkpoint}"] == "text (schema in the prompt)"
    output = (tmp_path / "out.jsonl").read_text()
    if summary.done:
        line = json.loads(output)
        assert line["id"] == "r01" and line["text"].strip()
        assert line["status"] in ("converged", "max_iterations")
    else:
        # Without constrained decoding the 135M model often writes no JSON at
        # all: every try is made and accounted, then the record fails with the
        # step and what to do, and nothing is written out.
        assert len(calls) == 5 and not any(c["ok"] for c in calls), calls
        (failure,) = summary.failures
        assert "'anonymize'" in failure and "--model anonymizer=SPEC" in failure
        assert output == ""
