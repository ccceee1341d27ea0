"""`anonygraph run` on tables: CSV, Parquet and datasets in, the same kind out."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from anonygraph.cli import main
from anonygraph.runs.options import RunOptions, derive_run_id
from anonygraph.runs.store import RunStore
from anonygraph.runs.table_output import OutputColumns, TableOptions
from anonygraph.runs.tables import TableColumns

UNDER = "1 = the first row under the header"
"""How a table's bad row says what its number counts."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Run the command line in this process; return its exit code and stderr."""
    capsys.readouterr()
    code = main(["run", "--no-progress", "--max-iterations", "2", *argv])
    return code, capsys.readouterr().err


def test_when_a_csv_is_run_then_every_row_comes_back_and_bad_rows_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.csv"
    pd.DataFrame(
        {
            "id": ["a1", "a2", "a3", "a1"],
            "body": ["I am 34 and live in Calgary.", "", "Hi there.", "dup"],
            "lang": ["en", "en", "fr", "en"],
        }
    ).to_csv(source, index=False)
    out, db = tmp_path / "out.csv", str(tmp_path / "runs.sqlite")
    flags = ["--input", str(source), "--output", str(out), "--db", db,
             "--text-column", "body", "--id-column", "id"]  # fmt: skip

    code, err = run(capsys, *flags)

    assert code == 1  # bad rows make the run's exit code 1
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table.columns) == [
        "id", "body", "lang", "anonymized", "outcome", "leaks_left", "problem",
    ]  # fmt: skip
    assert list(table["id"]) == ["a1", "a2", "a3", "a1"]
    assert "Calgary" not in table["anonymized"][0] and table["body"][2] == "Hi there."
    assert list(table["outcome"]) == [
        "scrubbed", "bad input", "scrubbed", "bad input",
    ]  # fmt: skip
    assert table["anonymized"][1] == "" and table["anonymized"][3] == ""
    assert "2 done, 0 failed, 0 already done, 2 bad input row(s)" in err
    assert "output table: 4 rows: 2 scrubbed, 2 bad input" in err
    assert (
        f"bad input row 2 ({UNDER}; record 'a2'): the 'body' cell is empty; there is "
        "nothing "
        "to anonymize" in err
    )
    assert (
        f"bad input row 4 ({UNDER}; record 'a1'): duplicate id; ids must be unique"
        in err
    )
    assert oct(out.stat().st_mode & 0o777) == "0o600"

    # The same command resumes the run: nothing is redone, the table is whole.
    code, err = run(capsys, *flags)
    assert "0 done, 0 failed, 2 already done, 2 bad input row(s)" in err
    assert pd.read_csv(out, dtype=str, keep_default_na=False).equals(table)

    # Another text column is another run, which may not take this run's output.
    code, err = run(capsys, *flags[:-4], "--text-column", "lang")
    assert code == 2 and "holds results of run 'rlaa-" in err


def test_when_a_parquet_comments_column_is_run_then_lists_come_back_named_as_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.parquet"
    pq.write_table(
        pa.table(
            {
                "user": ["u1", "u2"],
                "posts": [["I am 34.", "I live in Calgary."], []],
            }
        ),
        source,
    )
    out = tmp_path / "out.parquet"

    code, err = run(
        capsys, "--input", str(source), "--output", str(out),
        "--db", str(tmp_path / "r.sqlite"), "--comments-column", "posts",
        "--id-column", "user", "--output-columns", "anonymized=posts_anon,problem=why",
    )  # fmt: skip

    table = pq.read_table(out).to_pylist()
    assert [sorted(row) for row in table][0] == sorted(
        ["user", "posts", "posts_anon", "outcome", "leaks_left", "why"]
    )
    first = table[0]["posts_anon"]
    assert len(first) == 2 and "Calgary" not in " ".join(first)
    assert table[1]["outcome"] == "bad input" and table[1]["posts_anon"] is None
    assert "the 'posts' cell is empty" in table[1]["why"]
    assert "1 done" in err and "1 bad input row(s)" in err and code == 1


def test_when_a_dataset_split_is_run_then_a_dataset_is_written_and_export_rewrites_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = datasets.Dataset.from_dict(
        {"text": ["I am 34 and live in Calgary.", "Hello."], "n": [1, 2]}
    )
    datasets.DatasetDict({"train": split, "test": split.select([1])}).save_to_disk(
        str(tmp_path / "ds")
    )
    db = str(tmp_path / "r.sqlite")

    code, err = run(
        capsys, "--input", str(tmp_path / "ds"), "--output", str(tmp_path / "anon"),
        "--db", db, "--split", "train",
    )  # fmt: skip

    assert code == 0, err
    written = datasets.load_from_disk(str(tmp_path / "anon"))
    assert written["n"] == [1, 2]
    assert written["outcome"] == ["scrubbed"] * 2
    assert "Calgary" not in written["anonymized"][0]

    run_id = RunStore(db).runs()[0]["id"]
    capsys.readouterr()
    assert main(["export", "--db", db, "--run", run_id,
                 "--output", str(tmp_path / "again.csv")]) == 0  # fmt: skip
    again = pd.read_csv(tmp_path / "again.csv")
    assert list(again["anonymized"]) == written["anonymized"]
    assert "2 records" in capsys.readouterr().out


def test_when_table_flags_are_given_for_jsonl_then_the_run_refuses_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "1", "text": "hi"}) + "\n")

    code, err = run(
        capsys, "--input", str(source), "--output", str(tmp_path / "o.jsonl"),
        "--db", str(tmp_path / "r.sqlite"), "--id-column", "id", "--split", "x",
    )  # fmt: skip

    assert code == 2
    assert "--id-column, --split: options of a table input" in err


def test_when_table_options_change_then_the_run_id_changes_and_jsonl_ids_do_not() -> (
    None
):
    base = RunOptions(method="rlaa", input="data.csv", output="out.csv")
    ids = {
        derive_run_id(base),
        derive_run_id(
            RunOptions(
                method="rlaa", input="data.csv", output="out.csv",
                table=TableOptions(columns=TableColumns(text="body")),
            )
        ),
        derive_run_id(
            RunOptions(
                method="rlaa", input="data.csv", output="out.csv",
                table=TableOptions(output_columns=OutputColumns(outcome="o")),
            )
        ),
        derive_run_id(
            RunOptions(
                method="rlaa", input="data.csv", output="out.csv",
                table=TableOptions(split="test"),
            )
        ),
    }  # fmt: skip
    assert len(ids) == 4
    jsonl = RunOptions(method="rlaa", input="d.jsonl", output="o.jsonl")
    other = RunOptions(
        method="rlaa", input="d.jsonl", output="o.jsonl",
        table=TableOptions(split="test"),
    )  # fmt: skip
    assert derive_run_id(jsonl) == derive_run_id(other)


def test_when_a_table_run_is_stored_in_postgres_then_the_table_is_written_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pg_url: str
) -> None:
    source = tmp_path / "in.parquet"
    pq.write_table(
        pa.table({"k": [7, 8], "text": ["I am 34 and live in Calgary.", None]}), source
    )
    out = tmp_path / "out.csv"

    code, err = run(capsys, "--input", str(source), "--output", str(out),
                    "--db", pg_url, "--id-column", "k")  # fmt: skip

    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table["k"]) == ["7", "8"] and code == 1, err
    assert list(table["outcome"]) == ["scrubbed", "bad input"]
    assert "Calgary" not in table["anonymized"][0]
    assert "1 done" in err and f"bad input row 2 ({UNDER}; record '8')" in err
    assert "output table: 2 rows: 1 scrubbed, 1 bad input" in err
