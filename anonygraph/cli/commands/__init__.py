"""One module per ``anonygraph`` subcommand, each adding its parser with ``func`` set.

`COMMANDS` lists them in the order ``anonygraph --help`` shows them.
"""

from __future__ import annotations

from types import ModuleType

from anonygraph.cli.commands import (
    anonymize,
    eval,
    export,
    match,
    methods,
    pii,
    purge,
    report,
    reproduce,
    review,
    run,
    seal,
    show,
    status,
    worker,
)

COMMANDS: tuple[ModuleType, ...] = (
    run,
    review,
    anonymize,
    eval,
    report,
    reproduce,
    show,
    pii,
    seal,
    methods,
    match,
    worker,
    status,
    export,
    purge,
)
"""Each module has ``add_parser(sub)``, which sets the parser's ``func``."""
