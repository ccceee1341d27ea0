"""DP-Embed's product PII scan: the identifier detector as placeholder spans."""

from __future__ import annotations

import pytest

from anonygraph.identifiers import KINDS
from anonygraph.tools.dp_embed.pii import (
    CATEGORIES,
    list_rules,
    parse_categories,
    redact,
    scan,
)

TEXT = "Contact Jane Doe at jane.doe@gmail.com or call 415-555-0188."


def found(text: str) -> list[tuple[str, str]]:
    return [(s.category, s.text) for s in scan(text)]


def test_when_text_is_scanned_then_categories_are_the_identifier_kinds() -> None:
    assert CATEGORIES == KINDS
    assert found(TEXT) == [
        ("PERSON", "Jane Doe"),
        ("EMAIL", "jane.doe@gmail.com"),
        ("PHONE", "415-555-0188"),
    ]


def test_when_text_is_redacted_then_every_span_becomes_its_numbered_placeholder() -> (
    None
):
    assert (
        redact(TEXT, scan(TEXT)) == "Contact [PERSON_1] at [EMAIL_1] or call [PHONE_1]."
    )


def test_when_a_value_repeats_then_it_keeps_one_placeholder() -> None:
    text = "Call 415-555-0188, I repeat, 415-555-0188, or 212-555-0147."
    assert [s.placeholder for s in scan(text)] == [
        "[PHONE_1]",
        "[PHONE_1]",
        "[PHONE_2]",
    ]


def test_when_category_is_whitelisted_then_it_stays_in_text() -> None:
    spans = scan(TEXT, keep=["email"])
    assert [s.category for s in spans] == ["PERSON", "PHONE"]
    assert (
        redact(TEXT, spans)
        == "Contact [PERSON_1] at jane.doe@gmail.com or call [PHONE_1]."
    )


def test_when_a_whitelisted_span_overlaps_another_kind_then_it_stays() -> None:
    assert scan("card 4526 0181 5908 3012", keep=["CARD"]) == []


def test_when_whitelist_names_unknown_category_then_error_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="EMAIL"):
        parse_categories(["emails"])


def test_when_whitelist_uses_placeholder_spelling_then_it_is_accepted() -> None:
    assert parse_categories(["[EMAIL]", "national-id"]) == {"EMAIL", "NATIONAL_ID"}


def test_when_spans_are_returned_then_offsets_index_the_text() -> None:
    text = (
        "Mr. Bob Stone, 10 Main St, bob.stone@gmail.com, 73.162.44.201, DOB 12/03/1990."
    )
    spans = scan(text)
    assert {s.category for s in spans} >= {
        "PERSON",
        "ADDRESS",
        "EMAIL",
        "IP_ADDRESS",
        "DATE_OF_BIRTH",
    }
    for span in spans:
        assert text[span.start : span.end] == span.text
        assert span.placeholder.startswith(f"[{span.category}_")


def test_when_redacted_text_is_scanned_again_then_only_placeholders_are_found() -> None:
    redacted = redact(TEXT, scan(TEXT))
    again = scan(redacted)
    # Its placeholders are spans that stay as they are (DP-Embed keeps them
    # out of the noised rewrite); nothing else is an identifier.
    assert again and all(s.text == s.placeholder for s in again)
    assert redact(redacted, again) == redacted


def test_when_rules_are_listed_then_each_kind_has_a_recognizer() -> None:
    rows = list_rules()
    assert {row["category"] for row in rows} == set(CATEGORIES)
    assert all(row["description"] and row["placeholder"] for row in rows)


def test_when_text_is_long_then_the_patterns_stay_fast() -> None:
    import time

    from anonygraph.cues.engine import default_engine

    text = ("word " * 200 + "4" * 500 + " 1.2.3 " * 100 + "A" * 300) * 3
    default_engine()(text)  # the parse is cached; time the recognizers only
    start = time.perf_counter()
    scan(text)
    assert time.perf_counter() - start < 2.0
