"""The output JSONL of a run: appended as records finish, each record once."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any, Protocol

from anonygraph.inputs import MAX_CHARS, InputError
from anonygraph.runs.files import secure_file
from anonygraph.runs.summary import record_outcome, result_of
from anonygraph.state.domain import Record


def output_line(record: Record, result: dict[str, Any], run_id: str) -> dict[str, Any]:
    """Shape one line of the output JSONL, in the input's shape.

    A record given as ``comments`` comes back as ``comments`` (as many, in the
    same order), without a joined ``text``; a record given as ``text`` as text.
    """
    line: dict[str, Any] = {"id": record.id}
    if record.comments:
        line["comments"] = list(result.get("anonymized_comments") or [])
    else:
        line["text"] = result.get("anonymized", "")
    line |= {
        "status": result.get("status", ""),
        "outcome": record_outcome(result),
        "run_id": run_id,
    }
    if result.get("checked_by"):
        line["checked_by"] = result["checked_by"]
    # Kinds and counts only: the mapping to the originals never goes out.
    line["identifiers_replaced"] = dict(result.get("identifiers") or {})
    if result.get("leaks"):
        line["leaks_left"] = list(result["leaks"])
    return line


class Sink(Protocol):
    """Where finished records' output lines go."""

    def append(self, line: dict[str, Any]) -> None:
        """Take one output line."""
        ...


class NoOutput:
    """Output sink of a process that writes no file: the store holds the results.

    A Ray worker's (the driver writes the file from the store) and a review
    of a Postgres run's records on a machine that may lack its output folder
    (`export` writes it).
    """

    def append(self, line: dict[str, Any]) -> None:
        """Drop the line; the store holds the record's result."""


class OutputFileError(InputError):
    """An output file that belongs to another run, or is in use."""


class OutputFile:
    """The output JSONL: appended as records finish, each record once.

    The file belongs to one run. A sidecar ``OUT.run.json`` (0600) records the
    run id, method, input and options: a sidecar rather than a header line,
    so the output stays plain JSONL that any reader (jq, our loaders) takes.
    The output file itself is locked (flock) while a run writes it.
    """

    def __init__(
        self, path: str, identity: dict[str, Any], *, force: bool = False
    ) -> None:
        """Claim ``path`` for the run in ``identity``; drop a half-written last line.

        Raises:
            OutputFileError: when another run wrote the file (without ``force``)
                or another process is writing it now.
        """
        self.path = Path(path)
        self.sidecar = Path(f"{path}.run.json")
        self.identity = identity
        self.force = force
        self.ids: set[str] = set()
        self._lock: Any = None

    def __enter__(self) -> OutputFile:
        """Lock the file, check whose it is, read the ids already written."""
        secure_file(self.path)
        self._lock = open(self.path, "rb")  # noqa: SIM115 - held while the run writes
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            self._lock.close()
            raise OutputFileError(
                f"--output {self.path} is being written by another run right now; "
                "wait for it or name another output file"
            ) from exc
        try:
            self._claim()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        """Flush the file to disk and release the lock."""
        if self._lock is not None:
            os.fsync(self._lock.fileno())
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def _claim(self) -> None:
        owner = self._owner()
        raw = self.path.read_bytes()
        mine = owner.get("run_id") == self.identity["run_id"]
        if raw and not mine and not self.force:
            who = (
                f"run {owner['run_id']!r} ({owner.get('method')}, options "
                f"{json.dumps(owner.get('options', {}), sort_keys=True)})"
                if owner
                else "an unknown program (no run sidecar)"
            )
            raise OutputFileError(
                f"--output {self.path} holds results of {who}, not of this run "
                f"{self.identity['run_id']!r}; name another output file, or add "
                "--force to start it afresh"
            )
        if self.force and not mine:
            raw = b""
            self.path.write_bytes(raw)
        if not mine:
            secure_file(self.sidecar)
            self.sidecar.write_text(json.dumps(self.identity, indent=2) + "\n")
        if raw and not raw.endswith(b"\n"):
            # A kill mid-write leaves a partial line: cut back to the last whole one.
            raw = raw[: raw.rfind(b"\n") + 1]
            self.path.write_bytes(raw)
        for line in raw.decode("utf-8", "replace").splitlines():
            try:
                self.ids.add(str(json.loads(line)["id"]))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue

    def _owner(self) -> dict[str, Any]:
        try:
            owner = json.loads(self.sidecar.read_text())
        except (OSError, ValueError):
            return {}
        return owner if isinstance(owner, dict) else {}

    def restore(self, done_rows: list[dict[str, Any]]) -> None:
        """Append records the store finished but the file missed (a kill between)."""
        for row in done_rows:
            if row["record_id"] not in self.ids:
                result = json.loads(row["result"] or "{}")
                record = Record(id=row["record_id"], text=row["original"])
                self.append(output_line(record, result, row["run_id"]))

    def append(self, line: dict[str, Any]) -> None:
        """Write one line; it is in the file for any reader once this returns.

        Handed to the operating system, which keeps it when the process is
        killed; the disk flush waits for the end of the run (`__exit__`), as
        the store's commits wait for its next WAL checkpoint. After a power
        cut, `restore` writes again what the store holds and the file lost.
        """
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.ids.add(str(line["id"]))


