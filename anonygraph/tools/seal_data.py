"""SEAL distillation data: score trajectory states, pick pairs, write TRL chat JSONL.

A trajectory is a list of states s_i = (x_i, P_i, U_i). Privacy is scored
p(s) = (-|P|, -mean certainty of P) over the attributes actually guessed, and
compared lexicographically; utility u(s) is the mean of readability/10,
meaning/10 and the no-hallucination flag. Scores are exact fractions, so two
states that tie on paper also tie here.

Four data sets come out of the trajectories (SEAL, section 4):
D_anon (x_i -> x_j, j > i, s_j better on privacy and no worse on utility),
D_priv (x_i -> P_i), D_util ((x_0, x_i) -> U_i) for supervised fine-tuning,
and D_pref (x_i; x_w preferred to x_l, w, l > i) for DPO. One deviation from
the paper's sets: a pair whose two texts are the same up to white space is left
out, since it would teach copying (D_anon) or prefer a text to itself (D_pref).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from anonygraph import store
from anonygraph.attributes import describe_attributes, resolve_attributes
from anonygraph.prompts.common import JSON_HINT
from anonygraph.prompts.seal import (
    EDIT_PLAN,
    INFERENCE_LINE,
    NO_INFERENCES,
    NO_UTILITY,
    SEAL_ANONYMIZE_PROMPT,
    SEAL_INFER_PROMPT,
    SEAL_JUDGE_PROMPT,
    UTILITY_LINES,
)
from anonygraph.state.domain import (
    AttributeInference,
    Rewrite,
    UtilityAnswer,
    attack_answer_model,
)
from anonygraph.state.seal import TrajectoryStep

Message = dict[str, str]
PrivacyScore = tuple[int, Fraction]

FILES: dict[str, str] = {
    "anon": "sft_anon.jsonl",
    "priv": "sft_priv.jsonl",
    "util": "sft_util.jsonl",
    "pref": "dpo_pref.jsonl",
}
"""Data set -> file name in the output folder."""


# Scores -------------------------------------------------------------------


def leaks(inferences: Iterable[AttributeInference]) -> list[AttributeInference]:
    """Return the inferences that commit to a guess: the attributes in P_i."""
    return [i for i in inferences if i.is_leak]


def privacy_score(step: TrajectoryStep) -> PrivacyScore:
    """Return p(s) = (-|P|, -mean certainty); higher is more private."""
    guessed = leaks(step.inferences)
    if not guessed:
        return (0, Fraction(0))
    return (-len(guessed), -Fraction(sum(i.certainty for i in guessed), len(guessed)))


def utility_score(step: TrajectoryStep) -> Fraction:
    """Return u(s): the mean of readability/10, meaning/10 and no-hallucination."""
    u = step.utility
    parts = (
        Fraction(u.readability.score, 10),
        Fraction(u.meaning.score, 10),
        Fraction(u.hallucination.score),
    )
    return sum(parts, Fraction(0)) / len(parts)


def better(a: TrajectoryStep, b: TrajectoryStep) -> bool:
    """Say whether ``a`` beats ``b``: strictly more private, at least as useful."""
    return privacy_score(a) > privacy_score(b) and utility_score(a) >= utility_score(b)


def same_text(a: str, b: str) -> bool:
    """Compare two texts ignoring differences in white space."""
    return a.split() == b.split()


def anonymization_pairs(steps: Sequence[TrajectoryStep]) -> list[tuple[int, int]]:
    """Return D_anon's index pairs (i, j): i < j and s_j better than s_i."""
    return [
        (i, j)
        for i in range(len(steps))
        for j in range(i + 1, len(steps))
        if better(steps[j], steps[i]) and not same_text(steps[i].text, steps[j].text)
    ]


def preference_triples(
    steps: Sequence[TrajectoryStep],
) -> list[tuple[int, int, int]]:
    """Return D_pref's index triples (i, w, l): i < w, l and s_w better than s_l."""
    return [
        (i, w, l)
        for i in range(len(steps))
        for w in range(i + 1, len(steps))
        for l in range(i + 1, len(steps))  # noqa: E741 - the paper's name
        if better(steps[w], steps[l]) and not same_text(steps[w].text, steps[l].text)
    ]


# Prompts and answers --------------------------------------------------------


def render_inferences(inferences: Iterable[AttributeInference]) -> str:
    """List the guesses for the anonymizer, surest first."""
    guessed = sorted(leaks(inferences), key=lambda i: -i.certainty)
    if not guessed:
        return NO_INFERENCES
    return "\n".join(
        INFERENCE_LINE.format(
            attribute=i.attribute,
            certainty=i.certainty,
            guesses=", ".join(i.guesses),
            reasoning=" ".join(i.reasoning.split()),
        ).rstrip()
        for i in guessed
    )


