"""A command imports only what it uses: ``--help`` no graph, ``detect`` no torch."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from anonygraph.cli import build_parser, chosen_command
from anonygraph.cli.commands import COMMANDS
from anonygraph.graphs import GRAPHS
from anonygraph.papers import PAPERS
from anonygraph.runs.store.sql import db_errors
from anonygraph.state.contexts import CONTEXTS, context_classes
from anonygraph.tools.spacy_import import thinc_finder

HEAVY = (
    "langgraph", "langchain_core", "langsmith", "spacy", "numpy", "torch",
    "transformers", "psycopg",
)  # fmt: skip
"""Libraries a command line that only asks for help has no use for."""

RULES_UNUSED = ("langchain_core.language_models.chat_models",)
"""Modules a one-text rules run never calls, so never imports: LangChain's
chat-model base (a rules run builds no chat model; the backends import their
chat models in their ``load``)."""


PROBE = textwrap.dedent(
    """
    import json, sys
    heavy = {heavy}
    first = {{}}

    class Watch:
        # Record the modules on the stack when each heavy library is first found.
        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            if top in heavy and top not in first and top not in sys.modules:
                frame, chain = sys._getframe(1), []
                while frame is not None:
                    module = frame.f_globals.get("__name__", "")
                    if not module.startswith("importlib"):
                        chain.append(module)
                    frame = frame.f_back
                first[top] = chain
            return None

    sys.meta_path.insert(0, Watch())
    from anonygraph.cli import main, own_process
    from anonygraph.runs import collector
    for argv in json.loads(sys.argv[1]):
        own_process(argv)  # as `anonygraph.cli.run` does
        try:
            main(argv)
        except SystemExit:
            pass
        print("imported", json.dumps(dict(first)))
        print("starting", json.dumps(collector.is_starting()))
        client = ("langgraph_sdk.client", "langsmith.types.run")
        print("client code", json.dumps([m for m in client if m in sys.modules]))
        unused = {unused!r}
        print("unused", json.dumps([m for m in unused if m in sys.modules]))
    """
).format(heavy=HEAVY, unused=RULES_UNUSED)
"""Run the command lines given as JSON one after another in this process;
after each, print the `HEAVY` libraries imported so far, each with the
modules that were importing it, and whether the collector still runs with
the start's thresholds (`anonygraph.runs.collector`)."""


