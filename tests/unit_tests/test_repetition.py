"""The looping-answer guard of in-process llama.cpp models.

The detector's table, a scripted stream that loops (decoding stops at the
loop), and the embedded model's real stream: grammar-constrained answers and
exact token usage as without streaming.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from anonygraph.llm.backends import llamacpp, llamacpp_chat
from anonygraph.llm.repetition import (
    MIN_REPEATS,
    MIN_SPAN,
    REPETITION,
    RepetitionGuard,
    describe_loop,
    loop_unit,
)

PROSE = (
    "I moved to Calgary for work three years ago. The winters are long, but "
    "the people at the plant are kind and my commute is short. On weekends we "
    "drive out to the mountains when the roads are clear, and in summer the "
    "festivals downtown keep us busy. "
)
SENTENCE = "The author lives in Lyon, France and works as a nurse there. "


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        (PROSE, None),
        (PROSE * 2, None),  # a paragraph twice is not a loop (period > 120)
        ("the " * 100, "the "),
        ("the " * 99, None),  # under MIN_SPAN characters
        (PROSE + "very " * 80, "very "),
        (PROSE.strip() + " " * MIN_SPAN, " "),  # a grammar's endless whitespace
        (PROSE.strip() + " " * (MIN_SPAN - 1), None),
        (PROSE + "-" * 40, None),  # a rule line is ordinary text
        (PROSE + SENTENCE * MIN_REPEATS, SENTENCE),
        # The embedded model's refrain that ended by itself after a few rounds.
        (PROSE + SENTENCE * 5, None),
        ('{"guesses": [' + '"Lyon, France", ' * 30, '"Lyon, France", '),
        (", ".join(str(n) for n in range(1, 200)), None),  # counting moves on
        ("", None),
    ],
)
def test_when_an_answer_ends_so_then_the_detector_finds_this_unit(
    text: str, unit: str | None
) -> None:
    found = loop_unit(text)
    if unit is None:
        assert found is None
    else:
        assert found is not None and (found * 2).find(unit) >= 0
        assert len(found) == len(unit)


def test_when_pieces_arrive_then_the_guard_fires_at_the_first_looping_one() -> None:
    guard = RepetitionGuard()
    pieces = [PROSE, *["again "] * 200]
    fired = [guard.feed(p) for p in pieces]
    first = fired.index(True)
    # 400 characters of "again " need 67 repeats: the guard fires there, not
    # at the token limit.
    assert first == 67 and all(fired[first:])
    assert guard.unit is not None and sorted(guard.unit) == sorted("again ")
    assert "stopped after 68 tokens" in describe_loop(guard.unit, 68)


class ScriptedLlama:
    """A llama.cpp stand-in that streams scripted pieces and counts what it sent."""

    def __init__(self, pieces: list[str], finish: str = "length") -> None:
        self.pieces = pieces
        self.finish = finish
        self.sent = 0
        self.closed = False
        self.kwargs: dict[str, Any] = {}
        self.n_tokens = 0

    def create_chat_completion(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        self.kwargs = kwargs
        return self._stream()

    def _stream(self) -> Iterator[dict[str, Any]]:
        try:
            yield {"choices": [{"delta": {"role": "assistant"}, "finish_reason": None}]}
            for piece in self.pieces:
                self.sent += 1
                self.n_tokens = 10 + self.sent
                yield {
                    "choices": [{"delta": {"content": piece}, "finish_reason": None}]
                }
            yield {"choices": [{"delta": {}, "finish_reason": self.finish}]}
        finally:
            self.closed = True


def test_when_a_stream_loops_then_decoding_stops_there_with_reason_repetition() -> None:
    llama = ScriptedLlama(['{"text": "', *["same words "] * 500])
    fmt = {"type": "json_object", "schema": {"type": "object"}}
    out = llamacpp_chat._stream_guarded(
        llama, [{"role": "user", "content": "hi"}], {"response_format": fmt}
    )
    assert out["finish_reason"] == REPETITION
    assert sorted(out["repeated"]) == sorted("same words ")
    # 400 characters of "same words " need 37 of them (and the opening piece).
    assert llama.sent == 38 and llama.closed  # not the 501 scripted tokens
    assert out["completion_tokens"] == 38
    assert llama.kwargs["stream"] is True and llama.kwargs["response_format"] == fmt


def test_when_a_stream_ends_normally_then_its_reason_and_text_are_kept() -> None:
    llama = ScriptedLlama(['{"city": ', '"Paris"}'], finish="stop")
    out = llamacpp_chat._stream_guarded(llama, [], {})
    assert out["text"] == '{"city": "Paris"}'
    assert out["finish_reason"] == "stop" and out["repeated"] is None
    assert (out["completion_tokens"], out["prompt_tokens"]) == (2, 10)


@pytest.fixture(scope="module")
def embedded() -> llamacpp_chat.LlamaCppChat:
    return llamacpp_chat.LlamaCppChat(
        model_path=str(llamacpp.embedded_model_path()), max_tokens=24
    )


@pytest.mark.parametrize("constrained", [True, False])
def test_when_the_embedded_model_streams_then_answer_and_usage_match_one_shot(
    embedded: llamacpp_chat.LlamaCppChat, constrained: bool
) -> None:
    from langchain_core.messages import HumanMessage

    fmt = {
        "type": "json_object",
        "schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    }
    prompt = "Where is the Eiffel Tower? Answer with its city."
    model: Any = embedded.bind(response_format=fmt) if constrained else embedded
    streamed = model.invoke([HumanMessage(prompt)])
    llama = llamacpp_chat._load_llama(embedded.model_path, embedded.n_ctx)
    params: dict[str, Any] = {"max_tokens": 24, "temperature": 0.0}
    if constrained:
        params["response_format"] = fmt
    whole = llama.create_chat_completion(
        messages=[{"role": "user", "content": prompt}], **params
    )
    usage = streamed.usage_metadata
    assert usage["input_tokens"] == whole["usage"]["prompt_tokens"]
    assert usage["output_tokens"] == whole["usage"]["completion_tokens"]
    assert (
        streamed.response_metadata["finish_reason"]
        == (whole["choices"][0]["finish_reason"])
    )
    if constrained:
        assert "city" in json.loads(streamed.content)


def test_when_the_embedded_model_loops_under_a_grammar_then_it_is_stopped_early(
    embedded: llamacpp_chat.LlamaCppChat,
) -> None:
    from langchain_core.messages import HumanMessage

    fmt = {
        "type": "json_object",
        "schema": {
            "type": "object",
            "properties": {"words": {"type": "array", "items": {"type": "string"}}},
            "required": ["words"],
        },
    }
    model = embedded.model_copy(update={"max_tokens": 512})
    prompt = "Repeat the word 'cat' in the list 'words', 200 times."
    answer = model.bind(response_format=fmt).invoke([HumanMessage(prompt)])
    assert answer.response_metadata["finish_reason"] == REPETITION
    assert "cat" in answer.response_metadata["repeated"]
    # Stopped once 400 characters looped, well before the 512-token limit.
    assert answer.usage_metadata["output_tokens"] < 300
