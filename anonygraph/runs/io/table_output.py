"""Tables out: the input table again, every row and column, plus the results.

The output is the same kind of table as the input (or the kind its name
says) with ``anonymized``, ``outcome``, ``leaks_left`` and ``problem`` added
(names configurable, `OutputColumns`). It is written a batch at a time while
the input is read again, asking for the results of one batch at a time, so
neither the table nor the results are ever held whole.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from anonygraph.inputs import MAX_CHARS, InputError
from anonygraph.runs.files import secure_file
from anonygraph.runs.io.tables import (
    BATCH_ROWS,
    MAX_BATCH_BYTES,
    BadRow,
    TableColumns,
    batch_records,
    check_columns,
    is_list_type,
    table_batches,
    table_format,
)
from anonygraph.runs.store.schema import WAITING
from anonygraph.state.domain import Record

if TYPE_CHECKING:
    from anonygraph.runs.store import RunStore


@dataclass(frozen=True)
class OutputColumns:
    """Names of the columns the output adds to the input's."""

    anonymized: str = "anonymized"
    """The anonymized text (a list of comments for a comments column); empty when
    the row has no result (failed, bad input, waiting for review, not run)."""

    outcome: str = "outcome"
    """anonymized, partly anonymized, unchanged, not checked, failed, bad input,
    waiting for review or not run."""

    leaks_left: str = "leaks_left"
    """Attributes the last check still found inferable (a list)."""

    problem: str = "problem"
    """Why a row has no result; empty otherwise."""

    def names(self) -> list[str]:
        """Return the four names in output order."""
        return [self.anonymized, self.outcome, self.leaks_left, self.problem]


class TableResult(TypedDict):
    """What the output adds to one row."""

    anonymized: str | list[str] | None
    outcome: str
    leaks_left: list[str]
    problem: str


NOT_RUN = TableResult(anonymized=None, outcome="not run", leaks_left=[], problem="")
"""A row whose record has no result yet."""


def graph_result(result: Mapping[str, Any], *, comments: bool = False) -> TableResult:
    """Turn a finished graph's output into the columns the output adds.

    Args:
        result: the graph's output state (``anonymized``, ``outcome``, ``leaks``).
        comments: the record came from a comments column: give back a list.
    """
    text = str(result.get("anonymized", ""))
    anonymized: str | list[str] = text
    if comments:
        anonymized = list(result.get("anonymized_comments") or [text])
    return TableResult(
        anonymized=anonymized,
        outcome=str(result.get("outcome") or "not checked"),
        leaks_left=[str(a) for a in result.get("leaks", []) or []],
        problem="",
    )


def no_result(outcome: str, problem: str) -> TableResult:
    """Return the columns of a row without a result: failed, bad input, waiting."""
    return TableResult(anonymized=None, outcome=outcome, leaks_left=[], problem=problem)


def check_free(table: str, names: list[str], out: OutputColumns) -> None:
    """Refuse a table that already has a column the output adds.

    Raises:
        InputError: naming the columns.
    """
    taken = sorted(set(out.names()) & set(names))
    if taken:
        raise InputError(
            f"{table}: already has the column(s) {', '.join(taken)} the output "
            "adds; name the output columns otherwise"
        )


def write_table(
    input: str | Path,
    output: str | Path,
    results: Callable[[list[str]], Mapping[str, TableResult]],
    columns: TableColumns = TableColumns(),
    out: OutputColumns = OutputColumns(),
    *,
    split: str | None = None,
    max_chars: int = MAX_CHARS,
    batch_rows: int = BATCH_ROWS,
    max_batch_bytes: int = MAX_BATCH_BYTES,
) -> dict[str, int]:
    """Write the input table again with the result columns added, row by row.

    The input is read a batch at a time, as `read_table` reads it; for each
    batch ``results`` is asked for the records it holds (a store lookup), so
    neither the table nor the results are ever held whole. Every input row is
    written once, in input order; a row without a result says why
    (`NOT_RUN`, `no_result`). The output has the input's format unless its
    name says another (.csv, .parquet; a folder is a saved dataset).

    Returns:
        Rows written per outcome.

    Raises:
        InputError: for an unreadable input, a result column name the input
            already has, or an output folder that is not empty.
    """
    kind = table_format(output) or table_format(input) or "csv"
    counts: dict[str, int] = {}
    batches = _result_batches(
        input, results, columns, out, split, max_chars, batch_rows, max_batch_bytes,
        counts,
    )  # fmt: skip
    writer = {"csv": _write_csv, "parquet": _write_parquet, "dataset": _write_dataset}
    writer[kind](Path(output), batches)
    return counts


