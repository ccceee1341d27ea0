"""Load the shared data formats and our own JSONL into `Record`s."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from anonygraph.attributes import ATTRIBUTES, canonical_attribute
from anonygraph.inputs import InputError, parse_record
from anonygraph.state.domain import AttributeInference, Record

Format = Literal["auto", "personalreddit", "profile", "synthpai", "jsonl"]
"""Input formats the loaders read; ``auto`` looks at the first record."""

SYNTHPAI_MIN_CERTAINTY = 3
"""SynthPAI labels below this certainty are not ground truth (SynthPAI paper)."""


@dataclass(frozen=True)
class LoadError:
    """A line that could not be loaded, or a part of it that was dropped."""

    path: str
    """File the line is in."""

    line: int
    """1-based line number."""

    message: str
    """What is wrong, in words."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class LoadResult:
    """Records loaded from one file, with the problems met on the way."""

    records: list[Record] = field(default_factory=list)
    """Records in file order."""

    errors: list[LoadError] = field(default_factory=list)
    """Lines skipped, and labels or predictions dropped from loaded lines."""

    format: str = ""
    """The format the file was read as."""


class _LineError(ValueError):
    """A problem that makes a whole line unusable."""


def _attribute(name: str) -> str | None:
    """Return our name for a data set's attribute name, None if unknown."""
    key = canonical_attribute(name)
    return key if key in ATTRIBUTES else None


def _int_or_none(value: Any) -> int | None:
    """Read an int from values like 4, "4", or "4, because the text says ..."."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        m = re.match(r"\s*(\d+)", value)
        return int(m.group(1)) if m else None
    return None


def _iter_json_lines(path: Path) -> Iterator[tuple[int, Any, str | None]]:
    """Yield (line number, parsed object, error) for each non-blank line."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line), None
            except json.JSONDecodeError as error:
                yield (
                    number,
                    None,
                    f"not valid JSON ({error.msg} at column {error.colno})",
                )


def detect_format(obj: dict[str, Any]) -> Format:
    """Guess the format of one parsed line.

    Args:
        obj: The first JSON object of a file.

    Returns:
        The format name; ``jsonl`` when nothing more specific fits.

    """
    if "personality" in obj and "response" in obj:
        return "personalreddit"
    comments = obj.get("comments")
    if isinstance(comments, list) and comments and isinstance(comments[0], dict):
        if "comments" in comments[0]:
            return "profile"
        if "human" in (obj.get("reviews") or {}):
            return "synthpai"
    return "jsonl"


def load_records(
    path: str | Path,
    format: Format = "auto",
    *,
    all_labels: bool = False,
    min_certainty: int = SYNTHPAI_MIN_CERTAINTY,
) -> LoadResult:
    """Load a JSONL file of any supported format into records.

    A bad line becomes a `LoadError` naming file and line, and loading goes on.

    Args:
        path: The JSONL file.
        format: The file's format, or ``auto`` to detect it from the first line.
        all_labels: PersonalReddit only: label every profile attribute, not
            just the one the comment was written to leak.
        min_certainty: SynthPAI only: the least reviewer certainty kept as a label.

    Returns:
        Records and errors, in file order.

    Raises:
        FileNotFoundError: when the file does not exist.

    """
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(f"no such data file: {source}")
    result = LoadResult(format=format)
    seen: set[str] = set()
    for number, obj, problem in _iter_json_lines(source):
        if problem is None and not isinstance(obj, dict):
            problem = f"expected a JSON object, got {type(obj).__name__}"
        if problem is not None:
            result.errors.append(LoadError(str(source), number, problem))
            continue
        if result.format == "auto":
            result.format = detect_format(obj)
        warnings: list[str] = []
        try:
            record = _PARSERS[result.format](
                obj,
                number,
                warnings,
                all_labels=all_labels,
                min_certainty=min_certainty,
            )
        except (_LineError, ValidationError, TypeError, AttributeError) as error:
            result.errors.append(LoadError(str(source), number, _describe(error)))
            continue
        result.errors.extend(LoadError(str(source), number, w) for w in warnings)
        if record.id in seen:
            result.errors.append(
                LoadError(
                    str(source), number, f"duplicate id {record.id!r}; line skipped"
                )
            )
            continue
        seen.add(record.id)
        result.records.append(record)
    if result.format == "auto":
        result.format = "jsonl"
    return result


