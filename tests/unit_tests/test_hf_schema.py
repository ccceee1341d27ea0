"""Schema-constrained decoding for `hf:`: a random model still writes valid JSON.

The model and its character-level tokenizer are built in the test: random
weights make every token about equally likely, so without the mask the answer
would be noise; with it, every sample must parse into the schema.
"""

from __future__ import annotations

import json
import string
from typing import Any, Literal

import pytest
import torch
from pydantic import BaseModel, Field
from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import (
    LlamaConfig,
    LlamaForCausalLM,
    LogitsProcessorList,
    PreTrainedTokenizerFast,
)

from anonygraph.llm.backends.hf_schema import SchemaLogits


class Guess(BaseModel):
    reasoning: str = Field(max_length=12)
    guesses: list[Literal["single", "married", "widowed"]] = Field(max_length=2)
    certainty: Literal[1, 2, 3, 4, 5]


@pytest.fixture(scope="module")
def tiny() -> tuple[Any, Any]:
    characters = string.ascii_letters + string.digits + string.punctuation + " \n"
    vocab = {"<s>": 0, "</s>": 1, **{c: i + 2 for i, c in enumerate(characters)}}
    core = Tokenizer(models.WordLevel(vocab, unk_token="</s>"))
    core.pre_tokenizer = pre_tokenizers.Split("", behavior="isolated")
    core.decoder = decoders.Fuse()  # characters join without spaces
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core, bos_token="<s>", eos_token="</s>"
    )
    config = LlamaConfig(
        vocab_size=len(vocab), hidden_size=32, intermediate_size=64,
        num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
        bos_token_id=0, eos_token_id=1, pad_token_id=1,
    )  # fmt: skip
    torch.manual_seed(0)
    return LlamaForCausalLM(config).eval(), tokenizer


def sample(tiny: tuple[Any, Any], processor: SchemaLogits, prompt: str) -> list[int]:
    model, tokenizer = tiny
    ids = tokenizer(prompt, return_tensors="pt")
    out = model.generate(
        **ids, logits_processor=LogitsProcessorList([processor]),
        do_sample=True, max_new_tokens=LIMIT, pad_token_id=1,
    )  # fmt: skip
    return list(out[0, ids["input_ids"].shape[1] :].tolist())


LIMIT = 300


def test_when_a_random_model_samples_under_the_schema_then_every_answer_parses(
    tiny: tuple[Any, Any],
) -> None:
    processor = SchemaLogits(tiny[1], Guess.model_json_schema())
    for seed in range(4):
        torch.manual_seed(seed)
        # One processor, several requests of different lengths: each is a new
        # answer, never the continuation of the previous one.
        tokens = sample(tiny, processor, "Q" * (seed + 3))
        answer = tiny[1].decode(tokens, skip_special_tokens=True)
        Guess.model_validate(json.loads(answer))
        # The answer ended by itself: padding is capped, so the mask let the
        # JSON close, then a few blanks at most and the end of the answer.
        assert len(tokens) < LIMIT and tokens[-1] == tiny[1].eos_token_id, answer


def test_when_nothing_masks_the_random_model_then_its_answer_is_no_json(
    tiny: tuple[Any, Any],
) -> None:
    # The control: the same model and seed without the mask write noise, so
    # the test above can fail.
    model, tokenizer = tiny
    torch.manual_seed(0)
    ids = tokenizer("QQQ", return_tensors="pt")
    out = model.generate(**ids, do_sample=True, max_new_tokens=60, pad_token_id=1)
    text = tokenizer.decode(out[0, 3:], skip_special_tokens=True)
    with pytest.raises(ValueError):
        Guess.model_validate(json.loads(text))
