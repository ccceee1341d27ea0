"""One module per ``anonygraph`` subcommand, each adding its parser with ``func`` set.

`COMMANDS` lists them in the order ``anonygraph --help`` shows them.
"""

from __future__ import annotations

from types import ModuleType

from anonygraph.cli.commands import (
    anonymize,
    detect,
    eval,
    export,
    match,
    methods,
    pii,
    preview,
    purge,
    report,
    reproduce,
    review,
    run,
    seal,
    serve,
    show,
    status,
    worker,
)

COMMANDS: tuple[ModuleType, ...] = (
    run,
    preview,
    review,
    anonymize,
    eval,
    report,
    reproduce,
    show,
    pii,
    detect,
    seal,
    methods,
    match,
    worker,
    status,
    export,
    purge,
    serve,
)
"""Each module has ``add_parser(sub)``, which sets the parser's ``func``."""
