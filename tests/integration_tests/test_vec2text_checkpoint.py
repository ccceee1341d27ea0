"""Published vec2text checkpoints (DP-Embed's corrector) load and compute as published.

The tests write tiny checkpoints in vec2text's published layout (module names,
Dropout in the projections, a corrector LayerNorm, no tokenizer, no T5
config) and check that what anonygraph loads computes the same encoder input
and the same logits as the published modules themselves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from anonygraph.tools.dp_embed import embedding_inversion as ei
from anonygraph.tools.dp_embed import inversion_models as im
from anonygraph.tools.dp_embed import model_sets
from anonygraph.tools.dp_embed import vec2text_checkpoint as v2t
from integration_tests.test_embedding_inversion import (
    D_MODEL,
    SENTENCES,
    tiny_t5_config,
    tiny_tokenizer,
)

REPEAT = 4
BOTTLENECK = 24
"""Unlike D_MODEL, so the hidden width must be read off the weights."""


def _transform(seed: int) -> Any:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    return nn.Sequential(
        nn.Linear(D_MODEL, BOTTLENECK),
        nn.Dropout(0.1),
        nn.GELU(),
        nn.Linear(BOTTLENECK, D_MODEL * REPEAT),
    ).eval()


def _save(
    state: dict[str, Any], folder: Path, config: dict[str, Any], bin_: bool
) -> None:
    import torch
    from safetensors.torch import save_file

    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config))
    # Separate copies: safetensors refuses tensors that share memory.
    tensors = {k: v.detach().clone().contiguous() for k, v in state.items()}
    if bin_:
        torch.save(tensors, folder / "pytorch_model.bin")
    else:
        save_file(tensors, str(folder / "model.safetensors"))


def published_config(role: str) -> dict[str, Any]:
    """config.json as vec2text saves it: its run arguments, class and embedder."""
    corrector = role == "corrector"
    return {
        "architectures": ["CorrectorEncoderModel" if corrector else "InversionModel"],
        "experiment": "corrector" if corrector else "inversion",
        "embedder_model_name": "gtr_base",
        "model_name_or_path": "t5-base",
        "num_repeat_tokens": REPEAT,
        "max_seq_length": 32,
    }


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Write a tiny inverter (with its embedder) and corrector, vec2text-style."""
    import torch
    from torch import nn
    from transformers import T5EncoderModel, T5ForConditionalGeneration

    root = tmp_path_factory.mktemp("published")
    tokenizer = tiny_tokenizer()
    tokenizer.save_pretrained(root / "tokenizer")
    config = tiny_t5_config(len(tokenizer))
    torch.manual_seed(11)
    embedder = T5EncoderModel(tiny_t5_config(len(tokenizer))).eval()
    parts: dict[str, Any] = {"tokenizer": root / "tokenizer", "embedder": embedder}
    for role, seed in (("inverter", 1), ("corrector", 2)):
        torch.manual_seed(seed)
        t5 = T5ForConditionalGeneration(config).eval()
        state = {f"encoder_decoder.{k}": v for k, v in t5.state_dict().items()}
        if role == "inverter":
            transforms = {"embedding_transform": _transform(seed)}
            state |= {
                f"embedder.{k}": v for k, v in embedder.encoder.state_dict().items()
            }
        else:
            transforms = {
                f"embedding_transform_{i}": _transform(seed * 10 + i) for i in (1, 2, 3)
            }
            layernorm = nn.LayerNorm(D_MODEL)
            nn.init.normal_(layernorm.weight)
            nn.init.normal_(layernorm.bias)
            transforms["layernorm"] = layernorm.eval()
        for name, module in transforms.items():
            state |= {f"{name}.{k}": v for k, v in module.state_dict().items()}
        cfg = published_config(role)
        _save(state, root / role, cfg, bin_=False)
        _save(state, root / f"{role}_bin", cfg, bin_=True)
        parts[role] = {"dir": root / role, "t5": t5, **transforms}
    return parts


