"""Evaluator steps: prepare, attack (after searches), judge, facts, score, intents."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from langgraph.runtime import Runtime

from anonygraph import llm
from anonygraph.inputs import check_text
from anonygraph.model_requests.inference import infer_attributes
from anonygraph.prompts.common import fence, fill
from anonygraph.prompts.evaluate import FACTS_PROMPT, VALIDATE_PROMPT
from anonygraph.prompts.intentanony import PAPER_INTENT_PROMPT, PAPER_PAIR_LINE
from anonygraph.state.answers import (
    UtilityAnswer,
    ValidatorAnswer,
    facts_answer_model,
)
from anonygraph.state.domain import AttributeInference, UtilityScore
from anonygraph.state.evaluate import EvalContext
from anonygraph.state.evaluate_state import State
from anonygraph.state.paper_answers import (
    PaperIntentVector,
    PaperUtilityAnswer,
    PaperValidatorAnswer,
)
from anonygraph.tools.aura.scope import reidentified
from anonygraph.tools.intent_metrics import (
    INTENT_CODES,
    intent_overlap,
    stability_f1,
)
from anonygraph.tools.matching import (
    RULE_SETS,
    AttributeMatch,
    Validator,
    match_inference,
)
from anonygraph.tools.text_metrics import bleu, leaked_pii, length_ratio, rouge_l


def prepare_eval(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Set the text under attack; an empty original means it is the original."""
    check_text(state.text, runtime.context.max_chars)
    return {"current": state.text, "original": state.original or state.text}


