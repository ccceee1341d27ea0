"""Tables in: CSV, Parquet and Hugging Face datasets read as records, in batches.

A table holds one record per row: a text column (or a column of comment
lists), an optional id column (the row number, from 0, when there is none)
and any other columns, which the output keeps (`anonygraph.runs.table_output`).

Nothing holds a whole table: Parquet is read a record batch at a time
(``ParquetFile.iter_batches``), CSV a chunk of rows at a time, a saved dataset
through its memory map, data files through ``datasets``' streaming mode. A
row that cannot become a record is a `BadRow` with one line saying why; a
table that cannot be read at all (a missing column, a column of numbers or of
lists where text is expected, a row group too large to hold) raises
`InputError` with one line.
"""

from __future__ import annotations

import csv
import json
import math
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from anonygraph.inputs import MAX_CHARS, BadLine, InputError, check_text
from anonygraph.state.domain import Record

TableFormat = Literal["csv", "parquet", "dataset"]

BATCH_ROWS = 1_000
"""Rows read, checked and written at a time."""

MAX_BATCH_BYTES = 1 << 30
"""Most bytes a read may hold at once. A Parquet reader holds a whole row group's
pages whatever its batch size (measured: 12 MB held for one 10 MB uncompressed
row group read 100 rows at a time), so a row group whose pages take more is
refused."""


@dataclass(frozen=True)
class TableColumns:
    """Which input columns hold the record: its text (or comments) and its id."""

    text: str = "text"
    """The column of texts, one per record."""

    id: str | None = None
    """The column of ids; None: the row number (from 0) is the id."""

    comments: str | None = None
    """A column of lists of comments by one author, used instead of ``text``."""

    @property
    def source(self) -> str:
        """The column the record's text comes from."""
        return self.comments or self.text


@dataclass(frozen=True)
class BadRow(BadLine):
    """A row of a table that could not become a record.

    ``line`` is its row as a person counts in an editor or a spreadsheet: from
    1, the header not counted (a JSONL `BadLine` counts lines from 1 too).
    """

    def __str__(self) -> str:
        who = f"record {self.record_id!r}" if self.record_id else "a record"
        return f"row {self.line} (1 = the first row under the header; {who}): " + (
            self.reason
        )