def render_utility(utility: UtilityAnswer | None) -> str:
    """Summarize a utility judgement for the anonymizer."""
    if utility is None:
        return NO_UTILITY
    return UTILITY_LINES.format(
        readability=utility.readability.score,
        readability_why=" ".join(utility.readability.explanation.split()),
        meaning=utility.meaning.score,
        meaning_why=" ".join(utility.meaning.explanation.split()),
        hallucination="none" if utility.hallucination.score else "some",
        hallucination_why=" ".join(utility.hallucination.explanation.split()),
    )


def anonymize_request(
    template: str,
    text: str,
    inferences: Iterable[AttributeInference],
    utility: UtilityAnswer | None,
) -> str:
    """Fill the anonymize-with-feedback template."""
    return template.format(
        text=text,
        inferences=render_inferences(inferences),
        utility=render_utility(utility),
    )


def edit_plan(inferences: Iterable[AttributeInference]) -> str:
    """Write the one-sentence "changes" of a training answer from the guesses."""
    names = [i.attribute for i in leaks(inferences)]
    return EDIT_PLAN.format(attributes=", ".join(names) or "the author")


def step_attributes(step: TrajectoryStep) -> list[str]:
    """Return the attributes the inference model was asked about in ``step``."""
    return resolve_attributes([i.attribute for i in step.inferences])


def inference_answer(step: TrajectoryStep) -> str:
    """Render P_i as the attacker's answer JSON, checked against its schema."""
    attributes = step_attributes(step)
    by_name = {i.attribute: i for i in step.inferences}
    body = {
        name: {
            "reasoning": by_name[name].reasoning,
            "guesses": by_name[name].guesses,
            "certainty": by_name[name].certainty,
        }
        for name in attributes
    }
    attack_answer_model(attributes).model_validate(body)
    return _dumps(body)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# Rows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Templates:
    """The three task instructions; the defaults are what `seal` asks at run time."""

    infer: str = SEAL_INFER_PROMPT
    judge: str = SEAL_JUDGE_PROMPT
    anonymize: str = SEAL_ANONYMIZE_PROMPT


def _user(content: str) -> Message:
    # The model layer appends this hint to every structured request.
    return {"role": "user", "content": content + JSON_HINT}


def _assistant(content: str) -> Message:
    return {"role": "assistant", "content": content}


def _anonymize_user(step: TrajectoryStep, templates: Templates) -> Message:
    return _user(
        anonymize_request(templates.anonymize, step.text, step.inferences, step.utility)
    )


def _rewrite_answer(source: TrajectoryStep, target: TrajectoryStep) -> Message:
    answer = Rewrite(changes=edit_plan(source.inferences), text=target.text)
    return _assistant(_dumps(answer.model_dump()))


def anon_rows(
    steps: Sequence[TrajectoryStep], templates: Templates = Templates()
) -> list[dict[str, Any]]:
    """Build D_anon as SFT chat rows: x_i with its feedback -> x_j."""
    return [
        {
            "messages": [
                _anonymize_user(steps[i], templates),
                _rewrite_answer(steps[i], steps[j]),
            ]
        }
        for i, j in anonymization_pairs(steps)
    ]


def priv_rows(
    steps: Sequence[TrajectoryStep], templates: Templates = Templates()
) -> list[dict[str, Any]]:
    """Build D_priv as SFT chat rows: x_i -> P_i."""
    return [
        {
            "messages": [
                _user(
                    templates.infer.format(
                        text=step.text,
                        attributes=describe_attributes(step_attributes(step)),
                    )
                ),
                _assistant(inference_answer(step)),
            ]
        }
        for step in steps
        if step.inferences
    ]


def util_rows(
    steps: Sequence[TrajectoryStep], templates: Templates = Templates()
) -> list[dict[str, Any]]:
    """Build D_util as SFT chat rows: (x_0, x_i) -> U_i."""
    original = steps[0].text if steps else ""
    return [
        {
            "messages": [
                _user(templates.judge.format(original=original, text=step.text)),
                _assistant(_dumps(step.utility.model_dump())),
            ]
        }
        for step in steps
    ]


def pref_rows(
    steps: Sequence[TrajectoryStep], templates: Templates = Templates()
) -> list[dict[str, Any]]:
    """Build D_pref as conversational DPO rows: prompt, chosen, rejected."""
    return [
        {
            "prompt": [_anonymize_user(steps[i], templates)],
            "chosen": [_rewrite_answer(steps[i], steps[w])],
            "rejected": [_rewrite_answer(steps[i], steps[lose])],
        }
        for i, w, lose in preference_triples(steps)
    ]


@dataclass
class SealData:
    """The four data sets built from a set of trajectories."""

    anon: list[dict[str, Any]] = field(default_factory=list)
    priv: list[dict[str, Any]] = field(default_factory=list)
    util: list[dict[str, Any]] = field(default_factory=list)
    pref: list[dict[str, Any]] = field(default_factory=list)
    trajectories: int = 0

    def counts(self) -> dict[str, int]:
        """Return the number of rows of each data set."""
        return {name: len(getattr(self, name)) for name in FILES}


