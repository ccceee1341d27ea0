"""Presidio's analyzer imported the way the identifier detector imports it.

One fresh interpreter: no torch or transformers, Presidio's private pattern
check found (an upgrade that renames it fails here first), skipped for the
built-in patterns during the import and back afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from unittest import mock
import regex
calls = []
real = regex.compile
def counted(pattern, *args, **kwargs):
    calls.append(pattern)
    return real(pattern, *args, **kwargs)
with mock.patch.object(regex, "compile", counted):
    from anonygraph.tools.spacy_import import PATTERN_CHECK, import_presidio_analyzer
    import_presidio_analyzer()
during = len(calls)
from presidio_analyzer import Pattern
try:
    Pattern("bad", "(unclosed", 0.5)
    bad_refused = False
except ValueError:
    bad_refused = True
print(json.dumps({
    "heavy": sorted(m for m in ("torch", "transformers") if m in sys.modules),
    "check_named": PATTERN_CHECK in Pattern.__dict__,
    "compiled_during_import": during,
    "bad_refused_after": bad_refused,
}))
"""


def test_when_presidio_is_imported_then_no_torch_and_no_pattern_compiled() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])

    assert seen["heavy"] == []
    assert seen["check_named"], "Presidio's Pattern check moved: see spacy_import"
    assert seen["compiled_during_import"] == 0
    assert seen["bad_refused_after"], "the check must be back after the import"
