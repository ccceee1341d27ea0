"""``anonygraph detect``: explicit cues of a text or an input; no model, no store."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.commands.run import add_table_flags, table_options
from anonygraph.cli.flags import OptionError


def add_parser(sub: Any) -> None:
    """Add ``detect``: a text, or --input (JSONL or a table)."""
    parser = sub.add_parser(
        "detect",
        help=COMMANDS["detect"],
    )
    parser.add_argument("text", nargs="?", help="the text ('-' reads standard input)")
    parser.add_argument(
        "--input", help="JSONL or a table (.csv, .parquet, dataset folder) instead"
    )
    parser.add_argument("--attributes", help="comma-separated attributes to report")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print Presidio RecognizerResult dicts (one JSON line per record)",
    )
    add_table_flags(parser)
    # No LangChain runs here: `main` skips its tracing guard (and LangSmith).
    parser.set_defaults(func=command, uses_langchain=False)


def command(args: argparse.Namespace) -> int:
    """Print each record's cues; exit 1 when an input line or row was bad."""
    from anonygraph.attributes import UnknownAttributeError, resolve_attributes
    from anonygraph.cues.entities import detect
    from anonygraph.inputs import MAX_CHARS, BadLine
    from anonygraph.runs import collector

    if (args.text is None) == (args.input is None):
        raise OptionError("give a text or --input FILE (one of them)")
    attributes = None
    if args.attributes:
        try:
            attributes = resolve_attributes(args.attributes.split(","))
        except UnknownAttributeError as exc:
            raise OptionError(f"--attributes: {exc}") from exc
    if args.text is not None:
        text = sys.stdin.read() if args.text == "-" else args.text
        items: Iterable[Any] = [("", text)]
    else:
        from anonygraph.runs.options import iter_input

        table = table_options(args, args.input, "jsonl")
        loaded = iter_input(args.input, "jsonl", MAX_CHARS, table)
        items = (i if isinstance(i, BadLine) else (i.id, i.text) for i in loaded)
    bad = 0
    for item in items:
        if isinstance(item, BadLine):
            bad += 1
            print(f"bad input {item}", file=sys.stderr)  # noqa: T201
            continue
        record_id, text = item
        results = detect(text, attributes)
        collector.started()  # the start ends with the first text
        if args.json:
            line = {"id": record_id, "results": results} if args.input else results
            print(json.dumps(line, ensure_ascii=False))  # noqa: T201
        else:
            print(render(record_id, text, results))  # noqa: T201
    return 1 if bad else 0


def render(record_id: str, text: str, results: list[dict[str, Any]]) -> str:
    """Render one record's cues: span offsets, entity type, attribute=value, score."""
    head = f"record {record_id}: " if record_id else ""
    if not results:
        return f"{head}no cue the rules know (phrasings outside them are not checked)"
    lines = [f"{head}{len(results)} explicit cue(s)"] if head else []
    for r in results:
        meta = r["recognition_metadata"]
        lines.append(
            f"  {r['start']}-{r['end']}  {text[r['start'] : r['end']]!r}  "
            f"{meta['attribute']}={meta['value']}  ({r['entity_type']}, score "
            f"{r['score']:.2f}) -> {meta['replacement']!r}"
        )
    return "\n".join(lines)
