"""Batches: runs of the store, worked one at a time by the service, resumed on start.

A batch is a run whose id is the batch id, whose input is a JSONL file the
service wrote from the request (or a file under ``--input-dir``) and whose
output is a JSONL file beside it. A manifest (``batch.json``) keeps what the
batch was asked; the store keeps what happened. When the service starts it
queues again every batch whose run did not end, and `run_batch` resumes it:
finished records are not redone, and the output holds each id once.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

from anonygraph.inputs import BadLine
from anonygraph.runs.batch import run_batch
from anonygraph.runs.files import secure_file
from anonygraph.runs.options import RunOptions, build_context, iter_input
from anonygraph.runs.schema import WAITING
from anonygraph.runs.store import RunStore
from anonygraph.runs.summary import tally_outcomes
from anonygraph.runs.table_output import TableOptions
from anonygraph.service.gate import QueueFull
from anonygraph.service.settings import ServiceSettings

ENDED = frozenset({"done", "partial", WAITING})
"""Run statuses after which a batch is not resumed."""


class BatchError(ValueError):
    """A batch request the service cannot take; ``field`` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        """Keep the field and the message."""
        super().__init__(f"{field}: {message}")
        self.field = field


class Batches:
    """The service's batches: submitted, queued, worked one at a time."""

    def __init__(self, settings: ServiceSettings) -> None:
        """Use ``settings``' store and batch folder."""
        self.settings = settings
        self.folder = settings.batches
        self.pending: asyncio.Queue[str] = asyncio.Queue()
        self.queued: set[str] = set()
        self.current: str | None = None
        self.errors: dict[str, str] = {}
        """Batch id -> why its run stopped with an error (this process's runs)."""

    def manifest(self, batch_id: str) -> dict[str, Any] | None:
        """Return a batch's manifest, or None for an unknown id."""
        if not batch_id.startswith("batch-") or "/" in batch_id:
            return None
        path = self.folder / batch_id / "batch.json"
        if not path.is_file():
            return None
        found: dict[str, Any] = json.loads(path.read_text())
        return found

    def submit(
        self,
        records: list[dict[str, Any]] | bytes | None,
        path: str | None,
        table: TableOptions,
        method: str,
        context: dict[str, Any],
    ) -> dict[str, Any]:
        """Write a batch's files and queue it; return its manifest.

        ``records`` are the batch's records, or the bytes of an uploaded JSONL
        file (its bad lines are counted as run counts them); None: ``path``.

        Raises:
            QueueFull: when ``max_batches`` batches wait already.
            BatchError: for a server-side path the service may not read.
        """
        if len(self.queued) >= self.settings.max_batches:
            raise QueueFull(f"{len(self.queued)} batches wait already; retry later")
        server_side = None if records is not None else self.allowed_path(str(path))
        batch_id = f"batch-{uuid.uuid4().hex[:16]}"
        folder = self.folder / batch_id
        folder.mkdir(parents=True, mode=0o700)
        self.folder.chmod(0o700)
        if server_side is None:
            source = secure_file(folder / "input.jsonl")
            if isinstance(records, bytes):
                source.write_bytes(records)  # an uploaded JSONL file, as sent
            else:
                with open(source, "w", encoding="utf-8") as handle:
                    for record in records or []:
                        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            input_path = str(source)
        else:
            input_path = str(server_side)
        max_chars = getattr(build_context(method, context), "max_chars", 20_000)
        counts = Counter(
            "bad" if isinstance(item, BadLine) else "records"
            for item in iter_input(input_path, "jsonl", max_chars, table)
        )
        manifest = {
            "id": batch_id,
            "created": time.time(),
            "method": method,
            "context": context,
            "input": input_path,
            "output": str(folder / "output.jsonl"),
            "table": table.to_dict(),
            "records": counts["records"],
            "bad_input": counts["bad"],
        }
        secure_file(folder / "batch.json").write_text(json.dumps(manifest, indent=2))
        self._queue(batch_id)
        return manifest

    def allowed_path(self, path: str) -> Path:
        """Resolve a server-side input, which must lie under ``--input-dir``.

        Raises:
            BatchError: naming ``path`` when server-side inputs are off, the
                file lies elsewhere or does not exist.
        """
        if not self.settings.input_dir:
            raise BatchError(
                "path", "server-side files are off; start the service with "
                "--input-dir DIR, or send the records"
            )  # fmt: skip
        root = Path(self.settings.input_dir).resolve()
        target = (root / path).resolve()
        if not target.is_relative_to(root):
            raise BatchError("path", f"{path!r} is outside --input-dir")
        if not target.exists():
            raise BatchError("path", f"{path!r}: no such file under --input-dir")
        return target

    def _queue(self, batch_id: str) -> None:
        self.queued.add(batch_id)
        self.pending.put_nowait(batch_id)

    def resume_unfinished(self) -> list[str]:
        """Queue every batch whose run did not end (a kill, a stop); return them."""
        if not self.folder.is_dir():
            return []
        manifests = sorted(
            (m for p in self.folder.glob("batch-*/batch.json")
             if (m := self.manifest(p.parent.name)) is not None),
            key=lambda m: m["created"],
        )  # fmt: skip
        resumed = []
        with _store(self.settings.db) as db:
            for manifest in manifests:
                run = db.get_run(manifest["id"])
                if run is None or run["status"] not in ENDED:
                    self._queue(manifest["id"])
                    resumed.append(manifest["id"])
        return resumed

    async def work(self) -> None:
        """Run the queued batches one after another, for as long as the service runs."""
        while True:
            batch_id = await self.pending.get()
            self.current = batch_id
            try:
                manifest = self.manifest(batch_id)
                if manifest is not None:
                    await self._run(manifest)
            except Exception as exc:  # noqa: BLE001 - shown in the batch's status
                self.errors[batch_id] = f"{type(exc).__name__}: {exc}"
            finally:
                self.current = None
                self.queued.discard(batch_id)

    async def _run(self, manifest: dict[str, Any]) -> None:
        await run_batch(
            RunOptions(
                method=manifest["method"],
                input=manifest["input"],
                output=manifest["output"],
                db=self.settings.db,
                context=manifest["context"],
                concurrency=self.settings.batch_concurrency,
                run_id=manifest["id"],
                progress=False,
                table=TableOptions.from_dict(manifest["table"]),
            )
        )

    def status(self, manifest: dict[str, Any]) -> dict[str, Any]:
        """Return a batch's state and its records' counts, from the store."""
        batch_id = manifest["id"]
        with _store(self.settings.db) as db:
            run = db.get_run(batch_id)
            rows = db.records(batch_id)
        statuses = Counter(r["status"] for r in rows)
        # Per outcome, as run's summary counts them (waiting for review too).
        outcomes, _ = tally_outcomes(rows)
        if batch_id == self.current:
            state = "running"
        elif batch_id in self.queued or run is None:
            state = "queued"
        else:
            state = {WAITING: "waiting for review"}.get(run["status"], run["status"])
        summary = json.loads(run["summary"] or "{}") if run else {}
        if batch_id in self.errors and state not in ("running", "queued"):
            state = "failed"
        return {
            "id": batch_id,
            "state": state,
            "error": self.errors.get(batch_id, ""),
            "method": manifest["method"],
            "records": manifest["records"],
            "done": statuses.get("done", 0),
            "failed": statuses.get("failed", 0),
            "waiting_review": statuses.get(WAITING, 0),
            "bad_input": manifest["bad_input"],
            "outcomes": outcomes,
            "failures": summary.get("failures", []),
        }


def _store(location: str) -> closing[RunStore]:
    """A store opened for one lookup and closed after it."""
    return closing(RunStore(location))
