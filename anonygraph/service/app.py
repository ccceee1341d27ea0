"""The FastAPI app: anonymize one text, submit a batch, poll it, stream its output.

Every error answer is ``{"error": "FIELD: what is wrong", "field": FIELD}``
with a 4xx status: 400 (a value the service cannot use), 401 (no or a wrong
token), 404, 409 (a batch still running), 413 (a body over ``--max-body``),
422 (a body that does not fit the schema, or a text over ``max_chars``), 429
(every slot busy and the line full; retry later). The OpenAPI schema is at
``/openapi.json``; its interactive page, ``/docs``, is served from the
Swagger UI 5 files the ``fastapi-offline`` package holds (the ``serve``
extra), never from a CDN: FastAPI's default pages load their scripts from one,
an outgoing request this tool does not make. Swagger UI 5 reads the OpenAPI
3.1 schema FastAPI writes (Swagger UI 4 cannot). Without that package there
is no ``/docs``.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from anonygraph.graphs import GRAPHS
from anonygraph.inputs import InputError, check_text
from anonygraph.runs.locks import RunLockedError
from anonygraph.runs.options import build_context, context_schema
from anonygraph.runs.pending_reviews import answer_review, waiting_requests
from anonygraph.runs.store import RunStore
from anonygraph.runs.summary import record_outcome
from anonygraph.runs.table_output import OutputColumns, TableOptions
from anonygraph.runs.tables import TableColumns
from anonygraph.service.batches import BatchError, Batches
from anonygraph.service.gate import Gate, QueueFull
from anonygraph.service.settings import ServiceSettings
from anonygraph.state.context import SERVER_FIELDS

SERVER_CHOSEN = frozenset({"default_model", "models", "search_backend", *SERVER_FIELDS})
"""Options a request may not set: which models and servers the service calls
(a request naming a URL would make the service send text there)."""


class ApiError(Exception):
    """An error answer: its status, the field at fault and what is wrong."""

    def __init__(self, status: int, field: str, message: str) -> None:
        """Keep the status, the field and the message."""
        super().__init__(f"{field}: {message}")
        self.status = status
        self.field = field


class AnonymizeRequest(BaseModel):
    """One text (or one author's comments) to anonymize."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(default=None, description="The text.")
    comments: list[str] | None = Field(
        default=None, description="One author's comments, instead of text."
    )
    method: str | None = Field(
        default=None, description="A method; default: the service's (--method)."
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Fields of the method's Context (not its models or servers).",
    )


class BatchRecord(BaseModel):
    """One record of an uploaded batch, as a line of run's JSONL input."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    text: str | None = None
    comments: list[str] | None = None


class TableRequest(BaseModel):
    """How to read a server-side table (as run's table flags)."""

    model_config = ConfigDict(extra="forbid")

    text_column: str = "text"
    id_column: str | None = None
    comments_column: str | None = None
    split: str | None = None


class BatchRequest(BaseModel):
    """A batch: records in the body, or a file under the service's --input-dir."""

    model_config = ConfigDict(extra="forbid")

    records: list[BatchRecord] | None = Field(default=None, min_length=1)
    path: str | None = Field(
        default=None, description="A JSONL file or a table, under --input-dir."
    )
    table: TableRequest | None = None
    method: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class ReviewAnswer(BaseModel):
    """LangChain's HITL response: one decision per action request."""

    model_config = ConfigDict(extra="forbid")

    decisions: list[dict[str, Any]] = Field(
        min_length=1,
        description='e.g. [{"type": "approve"}], [{"type": "reject"}], or '
        '[{"type": "edit", "edited_action": {"name": ..., "args": {...}}}]',
    )


def add_docs_page(app: FastAPI) -> None:
    """Serve Swagger UI at ``/docs`` from the installed files (nothing from a CDN)."""
    try:
        import fastapi_offline
    except ImportError:
        return  # /openapi.json still describes the API
    # Only the package's files are used: its own app factory would replace ours.
    assets = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/docs/assets", StaticFiles(directory=str(assets)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="anonygraph API",
            swagger_js_url="/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/docs/assets/swagger-ui.css",
            swagger_favicon_url="/docs/assets/favicon.png",
            # Swagger UI's default validator would send the schema away.
            swagger_ui_parameters={"validatorUrl": None},
        )


def create_app(settings: ServiceSettings) -> FastAPI:
    """Build the service's app for ``settings`` (the batches resume on start)."""
    gate: dict[str, Gate] = {}
    batches = Batches(settings)
    compiled: dict[str, Any] = {}
    """Method -> its graph, compiled once (no checkpointer: nothing stored)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Made in the server's event loop: asyncio objects belong to one loop.
        gate["anonymize"] = Gate(settings.concurrency, settings.queue)
        batches.pending = asyncio.Queue()
        batches.resume_unfinished()
        worker = asyncio.create_task(batches.work())
        try:
            yield
        finally:
            worker.cancel()
            await asyncio.gather(worker, return_exceptions=True)

    app = FastAPI(
        title="anonygraph",
        summary="Anonymize texts so a model cannot infer their author's attributes.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
        dependencies=[Depends(token_check(settings.token))],
    )
    app.add_middleware(BodyLimit, limit=settings.max_body)
    add_docs_page(app)
    add_error_handlers(app)

    @app.get("/v1/health")
    async def health() -> dict[str, Any]:
        """Say the service is up, with its method and its queues."""
        anonymizing = gate["anonymize"]
        return {
            "status": "ok",
            "method": settings.method,
            "anonymizing": anonymizing.running,
            "waiting": anonymizing.waiting,
            "batches_queued": len(batches.queued),
        }

    @app.post("/v1/anonymize")
    async def anonymize(request: AnonymizeRequest) -> dict[str, Any]:
        """Anonymize one text now; 429 when every slot is busy and the line full."""
        gate["anonymize"].check()  # a refusal costs no validation
        method, _, context = _method_options(settings, request.method, request.options)
        payload = _payload(
            request.text, request.comments, getattr(context, "max_chars", 20_000)
        )
        graph = _compiled(compiled, method, context)
        start = time.perf_counter()
        async with gate["anonymize"].hold():
            result = await graph.ainvoke(payload, context=context)
        calls = result.get("calls", []) or []
        answer: dict[str, Any] = {
            "anonymized": result.get("anonymized", ""),
            "outcome": record_outcome(result),
            "leaks_left": list(result.get("leaks", []) or []),
            "identifiers_replaced": dict(result.get("identifiers") or {}),
            "status": result.get("status", ""),
            "method": method,
            "calls": len(calls),
            "tokens_in": sum(int(c.get("tokens_in", 0)) for c in calls),
            "tokens_out": sum(int(c.get("tokens_out", 0)) for c in calls),
            "seconds": round(time.perf_counter() - start, 3),
        }
        if request.comments is not None:
            answer["comments"] = list(result.get("anonymized_comments") or [])
        return answer

    @app.post("/v1/batches", status_code=202)
    async def submit(request: BatchRequest) -> dict[str, Any]:
        """Queue a batch; poll ``/v1/batches/ID``, read ``/v1/batches/ID/output``."""
        if (request.records is None) == (request.path is None):
            raise ApiError(422, "records", "give records or path (one of them)")
        if request.table is not None and request.path is None:
            raise ApiError(422, "table", "applies to a server-side path only")
        method, options, _ = _method_options(settings, request.method, request.options)
        table = _table(request.table)
        records = (
            None
            if request.records is None
            else [r.model_dump(exclude_none=True) for r in request.records]
        )
        return await _submit(batches, records, request.path, table, method, options)

    @app.post("/v1/batches/jsonl", status_code=202)
    async def upload(request: Request, method: str | None = None) -> dict[str, Any]:
        """Queue a batch from an uploaded JSONL file (the body, as run reads it)."""
        body = await request.body()
        if not body.strip():
            raise ApiError(422, "body", "empty; send JSONL lines of records")
        method, options, _ = _method_options(settings, method, {})
        return await _submit(batches, body, None, TableOptions(), method, options)

    @app.get("/v1/batches/{batch_id}")
    async def status(batch_id: str) -> dict[str, Any]:
        """A batch's state (queued, running, done, partial, ...) and counts."""
        return batches.status(_manifest(batches, batch_id))

    @app.get("/v1/batches/{batch_id}/output")
    async def output(batch_id: str) -> StreamingResponse:
        """Stream the batch's output JSONL as far as it is written."""
        manifest = _manifest(batches, batch_id)
        path = Path(manifest["output"])
        if not path.is_file():
            raise ApiError(404, "batch_id", f"{batch_id} has no output yet")
        return StreamingResponse(
            _lines(path),
            media_type="application/x-ndjson",
            headers={"X-Batch-State": batches.status(manifest)["state"]},
        )

    @app.get("/v1/batches/{batch_id}/reviews")
    async def reviews(batch_id: str) -> dict[str, Any]:
        """The batch's records waiting for a review, with LangChain HITL requests."""
        _manifest(batches, batch_id)
        with closing(RunStore(settings.db)) as db:
            if db.get_run(batch_id) is None:
                return {"id": batch_id, "waiting": []}
            return {"id": batch_id, "waiting": await waiting_requests(db, batch_id)}

    @app.post("/v1/batches/{batch_id}/reviews/{record_id}")
    async def answer(
        batch_id: str, record_id: str, response: ReviewAnswer
    ) -> dict[str, Any]:
        """Answer one record's review (a HITL response); it goes on at once."""
        _manifest(batches, batch_id)
        if batch_id == batches.current or batch_id in batches.queued:
            raise ApiError(409, "batch_id", f"{batch_id} is still running")
        with closing(RunStore(settings.db)) as db:
            try:
                outcome = await answer_review(
                    db, batch_id, record_id, response.model_dump(exclude_none=True)
                )
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(map(str, e['loc'])) or 'answer'}: {e['msg']}"
                    for e in exc.errors()
                )
                raise ApiError(422, "decisions", problems) from exc
            except RunLockedError as exc:
                raise ApiError(409, "batch_id", str(exc)) from exc
            except ValueError as exc:
                raise ApiError(404, "record_id", str(exc)) from exc
        return {"id": batch_id, "record_id": record_id, "outcome": outcome}

    return app


