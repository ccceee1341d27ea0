"""Tables in and out: CSV, Parquet and datasets read as records, written back whole."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import datasets
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import anonygraph
from anonygraph.inputs import InputError, read_records
from anonygraph.runs.table_output import (
    OutputColumns,
    TableResult,
    graph_result,
    no_result,
    write_table,
)
from anonygraph.runs.tables import BadRow, TableColumns, read_table, table_batches
from anonygraph.state.domain import Record

BODY = TableColumns(text="body", id="id")


UNDER = "1 = the first row under the header"
"""How a table's bad row says what its number counts."""


def records(path: Path, columns: TableColumns = BODY, **kwargs: Any) -> list[Any]:
    return list(read_table(path, columns, **kwargs))


def summary(items: list[Any]) -> list[tuple[str, str]]:
    """Each item as (id, text) or (BadRow's str, '')."""
    return [(i.id, i.text) if isinstance(i, Record) else (str(i), "") for i in items]


def anonymized_by_upper(ids: list[str]) -> dict[str, TableResult]:
    """A results lookup: every record 'anonymized' to its id in capitals."""
    return {
        i: TableResult(
            anonymized=f"TEXT OF {i}".upper(),
            outcome="anonymized",
            leaks_left=["age"] if i.endswith("1") else [],
            problem="",
        )
        for i in ids
    }


# --- Reading ------------------------------------------------------------------


def test_when_a_csv_is_read_then_rows_become_records_and_bad_rows_say_why(
    tmp_path: Path,
) -> None:
    path = tmp_path / "in.csv"
    path.write_text(
        "id,body,lang\n"
        "007,I am 34 and live in Calgary.,en\n"
        'a2,"Two lines,\nquoted.",en\n'
        "a3,,en\n"
        ",No id here.,en\n"
        "007,Same id again.,en\n"
        "a6,NA,en\n"
    )

    assert summary(records(path)) == [
        ("007", "I am 34 and live in Calgary."),
        ("a2", "Two lines,\nquoted."),
        (
            f"row 3 ({UNDER}; record 'a3'): the 'body' cell is empty; there is nothing "
            "to anonymize",
            "",
        ),
        (
            f"row 4 ({UNDER}; a record): the 'id' cell is empty; give every row a "
            "unique id",
            "",
        ),
        (f"row 5 ({UNDER}; record '007'): duplicate id; ids must be unique", ""),
        ("a6", "NA"),
    ]


def test_when_the_first_row_or_line_is_bad_then_both_say_1_as_an_editor_does(
    tmp_path: Path,
) -> None:
    table = tmp_path / "in.csv"
    table.write_text("id,body\na1,\na2,fine\n")
    lines = tmp_path / "in.jsonl"
    lines.write_text('{"id": "a1", "text": ""}\n{"id": "a2", "text": "fine"}\n')

    (bad_row, _) = records(table, TableColumns(text="body", id="id"))
    (bad_line, _) = list(read_records(lines))

    assert str(bad_row).startswith(f"row 1 ({UNDER}; record 'a1'): ")
    assert str(bad_line).startswith("line 1 (record 'a1'): ")


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (
            b"id,body,note\na1,hello,x\na2,caf\xe9,y\na3,fine,z\n",
            f"row 2 ({UNDER}; it ends on line 3 of the file), column 'body', holds "
            "the byte 0xe9",
        ),
        (
            b'id,body,note\na1,"two\nlines",x\na2,fine,\xff\n',
            f"row 2 ({UNDER}; it ends on line 4 of the file), column 'note', holds "
            "the byte 0xff",
        ),
        (b"id,b\xf6dy\na1,x\n", "the header, column 2, holds the byte 0xf6"),
    ],
)
def test_when_a_csv_cell_has_a_byte_that_is_not_utf8_then_its_row_and_column_are_named(
    tmp_path: Path, content: bytes, where: str
) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(content)

    with pytest.raises(InputError) as caught:
        records(path, TableColumns(text="body", id="id"))

    assert str(caught.value) == (
        f"--input {path}: {where}, which is not UTF-8; save the file as UTF-8 (a "
        "spreadsheet's 'CSV UTF-8'; or `iconv -f cp1252 -t utf-8 IN.csv > OUT.csv` "
        "for a Windows file) or fix that cell, and run again"
    )


