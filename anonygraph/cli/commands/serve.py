"""``anonygraph serve``: the local HTTP service (FastAPI under uvicorn)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import (
    OptionError,
    add_common,
    add_db,
    check_backends,
    context_fields,
)


def add_parser(sub: Any) -> None:
    """Add ``serve``: address, token, store, limits and the method's flags."""
    parser = sub.add_parser(
        "serve",
        help=COMMANDS["serve"],
    )
    add_common(parser)
    parser.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="default 8765")
    parser.add_argument(
        "--token",
        default=os.environ.get("ANONYGRAPH_TOKEN", ""),
        help="bearer token every request must carry (default $ANONYGRAPH_TOKEN); "
        "required to bind to an address other machines reach",
    )
    add_db(parser)
    parser.add_argument(
        "--batch-dir", default="", help="batch inputs and outputs (STORE.batches)"
    )
    parser.add_argument(
        "--input-dir",
        default="",
        help="a folder batches may name server-side files in (default: none)",
    )
    parser.add_argument(
        "--concurrency", type=int, default=2, help="texts anonymized at once (2)"
    )
    parser.add_argument(
        "--queue", type=int, default=8, help="texts that may wait; then 429 (8)"
    )
    parser.add_argument(
        "--batch-concurrency", type=int, default=2, help="records of a batch at once"
    )
    parser.add_argument(
        "--max-batches", type=int, default=16, help="batches that may wait; then 429"
    )
    parser.add_argument(
        "--max-body", type=int, default=8 << 20, help="largest request body, bytes"
    )
    gateway = parser.add_argument_group(
        "OpenAI-compatible gateway (POST /v1/chat/completions)"
    )
    gateway.add_argument(
        "--upstream",
        default="",
        metavar="openai:NAME@URL",
        help="the model the gateway forwards rewritten requests to (default: no "
        "gateway); user messages are rewritten by --method with --model "
        "(default model: rules)",
    )
    gateway.add_argument(
        "--upstream-key-env",
        default="OPENAI_API_KEY",
        metavar="VARIABLE",
        help="environment variable holding the upstream's API key "
        "(default OPENAI_API_KEY; never logged)",
    )
    gateway.add_argument(
        "--upstream-timeout", type=float, default=600.0, help="seconds; then 504"
    )
    gateway.add_argument(
        "--no-restore",
        dest="restore",
        action="store_false",
        help="leave placeholders in the answers (default: original values restored)",
    )
    gateway.add_argument(
        "--on-failure",
        choices=("block", "identifiers_only"),
        default="block",
        help="a rewrite that fails its checks: block the request (default) or "
        "send it with identifiers replaced only; never sent as written",
    )
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Check the settings, then serve until stopped."""
    import uvicorn

    from anonygraph.service import ServiceSettings, check_binding, create_app

    for flag in ("concurrency", "batch_concurrency", "max_batches", "max_body"):
        if getattr(args, flag) < 1:
            raise OptionError(f"--{flag.replace('_', '-')} must be at least 1")
    if args.queue < 0:
        raise OptionError("--queue must be at least 0")
    fields = context_fields(args)
    check_backends(args.method, fields)
    settings = ServiceSettings(
        host=args.host,
        port=args.port,
        token=args.token,
        db=args.db,
        batch_dir=args.batch_dir,
        input_dir=args.input_dir,
        method=args.method,
        context=fields,
        concurrency=args.concurrency,
        queue=args.queue,
        batch_concurrency=args.batch_concurrency,
        max_batches=args.max_batches,
        max_body=args.max_body,
        upstream=args.upstream,
        upstream_key_variable=args.upstream_key_env,
        upstream_timeout=args.upstream_timeout,
        restore=args.restore,
        on_failure=args.on_failure,
    )
    check_binding(settings)
    if args.upstream:
        from anonygraph.service.gateway import Upstream

        try:
            upstream = Upstream.parse(args.upstream, args.upstream_key_env)
        except ValueError as exc:
            raise OptionError(str(exc)) from exc
        print(  # noqa: T201
            f"anonygraph serve: gateway to {upstream} at "
            f"http://{args.host}:{args.port}/v1 (key from ${args.upstream_key_env}: "
            f"{'set' if upstream.headers else 'not set'})",
            file=sys.stderr,
            flush=True,
        )
    threading.Thread(
        target=warm_up, args=(args.method,), name="anonygraph-warm-up", daemon=True
    ).start()
    print(  # noqa: T201
        f"anonygraph serve: http://{args.host}:{args.port} ({args.method}, store "
        f"{args.db}; {'token required' if args.token else 'no token: loopback only'})",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level="warning",
        server_header=False,
    )
    return 0


def warm_up(method: str) -> None:
    """Import the method's graph and load the cue detectors before a request asks.

    The first answer would otherwise wait for them: spaCy's pipeline, the
    place gazetteer and the method's nodes take seconds on 2 cores. Started
    while uvicorn starts; a request that comes sooner waits for the same
    loads (each is made once, behind a lock), not for a second copy.
    """
    from anonygraph import cues
    from anonygraph.graphs import GRAPHS
    from anonygraph.runs import collector

    try:
        GRAPHS[method]()
        cues.warm_up()
    except Exception:  # noqa: BLE001 - the request that needs it reports it
        return
    finally:
        collector.started()  # what it loaded stays: later passes skip it
