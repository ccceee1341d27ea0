"""The package's shape: the manual's Code layout names the real tree, no import circles,
old import paths still import."""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from itertools import takewhile
from pathlib import Path

import pytest

from anonygraph._old_paths import MOVED, SPLIT

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "anonygraph"

KNOWN_CIRCLES: list[set[str]] = []
"""Circles left to remove; an entry that no longer matches a circle fails too.
(The last one, runner <-> workers, went with the run layer's anonygraph/runs/.)"""


LAYOUT = ROOT / "docs" / "layout.md"


def layout_block(page: str) -> list[str]:
    """The lines of the package tree, the code block of docs/layout.md."""
    return page.split("\n```\n", 1)[1].split("\n```", 1)[0].split("\n")


def parse_layout(lines: list[str]) -> tuple[set[str], set[str]]:
    """Packages (``anonygraph/x/``) and modules (``anonygraph/x/m.py``) it names.

    A line at column 0 starting ``anonygraph/`` opens a package; a line
    indented two spaces names modules of it, leading ``*.py`` words; deeper
    indents continue a description; other lines (``examples/``) are outside.

    Raises:
        ValueError: for a two-space line that names no module.
    """
    packages: set[str] = set()
    modules: set[str] = set()
    package = ""
    for line in lines:
        if line.startswith("anonygraph/"):
            package = line.split()[0]
            packages.add(package)
        elif line.startswith("  ") and not line.startswith("   "):
            if not package:
                raise ValueError(f"module line before any package: {line!r}")
            named = list(takewhile(lambda w: w.endswith(".py"), line.split()))
            if not named:
                raise ValueError(f"a two-space line names no module: {line!r}")
            modules.update(package + name for name in named)
        elif line and not line.startswith(" "):
            package = ""
    return packages, modules


def real_tree() -> tuple[set[str], set[str]]:
    """Packages and modules of anonygraph/, as the layout names them."""
    packages = {
        f"{init.parent.relative_to(ROOT).as_posix()}/"
        for init in PACKAGE.rglob("__init__.py")
    }
    modules = {
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    }
    return packages, modules


def test_when_the_tree_changes_then_the_layout_page_must_name_it() -> None:
    named_packages, named_modules = parse_layout(layout_block(LAYOUT.read_text()))
    packages, modules = real_tree()

    assert sorted(packages - named_packages) == [], "packages missing from Layout"
    assert sorted(named_packages - packages) == [], "Layout names no such package"
    assert sorted(modules - named_modules) == [], "modules missing from Layout"
    assert sorted(named_modules - modules) == [], "Layout names no such module"


@pytest.mark.parametrize(
    ("change", "missing"),
    [
        ("  added.py       new", "anonygraph/tools/added.py"),
        ("anonygraph/extra/ new package", "anonygraph/extra/"),
    ],
)
def test_when_layout_and_tree_differ_then_the_parse_sees_it(
    change: str, missing: str
) -> None:
    lines = layout_block(LAYOUT.read_text())
    at = lines.index("anonygraph/tools/rlaa/")
    edited = lines[:at] + [change] + lines[at:]
    packages, modules = parse_layout(edited)
    assert missing in packages | modules
    with pytest.raises(ValueError, match="names no module"):
        parse_layout(["anonygraph/", "  see below"])


def import_edges() -> dict[str, set[str]]:
    """Module -> anonygraph modules it imports, at any depth (TYPE_CHECKING too)."""
    names = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in PACKAGE.rglob("*.py")
    }

    def resolve(name: str) -> str | None:
        while name and name not in names:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {}
    for module, path in names.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (resolve(a.name) for a in node.names)))
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.add(resolve(full if full in names else node.module) or "")
        # A module importing its own package's __init__ is no circle of design.
        edges[module] = {
            t for t in targets if t and t != module and not module.startswith(t + ".")
        }
    return edges


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


MAX_MODULE_LINES = 600
"""Issue 22: no module of the package over this many lines."""


def test_when_a_module_grows_past_600_lines_then_this_fails() -> None:
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert sizes and {p: n for p, n in sizes.items() if n > MAX_MODULE_LINES} == {}


def test_when_modules_import_each_other_in_a_circle_then_this_fails() -> None:
    found = circles(import_edges())

    assert [c for c in found if c not in KNOWN_CIRCLES] == []
    assert [c for c in KNOWN_CIRCLES if c not in found] == [], "stale entry"
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        {"a", "b", "c"}
    ]


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_when_an_old_import_path_is_used_then_it_is_the_moved_module(
    old: str, new: str
) -> None:
    fresh = old not in sys.modules
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)

    assert module is importlib.import_module(new)
    assert module.__spec__ is not None and module.__spec__.name == new
    assert not (ROOT / (old.replace(".", "/") + ".py")).exists()
    if fresh:
        assert [str(w.message) for w in caught] == [
            f"{old} moved to {new}; import it from there"
        ]


@pytest.mark.parametrize(
    ("old", "name", "home"),
    [
        ("anonygraph.models", "ask_structured", "anonygraph.llm.ask"),
        ("anonygraph.models", "load_chat_model", "anonygraph.llm.loading"),
        ("anonygraph.models", "parse_spec", "anonygraph.llm.registry"),
        ("anonygraph.store", "RunStore", "anonygraph.runs.store"),
        ("anonygraph.store", "open_checkpointer", "anonygraph.runs.checkpointers"),
        ("anonygraph.runner", "run_batch", "anonygraph.runs.batch"),
        ("anonygraph.runner", "RunOptions", "anonygraph.runs.options"),
        ("anonygraph.endpoints", "split_urls", "anonygraph.llm.spec"),
    ],
)
def test_when_a_split_module_is_imported_then_its_names_come_from_their_new_home(
    old: str, name: str, home: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        module = importlib.import_module(old)
    assert old in SPLIT
    assert getattr(module, name) is getattr(importlib.import_module(home), name)
    assert not (ROOT / (old.replace(".", "/") + ".py")).exists()


def test_when_a_test_patches_an_old_path_then_the_model_layer_is_patched() -> None:
    from anonygraph.llm import ask, loading

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        models = importlib.import_module("anonygraph.models")

    def load(spec: str, role: str) -> None:
        return None

    originals = (loading.load_chat_model, ask.constrained)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(models, "load_chat_model", load)
        patch.setattr(models, "constrained", load)
        assert loading.load_chat_model is load
        assert ask.constrained is load  # where ask_structured looks it up
    # The undo puts the model layer back (it must not delete its names).
    assert (loading.load_chat_model, ask.constrained) == originals


def test_when_a_gone_name_is_read_then_the_error_names_what_replaced_it() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        models = importlib.import_module("anonygraph.models")
    with pytest.raises(AttributeError, match="supports_tools"):
        _ = models.TOOL_BACKENDS