def test_when_a_checkpoint_is_read_then_its_role_comes_from_its_module_names(
    published: dict[str, Any], tmp_path: Path
) -> None:
    assert v2t.read_published(published["inverter"]["dir"]).role == "inverter"
    corrector = v2t.read_published(published["corrector"]["dir"])
    assert corrector.role == "corrector"
    assert corrector.source.name == "model.safetensors"
    assert corrector.config["num_repeat_tokens"] == REPEAT
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(
        FileNotFoundError, match="model.safetensors or pytorch_model.bin"
    ):
        v2t.read_published(empty)
    import torch

    _save(
        {"encoder_decoder.shared.weight": torch.zeros(1)}, tmp_path / "odd", {}, False
    )
    with pytest.raises(v2t.CheckpointLayoutError, match="not a vec2text checkpoint"):
        v2t.read_published(tmp_path / "odd")


def test_when_the_t5_config_is_rebuilt_then_it_matches_the_one_trained(
    published: dict[str, Any],
) -> None:
    state = v2t.read_published(published["inverter"]["dir"]).state
    rebuilt = v2t.t5_config_from_state(state)
    original = published["inverter"]["t5"].config
    for field in (
        "vocab_size",
        "d_model",
        "d_kv",
        "d_ff",
        "num_layers",
        "num_decoder_layers",
        "num_heads",
        "relative_attention_num_buckets",
        "feed_forward_proj",
    ):
        assert getattr(rebuilt, field) == getattr(original, field), field


def _logits(t5: Any, inputs_embeds: Any, mask: Any) -> Any:
    import torch

    decoder = torch.zeros((inputs_embeds.shape[0], 3), dtype=torch.long)
    return t5(
        inputs_embeds=inputs_embeds, attention_mask=mask, decoder_input_ids=decoder
    ).logits


def test_when_an_inverter_is_loaded_then_it_computes_what_the_published_one_does(
    published: dict[str, Any],
) -> None:
    import torch

    part = published["inverter"]
    model = v2t.load_published(part["dir"], published["tokenizer"], "cpu", "fp32")
    assert model.spec.role == "inverter"
    assert (model.spec.num_repeat_tokens, model.spec.hidden_dim) == (REPEAT, BOTTLENECK)
    targets = np.random.default_rng(0).normal(size=(2, D_MODEL))
    ours, mask = ei._conditioning(model, targets, None, None, 32)
    with torch.inference_mode():
        x = torch.as_tensor(targets, dtype=torch.float32)
        expected = part["embedding_transform"](x).reshape(2, REPEAT, D_MODEL)
        torch.testing.assert_close(ours, expected)
        torch.testing.assert_close(
            _logits(model.t5, ours, mask), _logits(part["t5"], expected, mask)
        )


def test_when_a_corrector_is_loaded_then_its_input_is_the_published_sequence(
    published: dict[str, Any],
) -> None:
    import torch

    part = published["corrector"]
    model = v2t.load_published(part["dir"], published["tokenizer"], "cpu", "fp32")
    assert model.spec.layout == "vec2text"
    rng = np.random.default_rng(1)
    target, hypothesis = rng.normal(size=(2, D_MODEL)), rng.normal(size=(2, D_MODEL))
    texts = ["contact me at home", "the office is downtown near the river"]
    ours, mask = ei._conditioning(model, target, hypothesis, texts, 32)
    with torch.inference_mode():
        e = torch.as_tensor(target, dtype=torch.float32)
        h = torch.as_tensor(hypothesis, dtype=torch.float32)

        def block(name: str, x: Any) -> Any:
            return part[name](x).reshape(2, REPEAT, D_MODEL)

        tokens = model.tokenizer(texts, padding=True, return_tensors="pt")
        words = part["t5"].get_input_embeddings()
        sep = words(torch.ones((2, 1), dtype=torch.long))  # eos id 1
        sequence = torch.cat(
            [
                sep,
                block("embedding_transform_1", e),
                sep,
                block("embedding_transform_3", h),
                sep,
                block("embedding_transform_2", e - h),
                sep,
                words(tokens["input_ids"]),
            ],
            dim=1,
        )
        expected = part["layernorm"](sequence)
        torch.testing.assert_close(ours, expected)
        prefix = torch.ones((2, 4 + 3 * REPEAT), dtype=torch.long)
        assert torch.equal(mask, torch.cat([prefix, tokens["attention_mask"]], dim=1))
        torch.testing.assert_close(
            _logits(model.t5, ours, mask), _logits(part["t5"], expected, mask)
        )