def probe(*argvs: list[str], cwd: Path | None = None) -> list[str]:
    """Run `PROBE` over ``argvs``; return its lines of output."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argvs)],
        capture_output=True, text=True, timeout=300, cwd=cwd,
        env={**os.environ, "ANONYGRAPH_DB": ""},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def said(lines: list[str], word: str) -> list[Any]:
    """Return what `PROBE` printed after ``word``, once per command line."""
    return [
        json.loads(line.removeprefix(word)) for line in lines if line.startswith(word)
    ]


def imported_by(
    *argvs: list[str], cwd: Path | None = None
) -> list[dict[str, list[str]]]:
    """Return, after each of ``argvs``, the `HEAVY` libraries imported and by whom."""
    return said(probe(*argvs, cwd=cwd), "imported")


def test_when_any_command_gets_help_or_a_bad_flag_then_nothing_heavy_loads() -> None:
    argvs = [
        ["--help"], ["--bogus"], ["anonymise", "a text"],
        *([name, "--help"] for name in COMMANDS),
        *([name, "--bogus"] for name in COMMANDS),
    ]  # fmt: skip

    # One process for all of them (each start costs seconds on 2 cores): the
    # libraries are counted from its start, so the first argv that brought
    # one is the first whose tally is not empty.
    tallies = imported_by(*argvs)

    assert len(tallies) == len(argvs)
    culprit = next((a for a, t in zip(argvs, tallies, strict=True) if t), None)
    assert tallies[-1] == {}, f"{culprit} imported {tallies[-1]}"


def test_when_detect_then_a_rules_anonymize_run_then_each_imports_what_it_uses(
    tmp_path: Path,
) -> None:
    text = "I am 34 and live in Calgary."
    lines = probe(
        ["detect", text],
        ["anonymize", "--method", "rlaa", "--model", "rules", "--quiet", text],
        cwd=tmp_path,
    )
    detect, anonymize = said(lines, "imported")

    # detect parses with spaCy and runs no LangChain (no LangSmith guard) and
    # no torch; rlaa runs on LangGraph and Presidio's analyzer (the identifier
    # pre-pass), neither of which may bring torch or transformers.
    assert "spacy" in detect
    assert not {"langgraph", "langchain_core", "langsmith", "torch"} & set(detect)
    assert "langgraph" in anonymize
    assert not {"torch", "transformers", "psycopg"} & set(anonymize)
    # Each ends its start with its first text: the collector is Python's again.
    assert said(lines, "starting") == [False, False]
    # The client code LangGraph's import would bring (its server's SDK,
    # LangSmith's API types) stays out (`tools.langgraph_import`).
    assert said(lines, "client code") == [[], []]
    assert said(lines, "unused") == [[], []]


def test_when_the_postgres_driver_is_loaded_then_its_errors_are_store_errors() -> None:
    # Listed once loaded (only then can one be raised); a SQLite run never
    # imports the driver for the list (the test above).
    psycopg = pytest.importorskip("psycopg")

    assert {sqlite3.Error, psycopg.Error} <= set(db_errors())


def test_when_top_level_help_is_built_lazily_then_it_equals_the_full_parsers() -> None:
    assert build_parser([]).format_help() == build_parser().format_help()


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["detect", "x"], "detect"),
        (["--trace", "anonymize", "--json", "x"], "anonymize"),
        (["--help"], None),
        (["anonymise"], "anonymise"),
    ],
)
def test_when_a_command_line_is_read_then_its_command_is_its_first_word(
    argv: list[str], command: str | None
) -> None:
    assert chosen_command(argv) == command


def test_when_each_command_is_built_then_it_takes_its_help_from_the_table() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")

    shown = {a.dest: a.help for a in sub._choices_actions}  # type: ignore[attr-defined]
    assert shown == COMMANDS


def test_when_contexts_are_read_without_graphs_then_they_are_the_graphs_own() -> None:
    classes = context_classes()

    assert list(CONTEXTS) == list(GRAPHS)
    assert {m: build().context_schema for m, build in GRAPHS.items()} == classes


def test_when_thinc_asks_for_torch_then_only_thinc_is_refused(tmp_path: Path) -> None:
    # A stand-in torch: a plain ``import spacy`` imports it (thinc.compat).
    fake = tmp_path / "torch"
    fake.mkdir()
    (fake / "__init__.py").write_text("__version__ = '0.0'\n")
    probe = textwrap.dedent(
        """
        import sys
        from anonygraph.tools.spacy_import import import_spacy
        finders = list(sys.meta_path)
        import_spacy()
        import thinc.compat
        kept_out = "torch" not in sys.modules and not thinc.compat.has_torch
        import torch  # any other importer still gets it
        print(kept_out, torch.__version__, sys.meta_path == finders)
        """
    )
    paths = [str(tmp_path), os.environ.get("PYTHONPATH", "")]
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, paths))},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "0.0", "True"]
    assert thinc_finder().find_spec("torch") is None  # asked from here


def test_when_reproduce_lists_its_papers_apart_then_they_are_its_plans() -> None:
    from anonygraph.reporting.reproduce import PLANS, UNPLANNED

    assert list(PAPERS) == [*PLANS, *UNPLANNED]


def test_when_a_ray_driver_builds_a_methods_context_then_it_imports_no_graph() -> None:
    # The driver runs no record: its graph's import (LangGraph, Presidio,
    # spaCy) would take seconds of CPU from the workers on the same cores.
    probe = textwrap.dedent(
        """
        import sys
        from anonygraph.runs.engines.ray_engine import run_on_ray
        from anonygraph.runs.options import build_context
        context = build_context("rlaa", {"default_model": "rules"})
        loaded = {"langgraph", "spacy", "presidio_analyzer", "anonygraph.graphs.rlaa"}
        print(type(context).__name__, sorted(loaded & set(sys.modules)))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Context", "[]"]