def _result_batches(
    input: str | Path,
    results: Callable[[list[str]], Mapping[str, TableResult]],
    columns: TableColumns,
    out: OutputColumns,
    split: str | None,
    max_chars: int,
    batch_rows: int,
    max_batch_bytes: int,
    counts: dict[str, int],
) -> Iterator[Any]:
    """Yield each input batch as an Arrow table with its rows' results added."""
    seen: set[str] = set()
    row = 0
    for batch in table_batches(
        input, split=split, batch_rows=batch_rows, max_batch_bytes=max_batch_bytes
    ):
        check_columns(input, batch.schema, columns)
        check_free(f"--input {input}", list(batch.schema.names), out)
        items = batch_records(batch, row, columns, max_chars, seen)
        found = results([i.id for i in items if isinstance(i, Record)])
        rows = [
            no_result("bad input", i.reason)
            if isinstance(i, BadRow)
            else found.get(i.id, NOT_RUN)
            for i in items
        ]
        for result in rows:
            counts[result["outcome"]] = counts.get(result["outcome"], 0) + 1
        yield _with_results(batch, rows, columns, out)
        row += batch.num_rows


def _with_results(
    batch: Any, rows: list[TableResult], columns: TableColumns, out: OutputColumns
) -> Any:
    """Append the result columns to one Arrow batch."""
    import pyarrow as pa

    text_type = pa.list_(pa.string()) if columns.comments else pa.string()
    added = [
        pa.array([r["anonymized"] for r in rows], type=text_type),
        pa.array([r["outcome"] for r in rows], type=pa.string()),
        pa.array([r["leaks_left"] for r in rows], type=pa.list_(pa.string())),
        pa.array([r["problem"] for r in rows], type=pa.string()),
    ]
    for name, column in zip(out.names(), added, strict=True):
        batch = batch.append_column(name, column)
    return batch


def _write_csv(path: Path, tables: Iterator[Any]) -> None:
    secure_file(path)
    first = True
    for table in tables:
        frame = table.to_pandas()
        # A CSV cell holds a list as JSON text, as a comments column is read.
        for field in table.schema:
            if is_list_type(field.type):
                frame[field.name] = [
                    None if v is None else json.dumps(list(v), ensure_ascii=False)
                    for v in table.column(field.name).to_pylist()
                ]
        frame.to_csv(path, mode="w" if first else "a", header=first, index=False)
        first = False
    if first:
        path.write_text("")


def _write_parquet(path: Path, tables: Iterator[Any]) -> None:
    import pyarrow.parquet as pq

    secure_file(path)
    writer = None
    try:
        for table in tables:
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema)
            writer.write_table(table.cast(writer.schema))
    finally:
        if writer is not None:
            writer.close()


def _write_dataset(path: Path, tables: Iterator[Any]) -> None:
    import datasets

    if path.exists() and any(path.iterdir()):
        raise InputError(f"--output {path}: a folder that is not empty; name a new one")

    first = next(tables, None)
    if first is None:
        raise InputError(f"--output {path}: the input has no rows to write")
    # Types from the first batch's schema, not guessed from its first values (a
    # batch whose rows all lack a result has only empty anonymized cells).
    features = datasets.Features.from_arrow_schema(first.schema)

    def rows() -> Iterator[dict[str, Any]]:
        for table in itertools.chain([first], tables):
            yield from table.to_pylist()

    quiet = not datasets.utils.are_progress_bars_disabled()
    if quiet:
        datasets.utils.disable_progress_bars()
    # The generator's Arrow file is written in a folder next to the output (the
    # text stays on the disk the user chose) and removed once it is copied.
    path.parent.mkdir(parents=True, exist_ok=True)
    cache = Path(tempfile.mkdtemp(prefix=".anonygraph-", dir=path.parent))
    try:
        dataset = datasets.Dataset.from_generator(
            rows, features=features, cache_dir=str(cache), fingerprint=uuid.uuid4().hex
        )
        dataset.save_to_disk(str(path))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        if quiet:
            datasets.utils.enable_progress_bars()
    path.chmod(0o700)
    for file in path.iterdir():
        file.chmod(0o600)


# --- A run's output table -------------------------------------------------------


@dataclass(frozen=True)
class TableOptions:
    """How a run reads its input table and names the columns it adds."""

    columns: TableColumns = TableColumns()
    split: str | None = None
    """The split of a dataset with several."""
    output_columns: OutputColumns = OutputColumns()

    def to_dict(self) -> dict[str, Any]:
        """Return the options as JSON-ready values (stored with the run)."""
        return {
            "columns": asdict(self.columns),
            "split": self.split,
            "output_columns": asdict(self.output_columns),
        }

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> TableOptions:
        """Rebuild the options `to_dict` gave."""
        return cls(
            columns=TableColumns(**values.get("columns", {})),
            split=values.get("split"),
            output_columns=OutputColumns(**values.get("output_columns", {})),
        )