def test_when_no_id_column_is_named_then_the_row_number_is_the_id(
    tmp_path: Path,
) -> None:
    path = tmp_path / "in.csv"
    pd.DataFrame({"text": ["first", "second", "third"]}).to_csv(path, index=False)

    items = records(path, TableColumns(), batch_rows=2)

    assert [(i.id, i.text) for i in items] == [
        ("0", "first"),
        ("1", "second"),
        ("2", "third"),
    ]


@pytest.mark.parametrize(
    ("table", "columns", "problem"),
    [
        (
            {"id": [1], "text": ["hi"]},
            BODY,
            "no column 'body' (columns: id, text); name the column with --text-column",
        ),
        (
            {"body": ["hi"]},
            BODY,
            "no column 'id' (columns: body); name the column with --id-column",
        ),
        (
            {"id": [1], "body": [42]},
            BODY,
            "column 'body' holds int64 values, not text; name the text column "
            "with --text-column",
        ),
        (
            {"id": [1], "body": [["a", "b"]]},
            BODY,
            "column 'body' holds lists, where text is expected; name it with "
            "--comments-column instead",
        ),
        (
            {"id": [1], "posts": [3.5]},
            TableColumns(comments="posts", id="id"),
            "column 'posts' holds double, not lists of text",
        ),
    ],
)
def test_when_a_parquet_table_has_no_usable_column_then_one_line_says_so(
    tmp_path: Path, table: dict[str, list[Any]], columns: TableColumns, problem: str
) -> None:
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table(table), path)

    with pytest.raises(InputError) as caught:
        records(path, columns)

    assert str(caught.value) == f"--input {path}: {problem}"
    assert "\n" not in str(caught.value)


def test_when_parquet_cells_are_empty_or_too_long_then_those_rows_are_bad(
    tmp_path: Path,
) -> None:
    path = tmp_path / "in.parquet"
    texts = ["fine", None, "   ", "x" * 30, "also fine"]
    pq.write_table(pa.table({"id": [1, 2, 3, 4, 5], "body": texts}), path)

    assert summary(records(path, max_chars=20)) == [
        ("1", "fine"),
        (
            f"row 2 ({UNDER}; record '2'): the 'body' cell is empty; there is nothing "
            "to anonymize",
            "",
        ),
        (
            f"row 3 ({UNDER}; record '3'): the text is only whitespace; there is "
            "nothing to "
            "anonymize",
            "",
        ),
        (
            f"row 4 ({UNDER}; record '4'): the text has 30 characters, over the limit "
            "of 20; "
            "split it into several records or raise --max-chars",
            "",
        ),
        ("5", "also fine"),
    ]


def test_when_a_comments_column_is_read_then_each_list_is_one_author(
    tmp_path: Path,
) -> None:
    parquet = tmp_path / "in.parquet"
    lists = [["I am 34.", "I live in Calgary."], [], ["ok", 3]]
    pq.write_table(
        pa.table({"user": ["u1", "u2", "u3"], "posts": lists[:2] + [["ok"]]}), parquet
    )
    csv = tmp_path / "in.csv"
    csv.write_text('user,posts\nu1,"[""a"", ""b""]"\nu2,not a list\nu3,"[""a"", 3]"\n')
    columns = TableColumns(comments="posts", id="user")

    from_parquet = records(parquet, columns)
    from_csv = records(csv, columns)

    assert from_parquet[0].comments == ["I am 34.", "I live in Calgary."]
    assert from_parquet[0].text == "I am 34.\n\nI live in Calgary."
    assert str(from_parquet[1]) == (
        f"row 2 ({UNDER}; record 'u2'): the 'posts' cell is empty; there is nothing to "
        "anonymize"
    )
    assert from_csv[0].comments == ["a", "b"]
    assert str(from_csv[1]) == (
        f"row 2 ({UNDER}; record 'u2'): the 'posts' cell is text, not a list of "
        "comments (a "
        'CSV cell holds one as JSON: ["first", "second"]); name a text column with '
        "--text-column instead"
    )
    assert str(from_csv[2]) == (
        f"row 3 ({UNDER}; record 'u3'): the 'posts' cell holds a list with non-text "
        "items"
    )


