"""Every code block of the README and the manual (docs/) runs as written.

Each page's blocks run in order in one scratch folder (holding a copy of
`examples/`), sharing one Python namespace, as a reader pasting them would:

- a ``python`` block is executed;
- a ``sh`` block's commands (continuation lines joined, comments dropped) must
  each be an ``anonygraph`` command; each runs in this process through
  `anonygraph.cli.main` (the spaCy pipeline loads once) and must exit 0 (or 3,
  some text partly anonymized, under scripted models);
- a ``console`` block holds ``$ anonygraph ...`` lines, each followed by the
  output it must print (stdout and stderr as one stream).

A marker on the line above a block says what else it is:

- ``<!-- output-of: previous -->``: the block shows what the previous block
  printed, and must match it;
- ``<!-- needs: model-server -->``: the block names a model; it runs with the
  scripted chat models of `tests/scripted.py` answering every role;
- ``<!-- graph: NAME -->`` (a ``mermaid`` block): the method's graph, equal to
  ``draw_mermaid`` of the real one;
- ``<!-- shows: WHAT -->``: a shape, a listing or a configuration, not a
  command;
- ``<!-- not-run: WHY -->``: set-up commands or ones that need what the suite
  cannot start (a Ray cluster of several machines, SLURM); the reason is
  required.

An unmarked block of another language fails. In expected output, ``...`` in
a line matches any text and a line of only ``...`` any number of lines.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.scripted import (
    Script,
    attack_json,
    fenced,
    judge_json,
    rewrite_json,
    verdicts_json,
)

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

FENCE = re.compile(
    r"(?:^<!-- (?P<marker>[\w-]+):[ \t]*(?P<value>[^\n]*?)[ \t]*-->\n(?:\n)?)?"
    r"^```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^```[ \t]*$",
    re.M | re.S,
)
RUN = ("python", "sh", "console")
MARKERS = ("output-of", "needs", "graph", "shows", "not-run")
NEEDS = ("model-server",)


@dataclass
class Block:
    """One fenced block of a page, with the marker above it."""

    page: str
    line: int
    lang: str
    body: str
    marker: str = ""
    value: str = ""

    def where(self) -> str:
        return f"{self.page}:{self.line} ({self.lang or 'plain'} block)"


def blocks_of(path: Path) -> list[Block]:
    """Return the fenced blocks of a Markdown page, in order."""
    return blocks_in(path.read_text(), path.relative_to(ROOT).as_posix())


def blocks_in(text: str, name: str) -> list[Block]:
    """Return the fenced blocks of Markdown ``text`` (page ``name``), in order."""
    return [
        Block(
            page=name,
            line=text.count("\n", 0, found.start("lang")) + 1,
            lang=found["lang"],
            body=found["body"],
            marker=found["marker"] or "",
            value=(found["value"] or "").strip(),
        )
        for found in FENCE.finditer(text)
    ]


def commands_of(body: str) -> list[str]:
    """Return a shell block's commands: continuations joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", body)
    commands = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            commands.append(line)
    return commands


def output_pattern(expected: str) -> re.Pattern[str]:
    """Return a pattern for shown output: ``...`` matches any text."""
    parts = []
    for line in expected.rstrip("\n").split("\n"):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = [re.escape(piece) for piece in line.rstrip().split("...")]
        parts.append("[^\n]*?".join(pieces) + r"[ \t]*\n")
    return re.compile("".join(parts))


def matches(expected: str, printed: str) -> bool:
    """Tell whether ``printed`` is what ``expected`` shows.

    A line is compared as a terminal shows it: what follows its last carriage
    return (a progress bar's last state).
    """
    lines = printed.rstrip("\n").split("\n")
    text = "\n".join(line.rsplit("\r", 1)[-1].rstrip() for line in lines)
    return output_pattern(expected).fullmatch(text + "\n") is not None


def check_marker(block: Block) -> None:
    """Fail for a block that is neither runnable nor marked with a known marker."""
    if block.marker and block.marker not in MARKERS:
        pytest.fail(f"{block.where()}: unknown marker {block.marker!r}")
    if block.marker == "not-run" and len(block.value) < 10:
        pytest.fail(f"{block.where()}: not-run needs a reason")
    if block.marker == "needs" and block.value not in NEEDS:
        pytest.fail(f"{block.where()}: needs {block.value!r}, not one of {NEEDS}")
    if not block.marker and block.lang not in RUN:
        pytest.fail(
            f"{block.where()}: a {block.lang or 'plain'} block must be run "
            f"({', '.join(RUN)}) or carry a marker ({', '.join(MARKERS)})"
        )
    if block.marker == "graph" and block.lang != "mermaid":
        pytest.fail(f"{block.where()}: a graph marker goes on a mermaid block")


def scripted_models() -> Script:
    """Script the roles of a loop and of the evaluator for the pages' texts: a
    city is found and generalized, nothing else is inferred; the judge finds
    the rewrites readable and faithful."""
    script = Script()

    def attack(prompt: str) -> str:
        city = "Calgary" in (fenced(prompt) or prompt)
        return attack_json(city_country=("Calgary, Canada", 5) if city else None)

    def rewrite(prompt: str) -> str:
        return rewrite_json((fenced(prompt) or "").replace("Calgary", "a city"))

    script.set("attacker", attack)
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite)
    script.set("judge", judge_json())
    return script


