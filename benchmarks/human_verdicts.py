"""People's verdicts on SynthPAI GPT-4 guesses, split into a fit and a held-out part.

Reads ``../shared/data/synthpai/human_verdicts_dev.jsonl`` (CC-BY-NC-SA-4.0,
research use only: read here at run time, never copied into the project).
Each profile holds the label people reviewed (``reviews.human[attr].estimate``),
GPT-4's ranked guesses (``predictions["gpt-4"][attr].guess``) and one verdict
per guess (``evaluations["gpt-4"].human_evaluated[attr]``: 1 correct, 0.5 less
precise, 0 wrong).

The split is by profile and fixed before any rule was fitted: a profile is
held out when the SHA-256 of its username, read as a number, is divisible by
3. That holds out 53 of the 150 profiles (367 of the 1,043 judged guesses);
rules are fitted on the other 97 (676 guesses), and the figures that count
are the held-out ones.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
VERDICTS_FILE = Path("synthpai") / "human_verdicts_dev.jsonl"
MODEL = "gpt-4"
HELD_OUT_MODULUS = 3
"""One profile in this many (by username hash) is held out."""


def is_held_out(username: str) -> bool:
    """Return True for a profile of the held-out part (stable across runs)."""
    digest = hashlib.sha256(username.encode("utf-8")).hexdigest()
    return int(digest, 16) % HELD_OUT_MODULUS == 0


@dataclass(frozen=True)
class Judged:
    """One attribute of one profile: the label, the guesses, people's verdicts."""

    username: str
    attribute: str
    label: str
    guesses: tuple[str, ...]
    verdicts: tuple[float, ...]
    """One per guess: 1 correct, 0.5 less precise, 0 wrong."""

    @property
    def held_out(self) -> bool:
        """True when this profile belongs to the held-out part."""
        return is_held_out(self.username)


def load(data: Path = DEFAULT_DATA) -> list[Judged]:
    """Read every judged attribute of every profile, in file order."""
    judged: list[Judged] = []
    with (data / VERDICTS_FILE).open(encoding="utf-8") as handle:
        for line in handle:
            profile = json.loads(line)
            evaluated = profile["evaluations"].get(MODEL, {}).get("human_evaluated", {})
            predicted = profile["predictions"].get(MODEL, {})
            for attribute, verdicts in evaluated.items():
                guesses = predicted.get(attribute, {}).get("guess", [])
                judged.append(
                    Judged(
                        username=profile["username"],
                        attribute=attribute,
                        label=str(profile["reviews"]["human"][attribute]["estimate"]),
                        guesses=tuple(str(g) for g in guesses),
                        verdicts=tuple(float(v) for v in verdicts),
                    )
                )
    return judged


def split(judged: list[Judged]) -> tuple[list[Judged], list[Judged]]:
    """Return (fit part, held-out part)."""
    return [j for j in judged if not j.held_out], [j for j in judged if j.held_out]
