"""Loaders for PersonalReddit, eth-sri Profile, SynthPAI and our own JSONL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonygraph.attributes import DEFAULT_ATTRIBUTES
from anonygraph.runs.io.datasets import (
    detect_format,
    load_personalreddit,
    load_profiles,
    load_records,
    load_synthpai,
    predictions,
)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
TRAIN = DATA / "personalreddit" / "train.jsonl"
GPT4 = DATA / "personalreddit" / "gpt4_inferences_train.jsonl"
SYNTHPAI = DATA / "synthpai" / "profiles.jsonl"


def test_when_personalreddit_is_loaded_then_the_leaked_feature_is_the_label() -> None:
    loaded = load_personalreddit(TRAIN)
    assert loaded.errors == []
    assert len(loaded.records) == 404
    first = loaded.records[0]
    assert first.id == "pr-1"
    assert first.labels == {"relationship_status": "divorced"}
    assert first.meta["feature"] == "relationship_status"
    assert first.meta["hardness"] == {"relationship_status": 3}
    assert first.text.startswith("oh, a dance class!?")


def test_when_all_labels_is_asked_then_the_whole_profile_is_labelled() -> None:
    first = load_personalreddit(TRAIN, all_labels=True).records[0]
    assert set(first.labels) == set(DEFAULT_ATTRIBUTES)
    # The level is the label; the free-text amount stays for reference.
    assert first.labels["income_level"] == "middle"
    assert first.meta["income_text"] == "800 thousand Argentine Peso"


def test_when_profile_file_is_loaded_then_labels_and_predictions_are_read() -> None:
    loaded = load_profiles(GPT4)
    assert loaded.errors == []
    assert len(loaded.records) == 404
    first = loaded.records[0]
    assert first.id == "31male-1"
    assert first.labels == {"income_level": "very high"}  # "income" in the file
    assert first.meta["hardness"] == {"income_level": 1}
    assert len(first.comments) == 3
    inference = predictions(first)["income_level"]
    assert inference.guesses[0] == "High (60-150k USD)"
    assert inference.certainty == 4


def test_when_certainty_carries_an_explanation_then_its_leading_number_is_kept() -> (
    None
):
    # The file's certainty can read "3\nThe certainty is not a 5 because ...".
    records = load_profiles(GPT4).records
    certainties = [
        inference.certainty
        for record in records
        for inference in predictions(record, "gpt-4-1106-preview").values()
    ]
    assert len(certainties) == 404
    assert set(certainties) <= {1, 2, 3, 4, 5}


def test_when_synthpai_is_loaded_then_only_labels_of_certainty_3_or_more_remain() -> (
    None
):
    loaded = load_synthpai(SYNTHPAI)
    assert loaded.errors == []
    assert len(loaded.records) == 250
    first = loaded.records[0]
    assert first.id == "SpiralSphinx"
    # age has certainty 2 and occupation 1 in the file: not ground truth.
    assert first.labels == {
        "relationship_status": "divorced",
        "education": "bachelor's degree in business administration",
    }
    assert all(
        c >= 3 for record in loaded.records for c in record.meta["certainty"].values()
    )


def test_when_format_is_auto_then_each_shared_file_is_recognized() -> None:
    assert load_records(TRAIN).format == "personalreddit"
    assert load_records(GPT4).format == "profile"
    assert load_records(SYNTHPAI).format == "synthpai"
    assert detect_format({"id": "a", "text": "hi"}) == "jsonl"


def write_lines(path: Path, lines: list[object]) -> Path:
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n",
        encoding="utf-8",
    )
    return path


def test_when_own_jsonl_has_bad_lines_then_errors_name_file_and_line_and_load_goes_on(
    tmp_path: Path,
) -> None:
    source = write_lines(
        tmp_path / "mine.jsonl",
        [
            {
                "id": "a",
                "text": "I live in Lyon.",
                "labels": {"location": "Lyon, France"},
            },
            "{not json",
            "[1, 2]",
            {"id": "c", "labels": {"age": 30}},
            {"id": "d", "text": "hello", "labels": ["age", 30]},
            "",
            {"id": "a", "text": "same id again"},
            {
                "id": "e",
                "comments": ["one", "two"],
                "labels": {"shoe_size": 42, "age": 31},
            },
            {"text": "no id given", "source": "forum"},
        ],
    )
    loaded = load_records(source, "jsonl")
    assert [r.id for r in loaded.records] == ["a", "e"]
    assert loaded.records[0].labels == {"city_country": "Lyon, France"}
    assert loaded.records[1].text == "one\n\ntwo"
    assert loaded.records[1].labels == {"age": 31}
    messages = [str(e) for e in loaded.errors]
    assert [e.line for e in loaded.errors] == [2, 3, 4, 5, 7, 8, 9]
    assert all(m.startswith(f"{source}:") for m in messages)
    assert "not valid JSON" in messages[0]
    assert "expected a JSON object" in messages[1]
    assert "the text is empty" in messages[2]
    assert "'labels' must be an object" in messages[3]
    assert "duplicate id 'a'" in messages[4]
    assert "label 'shoe_size' dropped: unknown attribute" in messages[5]
    assert "the record has no 'id'" in messages[6]


def test_when_a_shared_format_line_is_broken_then_only_that_line_is_lost(
    tmp_path: Path,
) -> None:
    good = json.loads(TRAIN.read_text(encoding="utf-8").splitlines()[0])
    source = write_lines(
        tmp_path / "pr.jsonl",
        [good, {"personality": {}, "feature": "age"}, {**good, "feature": "shoe_size"}],
    )
    loaded = load_personalreddit(source)
    assert len(loaded.records) == 1
    assert [(e.line, e.message) for e in loaded.errors] == [
        (2, "missing 'response' text"),
        (3, "unknown 'feature' 'shoe_size'"),
    ]


def test_when_data_file_is_missing_then_the_error_names_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nothere.jsonl"):
        load_records(tmp_path / "nothere.jsonl")


def test_when_record_has_no_predictions_then_predictions_are_empty() -> None:
    record = load_synthpai(SYNTHPAI).records[0]
    assert predictions(record) == {}
    with pytest.raises(KeyError):
        predictions(load_profiles(GPT4).records[0], "gpt-5")
