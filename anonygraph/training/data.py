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
from dataclasses import asdict, dataclass, field
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
from anonygraph.runs.files import secure_file
from anonygraph.runs.store import RunStore, sql
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
class DataOptions:
    """Which data SEAL's training gets: the switches of its Table 3 ablations.

    The defaults build the full method (SFT on A & C, adversarial feedback,
    confidence in p(s)); SFT alone is ``seal train --skip-dpo``.
    """

    critique: bool = True
    """"A & C": D_priv and D_util besides D_anon; False: "A only" (D_anon and
    D_pref, the critique files written empty)."""
    adversarial_feedback: bool = True
    """"Adv. Feed.": anonymization rows show the guesses of x_i."""
    confidence: bool = True
    """"Conf.": p(s) breaks a tie in |P| by the mean certainty."""
    keep_identical: bool = False
    """Keep pairs of texts that are the same up to white space (the paper:
    no such filter); the product drops and counts them."""


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


def _anonymize_user(
    step: TrajectoryStep, templates: Templates, options: DataOptions
) -> Message:
    return _user(
        anonymize_request(
            templates.anonymize,
            step.text,
            step.inferences,
            step.utility,
            feedback=options.adversarial_feedback,
        )
    )


def _rewrite_answer(source: TrajectoryStep, target: TrajectoryStep) -> Message:
    answer = Rewrite(changes=edit_plan(source.inferences), text=target.text)
    return _assistant(dumps(answer.model_dump()))


def anon_rows(
    steps: Sequence[TrajectoryStep],
    templates: Templates = Templates(),
    options: DataOptions = DataOptions(),
) -> list[dict[str, Any]]:
    """Build D_anon as SFT chat rows: x_i with its feedback -> x_j."""
    pairs = anonymization_pairs(
        steps, confidence=options.confidence, keep_identical=options.keep_identical
    )
    return [
        {
            "messages": [
                _anonymize_user(steps[i], templates, options),
                _rewrite_answer(steps[i], steps[j]),
            ]
        }
        for i, j in pairs
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
    steps: Sequence[TrajectoryStep],
    templates: Templates = Templates(),
    options: DataOptions = DataOptions(),
) -> list[dict[str, Any]]:
    """Build D_pref as conversational DPO rows: prompt, chosen, rejected."""
    triples = preference_triples(
        steps, confidence=options.confidence, keep_identical=options.keep_identical
    )
    return [
        {
            "prompt": [_anonymize_user(steps[i], templates, options)],
            "chosen": [_rewrite_answer(steps[i], steps[w])],
            "rejected": [_rewrite_answer(steps[i], steps[lose])],
        }
        for i, w, lose in triples
    ]


def identical_pairs(
    steps: Sequence[TrajectoryStep], options: DataOptions = DataOptions()
) -> dict[str, int]:
    """Count the D_anon pairs and D_pref triples dropped for identical texts."""
    if options.keep_identical:
        return {"anon": 0, "pref": 0}
    conf = options.confidence
    every_pair = anonymization_pairs(steps, confidence=conf, keep_identical=True)
    every_triple = preference_triples(steps, confidence=conf, keep_identical=True)
    return {
        "anon": len(every_pair) - len(anonymization_pairs(steps, confidence=conf)),
        "pref": len(every_triple) - len(preference_triples(steps, confidence=conf)),
    }


@dataclass
class SealData:
    """The four data sets built from a set of trajectories."""

    anon: list[dict[str, Any]] = field(default_factory=list)
    priv: list[dict[str, Any]] = field(default_factory=list)
    util: list[dict[str, Any]] = field(default_factory=list)
    pref: list[dict[str, Any]] = field(default_factory=list)
    trajectories: int = 0
    dropped_identical: dict[str, int] = field(
        default_factory=lambda: {"anon": 0, "pref": 0}
    )
    """D_anon pairs and D_pref triples left out for identical texts."""
    options: DataOptions = field(default_factory=DataOptions)

    def counts(self) -> dict[str, int]:
        """Return the number of rows of each data set."""
        return {name: len(getattr(self, name)) for name in FILES}


def build_data(
    trajectories: Iterable[Sequence[TrajectoryStep]],
    templates: Templates = Templates(),
    options: DataOptions = DataOptions(),
) -> SealData:
    """Build D_anon, D_priv, D_util and D_pref from every trajectory."""
    data = SealData(options=options)
    for steps in trajectories:
        data.trajectories += 1
        data.anon += anon_rows(steps, templates, options)
        if options.critique:
            data.priv += priv_rows(steps, templates)
            data.util += util_rows(steps, templates)
        data.pref += pref_rows(steps, templates, options)
        for name, count in identical_pairs(steps, options).items():
            data.dropped_identical[name] += count
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
        json.dumps(
            {
                "trajectories": data.trajectories,
                **data.counts(),
                "dropped_identical": data.dropped_identical,
                "options": asdict(data.options),
            },
            indent=2,
        )
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