def _compiled(compiled: dict[str, Any], method: str, context: Any) -> Any:
    """Return the method's graph, compiled once.

    Raises:
        ApiError: 400 for a context that asks for a review (a paused text
            needs a batch, whose run store keeps it).
    """
    if getattr(context, "review", False):
        raise ApiError(
            400, "options.review", "a text paused for review needs a batch; "
            "submit it to /v1/batches"
        )  # fmt: skip
    if method not in compiled:
        compiled[method] = GRAPHS[method]().compile(name=method)
    return compiled[method]


async def _submit(
    batches: Batches,
    records: list[dict[str, Any]] | bytes | None,
    path: str | None,
    table: TableOptions,
    method: str,
    options: dict[str, Any],
) -> dict[str, Any]:
    """Queue a batch (files written off the event loop); return its status.

    Raises:
        ApiError: 400 naming ``path`` (or the field `Batches.submit` names).
    """
    try:
        manifest = await asyncio.to_thread(
            batches.submit, records, path, table, method, options
        )
    except BatchError as exc:
        raise ApiError(400, exc.field, str(exc).split(": ", 1)[1]) from exc
    except InputError as exc:
        raise ApiError(400, "path", str(exc)) from exc
    return {
        **batches.status(manifest),
        "status_url": f"/v1/batches/{manifest['id']}",
        "output_url": f"/v1/batches/{manifest['id']}/output",
    }