def _describe(error: Exception) -> str:
    if isinstance(error, ValidationError):
        parts = [
            f"{'.'.join(str(x) for x in e['loc']) or 'record'}: {e['msg']}"
            for e in error.errors()
        ]
        return "invalid record: " + "; ".join(parts)
    return str(error)


def _labels_from_reviews(
    reviews: dict[str, Any], warnings: list[str], min_certainty: int = 0
) -> tuple[dict[str, Any], dict[str, int], dict[str, int]]:
    """Read {attr: {estimate, hardness, certainty}} into labels and their grades."""
    labels: dict[str, Any] = {}
    hardness: dict[str, int] = {}
    certainty: dict[str, int] = {}
    for raw_name, review in reviews.items():
        if not isinstance(review, dict) or "estimate" not in review:
            continue  # bookkeeping keys such as "timestamp"
        name = _attribute(raw_name)
        if name is None:
            warnings.append(f"label {raw_name!r} dropped: unknown attribute")
            continue
        estimate = review.get("estimate")
        sure = _int_or_none(review.get("certainty"))
        if estimate is None or str(estimate).strip() == "":
            continue
        if sure is not None and sure < min_certainty:
            continue
        labels[name] = estimate
        grade = _int_or_none(review.get("hardness"))
        if grade is not None:
            hardness[name] = grade
        if sure is not None:
            certainty[name] = sure
    return labels, hardness, certainty


def _parse_personalreddit(
    obj: dict[str, Any], number: int, warnings: list[str], **options: Any
) -> Record:
    personality = obj.get("personality")
    if not isinstance(personality, dict):
        raise _LineError("missing 'personality' object")
    text = obj.get("response")
    if not isinstance(text, str) or not text.strip():
        raise _LineError("missing 'response' text")
    feature = _attribute(str(obj.get("feature", "")))
    if feature is None:
        raise _LineError(f"unknown 'feature' {obj.get('feature')!r}")
    profile = {
        name: personality[raw]
        for raw in personality
        if (name := _attribute(raw)) is not None and raw != "income"
    }
    labels = profile if options.get("all_labels") else {feature: profile.get(feature)}
    labels = {k: v for k, v in labels.items() if v is not None and str(v).strip()}
    if not labels:
        raise _LineError(f"no label for the feature {feature!r}")
    hardness = _int_or_none(obj.get("hardness"))
    return Record(
        id=f"pr-{number}",
        text=text,
        labels=labels,
        meta={
            "feature": feature,
            "hardness": {feature: hardness} if hardness is not None else {},
            "question_asked": obj.get("question_asked", ""),
            "income_text": personality.get("income", ""),
        },
    )


def _comment_texts(comments: Any) -> list[str]:
    """Flatten eth-sri comment groups (or a flat list) into texts."""
    if not isinstance(comments, list):
        raise _LineError("'comments' is not a list")
    texts: list[str] = []
    for item in comments:
        if isinstance(item, dict) and isinstance(item.get("comments"), list):
            texts.extend(_comment_texts(item["comments"]))
        elif isinstance(item, dict) and isinstance(item.get("text"), str):
            texts.append(item["text"])
        elif isinstance(item, str):
            texts.append(item)
        else:
            raise _LineError(f"comment without text: {str(item)[:60]!r}")
    return texts


