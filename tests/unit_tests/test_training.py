"""SEAL training for real: a tiny model built here learns from SEAL data."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest
from devices import TEST_DEVICE
from seal_steps import step

from anonygraph.cli.commands.seal import add_parser, parse_weights
from anonygraph.tools import torch_device
from anonygraph.training.data import FILES, build_data, write_data
from anonygraph.training.trainer import (
    TrainConfig,
    TrainingSetupError,
    config_class,
    resolve_hardware,
    train,
    weighted_rows,
)
from anonygraph.training.trl_format import read_jsonl, to_prompt_completion

SPECIALS = ["<pad>", "<unk>", "<s>", "</s>", "<|user|>", "<|assistant|>"]
TEMPLATE = (
    "{% for m in messages %}{{ '<|' + m['role'] + '|> ' + m['content'] + ' </s> ' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|> ' }}{% endif %}"
)


def seal_data(folder: Path) -> dict[str, Path]:
    texts = [
        "I nurse kids at St. Mungo's and my husband cooks.",
        "I care for kids at a hospital and my husband cooks.",
        "I care for people at work and my partner cooks.",
        "I look after people and my partner cooks.",
    ]
    steps = [
        step(0, texts[0], [("occupation", 5), ("age", 3)], (10, 10, 1)),
        step(1, texts[1], [("occupation", 4)], (10, 9, 1)),
        step(2, texts[2], [], (10, 9, 1)),
        step(3, texts[3], [("age", 1)], (9, 8, 1)),
    ]
    return write_data(build_data([steps]), folder)


def tiny_model(folder: Path, corpus: list[str]) -> Path:
    """Build and save a 2-layer Llama and a word-level tokenizer, all offline."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    split = pre_tokenizers.Whitespace()
    words = sorted({w for text in corpus for w, _ in split.pre_tokenize_str(text)})
    vocab = {
        w: i for i, w in enumerate(SPECIALS + [w for w in words if w not in SPECIALS])
    }
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = split
    core.add_special_tokens(SPECIALS)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core,
        pad_token="<pad>",
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
    )
    tokenizer.chat_template = TEMPLATE
    config = LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        pad_token_id=0,
        bos_token_id=2,
        eos_token_id=3,
        # Wide enough an output layer that frozen weights leave room to learn.
        initializer_range=0.2,
    )
    import torch

    torch.manual_seed(0)
    LlamaForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_when_weights_are_given_then_rows_are_repeated_or_subsampled() -> None:
    rows = {
        "anon": [{"n": i} for i in range(4)],
        "priv": [{"n": 10 + i} for i in range(4)],
        "util": [{"n": 20 + i} for i in range(4)],
    }

    mixed = weighted_rows(rows, {"anon": 2.0, "priv": 0.5, "util": 0.0})

    assert sorted(r["n"] for r in mixed if r["n"] < 10) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert len([r for r in mixed if 10 <= r["n"] < 20]) == 2
    assert not [r for r in mixed if r["n"] >= 20]
    assert parse_weights("anon=2, util=0.5") == {"anon": 2.0, "util": 0.5}
    with pytest.raises(ValueError, match="TASK=NUMBER"):
        parse_weights("style=1")


def test_when_trl_reads_the_files_then_every_row_is_conversational(
    tmp_path: Path,
) -> None:
    from datasets import Dataset
    from trl.data_utils import is_conversational, is_conversational_from_value

    for name, path in seal_data(tmp_path).items():
        rows = read_jsonl(path)
        dataset = Dataset.from_list(rows)
        expected = ["prompt", "chosen", "rejected"] if name == "pref" else ["messages"]
        assert dataset.column_names == expected, name
        assert all(is_conversational(row) for row in rows), name
        assert not any(is_conversational_from_value(row) for row in rows), name


def test_when_data_is_missing_then_training_says_what_to_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(TrainingSetupError, match="seal data"):
        train(TrainConfig(data_dir=str(tmp_path), base_model="x", output_dir="y"))

    parser = argparse.ArgumentParser(prog="anonygraph")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(
        ["seal", "train", "--data", str(tmp_path), "--model", "m", "--out", "o",
         "--weights", "anon=2", "--max-steps", "3"]
    )  # fmt: skip
    assert (args.max_steps, args.sft_learning_rate, args.beta) == (3, 2e-4, 0.01)
    assert (args.device, args.precision) == ("auto", "auto")
    assert args.func(args) == 2
    assert "sft_anon.jsonl is missing" in capsys.readouterr().err