def test_when_a_checkpoint_is_converted_then_anonygraph_loads_it_unchanged(
    published: dict[str, Any], tmp_path: Path
) -> None:
    import torch

    for role in ("inverter", "corrector"):
        spec = v2t.convert_published(
            published[role]["dir"], tmp_path / role, published["tokenizer"]
        )
        saved = json.loads((tmp_path / role / im.CONDITIONING_CONFIG).read_text())
        assert saved["layout"] == spec.layout == "vec2text"
        direct = v2t.load_published(
            published[role]["dir"], published["tokenizer"], "cpu", "fp32"
        )
        again = im.load_conditioned_t5(str(tmp_path / role), "cpu", "fp32")
        rng = np.random.default_rng(2)
        args: tuple[Any, ...] = (rng.normal(size=(1, D_MODEL)), None, None)
        if role == "corrector":
            args = (args[0], rng.normal(size=(1, D_MODEL)), ["contact me"])
        with torch.inference_mode():
            torch.testing.assert_close(
                ei._conditioning(again, *args, 32), ei._conditioning(direct, *args, 32)
            )


def test_when_the_weights_are_a_pickle_then_they_load_the_same(
    published: dict[str, Any],
) -> None:
    import torch

    a = v2t.read_published(published["corrector"]["dir"])
    b = v2t.read_published(Path(str(published["corrector"]["dir"]) + "_bin"))
    assert b.source.name == "pytorch_model.bin"
    assert a.state.keys() == b.state.keys()
    assert all(torch.equal(a.state[k], b.state[k]) for k in a.state)