def _lines(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        for line in handle:
            if line.endswith(b"\n"):  # a line being written is not sent half
                yield line


def _manifest(batches: Batches, batch_id: str) -> dict[str, Any]:
    manifest = batches.manifest(batch_id)
    if manifest is None:
        raise ApiError(404, "batch_id", f"no batch {batch_id!r}")
    return manifest


def _method_options(
    settings: ServiceSettings, method: str | None, options: dict[str, Any]
) -> tuple[str, dict[str, Any], Any]:
    """Return the request's method, its fields over the service's, its `Context`.

    Raises:
        ApiError: 400 naming ``method`` or the option at fault.
    """
    method = method or settings.method
    if method not in GRAPHS:
        raise ApiError(
            400, "method", f"unknown method {method!r}; choose from {', '.join(GRAPHS)}"
        )
    for name in options:
        if name in SERVER_CHOSEN:
            raise ApiError(
                400, f"options.{name}", "chosen by the service (serve --model, ...)"
            )
    check_option_types(method, options)
    fields = {**settings.context, **options}
    if method != settings.method:
        fields = {k: v for k, v in fields.items() if k in options or k in SERVER_CHOSEN}
    try:
        context = build_context(method, fields)
    except (ValueError, TypeError) as exc:
        raise ApiError(400, "options", str(exc)) from exc
    return method, fields, context


KINDS: dict[str, type | tuple[type, ...]] = {
    "int": int,
    "float": (int, float),
    "bool": bool,
    "str": str,
}
"""A `Context` field's annotation -> the JSON values it takes."""


def check_option_types(method: str, options: dict[str, Any]) -> None:
    """Refuse an option whose JSON value is not of its `Context` field's type.

    Raises:
        ApiError: 422 naming ``options.NAME`` and the type expected.
    """
    fields = getattr(context_schema(method), "__dataclass_fields__", {})
    for name, value in options.items():
        if name not in fields:
            continue  # build_context names it
        kind = str(fields[name].type)
        expected = KINDS.get(kind)
        if kind.startswith("list"):
            expected = list
        elif kind.startswith("dict"):
            expected = dict
        wrong = expected is not None and not isinstance(value, expected)
        if wrong or (kind in ("int", "float") and isinstance(value, bool)):
            raise ApiError(422, f"options.{name}", f"expected {kind}, got {value!r}")


def _payload(
    text: str | None, comments: list[str] | None, max_chars: int
) -> dict[str, Any]:
    """Return the graph's input for a text or comments, checked as run checks it.

    Raises:
        ApiError: 422 naming ``text`` or ``comments``.
    """
    if (text is None) == (comments is None):
        raise ApiError(422, "text", "give text or comments (one of them)")
    payload: dict[str, Any]
    if text is not None:
        field, joined, payload = "text", text, {"text": text}
    else:
        field, joined = "comments", "\n\n".join(comments or [])
        payload = {"comments": comments}
    try:
        check_text(joined, max_chars)
    except InputError as exc:
        raise ApiError(422, field, str(exc)) from exc
    return payload


def _table(request: TableRequest | None) -> TableOptions:
    if request is None:
        return TableOptions()
    return TableOptions(
        columns=TableColumns(
            text=request.text_column,
            id=request.id_column,
            comments=request.comments_column,
        ),
        split=request.split,
        output_columns=OutputColumns(),
    )


def token_check(token: str) -> Callable[[Request], Awaitable[None]]:
    """Return the dependency that refuses a request without the bearer token."""

    async def check(request: Request) -> None:
        if not token or request.url.path == "/v1/health":
            return
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            value.strip().encode(), token.encode()
        ):
            raise ApiError(
                401, "authorization", "a bearer token is required (Bearer TOKEN)"
            )

    return check


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error as one line naming the field, with a 4xx status."""

    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(
            {"error": str(exc), "field": exc.field}, exc.status, headers=headers
        )

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        problems = [
            {"field": "body", "message": f"{e['msg']} at character {e['loc'][-1]}"}
            if e.get("type") == "json_invalid"
            else {"field": _field(e["loc"]), "message": str(e["msg"])}
            for e in exc.errors()
        ]
        first = problems[0] if problems else {"field": "body", "message": "invalid"}
        return JSONResponse(
            {
                "error": f"{first['field']}: {first['message']}",
                "field": first["field"],
                "problems": problems,
            },
            422,
        )

    async def full(request: Request, exc: Exception) -> JSONResponse:
        body = {"error": f"queue: {exc}", "field": "queue"}
        return JSONResponse(body, 429, headers={"Retry-After": "1"})

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(QueueFull, full)


def _field(loc: Any) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "path", "query"):
        parts = parts[1:]
    return ".".join(parts) or "body"


class BodyLimit:
    """Answer 413 to a request whose body is over ``limit`` bytes, before reading it."""

    def __init__(self, app: Any, limit: int) -> None:
        """Wrap ``app``; refuse bodies over ``limit`` bytes."""
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Check the declared length, then count what arrives."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await self._refuse(send)
            return
        seen = 0
        over = started = False

        async def counted() -> Any:
            nonlocal seen, over
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                over = True
                raise BodyTooLarge(self._message())
            return message

        async def held(message: Any) -> None:
            # A body cut short is what the app answers once it is over the
            # limit (FastAPI: 400 "error parsing the body"); 413 replaces it.
            nonlocal started
            if not over:
                started = True
                await send(message)

        try:
            await self.app(scope, counted, held)
        except Exception:
            if not over:
                raise
        if over and not started:
            await self._refuse(send)

    def _message(self) -> str:
        return f"over {self.limit} bytes (serve --max-body); send fewer records"

    async def _refuse(self, send: Any) -> None:
        body = JSONResponse({"error": f"body: {self._message()}", "field": "body"}, 413)
        await body({"type": "http"}, _no_receive, send)


class BodyTooLarge(Exception):
    """A body (sent chunked, with no declared length) that went over the limit."""


async def _no_receive() -> dict[str, Any]:
    return {"type": "http.disconnect"}