def test_when_a_tiny_model_trains_on_seal_data_then_sft_and_dpo_losses_fall(
    tmp_path: Path,
) -> None:
    paths = seal_data(tmp_path / "data")
    corpus = [
        turn["content"]
        for name, path in paths.items()
        for row in read_jsonl(path)
        for turns in (
            row.get("messages"),
            row.get("prompt"),
            row.get("chosen"),
            row.get("rejected"),
        )  # fmt: skip
        if turns
        for turn in turns
    ]
    model_dir = tiny_model(tmp_path / "base", corpus)
    rows = {name: read_jsonl(path) for name, path in paths.items()}
    assert rows["pref"] and rows["anon"]
    assert to_prompt_completion(rows["anon"][0])["completion"][0]["role"] == "assistant"

    report = train(
        TrainConfig(
            data_dir=str(tmp_path / "data"),
            base_model=str(model_dir),
            output_dir=str(tmp_path / "out"),
            sft_batch_size=4,
            sft_learning_rate=1e-2,
            dpo_batch_size=2,
            dpo_learning_rate=1e-2,
            beta=0.1,
            max_steps=10,
            gradient_checkpointing=False,
            logging_steps=1,
            device=TEST_DEVICE,
            # The loss thresholds below are for fp32; auto is tested on its own.
            precision="fp32",
        )
    )

    sys.stderr.write(json.dumps({"sft": report.sft_losses, "dpo": report.dpo_losses}))
    assert report.sft_rows == {
        name: len(rows[name]) for name in ("anon", "priv", "util")
    }
    assert len(report.sft_losses) == 10 and len(report.dpo_losses) == 10
    sft, dpo = report.sft_losses, report.dpo_losses
    assert sum(sft[-3:]) < 0.8 * sum(sft[:3])
    assert dpo[0] == pytest.approx(0.6931, abs=0.01)  # log 2: policy == reference
    assert sum(dpo[-3:]) / 3 < 0.5
    assert (Path(report.final_model) / "config.json").is_file()
    assert Path(report.sft_model) != Path(report.final_model)
    assert set(FILES) == set(paths)
    assert (report.device, report.precision) == (
        resolve_hardware(
            TrainConfig(data_dir="", base_model="", output_dir="", device=TEST_DEVICE)
        )[0],
        "fp32",
    )


@pytest.mark.parametrize(
    ("cuda", "bf16", "device", "precision", "expected"),
    [
        (1, True, "auto", "auto", ("cuda", "bf16")),
        (1, False, "auto", "auto", ("cuda", "fp16")),
        (0, False, "auto", "auto", ("cpu", "fp32")),
        (2, True, "cuda:1", "fp16", ("cuda:1", "fp16")),
        (1, True, "cpu", "auto", ("cpu", "fp32")),
    ],
)
def test_when_training_picks_hardware_then_auto_means_bf16_where_supported(
    monkeypatch: pytest.MonkeyPatch,
    cuda: int,
    bf16: bool,
    device: str,
    precision: str,
    expected: tuple[str, str],
) -> None:
    monkeypatch.setattr(torch_device, "cuda_available", lambda: cuda > 0)
    monkeypatch.setattr(torch_device, "cuda_device_count", lambda: cuda)
    monkeypatch.setattr(torch_device, "bf16_supported", lambda: bf16)
    monkeypatch.setattr(torch_device, "mps_available", lambda: False)
    config = TrainConfig(
        data_dir="", base_model="", output_dir="", device=device, precision=precision
    )

    assert resolve_hardware(config) == expected


def test_when_the_named_device_is_missing_then_training_stops_before_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch_device, "cuda_available", lambda: False)
    seal_data(tmp_path)
    config = TrainConfig(
        data_dir=str(tmp_path), base_model="x", output_dir="y", device="cuda"
    )

    with pytest.raises(TrainingSetupError, match="sees no CUDA GPU"):
        train(config)


def test_when_a_gpu_index_is_named_then_the_trainer_uses_that_gpu_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch
    import trl

    chosen: list[str] = []
    monkeypatch.setattr(torch.cuda, "set_device", chosen.append)
    assert config_class(trl.SFTConfig, "cuda") is trl.SFTConfig
    assert config_class(trl.DPOConfig, "cpu") is trl.DPOConfig

    args = config_class(trl.SFTConfig, "cuda:1")(
        output_dir=str(tmp_path), report_to="none", bf16=False
    )

    assert args.device == torch.device("cuda:1")
    assert args.n_gpu == 1
    assert chosen == ["cuda:1"]
