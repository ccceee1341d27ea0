"""What SEAL's anonymizer is shown: its guesses and utility scores as prompt text.

The SEAL graph asks with these at run time and the distillation data in
`anonygraph.training` is written with them, so both phrase feedback the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from anonygraph.prompts.common import fence, fill, one_line
from anonygraph.prompts.seal import (
    INFERENCE_LINE,
    NO_FEEDBACK,
    NO_INFERENCES,
    NO_UTILITY,
    UTILITY_LINES,
)
from anonygraph.state.answers import UtilityAnswer
from anonygraph.state.domain import AttributeInference


def leaks(inferences: Iterable[AttributeInference]) -> list[AttributeInference]:
    """Return the inferences that commit to a guess: the attributes in P_i."""
    return [i for i in inferences if i.is_leak]


def render_inferences(inferences: Iterable[AttributeInference]) -> str:
    """List the guesses for the anonymizer, surest first."""
    guessed = sorted(leaks(inferences), key=lambda i: -i.certainty)
    if not guessed:
        return NO_INFERENCES
    return "\n".join(
        INFERENCE_LINE.format(
            attribute=i.attribute,
            certainty=i.certainty,
            guesses=one_line(", ".join(i.guesses)),
            reasoning=one_line(i.reasoning),
        ).rstrip()
        for i in guessed
    )


def render_utility(utility: UtilityAnswer | None) -> str:
    """Summarize a utility judgement for the anonymizer."""
    if utility is None:
        return NO_UTILITY
    return UTILITY_LINES.format(
        readability=utility.readability.score,
        readability_why=one_line(utility.readability.explanation),
        meaning=utility.meaning.score,
        meaning_why=one_line(utility.meaning.explanation),
        hallucination="none" if utility.hallucination.score else "some",
        hallucination_why=one_line(utility.hallucination.explanation),
    )


def anonymize_request(
    template: str,
    text: str,
    inferences: Iterable[AttributeInference],
    utility: UtilityAnswer | None,
    *,
    paper: bool = False,
    feedback: bool = True,
) -> str:
    """Fill the anonymize-with-feedback template.

    ``paper``: the inferences as SEAL D.1 lists them (Type, Inference, Guess
    per inferred attribute) instead of our lines. ``feedback=False``: no
    guesses shown (training data for SEAL Table 3 without "Adv. Feed.").
    """
    from anonygraph.prompts.adversary import render_inference_blocks

    found = list(inferences)
    listed = (
        render_inference_blocks(leaks(found)) if paper else render_inferences(found)
    )
    if not feedback:
        listed = NO_FEEDBACK
    return fill(
        template,
        text=fence("text", text),
        inferences=fence("inferences", listed),
        utility=fence("utility", render_utility(utility)),
    )


def judge_request(template: str, original: str, text: str) -> str:
    """Fill the judge template: the original (``source``) and the edit (``edited``)."""
    return fill(
        template, original=fence("source", original), text=fence("edited", text)
    )