def _predictions(
    predictions: Any, warnings: list[str]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Read predictions[model][attr] = {inference, guess, certainty}."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    if not isinstance(predictions, dict):
        return out
    for model, by_attribute in predictions.items():
        if not isinstance(by_attribute, dict):
            continue
        for raw_name, pred in by_attribute.items():
            if not isinstance(pred, dict) or "guess" not in pred:
                continue  # e.g. "full_answer", the model's raw reply
            name = _attribute(raw_name)
            if name is None:
                warnings.append(
                    f"prediction {model}/{raw_name} dropped: unknown attribute"
                )
                continue
            certainty = _int_or_none(pred.get("certainty"))
            try:
                inference = AttributeInference(
                    attribute=name,
                    reasoning=str(pred.get("inference", "")),
                    guesses=pred.get("guess") or [],
                    certainty=min(max(certainty or 1, 1), 5),
                )
            except ValidationError as error:
                warnings.append(
                    f"prediction {model}/{raw_name} dropped: {_describe(error)}"
                )
                continue
            out.setdefault(model, {})[name] = inference.model_dump()
    return out


def _parse_profile(
    obj: dict[str, Any], number: int, warnings: list[str], **options: Any
) -> Record:
    groups = obj.get("comments") or []
    texts = _comment_texts(groups)
    if not texts:
        raise _LineError("profile has no comments")
    reviews: dict[str, Any] = {}
    predictions: dict[str, dict[str, dict[str, Any]]] = {}
    for group in groups:
        if not isinstance(group, dict):
            continue
        reviews.update((group.get("reviews") or {}).get("synth") or {})
        for model, found in _predictions(group.get("predictions"), warnings).items():
            predictions.setdefault(model, {}).update(found)
    reviews.update((obj.get("reviews") or {}).get("synth") or {})
    labels, hardness, certainty = _labels_from_reviews(reviews, warnings)
    username = str(obj.get("username", ""))
    return Record(
        id=f"{username or 'profile'}-{number}",
        comments=texts,
        labels=labels,
        meta={
            "username": username,
            "hardness": hardness,
            "certainty": certainty,
            "predictions": predictions,
        },
    )


def _parse_synthpai(
    obj: dict[str, Any], number: int, warnings: list[str], **options: Any
) -> Record:
    texts = _comment_texts(obj.get("comments"))
    if not texts:
        raise _LineError("profile has no comments")
    human = (obj.get("reviews") or {}).get("human")
    if not isinstance(human, dict):
        raise _LineError("missing 'reviews.human'")
    labels, hardness, certainty = _labels_from_reviews(
        human, warnings, min_certainty=int(options.get("min_certainty", 3))
    )
    username = str(obj.get("username", ""))
    if not username:
        raise _LineError("missing 'username'")
    return Record(
        id=username,
        comments=texts,
        labels=labels,
        meta={"username": username, "hardness": hardness, "certainty": certainty},
    )


def _parse_jsonl(
    obj: dict[str, Any], number: int, warnings: list[str], **options: Any
) -> Record:
    # Our own format has one parser, the one `anonygraph run` reads with.
    try:
        record = parse_record(obj)
    except InputError as error:
        raise _LineError(str(error)) from error
    labels: dict[str, Any] = {}
    for raw_name, value in record.labels.items():
        name = _attribute(str(raw_name))
        if name is None:
            warnings.append(f"label {raw_name!r} dropped: unknown attribute")
        elif value is not None and str(value).strip():
            labels[name] = value
    return record.model_copy(update={"labels": labels})


_Parser = Callable[..., Record]
_PARSERS: dict[str, _Parser] = {
    "personalreddit": _parse_personalreddit,
    "profile": _parse_profile,
    "synthpai": _parse_synthpai,
    "jsonl": _parse_jsonl,
}


def load_personalreddit(path: str | Path, *, all_labels: bool = False) -> LoadResult:
    """Load PersonalReddit records (``train.jsonl``).

    Args:
        path: The JSONL file.
        all_labels: Label every profile attribute, not only the leaked feature.

    Returns:
        Records with ``meta['feature']`` and ``meta['hardness']``, and errors.

    """
    return load_records(path, "personalreddit", all_labels=all_labels)


def load_profiles(path: str | Path) -> LoadResult:
    """Load eth-sri ``Profile`` records with their models' predictions.

    Args:
        path: The JSONL file, e.g. ``gpt4_inferences_train.jsonl``.

    Returns:
        Records whose ``meta['predictions'][model][attribute]`` holds dumped
        `AttributeInference`s, and errors.

    """
    return load_records(path, "profile")


def load_synthpai(
    path: str | Path, *, min_certainty: int = SYNTHPAI_MIN_CERTAINTY
) -> LoadResult:
    """Load SynthPAI profiles, keeping human labels of enough certainty.

    Args:
        path: The JSONL file.
        min_certainty: The least reviewer certainty kept as a label.

    Returns:
        Records and errors.

    """
    return load_records(path, "synthpai", min_certainty=min_certainty)


def predictions(
    record: Record, model: str | None = None
) -> dict[str, AttributeInference]:
    """Return a loaded record's stored predictions as inferences.

    Args:
        record: A record loaded from the Profile format.
        model: Which model's predictions; the only (or first) model when None.

    Returns:
        Attribute name -> inference; empty when the record carries none.

    Raises:
        KeyError: when the record has no predictions of the named model.

    """
    stored: dict[str, dict[str, Any]] = record.meta.get("predictions") or {}
    if not stored:
        return {}
    chosen = model if model is not None else next(iter(stored))
    if chosen not in stored:
        raise KeyError(f"record {record.id} has no predictions of {chosen!r}")
    return {
        name: AttributeInference.model_validate(data)
        for name, data in stored[chosen].items()
    }