async def profile_author(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Infer the author's attributes; after searches, also name their profile."""
    inferences, profile, calls = await infer_attributes(
        state.current, state.attributes, runtime.context, search_log=state.search_log
    )
    update: dict[str, Any] = {"inferences": inferences, "calls": calls}
    if state.search_log:
        update["identified_profile"] = profile
    return update


async def judge(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Judge ``state.current`` against ``state.original``."""
    prompt = fill(
        runtime.context.judge_prompt,
        original=fence("original", state.original),
        text=fence("rewrite", state.current),
    )
    # The papers' judge names its third part "hallucinations".
    schema: type[UtilityAnswer | PaperUtilityAnswer] = (
        PaperUtilityAnswer if runtime.context.paper else UtilityAnswer
    )
    answer, calls = await llm.ask_structured(
        "judge", prompt, schema, runtime.context, step="judge"
    )
    score = answer.to_score()
    return {"utility": {**score.model_dump(), "util": score.util}, "calls": calls}


FACT_LEVELS = ("profile", "codebook")
"""AURA's fact levels, in the order the fact checker reads them."""


async def recover_facts(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Ask which of the original's facts the text still gives (AURA's utility).

    Facts are numbered across both levels in one list; a fact the answer
    leaves out is recorded as an error and counted as neither recovered nor
    lost (None).
    """
    listed = [
        (level, fact) for level in FACT_LEVELS for fact in state.facts.get(level, [])
    ]
    numbered = "\n".join(f"{n}. {fact}" for n, (_, fact) in enumerate(listed, 1))
    prompt = fill(
        FACTS_PROMPT,
        text=fence("rewrite", state.current),
        facts=fence("facts", numbered),
    )
    answer, calls = await llm.ask_structured(
        "judge",
        prompt,
        facts_answer_model(len(listed)),
        runtime.context,
        step="recover_facts",
    )
    given = {c.fact: c.recovered for c in answer.facts if 1 <= c.fact <= len(listed)}
    recovered: dict[str, list[bool | None]] = {level: [] for level in FACT_LEVELS}
    for n, (level, _) in enumerate(listed, 1):
        recovered[level].append(given.get(n))
    missing = [n for n in range(1, len(listed) + 1) if n not in given]
    errors = [f"recover_facts: no answer for fact(s) {missing}"] if missing else []
    return {
        "facts_recovered": {k: v for k, v in recovered.items() if v},
        "calls": calls,
        "errors": errors,
    }


def grid_recovery(
    recovered: dict[str, list[bool | None]], units: list[list[int]]
) -> dict[str, int]:
    """Count AURA's grid units recovered: pairs whose two facts both were.

    No units given: every (profile, codebook) pair; a pair with an
    unanswered fact is left out.
    """
    profile = recovered.get("profile", [])
    codebook = recovered.get("codebook", [])
    pairs = units or [[i, j] for i in range(len(profile)) for j in range(len(codebook))]
    judged = [
        (profile[i], codebook[j])
        for i, j in pairs
        if i < len(profile) and j < len(codebook)
        if profile[i] is not None and codebook[j] is not None
    ]
    return {"recovered": sum(bool(a and b) for a, b in judged), "total": len(judged)}


def match_scores(match: AttributeMatch, less_precise: float) -> dict[str, float]:
    """Score a scored attribute top-1 and top-3: correct 1, less precise as given.

    SEAL (A.1) scores a less precise guess 0.5 for some attributes; RLAA and
    IntentAnony count correct guesses only (``less_precise`` 0).
    """
    values = [
        1.0
        if g.outcome == "correct"
        else less_precise
        if g.outcome == "less_precise"
        else 0.0
        for g in match.guesses
    ]
    return {"score": values[0] if values else 0.0, "score@3": max(values, default=0.0)}


def validator_for(context: EvalContext, calls: list[dict[str, Any]]) -> Validator:
    """Return the hook that asks the validator model about undecided guesses.

    ``match_inference`` calls it from a worker thread, so it runs its own
    event loop; the records of its calls are appended to ``calls``.
    """
    template = context.validate_prompt or VALIDATE_PROMPT
    paired = "{pairs}" in template

    def validate(attribute: str, truth: str, guess: str) -> str:
        if paired:
            # A paper's validator reads numbered pairs and answers a list.
            pair = PAPER_PAIR_LINE.format(number=1, truth=truth, guess=guess)
            prompt = fill(template, pairs=fence("pairs", pair))
            listed, made = asyncio.run(
                llm.ask_structured(
                    "validator", prompt, PaperValidatorAnswer, context, step="validate"
                )
            )
            calls.extend(made)
            return str(listed.verdicts[0])
        prompt = fill(
            template,
            attribute=attribute,
            truth=fence("truth", truth),
            guess=fence("guess", guess),
        )
        answer, made = asyncio.run(
            llm.ask_structured(
                "validator", prompt, ValidatorAnswer, context, step="validate"
            )
        )
        calls.extend(made)
        return answer.verdict

    return validate


def score_attribute(
    context: EvalContext,
    attribute: str,
    truth: Any,
    guesses: list[str] | None,
    validate: Validator,
    hardness: int | None = None,
) -> dict[str, Any]:
    """Match one attribute's guesses under the context's rules, with its scores.

    The protocol picks the rules (``matcher``), whether undecided guesses go
    to the validator, and what a less precise guess scores.
    """
    match = match_inference(
        attribute,
        truth,
        guesses,
        hardness=hardness,
        validator=validate if context.validator else None,
        rules=RULE_SETS[context.matcher],
    )
    scored = match.model_dump()
    if not match.skipped:
        scored.update(match_scores(match, context.scores_less_precise(attribute)))
    return scored


async def score(state: State, runtime: Runtime[EvalContext]) -> dict[str, Any]:
    """Judge every inference against its label and compute text metrics."""
    calls: list[dict[str, Any]] = []
    context = runtime.context
    validate = validator_for(context, calls)
    inferences = {
        i.attribute: i for i in map(AttributeInference.model_validate, state.inferences)
    }
    matches = []
    for attribute, truth in state.labels.items():
        inference = inferences.get(attribute)
        matches.append(
            await asyncio.to_thread(
                score_attribute,
                context,
                attribute,
                truth,
                inference.guesses if inference else None,
                validate,
                state.hardness.get(attribute),
            )
        )
    metrics: dict[str, Any] = {
        "rouge_l": rouge_l(state.original, state.text),
        "bleu": bleu(state.original, state.text),
        "length_ratio": length_ratio(state.original, state.text),
    }
    if state.identity:
        metrics["reidentified"] = reidentified(
            state.identified_profile, state.identity, state.search_log
        )
    if state.facts_recovered:
        metrics["facts"] = {
            level: {
                "recovered": sum(v is True for v in values),
                "total": sum(v is not None for v in values),
            }
            for level, values in state.facts_recovered.items()
        }
        metrics["grid"] = grid_recovery(state.facts_recovered, state.grid_units)
    if state.gold_pii:
        leaked = leaked_pii(state.text, state.gold_pii)
        metrics["gold_pii"] = {"leaked": len(leaked), "total": len(state.gold_pii)}
    if context.semantic:
        from anonygraph.tools.text_metrics import semantic_similarities

        # The papers average the raw cosine (DP-Embed 4.2): no clipping there.
        (metrics["semantic"],) = await asyncio.to_thread(
            partial(semantic_similarities, clip=not context.paper),
            [state.original],
            [state.text],
        )
    update: dict[str, Any] = {"matches": matches, "metrics": metrics, "calls": calls}
    if state.text == state.original and not state.utility:
        # A text identical to its original keeps all of it, judge or no judge.
        perfect = UtilityScore(readability=10, meaning=10, hallucination=1,
                               rationale="identical to the original")  # fmt: skip
        update["utility"] = {**perfect.model_dump(), "util": perfect.util}
    return update


async def compare_intents(
    state: State, runtime: Runtime[EvalContext]
) -> dict[str, Any]:
    """Weigh the intents of the original and the rewrite (IntentAnony D.1, 5.5)."""
    weights: dict[str, dict[str, float]] = {}
    calls: list[dict[str, Any]] = []
    for name, text in (("original", state.original), ("rewrite", state.text)):
        prompt = fill(PAPER_INTENT_PROMPT, text=fence("text", text))
        vector, made = await llm.ask_structured(
            "intent", prompt, PaperIntentVector, runtime.context, step="intents"
        )
        weights[name] = {code: getattr(vector, code) for code in INTENT_CODES}
        calls += made
    intents = {
        **weights,
        "overlap": intent_overlap(weights["original"], weights["rewrite"]),
        "stability_f1": stability_f1(weights["original"], weights["rewrite"]),
    }
    return {"metrics": {**state.metrics, "intents": intents}, "calls": calls}
