"""People's verdicts on SynthPAI GPT-4 guesses, split into a fit and a held-out part.

Reads ``../shared/data/synthpai/human_verdicts_dev.jsonl`` (CC-BY-NC-SA-4.0,
research use only: read here at run time, never copied into the project).
Each profile holds the label people reviewed (``reviews.human[attr].estimate``),
GPT-4's ranked guesses (``predictions["gpt-4"][attr].guess``) and one verdict
per guess (``evaluations["gpt-4"].human_evaluated[attr]``: 1 correct, 0.5 less
precise, 0 wrong).

The split is by profile and fixed before any rule was fitted: a profile is
held out when the SHA-256 of its username, read as a number, is divisible by
3. That holds out 53 of the 150 profiles (50 of them with verdicts: 367 of
the 1,043 judged guesses); rules are fitted on the other 97 (88 with
verdicts: 676 guesses), and the figures that count are the held-out ones.

Agreement is counted per guess: binary (correct vs not) and three-way
(correct / less precise / wrong); a guess the rules skip (a placeholder such
as "prefer not to say") counts as not correct. Top-1 accuracy is the share of
judged attributes whose first guess is correct, to the rules and to people.

Run: ``python benchmarks/human_verdicts.py [--data DIR] [--fit]
[--validator SPEC [--judge-all]]``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from anonygraph.attributes import normalize
from anonygraph.tools.matching import GuessMatch, Validator, match_guess

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


# --------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------

VALUE = {"correct": 1.0, "less_precise": 0.5}
"""A rule outcome as a verdict value; wrong and skipped are 0."""


@dataclass(frozen=True)
class Scored:
    """People's verdicts beside the rules' on one judged attribute."""

    judged: Judged
    matches: tuple[GuessMatch, ...]
    """One per guess, in the order of the guesses."""

    def pairs(self) -> list[tuple[float, float]]:
        """Return (people, rules) verdict values, one pair per guess."""
        return [
            (people, VALUE.get(match.outcome, 0.0))
            for people, match in zip(self.judged.verdicts, self.matches, strict=True)
        ]


def score(judged: list[Judged], validator: Validator | None = None) -> list[Scored]:
    """Judge every guess by the rules (and the validator, when one is given).

    Each guess is judged where it stands: a placeholder guess ("unknown") is
    skipped by the rules and counts as not correct, as people judged it.
    """
    return [
        Scored(
            j,
            tuple(
                match_guess(j.attribute, j.label, guess, validator=validator)
                for guess in j.guesses
            ),
        )
        for j in judged
    ]


@dataclass
class Figures:
    """Agreement figures of one group of judged attributes."""

    guesses: int = 0
    binary: int = 0
    """Guesses where rules and people agree on correct vs not."""
    three_way: int = 0
    """Guesses where they agree on correct / less precise / wrong."""
    attributes: int = 0
    rules_top1: int = 0
    people_top1: int = 0
    skipped: int = 0
    """Guesses the rules skipped (placeholders, unreadable labels)."""
    undecided: int = 0
    """Guesses no rule decided (settled by the validator or the fallback)."""

    def add(self, scored: Scored) -> None:
        """Count one judged attribute."""
        pairs = scored.pairs()
        self.guesses += len(pairs)
        self.binary += sum((p == 1) == (r == 1) for p, r in pairs)
        self.three_way += sum(p == r for p, r in pairs)
        self.skipped += sum(m.outcome == "skipped" for m in scored.matches)
        self.undecided += sum(m.decided_by != "rule" for m in scored.matches)
        if pairs:
            self.attributes += 1
            self.people_top1 += pairs[0][0] == 1
            self.rules_top1 += pairs[0][1] == 1

    def row(self, name: str) -> str:
        """Render as one Markdown table row."""
        n, a = max(self.guesses, 1), max(self.attributes, 1)
        return (
            f"| {name} | {self.guesses} | {self.binary / n:.3f} "
            f"| {self.three_way / n:.3f} | {self.attributes} "
            f"| {self.rules_top1 / a:.3f} / {self.people_top1 / a:.3f} "
            f"| {self.skipped} | {self.undecided} |"
        )


def figures(scored: list[Scored]) -> dict[str, Figures]:
    """Return figures for 'all' and per attribute."""
    groups: dict[str, Figures] = defaultdict(Figures)
    for item in scored:
        groups["all"].add(item)
        groups[item.judged.attribute].add(item)
    return dict(groups)


def table(title: str, groups: dict[str, Figures]) -> str:
    """Render figures as a Markdown table."""
    lines = [
        f"{title}",
        "",
        "| attribute | guesses | binary | three-way | attributes "
        "| top-1 rules / people | skipped | undecided |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in ["all", *sorted(k for k in groups if k != "all")]:
        lines.append(groups[name].row(name))
    return "\n".join(lines)


_SPECIFICS = re.compile(r"'[^']*'|\"[^\"]*\"|\d+(?:\.\d+)?")


def cause(scored: Scored, match: GuessMatch, people: float) -> str:
    """Name why rules and people part: attribute, both verdicts, the rule's reason.

    The reason is cut to its rule (quoted names, numbers and what follows a
    colon dropped: "same job family: Engineers ..." -> "same job family"), so
    guesses decided by the same rule fall in one group.
    """
    reason = match.reason.removeprefix("undecided: ")
    template = " ".join(_SPECIFICS.sub("…", reason.split(":")[0]).split())
    if match.decided_by != "rule":
        template = f"{match.decided_by}: {template}"
    names = {1.0: "correct", 0.5: "less_precise", 0.0: "wrong"}
    return (
        f"{scored.judged.attribute}: people {names[people]}, rules {match.outcome} "
        f"({template})"
    )


def disagreements(scored: list[Scored]) -> dict[str, list[str]]:
    """Group the guesses judged otherwise than people (three-way) by cause."""
    groups: dict[str, list[str]] = defaultdict(list)
    for item in scored:
        for (people, rules), match in zip(item.pairs(), item.matches, strict=True):
            if people != rules:
                groups[cause(item, match, people)].append(
                    f"label {item.judged.label!r}, guess {match.guess!r}: "
                    f"{match.reason}"
                )
    return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))


def splits(scored: list[Scored], least: int = 5) -> list[tuple[str, Counter[float]]]:
    """Return the rules whose guesses people judged in more than one way.

    For each rule (attribute and reason template, as ``cause`` cuts it) that
    decided at least ``least`` guesses: people's verdicts on them, when no
    verdict has them all. A rule with a mixed response marks where people
    disagree among themselves, not only with the rule.
    """
    groups: dict[str, Counter[float]] = defaultdict(Counter)
    for item in scored:
        for people, match in zip(item.judged.verdicts, item.matches, strict=True):
            reason = match.reason.removeprefix("undecided: ")
            template = " ".join(_SPECIFICS.sub("…", reason.split(":")[0]).split())
            groups[f"{item.judged.attribute}: {match.outcome} ({template})"][
                people
            ] += 1
    return [
        (name, spread)
        for name, spread in sorted(groups.items(), key=lambda kv: -kv[1].total())
        if spread.total() >= least and len(spread) > 1
    ]


def contradictions(judged: list[Judged]) -> list[tuple[str, str, str, list[float]]]:
    """Return (attribute, label, guess, verdicts) judged differently by people.

    A pair counts when the same guess for the same label (compared as
    normalized text) got more than one verdict.
    """
    seen: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    shown: dict[tuple[str, str, str], tuple[str, str]] = {}
    for j in judged:
        for guess, verdict in zip(j.guesses, j.verdicts, strict=True):
            key = (j.attribute, normalize(j.label), normalize(guess))
            seen[key].append(verdict)
            shown.setdefault(key, (j.label, guess))
    return [
        (key[0], *shown[key], verdicts)
        for key, verdicts in seen.items()
        if len(set(verdicts)) > 1
    ]


# --------------------------------------------------------------------------
# Fitting the occupation threshold, the validator, the report
# --------------------------------------------------------------------------


def fit_family_threshold(
    fit_part: list[Judged], data: Path
) -> list[tuple[float, float, float]]:
    """Grid the same-family similarity on the fit part; PersonalReddit beside it.

    Returns (threshold, binary agreement on the fit part's occupation guesses,
    PersonalReddit occupation top-1 agreement) for 0.60-0.90. The shipped
    value is the middle of the thresholds that reach the best fit-part
    agreement without lowering PersonalReddit's top-1 agreement below its
    value at the previous threshold (0.65).
    """
    from matching_agreement import load as load_personalreddit

    from anonygraph.attributes import occupation
    from anonygraph.tools.matching import match_inference

    people = [j for j in fit_part if j.attribute == "occupation"]
    reference = [r for r in load_personalreddit(data) if r["attribute"] == "occupation"]
    shipped = occupation.SAME_FAMILY_SIMILARITY
    rows = []
    try:
        for step in range(31):
            occupation.SAME_FAMILY_SIMILARITY = round(0.60 + 0.01 * step, 2)
            groups = figures(score(people))["all"]
            agree = sum(
                (match_inference("occupation", r["truth"], r["guesses"]).top1
                 == "correct") == r["ref"][0]
                for r in reference
            )  # fmt: skip
            rows.append(
                (
                    occupation.SAME_FAMILY_SIMILARITY,
                    groups.binary / groups.guesses,
                    agree / len(reference),
                )
            )
    finally:
        occupation.SAME_FAMILY_SIMILARITY = shipped
    return rows


def local_validator(spec: str) -> Validator:
    """Return the evaluator's validator hook (its prompt and schema) on ``spec``."""
    from anonygraph.nodes.evaluate import validator_for
    from anonygraph.state.evaluate import EvalContext

    return validator_for(EvalContext(models={"validator": spec}), [])


