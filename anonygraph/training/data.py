"""SEAL distillation data: trajectories from the store -> four TRL chat data sets.

Four data sets come out of the trajectories (SEAL, section 4):
D_anon (x_i -> x_j, j > i, s_j better on privacy and no worse on utility),
D_priv (x_i -> P_i), D_util ((x_0, x_i) -> U_i) for supervised fine-tuning,
and D_pref (x_i; x_w preferred to x_l, w, l > i) for DPO. Which states pair
up is decided in `anonygraph.training.scores`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonygraph.attributes import resolve_attributes
from anonygraph.model_requests.inference import attack_request
from anonygraph.prompts.common import JSON_HINT
from anonygraph.prompts.seal import (
    EDIT_PLAN,
    SEAL_ANONYMIZE_PROMPT,
    SEAL_INFER_PROMPT,
    SEAL_JUDGE_PROMPT,
)
from anonygraph.runs import sql
from anonygraph.runs.files import secure_file
from anonygraph.runs.store import RunStore
from anonygraph.state.answers import Rewrite, attack_answer_model
from anonygraph.state.domain import AttributeInference
from anonygraph.state.seal import TrajectoryStep
from anonygraph.tools.seal.feedback import anonymize_request, judge_request, leaks
from anonygraph.training.scores import anonymization_pairs, preference_triples
from anonygraph.training.trl_format import check_row, dumps

Message = dict[str, str]

FILES: dict[str, str] = {
    "anon": "sft_anon.jsonl",
    "priv": "sft_priv.jsonl",
    "util": "sft_util.jsonl",
    "pref": "dpo_pref.jsonl",
}
"""Data set -> file name in the output folder."""


# Answers ---------------------------------------------------------------------


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
    return dumps(body)


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
    return _assistant(dumps(answer.model_dump()))


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
                    attack_request(
                        templates.infer, step.text, step_attributes(step), {}
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
                _user(judge_request(templates.judge, original, step.text)),
                _assistant(dumps(step.utility.model_dump())),
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


# Files and the store ---------------------------------------------------------


def write_data(data: SealData, out_dir: str | Path) -> dict[str, Path]:
    """Write the four JSONL files and summary.json (all 0600) into ``out_dir``."""
    folder = Path(out_dir)
    paths: dict[str, Path] = {}
    for name, filename in FILES.items():
        path = secure_file(folder / filename)
        with open(path, "w", encoding="utf-8") as handle:
            for row in getattr(data, name):
                check_row(name, row)
                handle.write(dumps(row) + "\n")
        paths[name] = path
    summary = secure_file(folder / "summary.json")
    summary.write_text(
        json.dumps({"trajectories": data.trajectories, **data.counts()}, indent=2)
    )
    return paths


class NoTrajectoriesError(ValueError):
    """Raised when a run in the store holds no SEAL trajectories."""


def load_trajectories(db_path: str | Path, run_id: str) -> list[list[TrajectoryStep]]:
    """Read the trajectories of a run's finished records from the store.

    Raises:
        NoTrajectoriesError: when the run is unknown or none of its records
            carries a trajectory.

    """
    if not sql.is_postgres(db_path) and not Path(db_path).is_file():
        raise NoTrajectoriesError(f"no run store at {db_path}")
    runs = RunStore(db_path)
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