def parse_output_columns(text: str) -> OutputColumns:
    """Read ``anonymized=NAME,outcome=NAME,...`` (the ``--output-columns`` flag).

    Raises:
        InputError: naming a pair that is malformed or a column the output
            does not add.
    """
    known = {f.name for f in fields(OutputColumns)}
    names: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, sep, name = pair.partition("=")
        if not sep or not name.strip():
            raise InputError(f"--output-columns {pair}: expected COLUMN=NAME")
        if key.strip() not in known:
            raise InputError(
                f"--output-columns {pair}: no added column {key.strip()!r}; "
                f"columns: {', '.join(sorted(known))}"
            )
        names[key.strip()] = name.strip()
    out = OutputColumns(**names)
    if len(set(out.names())) < len(out.names()):
        raise InputError(f"--output-columns {text}: two added columns share a name")
    return out


def store_results(
    db: RunStore, run_id: str, *, comments: bool, review_hint: str = ""
) -> Callable[[list[str]], dict[str, TableResult]]:
    """Return the lookup `write_table` asks: the stored results of some records."""

    def lookup(ids: list[str]) -> dict[str, TableResult]:
        return {
            row["record_id"]: stored_result(row, comments=comments, hint=review_hint)
            for row in db.records_of(run_id, ids)
        }

    return lookup


def stored_result(
    row: Mapping[str, Any], *, comments: bool, hint: str = ""
) -> TableResult:
    """Turn a record's store row into the columns the output adds."""
    if row["status"] == "done":
        result = json.loads(row.get("result") or "{}")
        result.setdefault("anonymized", row.get("anonymized") or "")
        return graph_result(result, comments=comments)
    if row["status"] == WAITING:
        return no_result("waiting for review", f"the record waits for a review{hint}")
    if row["status"] == "failed":
        return no_result("failed", str(row.get("error") or "the method failed"))
    return NOT_RUN


def sidecar_path(output: str | Path) -> Path:
    """The file naming the run that wrote ``output`` (beside it, also for a folder)."""
    target = Path(output)
    return target.with_name(target.name + ".run.json")


class TableOutput:
    """Where a table run's finished records go: the store alone, until the end.

    The table is written whole from the store when the run ends
    (`write_run_table`); meanwhile this sink only counts the finished ids.
    Opening it claims the output for the run, as the JSONL output file does.
    """

    def __init__(
        self, path: str, identity: dict[str, Any], *, force: bool = False
    ) -> None:
        """Remember the output and the run that claims it."""
        self.path = Path(path)
        self.identity = identity
        self.force = force
        self.ids: set[str] = set()

    def __enter__(self) -> TableOutput:
        """Refuse an output another run (or another program) wrote; claim it."""
        sidecar = sidecar_path(self.path)
        try:
            owner = json.loads(sidecar.read_text())
        except (OSError, ValueError):
            owner = {}
        mine = (
            isinstance(owner, dict) and owner.get("run_id") == self.identity["run_id"]
        )
        if self.path.exists() and not mine and not self.force:
            who = f"run {owner['run_id']!r}" if owner else "an unknown program"
            raise InputError(
                f"--output {self.path} holds results of {who}, not of this run "
                f"{self.identity['run_id']!r}; name another output, or add --force "
                "to replace it"
            )
        if not mine:
            secure_file(sidecar)
            sidecar.write_text(json.dumps(self.identity, indent=2) + "\n")
        return self

    def __exit__(self, *exc: object) -> None:
        """Nothing to close: the table is written by `write_run_table`."""

    def restore(self, done_rows: list[dict[str, Any]]) -> None:
        """Count the records the store already finished."""
        self.ids.update(str(row["record_id"]) for row in done_rows)

    def append(self, line: dict[str, Any]) -> None:
        """Count one finished record; its result is in the store."""
        self.ids.add(str(line["id"]))


def write_run_table(
    db: RunStore,
    run_id: str,
    input: str,
    output: str,
    table: TableOptions,
    *,
    max_chars: int = MAX_CHARS,
) -> dict[str, int]:
    """Write a run's output table from the store, replacing the last one whole.

    The table is written beside ``output`` and moved in place at the end, so a
    reader never sees half a table. Returns the rows written per outcome.
    """
    target = Path(output)
    kind = table_format(target) or table_format(input) or "csv"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    if kind != "dataset":
        partial = partial.with_name(partial.name + (".csv" if kind == "csv" else ".pq"))
    _remove(partial)
    if kind == "dataset":
        partial.mkdir(mode=0o700)
    hint = f": anonygraph review --run {run_id} --db {db.location}"
    try:
        counts = write_table(
            input,
            partial,
            store_results(
                db, run_id, comments=bool(table.columns.comments), review_hint=hint
            ),
            table.columns,
            table.output_columns,
            split=table.split,
            max_chars=max_chars,
        )
    except BaseException:
        _remove(partial)
        raise
    if kind == "dataset" and target.exists():
        _remove(target)
    os.replace(partial, target)
    return counts


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