def test_when_the_embedder_is_extracted_then_it_embeds_as_the_published_one(
    published: dict[str, Any], tmp_path: Path
) -> None:
    import torch

    folder = v2t.extract_embedder(
        published["inverter"]["dir"], tmp_path / "encoder", published["tokenizer"]
    )
    encoder = im.load_encoder(str(folder), "cpu", "fp32")
    ours = ei.embed(SENTENCES[:2], encoder)
    batch = encoder.tokenizer(SENTENCES[:2], padding=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = published["embedder"](**batch).last_hidden_state
        m = batch["attention_mask"].unsqueeze(-1).float()
        expected = ((hidden * m).sum(1) / m.sum(1)).double().numpy()
    np.testing.assert_allclose(ours, expected, atol=1e-5)
    with pytest.raises(v2t.CheckpointLayoutError, match="no embedder"):
        v2t.extract_embedder(
            published["corrector"]["dir"], tmp_path / "none", published["tokenizer"]
        )


def test_when_converted_models_run_the_mechanism_then_chunks_come_back_as_text(
    published: dict[str, Any], tmp_path: Path
) -> None:
    for role in ("inverter", "corrector"):
        v2t.convert_published(
            published[role]["dir"], tmp_path / role, published["tokenizer"]
        )
    v2t.extract_embedder(
        published["inverter"]["dir"], tmp_path / "encoder", published["tokenizer"]
    )
    models = model_sets.load_inversion_models(
        str(tmp_path / "encoder"),
        str(tmp_path / "inverter"),
        str(tmp_path / "corrector"),
        "cpu",
        "fp32",
    )
    assert models.corrector is not None and models.corrector.spec.layout == "vec2text"
    result = ei.privatize_and_invert(
        SENTENCES[:2], models, sigma=0.1, clip=1.5, num_steps=2, rng=0, max_length=8
    )
    assert len(result.texts) == 2 and all(isinstance(t, str) for t in result.texts)
    assert all(-1.0 <= s <= 1.0 for s in result.similarities)


def test_when_the_output_matrix_is_not_tied_then_the_checkpoint_is_refused(
    published: dict[str, Any],
) -> None:
    import torch

    state = dict(v2t.read_published(published["inverter"]["dir"]).state)
    shared = state["encoder_decoder.shared.weight"]
    state["encoder_decoder.lm_head.weight"] = shared + 1.0
    with pytest.raises(v2t.CheckpointLayoutError, match="T5 v1.1"):
        v2t.t5_config_from_state(state)
    state["encoder_decoder.lm_head.weight"] = torch.clone(shared)
    assert v2t.t5_config_from_state(state).d_model == D_MODEL


def test_when_a_folder_is_read_then_its_layout_and_role_come_from_its_config(
    published: dict[str, Any], tmp_path: Path
) -> None:
    for role in ("inverter", "corrector"):
        found = v2t.detect_layout(published[role]["dir"])
        assert (found.layout, found.role) == ("vec2text", role)
        v2t.convert_published(
            published[role]["dir"], tmp_path / role, published["tokenizer"]
        )
        assert v2t.detect_layout(tmp_path / role).layout == "anonygraph"
    # A plain T5 folder has a config and weights but no InversionConfig fields.
    plain = tmp_path / "plain_t5"
    published["inverter"]["t5"].save_pretrained(plain)
    with pytest.raises(v2t.CheckpointLayoutError, match="not a vec2text"):
        v2t.detect_layout(plain)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(v2t.CheckpointLayoutError, match="neither anonygraph"):
        v2t.detect_layout(empty)


def _copy_with_config(src: Path, dst: Path, **changes: Any) -> Path:
    import shutil

    shutil.copytree(src, dst)
    config = json.loads((dst / "config.json").read_text()) | changes
    (dst / "config.json").write_text(json.dumps(config))
    return dst


def test_when_config_and_weights_disagree_then_the_folder_is_refused(
    published: dict[str, Any], tmp_path: Path
) -> None:
    tokenizer = published["tokenizer"]
    said_corrector = _copy_with_config(
        published["inverter"]["dir"],
        tmp_path / "a",
        architectures=["CorrectorEncoderModel"],
        experiment="corrector",
    )
    with pytest.raises(v2t.CheckpointLayoutError, match="says corrector"):
        v2t.load_model_dir(said_corrector, tokenizer, "cpu", "fp32")
    mixed = _copy_with_config(
        published["inverter"]["dir"], tmp_path / "b", experiment="corrector"
    )
    with pytest.raises(v2t.CheckpointLayoutError, match="disagree"):
        v2t.detect_layout(mixed)
    repeat = _copy_with_config(
        published["corrector"]["dir"], tmp_path / "c", num_repeat_tokens=REPEAT * 2
    )
    with pytest.raises(v2t.CheckpointLayoutError, match="num_repeat_tokens"):
        v2t.load_model_dir(repeat, tokenizer, "cpu", "fp32")


def test_when_published_folders_are_given_as_they_are_then_the_mechanism_runs(
    published: dict[str, Any], tmp_path: Path
) -> None:
    import torch

    # The encoder folder carries the tokenizer the published models lack.
    encoder = v2t.extract_embedder(
        published["inverter"]["dir"], tmp_path / "encoder", published["tokenizer"]
    )
    models = model_sets.load_inversion_models(
        str(encoder),
        str(published["inverter"]["dir"]),
        str(published["corrector"]["dir"]),
        "cpu",
        "fp32",
    )
    assert models.corrector is not None and models.corrector.spec.layout == "vec2text"
    direct = v2t.load_published(
        published["corrector"]["dir"], published["tokenizer"], "cpu", "fp32"
    )
    rng = np.random.default_rng(3)
    args = (rng.normal(size=(1, D_MODEL)), rng.normal(size=(1, D_MODEL)), ["hi"])
    with torch.inference_mode():
        torch.testing.assert_close(
            ei._conditioning(models.corrector, *args, 32),
            ei._conditioning(direct, *args, 32),
        )
    for pick in ("best", "last"):
        result = ei.privatize_and_invert(
            SENTENCES[:2], models, sigma=0.1, clip=1.5, num_steps=2, rng=0,
            max_length=8, pick=pick,
        )  # fmt: skip
        assert len(result.texts) == 2 and all(isinstance(t, str) for t in result.texts)