def table_format(path: str | Path) -> TableFormat | None:
    """Tell which table format ``path`` is by its name; None for anything else."""
    target = Path(path)
    if target.is_dir():
        return "dataset"
    return {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(  # type: ignore[return-value]
        target.suffix.lower()
    )


# --- Reading ------------------------------------------------------------------


def read_table(
    path: str | Path,
    columns: TableColumns = TableColumns(),
    *,
    split: str | None = None,
    max_chars: int = MAX_CHARS,
    batch_rows: int = BATCH_ROWS,
    max_batch_bytes: int = MAX_BATCH_BYTES,
) -> Iterator[Record | BadRow]:
    """Yield each row of a table as a `Record`, or a `BadRow` saying why not.

    Args:
        path: a .csv or .parquet file, or a folder: a dataset saved with
            ``save_to_disk`` or data files ``datasets`` reads.
        columns: the text (or comments) and id columns.
        split: the split of a dataset with several.
        max_chars: the longest text accepted.
        batch_rows: rows read at a time.
        max_batch_bytes: the most one batch may take in memory.

    Raises:
        InputError: one line naming what makes the whole table unreadable.
    """
    seen: set[str] = set()
    row = 0
    for batch in table_batches(
        path, split=split, batch_rows=batch_rows, max_batch_bytes=max_batch_bytes
    ):
        check_columns(path, batch.schema, columns)
        yield from batch_records(batch, row, columns, max_chars, seen)
        row += batch.num_rows


def batch_records(
    batch: Any,
    first_row: int,
    columns: TableColumns,
    max_chars: int,
    seen: set[str],
) -> list[Record | BadRow]:
    """Turn one Arrow batch into records and bad rows (``seen``: ids so far)."""
    return rows_records(
        batch.column(columns.source).to_pylist(),
        batch.column(columns.id).to_pylist() if columns.id else None,
        first_row,
        columns,
        max_chars,
        seen,
    )


def rows_records(
    cells: list[Any],
    ids: list[Any] | None,
    first_row: int,
    columns: TableColumns,
    max_chars: int,
    seen: set[str],
) -> list[Record | BadRow]:
    """Turn rows' text (or comments) cells and id cells into records and bad rows.

    Args:
        cells: the text or comments cell of each row.
        ids: the id cell of each row; None: the row numbers are the ids.
        first_row: the number of the first row (rows count from 0).
        columns: the columns the cells come from (for messages).
        max_chars: the longest text accepted.
        seen: the ids met so far (updated), to refuse duplicates.
    """
    return [
        _row_record(
            first_row + i,
            ids[i] if ids is not None else first_row + i,
            cell,
            columns,
            max_chars,
            seen,
        )
        for i, cell in enumerate(cells)
    ]


def _row_record(
    row: int,
    raw_id: Any,
    cell: Any,
    columns: TableColumns,
    max_chars: int,
    seen: set[str],
) -> Record | BadRow:
    record_id, problem = row_id(raw_id, columns.id)
    number = row + 1  # rows are counted from 0 here, from 1 by people
    if problem:
        return BadRow(number, None, problem)
    try:
        if columns.comments:
            record = Record(id=record_id, comments=comment_list(cell, columns.comments))
        else:
            record = Record(id=record_id, text=cell_text(cell, columns.text))
        check_text(record.text, max_chars)
    except InputError as exc:
        return BadRow(number, record_id, str(exc))
    if record_id in seen:
        return BadRow(number, record_id, "duplicate id; ids must be unique")
    seen.add(record_id)
    return record


def row_id(value: Any, column: str | None) -> tuple[str, str]:
    """Read an id cell as text; return it and '' or '' and what is wrong."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # an integer column with gaps reads back as floats
    if _is_empty(value) or str(value).strip() == "":
        return "", f"the {column!r} cell is empty; give every row a unique id"
    if isinstance(value, bool) or not isinstance(value, str | int):
        return "", (
            f"the {column!r} cell is a {type(value).__name__} ({str(value)[:40]}); "
            "an id must be text or an integer"
        )
    return str(value), ""


def cell_text(value: Any, column: str) -> str:
    """Read a text cell, refusing an empty cell, a list or a number by name.

    Raises:
        InputError: saying what the cell holds instead of text.
    """
    if _is_empty(value) or value == "":
        raise InputError(f"the {column!r} cell is empty; there is nothing to anonymize")
    if isinstance(value, str):
        return value
    if _is_list(value):
        raise InputError(
            f"the {column!r} cell holds a list, where text is expected; name a "
            "column of comment lists with --comments-column"
        )
    raise InputError(
        f"the {column!r} cell is a {type(value).__name__} ({str(value)[:40]}), not text"
    )


def comment_list(value: Any, column: str) -> list[str]:
    """Read a cell of comments: a list of strings, or such a list as JSON text.

    Raises:
        InputError: for an empty cell, text that is no JSON list, or a list
            holding anything but strings.
    """
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            value = json.loads(value)  # a CSV cell holds the list as JSON text
        except ValueError as exc:
            raise InputError(
                f"the {column!r} cell is not a JSON list of strings ({exc})"
            ) from exc
    if _is_empty(value) or (_is_list(value) and len(value) == 0):
        raise InputError(f"the {column!r} cell is empty; there is nothing to anonymize")
    if isinstance(value, str):
        raise InputError(
            f"the {column!r} cell is text, not a list of comments (a CSV cell "
            'holds one as JSON: ["first", "second"]); name a text column with '
            "--text-column instead"
        )
    if not _is_list(value):
        raise InputError(
            f"the {column!r} cell is a {type(value).__name__}, not a list of comments"
        )
    comments = list(value)
    if not all(isinstance(c, str) for c in comments):
        raise InputError(f"the {column!r} cell holds a list with non-text items")
    return comments


def _is_empty(value: Any) -> bool:
    # pandas marks a missing cell with NaN, pd.NA or pd.NaT
    return (
        value is None
        or (isinstance(value, float) and math.isnan(value))
        or type(value).__name__ in ("NAType", "NaTType")
    )


def _is_list(value: Any) -> bool:
    # numpy arrays come out of pandas' list columns
    return isinstance(value, list | tuple) or type(value).__name__ == "ndarray"


def check_columns(path: str | Path, schema: Any, columns: TableColumns) -> None:
    """Refuse a table whose named columns are missing or of the wrong type.

    Raises:
        InputError: one line naming the column and what to do.
    """
    import pyarrow as pa

    check_names(f"--input {path}", list(schema.names), columns)
    kind = schema.field(columns.source).type
    if pa.types.is_null(kind):
        return  # every cell empty: each row says so
    if columns.comments:
        if not (is_list_type(kind) and _is_text_type(kind.value_type)) and not (
            _is_text_type(kind)
        ):
            raise InputError(
                f"--input {path}: column {columns.comments!r} holds {kind}, not "
                "lists of text"
            )
        return
    if is_list_type(kind):
        raise InputError(
            f"--input {path}: column {columns.text!r} holds lists, where text is "
            "expected; name it with --comments-column instead"
        )
    if not _is_text_type(kind):
        raise InputError(
            f"--input {path}: column {columns.text!r} holds {kind} values, not "
            "text; name the text column with --text-column"
        )


def check_names(table: str, names: list[str], columns: TableColumns) -> None:
    """Refuse a table that lacks a named column, listing the columns it has.

    Raises:
        InputError: ``table`` (e.g. "--input data.csv"), the column, the flag.
    """
    wanted = [
        (columns.source, "--comments-column" if columns.comments else "--text-column")
    ]
    if columns.id:
        wanted.append((columns.id, "--id-column"))
    for name, flag in wanted:
        if name not in names:
            raise InputError(
                f"{table}: no column {name!r} (columns: {', '.join(map(str, names))}); "
                f"name the column with {flag}"
            )


def _is_text_type(kind: Any) -> bool:
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_string_view(kind)
    )


def is_list_type(kind: Any) -> bool:
    """Tell whether an Arrow type is a list of any kind."""
    import pyarrow as pa

    return bool(
        pa.types.is_list(kind)
        or pa.types.is_large_list(kind)
        or pa.types.is_fixed_size_list(kind)
        or pa.types.is_list_view(kind)
    )


def table_batches(
    path: str | Path,
    *,
    split: str | None = None,
    batch_rows: int = BATCH_ROWS,
    max_batch_bytes: int = MAX_BATCH_BYTES,
) -> Iterator[Any]:
    """Yield the table at ``path`` as Arrow tables of at most ``batch_rows`` rows.

    Raises:
        InputError: for a missing path, an unknown format, a file its reader
            refuses or a Parquet row group over ``max_batch_bytes``.
    """
    target = Path(path)
    if not target.exists():
        raise InputError(f"--input {path}: no such file or folder; check the path")
    kind = table_format(target)
    if kind == "csv":
        yield from _csv_batches(target, batch_rows)
    elif kind == "parquet":
        yield from _parquet_batches(target, batch_rows, max_batch_bytes)
    elif kind == "dataset":
        yield from _dataset_batches(target, split, batch_rows)
    else:
        raise InputError(
            f"--input {path}: not a table (.csv, .parquet, or a dataset folder)"
        )


def _csv_batches(path: Path, batch_rows: int) -> Iterator[Any]:
    import pandas as pd
    import pyarrow as pa

    # Every cell is read as text, exactly as written: no number or "NA" guessing,
    # so the output gives back the input's cells unchanged.
    try:
        chunks = pd.read_csv(
            path,
            dtype=str,
            keep_default_na=False,
            na_values=[],
            chunksize=batch_rows,
            encoding="utf-8",
        )
        for chunk in chunks:
            yield pa.Table.from_pandas(chunk, preserve_index=False)
    except UnicodeDecodeError as exc:
        raise InputError(f"--input {path}: {not_utf8(path)}") from exc
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise InputError(
            f"--input {path}: not a readable UTF-8 CSV file ({exc})"
        ) from exc


def not_utf8(path: Path) -> str:
    """Say which cell of a CSV file holds the first byte that is not UTF-8.

    The file is read again as CSV with each such byte kept as a stand-in
    character, so the row and column are those the table reader sees (a
    quoted cell may span lines). Only called once reading failed.
    """
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        rows = csv.reader(f)
        header = next(rows, [])
        found = _bad_byte(header)
        if found is not None:
            column, byte = found
            return (
                f"the header, column {column + 1}, holds the byte 0x{byte:02x}, "
                f"which is not UTF-8; {SAVE_AS_UTF8}"
            )
        for number, cells in enumerate(rows, start=1):
            found = _bad_byte(cells)
            if found is None:
                continue
            column, byte = found
            name = header[column] if column < len(header) else f"#{column + 1}"
            return (
                f"row {number} (1 = the first row under the header; it ends on "
                f"line {rows.line_num} of the file), column {name!r}, holds the byte "
                f"0x{byte:02x}, which is not UTF-8; {SAVE_AS_UTF8}"
            )
    return f"not a UTF-8 file; {SAVE_AS_UTF8}"


SAVE_AS_UTF8 = (
    "save the file as UTF-8 (a spreadsheet's 'CSV UTF-8'; or `iconv -f cp1252 "
    "-t utf-8 IN.csv > OUT.csv` for a Windows file) or fix that cell, and run again"
)
"""What to do about a CSV file with bytes that are not UTF-8."""


def _bad_byte(cells: list[str]) -> tuple[int, int] | None:
    """Return the column and value of the first byte kept as a stand-in, if any."""
    for column, cell in enumerate(cells):
        for char in cell:
            if "\udc80" <= char <= "\udcff":
                return column, ord(char) - 0xDC00
    return None


def _parquet_batches(
    path: Path, batch_rows: int, max_batch_bytes: int
) -> Iterator[Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(
            f"--input {path}: not a readable Parquet file ({exc})"
        ) from exc
    with parquet:
        meta = parquet.metadata
        for index in range(meta.num_row_groups):
            size = meta.row_group(index).total_byte_size
            if size > max_batch_bytes:
                raise InputError(
                    f"--input {path}: row group {index} holds {size / 2**20:,.1f} MiB "
                    "of uncompressed pages, over the "
                    f"{max_batch_bytes / 2**20:,.1f} MiB a read may hold at once; "
                    "write the file again with smaller row groups, e.g. "
                    "pyarrow.parquet.write_table(table, PATH, row_group_size=10_000)"
                )
        for batch in parquet.iter_batches(batch_size=batch_rows):
            yield pa.Table.from_batches([batch])


def _dataset_batches(path: Path, split: str | None, batch_rows: int) -> Iterator[Any]:
    with ExitStack() as stack:
        dataset = _open_dataset(path, split, stack)
        yield from dataset.with_format("arrow").iter(batch_size=batch_rows)


def _open_dataset(path: Path, split: str | None, stack: ExitStack) -> Any:
    """Open a saved dataset (memory-mapped) or a folder of data files (streamed)."""
    import datasets

    saved = (path / "state.json").is_file() or (path / "dataset_dict.json").is_file()
    try:
        if saved:
            loaded = datasets.load_from_disk(str(path))
        else:
            # Streaming reads the files as they are, with no copy in a cache;
            # the lock file it takes goes to a folder of ours, not the user's cache.
            cache = stack.enter_context(tempfile.TemporaryDirectory())
            loaded = datasets.load_dataset(str(path), streaming=True, cache_dir=cache)
    except (
        ValueError,
        FileNotFoundError,
        datasets.exceptions.DatasetNotFoundError,
    ) as exc:
        raise InputError(
            f"--input {path}: a folder that is neither a dataset saved with "
            f"save_to_disk nor data files datasets can read ({exc})"
        ) from exc
    if not isinstance(loaded, datasets.DatasetDict | datasets.IterableDatasetDict):
        return loaded
    splits = list(loaded)
    if split is None and len(splits) == 1:
        split = splits[0]
    if split not in loaded:
        raise InputError(
            f"--input {path}: the dataset has the splits {', '.join(splits)}; "
            "name one with --split"
        )
    return loaded[split]
