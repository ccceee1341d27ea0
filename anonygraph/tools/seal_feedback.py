"""What SEAL's anonymizer is shown: its guesses and utility scores as prompt text.

The SEAL graph asks with these at run time and the distillation data in
`anonygraph.training` is written with them, so both phrase feedback the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from anonygraph.prompts.seal import (
    INFERENCE_LINE,
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
