"""End-to-end embed -> clip -> noise -> invert on tiny T5 models built here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from devices import TEST_DEVICE

from anonygraph.tools import torch_device
from anonygraph.tools.dp_embed import embedding_inversion as ei
from anonygraph.tools.dp_embed import inversion_models as im
from anonygraph.tools.dp_embed import model_sets
from anonygraph.tools.dp_embed.dp_accountant import privacy_receipt

D_MODEL = 32
SENTENCES = [
    "contact me at home after the meeting",
    "the office is downtown near the river",
    "we talked about the merger on the phone",
    "please send the report before friday",
    "my sister lives in a small town",
]


def tiny_tokenizer() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(
        SENTENCES,
        trainers.WordLevelTrainer(special_tokens=["<pad>", "</s>", "<unk>"]),
    )
    # Like T5's tokenizer, end every sequence with </s> (id 1).
    tok.post_processor = processors.TemplateProcessing(
        single="$A </s>", special_tokens=[("</s>", 1)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )


def tiny_t5_config(vocab_size: int) -> Any:
    from transformers import T5Config

    return T5Config(
        vocab_size=vocab_size,
        d_model=D_MODEL,
        d_kv=8,
        d_ff=64,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=4,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
    )


@pytest.fixture(scope="module")
def model_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    import torch
    from transformers import T5EncoderModel

    root = tmp_path_factory.mktemp("tiny_models")
    tokenizer = tiny_tokenizer()
    config = tiny_t5_config(len(tokenizer))
    torch.manual_seed(0)
    encoder_dir = root / "encoder"
    T5EncoderModel(tiny_t5_config(len(tokenizer))).save_pretrained(encoder_dir)
    tokenizer.save_pretrained(encoder_dir)
    dirs = {"encoder": str(encoder_dir)}
    for seed, role in enumerate(("inverter", "corrector"), start=1):
        model = im.new_conditioned_t5(
            config,
            tokenizer,
            role=role,  # type: ignore[arg-type]
            embedding_dim=D_MODEL,
            num_repeat_tokens=4,
            seed=seed,
        )
        im.save_conditioned_t5(model, root / role)
        dirs[role] = str(root / role)
    return dirs


@pytest.fixture(scope="module")
def models(model_dirs: dict[str, str]) -> im.InversionModels:
    # fp32 on every device: the tolerances below are fp32's.
    return model_sets.load_inversion_models(
        model_dirs["encoder"],
        model_dirs["inverter"],
        model_dirs["corrector"],
        TEST_DEVICE,
        "fp32",
    )


def test_when_chunks_are_embedded_then_one_unnormalized_row_per_chunk(
    models: im.InversionModels,
) -> None:
    vectors = ei.embed(SENTENCES[:3], models.encoder)
    assert vectors.shape == (3, D_MODEL)
    assert vectors.dtype == np.float64
    assert not np.allclose(np.linalg.norm(vectors, axis=1), 1.0)


def test_when_embedding_then_padding_does_not_change_the_mean(
    models: im.InversionModels,
) -> None:
    alone = ei.embed(["contact me"], models.encoder)
    padded = ei.embed(["contact me", SENTENCES[1]], models.encoder)[:1]
    np.testing.assert_allclose(alone, padded, atol=1e-5)


def test_when_vectors_are_clipped_then_no_norm_exceeds_the_clip() -> None:
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(50, D_MODEL)) * rng.uniform(0.01, 10, size=(50, 1))
    clipped = ei.clip_l2(vectors, 1.5)
    norms = np.linalg.norm(clipped, axis=1)
    assert np.all(norms <= 1.5 + 1e-12)
    short = np.linalg.norm(vectors, axis=1) <= 1.5
    np.testing.assert_allclose(clipped[short], vectors[short])


def test_when_noise_is_seeded_then_it_is_reproducible() -> None:
    import torch

    base = np.zeros((3, D_MODEL))
    a = ei.add_gaussian_noise(base, 2.0, 7)
    assert np.array_equal(a, ei.add_gaussian_noise(base, 2.0, 7))
    assert not np.array_equal(a, ei.add_gaussian_noise(base, 2.0, 8))
    device = im.resolve_hardware(TEST_DEVICE)[0]
    t1 = ei.add_gaussian_noise(base, 2.0, torch.Generator(device).manual_seed(3))
    t2 = ei.add_gaussian_noise(base, 2.0, torch.Generator(device).manual_seed(3))
    assert np.array_equal(t1, t2)
    assert t1.dtype == np.float64 and not np.array_equal(t1, base)
    assert np.array_equal(ei.add_gaussian_noise(base, 0.0, 7), base)


def test_when_noise_scale_is_large_then_empirical_std_matches_sigma() -> None:
    noise = ei.add_gaussian_noise(np.zeros((200, D_MODEL)), 2.7196, 0)
    assert noise.std() == pytest.approx(2.7196, rel=0.03)


def test_when_full_path_runs_then_every_chunk_becomes_a_string(
    models: im.InversionModels,
) -> None:
    receipt = privacy_receipt(epsilon=16.0, delta=1e-3, n_chunks=3, clip=1.5)
    result = ei.privatize_and_invert(
        SENTENCES[:3],
        models,
        sigma=receipt.sigma,
        clip=receipt.clip,
        num_steps=2,
        rng=0,
        max_length=8,
    )
    assert len(result.texts) == 3
    assert all(isinstance(t, str) for t in result.texts)
    assert all(result.texts)  # pad is suppressed, so even random weights say something
    assert len(result.similarities) == 3
    assert all(-1.0 <= s <= 1.0 for s in result.similarities)


def test_when_seed_is_fixed_then_rewrite_is_deterministic(
    models: im.InversionModels,
) -> None:
    def run(seed: int) -> ei.ChunkRewrite:
        return ei.privatize_and_invert(
            SENTENCES[:2],
            models,
            sigma=0.5,
            clip=1.5,
            num_steps=2,
            rng=seed,
            max_length=8,
        )

    assert run(11) == run(11)


def test_when_corrector_steps_run_then_best_similarity_never_drops(
    models: im.InversionModels,
) -> None:
    targets = ei.add_gaussian_noise(
        ei.clip_l2(ei.embed(SENTENCES, models.encoder), 1.5), 0.3, 5
    )
    first = ei.invert_scored(targets, models, num_steps=0, max_length=8)
    refined = ei.invert_scored(targets, models, num_steps=3, max_length=8)
    assert [f.step for f in first] == [0] * len(SENTENCES)
    for a, b in zip(first, refined, strict=True):
        assert b.similarity >= a.similarity - 1e-9
        assert 0 <= b.step <= 3


def test_when_the_last_step_is_picked_then_it_is_the_chains_end_not_its_best(
    models: im.InversionModels,
) -> None:
    targets = ei.add_gaussian_noise(
        ei.clip_l2(ei.embed(SENTENCES, models.encoder), 1.5), 0.3, 5
    )
    chain = [
        ei.invert_scored(targets, models, num_steps=k, max_length=8, pick="last")
        for k in range(4)
    ]
    best = ei.invert_scored(targets, models, num_steps=3, max_length=8, pick="best")
    for row, found in enumerate(best):
        ends = [c[row] for c in chain]
        # Step k's hypothesis, unless the corrector reached a fixed point before.
        for k in range(1, 4):
            assert ends[k].step == k or ends[k].text == ends[k - 1].text
        assert found.similarity == pytest.approx(max(e.similarity for e in ends))
        assert found.text == max(ends, key=lambda e: e.similarity).text
    # The seeded tiny corrector wanders: for some row its last step re-embeds
    # farther than its best one, so the two picks give different texts.
    assert any(
        end.similarity < found.similarity - 1e-9
        for end, found in zip(chain[3], best, strict=True)
    )
    with pytest.raises(ValueError, match="best or last"):
        ei.invert_scored(targets, models, num_steps=1, pick="first")  # type: ignore[arg-type]


def test_when_no_corrector_then_only_zero_steps_are_allowed(
    model_dirs: dict[str, str],
) -> None:
    bare = model_sets.load_inversion_models(
        model_dirs["encoder"], model_dirs["inverter"], None, TEST_DEVICE
    )
    vectors = ei.embed(SENTENCES[:1], bare.encoder)
    assert len(ei.invert(vectors, bare, num_steps=0, max_length=6)) == 1
    with pytest.raises(ValueError, match="corrector"):
        ei.invert(vectors, bare, num_steps=1)


def test_when_model_directory_is_missing_then_nothing_is_fetched(
    tmp_path: Path,
) -> None:
    with pytest.raises(FileNotFoundError):
        im.load_encoder(str(tmp_path / "gtr-t5-base"))
    with pytest.raises(FileNotFoundError):
        im.load_conditioned_t5("jxm/gtr__nq__32")


def test_when_roles_are_swapped_then_loading_fails(
    model_dirs: dict[str, str],
) -> None:
    with pytest.raises(ValueError, match="corrector"):
        model_sets.load_inversion_models(
            model_dirs["encoder"], model_dirs["corrector"], None, TEST_DEVICE
        )


def test_when_precision_is_auto_then_models_load_in_the_devices_precision(
    model_dirs: dict[str, str],
) -> None:
    device, precision = im.resolve_hardware(TEST_DEVICE, "auto")
    auto = model_sets.load_inversion_models(
        model_dirs["encoder"], model_dirs["inverter"], None, TEST_DEVICE, "auto"
    )
    dtype = torch_device.torch_dtype(precision)
    assert precision == ("fp32" if device == "cpu" else precision)
    assert next(auto.encoder.model.parameters()).dtype == dtype
    assert next(auto.inverter.projections.parameters()).dtype == dtype
    assert str(next(auto.inverter.t5.parameters()).device).startswith(device)
    vectors = ei.embed(SENTENCES[:2], auto.encoder)
    assert vectors.dtype == np.float64
    assert len(ei.invert(vectors, auto, num_steps=0, max_length=6)) == 2


def test_when_the_model_cache_is_full_then_the_oldest_set_is_dropped(
    model_dirs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One set, as on a GPU: the next set replaces it rather than joining it.
    monkeypatch.setattr(model_sets, "CPU_CACHED_SETS", 1)
    monkeypatch.setattr(model_sets, "ACCELERATOR_CACHED_SETS", 1)
    model_sets.clear_model_cache()
    dirs = (model_dirs["encoder"], model_dirs["inverter"])
    load = model_sets.load_inversion_models
    first = load(*dirs, None, TEST_DEVICE, "fp32")
    assert load(*dirs, None, TEST_DEVICE, "fp32") is first
    other = load(*dirs, model_dirs["corrector"], TEST_DEVICE)
    assert other is not first
    assert load(*dirs, None, TEST_DEVICE, "fp32") is not first
    model_sets.clear_model_cache()


def test_when_the_named_device_is_missing_then_loading_fails_without_fallback(
    model_dirs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch_device, "mps_available", lambda: False)
    with pytest.raises(torch_device.DeviceError, match="no MPS backend"):
        model_sets.load_inversion_models(
            model_dirs["encoder"], model_dirs["inverter"], None, "mps"
        )


def test_when_no_chunks_then_nothing_is_inverted(models: im.InversionModels) -> None:
    result = ei.privatize_and_invert([], models, sigma=1.0, clip=1.5, rng=0)
    assert result.texts == [] and result.similarities == []


# --- the dp-embed graph, end to end -------------------------------------------


def run_graph(payload: dict[str, Any], **context: Any) -> dict[str, Any]:
    import asyncio

    from anonygraph.graphs import dp_embed
    from anonygraph.state.dp_embed import DpEmbedContext

    app = dp_embed.build_graph().compile(name="dp-embed")
    ctx = DpEmbedContext(**context)
    return asyncio.run(app.ainvoke(payload, context=ctx))


@pytest.fixture
def paths(model_dirs: dict[str, str]) -> dict[str, Any]:
    return {
        "encoder_path": model_dirs["encoder"],
        "inverter_path": model_dirs["inverter"],
        "corrector_path": model_dirs["corrector"],
        "num_steps": 2,
        "max_tokens": 8,
        "noise_seed": 0,
        "device": TEST_DEVICE,
        "precision": "fp32",
    }


def test_when_seed_demo_sentence_runs_then_placeholders_stay_and_receipt_matches(
    paths: dict[str, Any],
) -> None:
    out = run_graph({"text": "Contact Jane Doe at jane@example.com."}, **paths)
    assert out["status"] == "done"
    assert "[PERSON_1]" in out["anonymized"] and "[EMAIL_1]" in out["anonymized"]
    assert "jane@example.com" not in out["anonymized"]
    receipt = out["receipt"]
    assert receipt["n_chunks"] == 2
    assert receipt["epsilon_per_chunk"] == 8.0
    assert round(receipt["sigma"], 4) == 1.4992
    (entry,) = out["iterations"]
    assert [c["text"] for c in entry["chunks"]] == ["Contact", "at"]
    assert entry["receipt"] == receipt
    assert [c["step"] for c in out["calls"]] == ["perturb"]


def test_when_graph_runs_twice_with_a_seed_then_output_is_identical(
    paths: dict[str, Any],
) -> None:
    text = {
        "text": "Please call 415-555-0188 about the merger. The office is downtown."
    }
    assert (
        run_graph(text, **paths)["anonymized"] == run_graph(text, **paths)["anonymized"]
    )


def test_when_redaction_is_off_then_every_sentence_is_a_chunk(
    paths: dict[str, Any],
) -> None:
    text = "Mail jane@example.com today. Dr. Smith agreed! Is it late?"
    # identifiers="keep": DP-Embed's own redaction alone is off here.
    out = run_graph(
        {"text": text}, redact_pii=False, composition="zcdp", identifiers="keep",
        **paths,
    )  # fmt: skip
    assert out["receipt"]["n_chunks"] == 3
    assert out["receipt"]["composition"] == "zcdp"
    assert "[EMAIL" not in out["anonymized"]


def test_when_only_pii_and_punctuation_then_models_are_not_needed() -> None:
    out = run_graph({"text": "jane@example.com, 415-555-0188."})
    assert out["anonymized"] == "[EMAIL_1], [PHONE_1]."
    assert out["receipt"]["n_chunks"] == 0
    assert out["calls"] == []


def test_when_comments_are_given_then_they_come_back_one_per_comment(
    paths: dict[str, Any],
) -> None:
    out = run_graph(
        {"comments": ["Write to jane@example.com soon.", "I moved last year."]},
        **paths,
    )
    first, second = out["anonymized_comments"]
    assert "[EMAIL_1]" in first and "[EMAIL_1]" not in second


def test_when_model_paths_are_missing_then_the_run_says_which_to_set() -> None:
    with pytest.raises(ValueError, match="encoder_path"):
        run_graph({"text": "Contact Jane Doe at home."})


def test_when_graph_state_is_checkpointed_then_it_reads_back_as_plain_data(
    paths: dict[str, Any],
) -> None:
    import asyncio

    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from anonygraph.graphs import dp_embed
    from anonygraph.state.dp_embed import DpEmbedContext

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        async with AsyncSqliteSaver.from_conn_string(":memory:") as saver:
            app = dp_embed.build_graph().compile(checkpointer=saver)
            config = {"configurable": {"thread_id": "r1"}}
            out = await app.ainvoke(
                {"text": "Contact Jane Doe at jane@example.com."},
                config,
                context=DpEmbedContext(**paths),
            )
            return out, dict((await app.aget_state(config)).values)

    out, saved = asyncio.run(go())
    assert saved["receipt"] == out["receipt"]
    assert saved["anonymized"] == out["anonymized"]
