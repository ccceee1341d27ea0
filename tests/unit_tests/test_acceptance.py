"""Acceptance checks on invented rewrites, each direction."""

from __future__ import annotations

import pytest

from anonygraph.tools.acceptance import (
    AcceptanceThresholds,
    acceptance_problems,
    check_kept_parts,
    check_new_specifics,
    check_similarity,
    check_task_talk,
    task_vocabulary,
)

ORIGINAL = (
    "Moved to Calgary for the oil job three winters ago. I still can't get used "
    "to minus 30. My dog loves the snow though. At least the pay is good."
)
GENERALIZED = (
    "Moved to Canada for the oil job three winters ago. I still can't get used "
    "to minus 30. My dog loves the snow though. At least the pay is good."
)


def words_overlap(a: str, b: str) -> float:
    left, right = set(a.lower().split()), set(b.lower().split())
    return len(left & right) / max(len(left | right), 1)


def test_when_the_rewrite_means_the_same_then_similarity_passes() -> None:
    assert check_similarity(ORIGINAL, GENERALIZED, 0.5, words_overlap) is None


def test_when_the_rewrite_is_about_something_else_then_similarity_rejects() -> None:
    reason = check_similarity(
        ORIGINAL, "Quarterly taxes are due in April.", 0.5, words_overlap
    )
    assert reason is not None and "under the floor 0.50" in reason


@pytest.mark.parametrize(
    "rewrite",
    [
        "This is a new edit of the original text. I will provide a JSON object.",
        "Here is the edited text: Moved to Canada for the oil job.",
        "Your edit of the description has been successfully reviewed.",
        "Leaks to neutralize, most important first: city.",
    ],
)
def test_when_the_rewrite_talks_about_the_task_then_it_is_rejected(
    rewrite: str,
) -> None:
    reason = check_task_talk(ORIGINAL, rewrite)
    assert reason is not None and "talks about the task" in reason


def test_when_the_input_itself_has_the_phrase_then_task_talk_passes() -> None:
    original = "Here is my question: I will move to Canada, is the JSON API hard?"
    assert check_task_talk(original, original.replace("Canada", "abroad")) is None
    assert check_task_talk(ORIGINAL, GENERALIZED) is None


def test_when_the_vocabulary_is_built_then_it_comes_from_our_prompt_templates() -> None:
    vocabulary = task_vocabulary()
    assert "json" in vocabulary and "here is" in vocabulary
    assert len(vocabulary) > len({"json", "here is"}) + 50
    assert "i live in" not in vocabulary  # ordinary English is not task talk


def test_when_only_evidence_sentences_change_then_kept_parts_pass() -> None:
    assert check_kept_parts(ORIGINAL, GENERALIZED, ["Calgary"], 0.8) is None


def test_when_a_far_sentence_is_dropped_then_kept_parts_reject() -> None:
    rewrite = GENERALIZED.replace(" At least the pay is good.", "")
    reason = check_kept_parts(ORIGINAL, rewrite, ["Calgary"], 0.8)
    assert reason is not None and "At least the pay is good." in reason


def test_when_a_far_sentence_gets_a_small_edit_then_kept_parts_pass() -> None:
    rewrite = GENERALIZED.replace("At least the pay is good.", "At least pay is good.")
    assert check_kept_parts(ORIGINAL, rewrite, ["Calgary"], 0.8) is None


def test_when_evidence_is_not_in_the_text_then_kept_parts_do_not_guess() -> None:
    assert check_kept_parts(ORIGINAL, "Something else.", ["Toronto"], 0.8) is None


def test_when_a_place_is_generalized_then_no_new_specific_is_found() -> None:
    assert check_new_specifics(ORIGINAL, GENERALIZED) is None
    assert check_new_specifics("I'm 27 and tired.", "I'm in my late twenties.") is None


@pytest.mark.parametrize(
    ("rewrite", "word"),
    [
        (GENERALIZED.replace("Canada", "Toronto"), "Toronto"),
        (GENERALIZED.replace("Canada", "France"), "France"),
        (GENERALIZED.replace("three winters", "5 winters"), "5"),
        (GENERALIZED.replace("My dog", "My dog Rex"), "Rex"),
    ],
)
def test_when_the_rewrite_adds_a_specific_then_it_is_rejected(
    rewrite: str, word: str
) -> None:
    reason = check_new_specifics(ORIGINAL, rewrite)
    assert reason is not None and repr(word) in reason


def test_when_all_checks_pass_then_there_are_no_problems() -> None:
    thresholds = AcceptanceThresholds(min_similarity=0.5)
    assert (
        acceptance_problems(
            ORIGINAL,
            GENERALIZED,
            evidence=["Calgary"],
            thresholds=thresholds,
            similarity=words_overlap,
        )
        == []
    )
    problems = acceptance_problems(
        ORIGINAL,
        "Here is the edited text in JSON. I will provide the JSON object with the "
        "anonymized text below.",
        evidence=["Calgary"],
        thresholds=thresholds,
        similarity=words_overlap,
    )
    assert problems and "talks about the task" in problems[0]


WIDOWER = (
    "I'm a widower, 71, living alone in a bungalow in Adelaide. The grandkids "
    "visit on Sundays. I miss my wife's cooking."
)


@pytest.mark.parametrize(
    ("rewrite", "check"),
    [
        # The 135M model's answer the issue quotes: a loop and invented claims.
        (
            "I'm on my own, in my seventies. The grandkids visit on Sundays. The "
            "grandkids visit on Sundays. I miss my partner's cooking.",
            "repeats",
        ),
        (
            "I'm on my own, in my seventies, in Australia. I'm a high school "
            "senior. The grandkids visit on Sundays. I miss my partner's cooking.",
            "new_claims",
        ),
        (
            "I love long walks. The weather is nice today. Cats are great.",
            "lost_sentences",
        ),
    ],
)
def test_when_a_rewrite_loops_invents_or_drops_then_the_check_names_it(
    rewrite: str, check: str
) -> None:
    from anonygraph.tools.acceptance import rejections

    found = {r.check for r in rejections(WIDOWER, rewrite, evidence=["widower"])}
    assert check in found


def test_when_a_rewrite_only_generalizes_the_cues_then_the_new_checks_pass() -> None:
    from anonygraph.tools.acceptance import (
        check_lost_sentences,
        check_new_claims,
        check_repeats,
    )

    rewrite = (
        "I'm on my own, in my seventies, living alone in a bungalow in Australia. "
        "The grandkids visit on Sundays. I miss my partner's cooking."
    )
    assert check_repeats(WIDOWER, rewrite) is None
    assert check_new_claims(WIDOWER, rewrite) is None
    assert check_lost_sentences(WIDOWER, rewrite, ["widower"]) is None
