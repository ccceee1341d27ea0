"""One module per ``anonygraph`` subcommand, each adding its parser with ``func`` set.

`COMMANDS` names them with their one-line help, in the order ``anonygraph
--help`` shows them; a command's module (`command_module`) is imported only
when that command is chosen, so that ``anonygraph --help`` or a mistyped
command starts no model layer, graph or NLP library (``import spacy`` alone
takes seconds).
"""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS: dict[str, str] = {
    "run": "anonymize a JSONL file or a table (CSV, Parquet), resumably",
    "preview": "anonymize the first records of an input and show word diffs, "
    "outcome and cost; nothing stored",
    "review": "answer a --review run's pending reviews and resume its records",
    "anonymize": "anonymize one text and print it",
    "eval": "score a finished run for privacy and utility",
    "report": "tables and plots over evaluated runs",
    "reproduce": "run a paper's methods in the paper profile and print its table "
    "beside the published one",
    "show": "review a run's records: diff, guesses, cost",
    "pii": "replace the direct identifiers in a text (names, e-mails, ...)",
    "detect": "print the explicit cues found (span, attribute, value); no model, "
    "nothing stored",
    "seal": "SEAL: distillation data and training",
    "methods": "list the methods",
    "match": "judge one guess against a label, with why",
    "worker": "gone: use `anonygraph run --engine ray` (one line says how)",
    "status": "a run's records per Ray worker and node",
    "export": "write a run's output JSONL from the store",
    "purge": "delete a run's intermediates and checkpoints",
    "serve": "a local HTTP service: anonymize a text, run batches (FastAPI, uvicorn)",
}
"""Command -> its help line; its module here has the same name and an
``add_parser(sub)`` that adds it with this help and sets the parser's ``func``."""


def command_module(name: str) -> ModuleType:
    """Import and return the module of command ``name`` (a key of `COMMANDS`)."""
    return importlib.import_module(f"{__name__}.{name}")
