"""The rewrite shared by the middleware and the gateway: checks before sending."""

from __future__ import annotations

from typing import Any

import pytest

from anonygraph.integrations.rewrite import RewriteBlocked, Rewriter


class FixedGraph:
    """A method graph that answers one result, whatever the text."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result

    async def ainvoke(
        self, payload: dict[str, Any], context: Any = None
    ) -> dict[str, Any]:
        return self.result


@pytest.mark.parametrize(
    ("result", "reason"),
    [
        (
            {"anonymized": "I live in Calgary.", "leaks": ["city_country"]},
            "explicit cues left: city_country",
        ),
        ({"status": "failed"}, "the method rlaa returned no text"),
    ],
    ids=["cues left", "no text"],
)
def test_when_a_method_result_fails_a_check_then_it_is_blocked_or_identifiers_only(
    result: dict[str, Any], reason: str
) -> None:
    blocking = Rewriter()
    blocking._graph = FixedGraph(result)
    with pytest.raises(RewriteBlocked) as blocked:
        blocking.rewrite("I'm Anna Schmidt, in Calgary.", blocking.new_book())
    assert blocked.value.reason == reason

    lenient = Rewriter(on_failure="identifiers_only")
    lenient._graph = FixedGraph(result)
    rewrite = lenient.rewrite("I'm Anna Schmidt, in Calgary.", lenient.new_book())
    assert (rewrite.text, rewrite.fallback) == ("I'm [PERSON_1], in Calgary.", reason)


def test_when_the_method_writes_an_identifier_then_it_is_replaced_before_sending() -> (
    None
):
    rewriter = Rewriter()
    rewriter._graph = FixedGraph(
        {"anonymized": "I'm [PERSON_1]; mail z.q@example.net."}
    )
    book = rewriter.new_book()
    rewrite = rewriter.rewrite("I'm Anna Schmidt, in Calgary.", book)
    assert rewrite.text == "I'm [PERSON_1]; mail [EMAIL_1]."
    assert rewrite.identifiers == {"PERSON": 1, "EMAIL": 1}


def test_when_the_output_holds_only_the_books_own_placeholders_then_it_passes() -> None:
    rewriter = Rewriter()
    rewriter._graph = FixedGraph(
        {"anonymized": "I'm [PERSON_1], in Canada.", "outcome": "scrubbed"}
    )
    rewrite = rewriter.rewrite("I'm Anna Schmidt, in Calgary.", rewriter.new_book())
    assert (rewrite.text, rewrite.outcome, rewrite.identifiers) == (
        "I'm [PERSON_1], in Canada.",
        "scrubbed",
        {"PERSON": 1},
    )


def test_when_no_method_is_named_then_only_identifiers_are_replaced() -> None:
    rewriter = Rewriter(method=None)
    book = rewriter.new_book()
    first = rewriter.rewrite("Mail anna.schmidt@example.org, I'm in Calgary.", book)
    second = rewriter.rewrite("Again: anna.schmidt@example.org.", book)
    assert first.text == "Mail [EMAIL_1], I'm in Calgary."
    assert second.text == "Again: [EMAIL_1]."
    assert book.restore(second.text) == "Again: anna.schmidt@example.org."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"on_failure": "send"}, "unknown on_failure 'send'"),
        ({"identifier_mode": "keep"}, "would send identifiers as they are"),
        ({"method": "nope"}, "unknown method 'nope'"),
    ],
)
def test_when_an_option_is_wrong_then_the_rewriter_says_which(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Rewriter(**options)


@pytest.mark.parametrize(
    "text",
    [
        "Please send a note to my landlord at [EMAIL_2] about the heating.",
        "[PERSON_1] and [ORGANIZATION_3] met at [ADDRESS_1].",
    ],
)
def test_when_a_text_holds_placeholders_then_no_cue_is_found_inside_them(
    text: str,
) -> None:
    # A generalizer rewriting "[EMAIL_2]" to "a company" leaves nothing to restore.
    from anonygraph.cues import detect_cues

    assert detect_cues(text) == []
