"""Model layer: spec strings, lenient JSON, answer schemas."""

from __future__ import annotations

from typing import Any

import pytest

from anonygraph import llm
from anonygraph.llm import (
    ModelSpec,
    ModelSpecError,
    loading,
    parse_json_answer,
    parse_spec,
)
from anonygraph.llm.backends.openai_chat import answer_message
from anonygraph.state.answers import (
    Rewrite,
    attack_answer_model,
    inferences_from_answer,
    verdict_answer_model,
)


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("local", ModelSpec("local")),
        ("llamacpp:/models/q.gguf", ModelSpec("llamacpp", "/models/q.gguf")),
        ("ollama:qwen2.5:7b", ModelSpec("ollama", "qwen2.5:7b")),
        (
            "ollama:llama3@http://gpu:11434",
            ModelSpec("ollama", "llama3", "http://gpu:11434"),
        ),
        ("openai:gpt-4o", ModelSpec("openai", "gpt-4o")),
        (
            "openai:meta/Llama-3.1-8B@http://localhost:8000/v1",
            ModelSpec("openai", "meta/Llama-3.1-8B", "http://localhost:8000/v1"),
        ),
        ("hf:/models/smol", ModelSpec("hf", "/models/smol")),
    ],
)
def test_when_spec_is_valid_then_it_parses(spec: str, parsed: ModelSpec) -> None:
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4", "unknown model spec 'gpt-4'"),
        ("ollama:", "names no model"),
        ("local:big", "takes no name"),
        ("openai:x@ftp://host", "must start with http"),
    ],
)
def test_when_spec_is_invalid_then_the_error_names_it(spec: str, message: str) -> None:
    with pytest.raises(ModelSpecError, match=message):
        parse_spec(spec)


def test_when_a_gguf_file_is_missing_then_loading_names_it() -> None:
    with pytest.raises(ModelSpecError, match="no such file"):
        loading.load_chat_model("llamacpp:/nope/model.gguf", "attacker")


def test_when_the_embedded_model_is_installed_then_its_gguf_is_found() -> None:
    path = llm.embedded_model_path()
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000


@pytest.mark.parametrize(
    "answer",
    [
        '{"changes": "c", "text": "t"}',
        'Sure!\n```json\n{"changes": "c", "text": "t",}\n```',
        '{"changes": "c", "text": "t"',
        "{\u201cchanges\u201d: \u201cc\u201d, \u201ctext\u201d: \u201ct\u201d}",
        '{"changes": "c", "text": "t\\u00',
        '{"changes": "c", "text": "t\\',
    ],
)
def test_when_json_is_slightly_broken_then_it_is_repaired(answer: str) -> None:
    assert parse_json_answer(answer, Rewrite) == Rewrite(changes="c", text="t")


@pytest.mark.parametrize(
    "answer", ["no json here", '{"changes": "c"}', "[1, 2", '{"text": 3}']
)
def test_when_json_cannot_be_used_then_value_error(answer: str) -> None:
    with pytest.raises(ValueError):
        parse_json_answer(answer, Rewrite)


def test_when_attacker_answer_omits_an_attribute_then_it_counts_as_no_clue() -> None:
    schema = attack_answer_model(["age", "sex"])
    answer = parse_json_answer(
        '{"age": {"reasoning": "r", "guesses": ["40", "41", "42", "43"], '
        '"certainty": 3}}',
        schema,
    )
    age, sex = inferences_from_answer(answer)
    assert age.guesses == ["40", "41", "42"] and age.is_leak
    assert sex.guesses == [] and not sex.is_leak
    assert schema.model_json_schema()["required"] == ["age", "sex"]


def test_when_categorical_guess_is_off_the_option_list_then_it_is_rejected() -> None:
    schema = attack_answer_model(["sex"])
    with pytest.raises(ValueError):
        parse_json_answer(
            '{"sex": {"reasoning": "r", "guesses": ["robot"], "certainty": 2}}', schema
        )


def test_when_arbitrator_skips_an_attribute_then_its_verdict_is_invalid() -> None:
    answer = parse_json_answer("{}", verdict_answer_model(["age"]))
    assert answer.age.validity == "invalid"  # type: ignore[attr-defined]


def test_when_a_categorical_answer_is_cut_off_then_its_guesses_default_to_none() -> (
    None
):
    schema = attack_answer_model(["sex"])
    answer = parse_json_answer('{"sex": {"reasoning": "the text says wi', schema)
    (sex,) = inferences_from_answer(answer)
    assert sex.guesses == [] and sex.reasoning == "the text says wi"


def test_when_an_answer_escapes_a_lone_surrogate_then_it_becomes_a_storable_char() -> (
    None
):
    # A lone surrogate cannot be written as UTF-8; a pair is one real character.
    answer = parse_json_answer(
        '{"changes": "\\ud83d\\ude00", "text": "a\\ud800b\\udfffc"}', Rewrite
    )
    assert answer.text == "a\ufffdb\ufffdc"
    assert answer.changes == "\U0001f600"
    answer.text.encode("utf-8")


def test_when_a_string_holds_a_raw_newline_then_it_still_parses() -> None:
    answer = parse_json_answer(
        '{"changes": "c", "text": "line one\nline two"}', Rewrite
    )
    assert answer.text == "line one\nline two"


def test_when_an_answer_schema_is_asked_twice_then_pydantic_builds_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pydantic import BaseModel

    from anonygraph.state.answers import attack_answer_model

    model = attack_answer_model(["city_country", "age"])
    builds: list[type] = []
    real = BaseModel.model_json_schema.__func__  # type: ignore[attr-defined]

    def counting(cls: type[BaseModel], *args: Any, **kwargs: Any) -> Any:
        builds.append(cls)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(BaseModel, "model_json_schema", classmethod(counting))
    first = model.model_json_schema()
    first["properties"].clear()  # a caller's change stays its own
    second = model.model_json_schema()

    assert builds == [model]
    assert set(second["properties"]) == {"city_country", "age"}
    assert second["required"] == ["city_country", "age"]


def test_when_openai_is_named_without_a_key_or_server_then_loading_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelSpecError, match="set OPENAI_API_KEY"):
        loading.load_chat_model("openai:gpt-4o", "judge")


def test_when_a_tool_call_has_unreadable_arguments_then_it_is_kept_as_invalid() -> None:
    reply = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "search", "arguments": '{"query": "a"}'}},
            {"id": "c2", "type": "function",
             "function": {"name": "search", "arguments": '{"query": '}},
        ],
    }  # fmt: skip
    usage = {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
    data = {"choices": [{"message": reply, "finish_reason": "tool_calls"}]}
    message = answer_message(data | {"usage": usage})
    assert [c["args"] for c in message.tool_calls] == [{"query": "a"}]
    assert [c["id"] for c in message.invalid_tool_calls] == ["c2"]
    assert message.response_metadata["finish_reason"] == "tool_calls"
    assert message.usage_metadata == {
        "input_tokens": 7, "output_tokens": 3, "total_tokens": 10
    }  # fmt: skip