def build_data(
    trajectories: Iterable[Sequence[TrajectoryStep]],
    templates: Templates = Templates(),
) -> SealData:
    """Build D_anon, D_priv, D_util and D_pref from every trajectory."""
    data = SealData()
    for steps in trajectories:
        data.trajectories += 1
        data.anon += anon_rows(steps, templates)
        data.priv += priv_rows(steps, templates)
        data.util += util_rows(steps, templates)
        data.pref += pref_rows(steps, templates)
    return data


# Checks against TRL's dataset formats ---------------------------------------


def check_messages(messages: Any, roles: tuple[str, ...]) -> None:
    """Check a conversational column: a list of {role, content} turns.

    Raises:
        ValueError: naming what does not fit.

    """
    if not isinstance(messages, list) or not messages:
        raise ValueError("a conversation must be a non-empty list of turns")
    for turn in messages:
        if not isinstance(turn, dict) or set(turn) != {"role", "content"}:
            raise ValueError(f"a turn must hold exactly role and content: {turn!r}")
        if turn["role"] not in roles or not isinstance(turn["content"], str):
            raise ValueError(f"unexpected turn {turn['role']!r}; allowed: {roles}")


def check_row(name: str, row: Any) -> None:
    """Check one row of ``name``'s file against TRL's SFT or DPO columns.

    Raises:
        ValueError: naming the column that does not fit.

    """
    if not isinstance(row, dict):
        raise ValueError("a row must be a JSON object")
    if name == "pref":
        if set(row) != {"prompt", "chosen", "rejected"}:
            raise ValueError(f"a DPO row has prompt, chosen, rejected; got {set(row)}")
        check_messages(row["prompt"], ("system", "user", "assistant"))
        check_messages(row["chosen"], ("assistant",))
        check_messages(row["rejected"], ("assistant",))
        return
    if set(row) != {"messages"}:
        raise ValueError(f"an SFT row has only messages; got {set(row)}")
    check_messages(row["messages"], ("system", "user", "assistant"))
    if row["messages"][-1]["role"] != "assistant":
        raise ValueError("an SFT conversation must end with the assistant's answer")


# Files and the store ---------------------------------------------------------


def write_data(data: SealData, out_dir: str | Path) -> dict[str, Path]:
    """Write the four JSONL files and summary.json (all 0600) into ``out_dir``."""
    folder = Path(out_dir)
    paths: dict[str, Path] = {}
    for name, filename in FILES.items():
        path = store.secure_file(folder / filename)
        with open(path, "w", encoding="utf-8") as handle:
            for row in getattr(data, name):
                check_row(name, row)
                handle.write(_dumps(row) + "\n")
        paths[name] = path
    summary = store.secure_file(folder / "summary.json")
    summary.write_text(
        json.dumps({"trajectories": data.trajectories, **data.counts()}, indent=2)
    )
    return paths


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Read a JSONL file into a list of rows."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


class NoTrajectoriesError(ValueError):
    """Raised when a run in the store holds no SEAL trajectories."""


def load_trajectories(db_path: str | Path, run_id: str) -> list[list[TrajectoryStep]]:
    """Read the trajectories of a run's finished records from the store.

    Raises:
        NoTrajectoriesError: when the run is unknown or none of its records
            carries a trajectory.

    """
    if not Path(db_path).is_file():
        raise NoTrajectoriesError(f"no run store at {db_path}")
    runs = store.RunStore(db_path)
    run = runs.get_run(run_id)
    if run is None:
        raise NoTrajectoriesError(f"no run {run_id!r} in {db_path}")
    trajectories = []
    for row in runs.records(run_id, status="done"):
        steps = json.loads(row["result"] or "{}").get("trajectory") or []
        if steps:
            trajectories.append([TrajectoryStep.model_validate(s) for s in steps])
    if not trajectories:
        raise NoTrajectoriesError(
            f"run {run_id!r} (method {run['method']}) holds no finished record with "
            "a trajectory; make one with `anonygraph run --method seal_trajectory`"
        )
    return trajectories


def seal_data_command(args: argparse.Namespace) -> int:
    """Run ``anonygraph seal data``: store trajectories -> JSONL for TRL."""
    try:
        trajectories = load_trajectories(args.db, args.run)
    except NoTrajectoriesError as exc:
        print(f"anonygraph seal data: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    data = build_data(trajectories)
    paths = write_data(data, args.out)
    counts = data.counts()
    lines = [f"{data.trajectories} trajectories from run {args.run}"]
    lines += [f"  {name}: {counts[name]} rows -> {paths[name]}" for name in FILES]
    print("\n".join(lines), file=sys.stderr)  # noqa: T201
    return 0