def judge_everything(held: list[Judged], validator: Validator) -> Figures:
    """Score the validator as the only judge of every guess (no rules)."""
    from anonygraph.tools.matching import _VERDICTS

    judged: list[Scored] = []
    for j in held:
        matches = []
        for guess in j.guesses:
            reply = validator(j.attribute, j.label, guess)
            outcome = _VERDICTS.get(reply, "wrong")
            matches.append(GuessMatch(guess=guess, outcome=outcome, reason=reply))
        judged.append(Scored(j, tuple(matches)))
    return figures(judged)["all"]


def main() -> None:
    """Print agreement on both parts, PersonalReddit's, and what parts them."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--fit", action="store_true", help="grid the occupation family threshold"
    )
    parser.add_argument(
        "--validator",
        metavar="SPEC",
        help="also score the held-out part with this validator model (e.g. local)",
    )
    parser.add_argument(
        "--judge-all",
        action="store_true",
        help="with --validator: also let it judge every held-out guess alone",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    fit_part, held = split(load(args.data))
    if args.fit:
        for threshold, binary, reference in fit_family_threshold(fit_part, args.data):
            print(
                f"same family >= {threshold:.2f}: fit-part occupation binary "
                f"{binary:.3f}, PersonalReddit occupation top-1 {reference:.3f}"
            )
        return
    print(
        f"split: {len({j.username for j in fit_part})} judged profiles to fit, "
        f"{len({j.username for j in held})} held out (SHA-256 of the username "
        f"divisible by {HELD_OUT_MODULUS})\n"
    )
    print(table("fit part (the rules were fitted here)", figures(score(fit_part))))
    print()
    scored = score(held)
    print(table("held-out part", figures(scored)))
    print()
    print_personalreddit(args.data)
    print("\nheld-out disagreements (three-way), by cause, one example each:\n")
    for name, examples in disagreements(scored).items():
        print(f"{len(examples):3d}  {name}\n       e.g. {examples[0]}")
    print("\npeople's contradictions (one guess for one label judged differently):")
    for part, items in (
        ("fit", fit_part),
        ("held-out", held),
        ("all", fit_part + held),
    ):
        found = contradictions(items)
        by_attribute: dict[str, int] = defaultdict(int)
        for attribute, *_ in found:
            by_attribute[attribute] += 1
        print(f"  {part}: {len(found)} pairs {dict(sorted(by_attribute.items()))}")
    for attribute, label, guess, verdicts in contradictions(fit_part + held):
        print(f"    {attribute}: label {label!r}, guess {guess!r}: {verdicts}")
    print("\nrules whose guesses people judged in more than one way (1 / 0.5 / 0):")
    for part, judged in (("fit", score(fit_part)), ("held-out", scored)):
        for name, spread in splits(judged):
            counts = " / ".join(str(spread[v]) for v in (1.0, 0.5, 0.0))
            print(f"  {part}: {name}: {counts}")
    if args.validator:
        print_validator(held, scored, local_validator(args.validator), args.judge_all)


def print_personalreddit(data: Path) -> None:
    """Print agreement with PersonalReddit's reference flags (top-1, top-3)."""
    from matching_agreement import load as load_personalreddit
    from matching_agreement import score as score_personalreddit

    counts, _ = score_personalreddit(load_personalreddit(data))
    overall = counts["all"]
    print(
        f"PersonalReddit reference flags: top-1 agreement "
        f"{overall['agree1'] / overall['n']:.3f}, top-3 "
        f"{overall['agree3'] / overall['n']:.3f} ({overall['n']:.0f} records)"
    )


def print_validator(
    held: list[Judged], rules_only: list[Scored], validator: Validator, alone: bool
) -> None:
    """Print the held-out figures with the validator asked where rules cannot decide."""
    with_validator = score(held, validator)
    asked = sum(m.decided_by == "validator" for s in with_validator for m in s.matches)
    print(f"\nheld-out with the validator ({asked} guesses settled by it):\n")
    print(table("held-out part, rules + validator", figures(with_validator)))
    changed = [
        (s.judged, a, b)
        for s, r in zip(with_validator, rules_only, strict=True)
        for a, b in zip(r.matches, s.matches, strict=True)
        if a.outcome != b.outcome
    ]
    print(f"\n{len(changed)} verdicts changed by the validator")
    if alone:
        alone_figures = judge_everything(held, validator)
        print("\nthe validator as the only judge of every held-out guess:\n")
        print(table("held-out part, validator alone", {"all": alone_figures}))


if __name__ == "__main__":
    main()
