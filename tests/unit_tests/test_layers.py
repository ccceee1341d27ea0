"""The model and run layers: the model layer apart from the store, one place
naming backends, small modules (import circles: test_layout)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "anonygraph"
BACKEND_NAMES = frozenset({"local", "rules", "llamacpp", "ollama", "openai", "hf"})
LAYERS = ("anonygraph.llm", "anonygraph.runs")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _run_time(tree: ast.AST) -> Iterator[ast.AST]:
    # Every node except those under `if TYPE_CHECKING:` (never run).
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                yield child
                yield from _run_time(child)
            continue
        yield node
        yield from _run_time(node)


def imports(name: str) -> set[str]:
    """Modules of the package that ``name`` imports, at any depth of its code."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _run_time(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1]]
                    + ([base] if base else [])
                )
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports(name) for name in MODULES}


def test_when_the_model_layer_is_read_then_it_never_imports_the_run_layer() -> None:
    crossing = {
        (name, target)
        for name, targets in GRAPH.items()
        if name.startswith("anonygraph.llm")
        for target in targets
        if target.startswith("anonygraph.runs")
    }
    assert crossing == set()


def _backend_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    # A backend name compared with (==, in), or used as a dict key.
    for node in ast.walk(tree):
        values: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            values = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            values = [k for k in node.keys if k is not None]
        for value in values:
            items = value.elts if isinstance(value, ast.Tuple | ast.Set) else [value]
            for item in items:
                if isinstance(item, ast.Constant) and item.value in BACKEND_NAMES:
                    yield node.lineno, str(item.value)


def test_when_the_package_is_read_then_only_the_registry_picks_a_backend() -> None:
    naming = {
        name: sorted({n for _, n in _backend_names(ast.parse(path.read_text()))})
        for name, path in MODULES.items()
    }
    assert {k: v for k, v in naming.items() if v} == {
        "anonygraph.llm.registry": sorted(BACKEND_NAMES)
    }


@pytest.mark.parametrize("layer", LAYERS)
def test_when_a_layer_is_counted_then_no_module_has_over_600_lines(layer: str) -> None:
    long = {
        name: n
        for name, path in MODULES.items()
        if name.startswith(layer) and (n := len(path.read_text().splitlines())) > 600
    }
    assert long == {}