def write_done(output: OutputFile, rows: list[dict[str, Any]]) -> int:
    """Write a run's done records (``rows``, in the order wanted) to ``output``.

    Each once: a file that already holds the start of that list (an earlier
    session's write, cut off) is completed; any other content is rewritten.
    Returns the number of records in the file.
    """
    wanted = [str(row["record_id"]) for row in rows]
    there = [
        str(json.loads(line)["id"])
        for line in output.path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    if there != wanted[: len(there)]:
        output.path.write_bytes(b"")
        output.ids.clear()
    output.restore(rows)
    return len(rows)


def export(db: Any, run_id: str, path: str, *, force: bool = False) -> int:
    """Write a run's finished records to ``path`` from the store, each once.

    A table run written to a table path gets the whole table again (every
    input row once, `write_run_table`); otherwise the JSONL output.

    ``db`` is the `RunStore`. A Ray run's records come in input order (the
    store keeps each one's place, `worker_tables`), a local run's in id
    order. Returns the number of records in the file.

    Raises:
        ValueError: naming the run when the store has no such run.
    """
    from anonygraph.runs.io.table_output import TableOutput, write_run_table
    from anonygraph.runs.options import stored_table, writes_table

    run = db.get_run(run_id)
    if run is None:
        raise ValueError(f"--run {run_id}: no such run in the store")
    params = json.loads(run["params"] or "{}")
    identity = {
        "run_id": run_id,
        "method": run["method"],
        "input": str(Path(run["input"]).resolve()),
        "options": params,
    }
    table = stored_table(run)
    if table is not None and writes_table(run["input"], path):
        # A table run's table, whole: every input row once, bad ones saying why.
        with TableOutput(path, identity, force=force):
            counts = write_run_table(
                db, run_id, run["input"], path, table,
                max_chars=params.get("max_chars", MAX_CHARS),
            )  # fmt: skip
        return sum(counts.values())
    order = {r["record_id"]: r["position"] for r in db.record_workers(run_id)}
    rows = sorted(
        db.records(run_id, status="done"),
        key=lambda r: (order.get(r["record_id"], len(order)), r["record_id"]),
    )
    with OutputFile(path, identity, force=force) as out:
        return write_done(out, rows)


def export_mapping(db: Any, run_id: str, path: str) -> int:
    """Write the identifier mappings a ``--keep-mapping`` run kept, 0600.

    One JSON line per record that kept one: ``id`` and ``mapping`` (kind,
    replacement, original per value). Returns the number of records written.

    Raises:
        ValueError: naming the run when the store has no such run.
    """
    if db.get_run(run_id) is None:
        raise ValueError(f"--run {run_id}: no such run in the store")
    secure_file(path)
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for row in db.records(run_id, status="done"):
            result = result_of(row)
            if result.get("identifier_mapping"):
                line = {"id": row["record_id"], "mapping": result["identifier_mapping"]}
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
    return count