def test_when_a_saved_dataset_is_read_then_its_split_is_used_or_asked_for(
    tmp_path: Path,
) -> None:
    one = datasets.Dataset.from_dict({"id": ["a", "b"], "body": ["hi there", "yo"]})
    one.save_to_disk(str(tmp_path / "one"))
    two = datasets.DatasetDict({"train": one, "test": one.select([1])})
    two.save_to_disk(str(tmp_path / "two"))

    assert summary(records(tmp_path / "one")) == [("a", "hi there"), ("b", "yo")]
    assert summary(records(tmp_path / "two", split="test")) == [("b", "yo")]
    with pytest.raises(InputError, match="has the splits train, test; name one"):
        records(tmp_path / "two")


def test_when_a_folder_holds_data_files_then_datasets_streams_them(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    lines = [{"id": f"r{i}", "body": f"text {i}"} for i in range(5)]
    (folder / "part.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))

    items = records(folder, batch_rows=2)

    assert summary(items) == [(f"r{i}", f"text {i}") for i in range(5)]


def test_when_a_folder_holds_nothing_readable_then_one_line_says_so(
    tmp_path: Path,
) -> None:
    (tmp_path / "notes.bin").write_bytes(b"\x00\x01")

    with pytest.raises(InputError, match="neither a dataset saved with save_to_disk"):
        records(tmp_path)


def test_when_a_row_group_is_over_the_memory_budget_then_the_file_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "big.parquet"
    texts = [f"{i} {'x' * 1000}" for i in range(1000)]  # unique: no dictionary
    pq.write_table(pa.table({"id": range(1000), "body": texts}), path)

    with pytest.raises(InputError) as caught:
        records(path, max_batch_bytes=2**19)

    assert (
        "row group 0 holds 1.0 MiB of uncompressed pages, over the 0.5 MiB a read "
        "may hold at once" in str(caught.value)
    )
    assert "row_group_size=10_000" in str(caught.value)


# --- Streaming: memory stays bounded --------------------------------------------


@pytest.fixture(scope="module")
def many_row_groups(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A Parquet file of 40 row groups of 250 rows of ~1 kB texts, and its size."""
    path = tmp_path_factory.mktemp("stream") / "big.parquet"
    count = 40 * 250
    table = pa.table(
        {
            "id": range(count),
            "body": [f"{'word ' * 200}{i}" for i in range(count)],
            "lang": ["en"] * count,
        }
    )
    pq.write_table(table, path, row_group_size=250)
    return path, pq.read_table(path).nbytes


def test_when_a_large_parquet_file_is_read_then_it_comes_in_bounded_batches(
    many_row_groups: tuple[Path, int],
) -> None:
    path, table_bytes = many_row_groups

    sizes = [batch.num_rows for batch in table_batches(path, batch_rows=100)]
    baseline, peak, count = pa.total_allocated_bytes(), 0, 0
    for _ in read_table(path, BODY, batch_rows=100):
        count += 1
        peak = max(peak, pa.total_allocated_bytes() - baseline)

    assert sizes == [100] * 100
    assert count == 10_000
    # One batch (and the row group it is cut from) in memory, not the table.
    assert peak < table_bytes / 4, (peak, table_bytes)


def test_when_a_large_parquet_file_is_written_then_results_are_asked_per_batch(
    many_row_groups: tuple[Path, int], tmp_path: Path
) -> None:
    path, table_bytes = many_row_groups
    asked: list[int] = []
    baseline, peak = pa.total_allocated_bytes(), 0

    def lookup(ids: list[str]) -> dict[str, TableResult]:
        nonlocal peak
        asked.append(len(ids))
        peak = max(peak, pa.total_allocated_bytes() - baseline)
        return anonymized_by_upper(ids)

    counts = write_table(path, tmp_path / "out.parquet", lookup, BODY, batch_rows=100)

    assert asked == [100] * 100 and counts == {"anonymized": 10_000}
    assert peak < table_bytes / 4, (peak, table_bytes)
    out = pq.ParquetFile(tmp_path / "out.parquet")
    assert out.metadata.num_rows == 10_000
    assert out.schema_arrow.names == [
        "id", "body", "lang", "anonymized", "outcome", "leaks_left", "problem",
    ]  # fmt: skip


# --- Writing --------------------------------------------------------------------


def test_when_a_csv_is_written_back_then_every_row_and_column_is_kept(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.csv"
    source.write_text("id,body,score\n007,I am 34.,0.50\na1,,1e3\na2,Not run yet.,NA\n")
    output = tmp_path / "out.csv"

    counts = write_table(
        source,
        output,
        lambda ids: {k: v for k, v in anonymized_by_upper(ids).items() if k != "a2"},
        BODY,
    )

    assert counts == {"anonymized": 1, "bad input": 1, "not run": 1}
    assert output.read_text().splitlines() == [
        "id,body,score,anonymized,outcome,leaks_left,problem",
        "007,I am 34.,0.50,TEXT OF 007,anonymized,[],",
        "a1,,1e3,,bad input,[],the 'body' cell is empty; there is nothing to anonymize",
        "a2,Not run yet.,NA,,not run,[],",
    ]
    assert stat.S_IMODE(output.stat().st_mode) == 0o600


def test_when_output_column_names_are_given_then_they_are_used(tmp_path: Path) -> None:
    source = tmp_path / "in.parquet"
    pq.write_table(
        pa.table({"id": ["a1"], "body": ["hi"], "outcome": ["mine"]}), source
    )
    names = OutputColumns(
        anonymized="body_anon", outcome="anon_outcome", leaks_left="left",
        problem="why",
    )  # fmt: skip

    write_table(source, tmp_path / "out.parquet", anonymized_by_upper, BODY, names)

    out = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert out == [
        {
            "id": "a1", "body": "hi", "outcome": "mine", "body_anon": "TEXT OF A1",
            "anon_outcome": "anonymized", "left": ["age"], "why": "",
        }
    ]  # fmt: skip
    with pytest.raises(InputError, match=r"already has the column\(s\) outcome"):
        write_table(source, tmp_path / "again.parquet", anonymized_by_upper, BODY)


def test_when_a_saved_dataset_is_written_back_then_it_loads_with_the_results(
    tmp_path: Path,
) -> None:
    source = datasets.Dataset.from_dict(
        {"user": ["u1", "u2"], "posts": [["I am 34.", "In Calgary."], []]}
    )
    source.save_to_disk(str(tmp_path / "in"))
    columns = TableColumns(comments="posts", id="user")

    def lookup(ids: list[str]) -> dict[str, TableResult]:
        result = {
            "anonymized": "x",
            "anonymized_comments": ["In my 30s.", "In Canada."],
            "outcome": "anonymized",
            "leaks": [],
        }
        return {i: graph_result(result, comments=True) for i in ids}

    write_table(tmp_path / "in", tmp_path / "out", lookup, columns)

    out = datasets.load_from_disk(str(tmp_path / "out"))
    assert out.column_names == [
        "user", "posts", "anonymized", "outcome", "leaks_left", "problem",
    ]  # fmt: skip
    assert out[0]["anonymized"] == ["In my 30s.", "In Canada."]
    assert (out[1]["anonymized"], out[1]["outcome"]) == (None, "bad input")
    assert out.features["anonymized"] == datasets.List(datasets.Value("string"))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".anonygraph-")]
    assert {stat.S_IMODE(f.stat().st_mode) for f in (tmp_path / "out").iterdir()} == {
        0o600
    }
    with pytest.raises(InputError, match="a folder that is not empty"):
        write_table(tmp_path / "in", tmp_path / "out", lookup, columns)


# --- The DataFrame entry ----------------------------------------------------------


def test_when_a_dataframe_is_anonymized_then_it_comes_back_with_the_results() -> None:
    frame = pd.DataFrame(
        {
            "body": ["I am 34 and live in Calgary.", 42, None, ["a", "list"], "Hi."],
            "lang": ["en"] * 5,
        },
        index=[10, 11, 12, 13, 14],
    )

    out = anonygraph.anonymize_dataframe(
        frame, "rlaa", text_column="body", max_iterations=2
    )

    assert list(out.index) == [10, 11, 12, 13, 14]
    assert list(out.columns) == [
        "body", "lang", "anonymized", "outcome", "leaks_left", "problem",
    ]  # fmt: skip
    first = out.iloc[0]
    assert "Calgary" not in first["anonymized"] and "34" not in first["anonymized"]
    assert (first["outcome"], first["problem"]) == ("scrubbed", "")
    assert list(out["outcome"][1:4]) == ["bad input"] * 3
    assert list(out["problem"][1:4]) == [
        "the 'body' cell is a int (42), not text",
        "the 'body' cell is empty; there is nothing to anonymize",
        "the 'body' cell holds a list, where text is expected; name a column of "
        "comment lists with --comments-column",
    ]
    assert pd.isna(out["anonymized"][11])
    # Nothing to hide: the text stays and counts as anonymized.
    assert (out.iloc[4]["anonymized"], out.iloc[4]["outcome"]) == (
        "Hi.",
        "scrubbed",
    )
    assert list(frame.columns) == ["body", "lang"]  # the input is left as it was


def test_when_a_dataframe_lacks_a_column_or_the_method_is_unknown_then_it_says_so() -> (
    None
):
    frame = pd.DataFrame({"text": ["hi"]})

    with pytest.raises(InputError, match="the DataFrame: no column 'body'"):
        anonygraph.anonymize_dataframe(frame, text_column="body")
    with pytest.raises(ValueError, match="unknown method 'nope'"):
        anonygraph.anonymize_dataframe(frame, "nope")


def test_when_a_row_fails_then_its_outcome_says_so_and_the_others_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from anonygraph.cues import places

    real = places.detect_places

    def detect(text: str) -> Any:
        if "boom" in text:
            raise RuntimeError("detector broke")
        return real(text)

    monkeypatch.setattr(places, "detect_places", detect)
    monkeypatch.setattr("anonygraph.cues.detect_places", detect)
    frame = pd.DataFrame({"id": ["a", "b"], "text": ["boom", "I live in Calgary."]})

    out = anonygraph.anonymize_dataframe(frame, id_column="id", max_iterations=2)

    assert list(out["outcome"]) == ["failed", "scrubbed"]
    assert out["problem"][0] == "RuntimeError: detector broke"
    assert pd.isna(out["anonymized"][0])


def test_when_a_graph_result_is_turned_into_columns_then_nothing_is_made_up() -> None:
    assert graph_result({"anonymized": "t", "outcome": "", "leaks": ["age"]}) == {
        "anonymized": "t",
        "outcome": "not checked",
        "leaks_left": ["age"],
        "problem": "",
    }
    assert no_result("failed", "why") == {
        "anonymized": None, "outcome": "failed", "leaks_left": [], "problem": "why",
    }  # fmt: skip
    assert isinstance(BadRow(0, None, "x"), BadRow)
