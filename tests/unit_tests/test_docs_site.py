"""The manual builds: `mkdocs build --strict` (links, anchors, the API reference
from the docstrings), every page is in its nav, the README links land."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import fail_or_skip

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    if importlib.util.find_spec("mkdocs") is None:
        fail_or_skip("mkdocs is missing: pip install -e '.[docs]' (make install does)")
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stderr
    return site, result.stderr


def test_when_the_manual_is_built_strictly_then_every_page_renders(
    built: tuple[Path, str],
) -> None:
    site, log = built
    assert 'not included in the "nav"' not in log, log
    rlaa = (site / "methods" / "rlaa" / "index.html").read_text()
    assert 'class="mermaid"' in rlaa and "arbitrate" in rlaa
    reference = (site / "reference" / "api" / "index.html").read_text()
    # mkdocstrings rendered the docstring of anonygraph.api.anonymize
    assert "Anonymize" in reference and "run_file" in reference


def test_when_the_readme_links_the_manual_then_each_page_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\((docs/[^)#\s]+)", readme)
    assert targets, "the README links no page of the manual"
    assert [t for t in targets if not (ROOT / t).is_file()] == []


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md"])
def test_when_outcomes_change_then_the_outcome_tables_name_them(page: str) -> None:
    from anonygraph.runs.summary import OUTCOMES
    from anonygraph.state.record import NOT_CHECKED

    text = (ROOT / page).read_text()
    table = text.split("| outcome | meaning |\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
    shown = [row.split("`")[1] for row in table.splitlines()]
    assert sorted(shown) == sorted([*OUTCOMES, NOT_CHECKED])


def test_when_the_readme_is_read_then_it_stays_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 250, f"README has {lines} lines; move detail into docs/"
