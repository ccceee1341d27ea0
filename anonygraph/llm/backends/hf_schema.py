"""Schema-constrained decoding for `hf:` models (transformers, in process).

A transformers pipeline has no JSON mode of its own, and a small checkpoint
asked for JSON in the prompt often writes none. Each generation step here
masks the logits to the tokens that keep the answer a valid prefix of JSON
matching the answer schema, the way llama.cpp's grammar does for `local`.
The character-level JSON-schema parser and its token-prefix tree come from
lm-format-enforcer (MIT); the tokenizer bridge and the logits processor are
ours, because that package's transformers glue does not import on
transformers 5.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from lmformatenforcer import (
    CharacterLevelParserConfig,
    JsonSchemaParser,
    TokenEnforcer,
    TokenEnforcerTokenizerData,
)
from transformers import LogitsProcessor

MAX_BLANKS = 2
"""Whitespace characters allowed in a row: a tiny model left free pads forever."""

_TOKENIZER_DATA: dict[int, TokenEnforcerTokenizerData] = {}
_LOCK = threading.Lock()


def tokenizer_data(tokenizer: Any) -> TokenEnforcerTokenizerData:
    """Index ``tokenizer``'s vocabulary for the enforcer, once per tokenizer."""
    key = id(tokenizer)
    with _LOCK:
        if key not in _TOKENIZER_DATA:
            _TOKENIZER_DATA[key] = _index(tokenizer)
        return _TOKENIZER_DATA[key]


def _index(tokenizer: Any) -> TokenEnforcerTokenizerData:
    # A token's text depends on what precedes it (sentencepiece and byte-level
    # BPE drop a word-start space when decoded alone): decode each after a
    # fixed digit and cut the digit off to see the text it adds mid-answer.
    anchor = tokenizer.encode("1", add_special_tokens=False)[-1]
    anchor_text = tokenizer.decode([anchor])
    special = set(tokenizer.all_special_ids)
    size = len(tokenizer)
    tokens: list[tuple[int, str, bool]] = []
    for token in range(size):
        if token in special:
            continue
        alone = tokenizer.decode([token])
        after = tokenizer.decode([anchor, token])[len(anchor_text) :]
        tokens.append((token, after, len(after) > len(alone)))

    def decode(ids: list[int]) -> str:
        # A half-decoded multi-byte character must not reach the parser.
        return str(tokenizer.decode(ids)).rstrip("\ufffd")

    eos = tokenizer.eos_token_id
    return TokenEnforcerTokenizerData(tokens, decode, eos, False, size)


class SchemaLogits(LogitsProcessor):
    """Mask every token that would take the answer off ``schema``.

    One instance serves the calls of one request (retries included): a call
    whose tokens do not extend the previous step's is a new generation, and
    the answer is counted from the end of its prompt.
    """

    def __init__(self, tokenizer: Any, schema: dict[str, Any]) -> None:
        config = CharacterLevelParserConfig(max_consecutive_whitespaces=MAX_BLANKS)
        self._make: Callable[[], TokenEnforcer] = lambda: TokenEnforcer(
            tokenizer_data(tokenizer), JsonSchemaParser(schema, config=config)
        )
        self._enforcer = self._make()
        self._eos = int(tokenizer.eos_token_id)
        self._starts: list[int] = []
        self._last: Any = None

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        """Return ``scores`` with the tokens the schema forbids set to -inf."""
        import torch

        if not self._continues(input_ids):
            self._enforcer = self._make()
            self._starts = [input_ids.shape[1]] * input_ids.shape[0]
        self._last = input_ids
        masked = torch.full_like(scores, float("-inf"))
        for row, sequence in enumerate(input_ids.tolist()):
            answer = sequence[self._starts[row] :]
            allowed = self._enforcer.get_allowed_tokens(answer).allowed_tokens
            # No way on means the parser is stuck: end the answer, which then
            # fails to parse and is asked again, instead of sampling from nothing.
            allowed = allowed or [self._eos]
            masked[row, allowed] = scores[row, allowed]
        return masked

    def _continues(self, input_ids: Any) -> bool:
        last = self._last
        if last is None or last.shape[0] != input_ids.shape[0]:
            return False
        if input_ids.shape[1] != last.shape[1] + 1:
            return False
        return bool((input_ids[:, :-1] == last).all())