class Reader:
    """Runs one page's blocks in order, as a reader pasting them would."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = folder
        self.monkeypatch = monkeypatch
        self.namespace: dict[str, Any] = {"__name__": "__docs__"}
        self.printed = ""
        self.ran = False

    @contextlib.contextmanager
    def scripted(self, block: Block) -> Iterator[None]:
        if block.marker != "needs":
            yield
            return
        from anonygraph.llm import loading

        with self.monkeypatch.context() as patch:
            patch.setattr(loading, "load_chat_model", scripted_models().load)
            yield

    def run(self, block: Block) -> None:
        check_marker(block)
        if block.marker == "output-of":
            assert self.ran, f"{block.where()}: no block ran before it"
            assert matches(block.body, self.printed), (
                f"{block.where()} shows:\n{block.body}\nbut it printed:\n{self.printed}"
            )
            return
        if block.marker == "graph":
            self.graph(block)
            return
        if block.marker in ("shows", "not-run"):
            return
        with self.scripted(block):
            if block.lang == "python":
                self.python(block)
            elif block.lang == "sh":
                self.shell(block)
            else:
                self.console(block)
        self.ran = True

    def python(self, block: Block) -> None:
        stream = io.StringIO()
        code = compile(block.body, block.where(), "exec")
        with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
            exec(code, self.namespace)
        self.printed = stream.getvalue()

    def command(self, block: Block, line: str) -> tuple[int, str]:
        from anonygraph.cli import main

        words = shlex.split(line, comments=True)
        program = words[0].rsplit("/", 1)[-1]
        assert program == "anonygraph", (
            f"{block.where()}: {line!r} is not an anonygraph command; mark the "
            "block not-run with the reason"
        )
        stream = io.StringIO()
        with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
            try:
                code = main(words[1:])
            except SystemExit as exc:  # argparse's own exits (--help, bad flags)
                code = int(exc.code or 0)
        return code, stream.getvalue()

    def shell(self, block: Block) -> None:
        printed = []
        for line in commands_of(block.body):
            code, output = self.command(block, line)
            # The scripted models generalize the city only: texts may stay partly
            # anonymized (3); anything else must end well.
            allowed = (0, 3) if block.marker == "needs" else (0,)
            where = f"{block.where()}: {line!r}"
            assert code in allowed, f"{where} exited {code}:\n{output}"
            printed.append(output)
        self.printed = "".join(printed)

    def console(self, block: Block) -> None:
        steps = re.split(r"^\$ ", block.body, flags=re.M)
        assert not steps[0].strip(), f"{block.where()}: text before the first '$ '"
        for step in steps[1:]:
            line, _, expected = step.partition("\n")
            _, output = self.command(block, line)
            assert matches(expected, output), (
                f"{block.where()}: `{line}` is shown printing:\n{expected}\n"
                f"but printed:\n{output}"
            )
            self.printed = output

    def graph(self, block: Block) -> None:
        from anonygraph.graphs import EVALUATOR, GRAPHS

        builders = {**GRAPHS, **EVALUATOR}
        assert block.value in builders, f"{block.where()}: no graph {block.value!r}"
        drawn = builders[block.value]().compile().get_graph()
        real = drawn.draw_mermaid(with_styles=False).strip().split("\n")
        shown = block.body.strip().split("\n")
        assert [line.strip() for line in shown] == [line.strip() for line in real], (
            f"{block.where()}: the diagram differs from the graph; paste "
            f"draw_mermaid(with_styles=False) of {block.value!r}:\n" + "\n".join(real)
        )


@pytest.mark.parametrize(
    "page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES]
)
def test_when_a_page_is_read_then_each_example_does_what_it_shows(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    reader = Reader(tmp_path, monkeypatch)
    for block in blocks_of(page):
        reader.run(block)


@pytest.mark.parametrize(
    ("expected", "printed", "same"),
    [
        ("a\nb\n", "a\nb\n", True),
        ("a\nb\n", "a\nc\n", False),
        ("a ... s\n", "a 0.2 s\n", True),
        ("a\n...\nz\n", "a\nb\nc\nz\n", True),
        ("a\n...\nz\n", "a\nb\nc\n", False),
        ("a\n", "a\nextra\n", False),
    ],
)
def test_when_output_is_compared_then_only_ellipses_are_free(
    expected: str, printed: str, same: bool
) -> None:
    assert matches(expected, printed) is same


@pytest.mark.parametrize(
    ("page", "problem"),
    [
        ("```text\nshown\n```\n", "must be run"),
        ("<!-- not-run: -->\n```sh\nmake\n```\n", "needs a reason"),
        ("<!-- needs: gpu -->\n```python\npass\n```\n", "not one of"),
        ("<!-- graph: rlaa -->\n```text\n```\n", "mermaid"),
    ],
)
def test_when_a_block_is_neither_run_nor_marked_then_the_check_fails(
    page: str, problem: str
) -> None:
    (block,) = blocks_in(page, "probe.md")
    with pytest.raises(pytest.fail.Exception, match=problem):
        check_marker(block)
