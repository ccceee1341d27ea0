"""Tests for the regex PII scanner."""

from __future__ import annotations

import pytest

from anonygraph.tools.dp_embed.pii import (
    CATEGORIES,
    PLACEHOLDERS,
    RULES,
    list_rules,
    parse_categories,
    redact,
    scan,
)
from anonygraph.tools.dp_embed.pii_rules import iban_valid, luhn_valid


def found(text: str) -> list[tuple[str, str]]:
    return [(s.category, s.text) for s in scan(text)]


POSITIVES = [
    (
        "Write to jane.doe+news@mail.example.co.uk today.",
        "EMAIL",
        "jane.doe+news@mail.example.co.uk",
    ),
    ("Contact Jane Doe at jane@example.com.", "EMAIL", "jane@example.com"),
    ("Call 415-555-0188 now", "PHONE", "415-555-0188"),
    ("Ring me on +44 20 7946 0958.", "PHONE", "+44 20 7946 0958"),
    ("Office: (212) 555-1234", "PHONE", "(212) 555-1234"),
    ("tel: 4155550188", "PHONE", "4155550188"),
    ("See https://example.com/a/b?x=1.", "URL", "https://example.com/a/b?x=1"),
    ("or www.example.org, thanks", "URL", "www.example.org"),
    ("Server 192.168.0.1 is down.", "IP", "192.168.0.1"),
    ("Reach 255.255.255.0 here", "IP", "255.255.255.0"),
    ("host 2001:db8::ff00:42:8329 up", "IP", "2001:db8::ff00:42:8329"),
    ("loopback ::1 only", "IP", "::1"),
    ("card 4111 1111 1111 1111 exp", "CARD", "4111 1111 1111 1111"),
    ("card 5500-0000-0000-0004.", "CARD", "5500-0000-0000-0004"),
    ("amex 378282246310005", "CARD", "378282246310005"),
    ("IBAN DE89 3704 0044 0532 0130 00 BANK", "IBAN", "DE89 3704 0044 0532 0130 00"),
    ("pay GB82WEST12345698765432 now", "IBAN", "GB82WEST12345698765432"),
    ("SSN 123-45-6789.", "NATIONAL_ID", "123-45-6789"),
    ("NINO AB 12 34 56 C please", "NATIONAL_ID", "AB 12 34 56 C"),
    ("SIN 046-454-286", "NATIONAL_ID", "046-454-286"),
    ("passport no. X1234567 expired", "NATIONAL_ID", "X1234567"),
    ("Born 12/03/1990 in", "DATE", "12/03/1990"),
    ("on 2021-03-12.", "DATE", "2021-03-12"),
    ("on 31.12.2020 we", "DATE", "31.12.2020"),
    ("on March 12th, 2021 we", "DATE", "March 12th, 2021"),
    ("the 3rd of May 2020", "DATE", "3rd of May 2020"),
    ("since June 2019.", "DATE", "June 2019"),
    ("at 221B Baker Street, London", "ADDRESS", "221B Baker Street"),
    ("at 1600 Pennsylvania Ave, Apt 4B.", "ADDRESS", "1600 Pennsylvania Ave, Apt 4B"),
    ("in der Hauptstraße 12 wohnt", "ADDRESS", "Hauptstraße 12"),
    ("au 10 rue de Rivoli ce soir", "ADDRESS", "10 rue de Rivoli"),
    ("write to PO Box 1234 now", "ADDRESS", "PO Box 1234"),
    ("London SW1A 1AA.", "ADDRESS", "SW1A 1AA"),
    ("Ask Dr. Mary McDonald-Jones.", "NAME", "Dr. Mary McDonald-Jones"),
    ("Hello, my name is John O'Brien.", "NAME", "John O'Brien"),
    ("Please contact Jane Doe at noon", "NAME", "Jane Doe"),
    ("Regards,\nÉmile Zola", "NAME", "Émile Zola"),
    ("Dear Mrs. Smith,", "NAME", "Mrs. Smith"),
]


@pytest.mark.parametrize(("text", "category", "span"), POSITIVES)
def test_when_text_holds_pii_then_span_is_found(
    text: str, category: str, span: str
) -> None:
    assert (category, span) in found(text)


NEAR_MISSES = [
    ("card 4111 1111 1111 1112 (bad Luhn)", "CARD"),
    ("all zeros 0000 0000 0000 0000", "CARD"),
    ("IBAN DE89 3704 0044 0532 0130 01 (bad checksum)", "IBAN"),
    ("IBAN DE89 3704 0044 0532 013 (too short)", "IBAN"),
    ("release v1.2.3.4 is out", "IP"),
    ("version 10.0.0.1 is out", "IP"),
    ("pkg 1.2.3.4-beta is out", "IP"),
    ("pkg 1.2.3.4+build7 is out", "IP"),
    ("dotted 1.2.3.4.5 thing", "IP"),
    ("octet 256.1.1.1 too big", "IP"),
    ("octet 192.168.1.300 too big", "IP"),
    ("meet at 12:30:45 sharp", "IP"),
    ("mac 00:1A:2B:3C:4D:5E", "IP"),
    ("Python 3.12.10 released", "DATE"),
    ("on 45/13/2020 nothing", "DATE"),
    ("on 2021-13-40 nothing", "DATE"),
    ("order 12345678 shipped", "PHONE"),
    ("the years 1990-2005 were", "PHONE"),
    ("pi is 3.14159265 roughly", "PHONE"),
    ("code 000-12-3456 invalid area", "NATIONAL_ID"),
    ("code 666-12-3456 invalid area", "NATIONAL_ID"),
    ("Hello World, contact Customer Support.", "NAME"),
    ("We may meet in the spring", "DATE"),
    ("I walked 3 miles down the road", "ADDRESS"),
    ("mail me at jane@localhost", "EMAIL"),
]


@pytest.mark.parametrize(("text", "category"), NEAR_MISSES)
def test_when_text_only_resembles_pii_then_category_is_not_found(
    text: str, category: str
) -> None:
    assert category not in [c for c, _ in found(text)]


def test_when_luhn_checked_then_known_numbers_pass_and_typos_fail() -> None:
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("4111-1111")


def test_when_iban_checked_then_country_length_and_mod97_apply() -> None:
    assert iban_valid("DE89370400440532013000")
    assert not iban_valid("DE8937040044053201300")
    assert not iban_valid("DE89370400440532013001")


def test_when_spans_overlap_then_longest_and_most_specific_wins() -> None:
    # The SSN also matches the phone pattern with the same bounds.
    assert found("SSN 123-45-6789") == [("NATIONAL_ID", "123-45-6789")]
    # The e-mail inside the URL is swallowed by the longer URL.
    assert found("https://user@example.com/x") == [
        ("URL", "https://user@example.com/x")
    ]
    # A dotted date also matches the phone pattern; DATE is more specific.
    assert found("on 12.03.2021") == [("DATE", "12.03.2021")]


def test_when_category_is_whitelisted_then_it_stays_in_text() -> None:
    text = "Contact Jane Doe at jane@example.com."
    spans = scan(text, keep=["email"])
    assert [s.category for s in spans] == ["NAME"]
    assert redact(text, spans) == "Contact [NAME] at jane@example.com."


def test_when_whitelisted_span_overlaps_weaker_rule_then_weaker_does_not_claim_it() -> (
    None
):
    assert scan("SSN 123-45-6789", keep=["NATIONAL_ID"]) == []


def test_when_whitelist_names_unknown_category_then_error_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="EMAIL"):
        parse_categories(["emails"])


def test_when_whitelist_uses_placeholder_spelling_then_it_is_accepted() -> None:
    assert parse_categories(["[EMAIL]", "national-id"]) == {"EMAIL", "NATIONAL_ID"}


def test_when_text_is_redacted_then_every_span_becomes_its_placeholder() -> None:
    text = "Contact Jane Doe at jane@example.com or call 415-555-0188."
    assert redact(text, scan(text)) == "Contact [NAME] at [EMAIL] or call [PHONE]."


def test_when_spans_are_returned_then_offsets_index_the_text() -> None:
    text = "Mr. Bob Stone, 10 Main St, bob@x.org, 192.168.1.1, 12/03/1990."
    for span in scan(text):
        assert text[span.start : span.end] == span.text
        assert span.placeholder == PLACEHOLDERS[span.category]


def test_when_redacted_text_is_scanned_again_then_nothing_is_found() -> None:
    text = "Contact Jane Doe at jane@example.com or call 415-555-0188."
    assert scan(redact(text, scan(text))) == []


def test_when_rules_are_listed_then_each_category_has_a_rule() -> None:
    rows = list_rules()
    assert len(rows) == len(RULES)
    assert {row["category"] for row in rows} == set(CATEGORIES)
    assert all(row["description"] and row["placeholder"] for row in rows)
    assert len({row["name"] for row in rows}) == len(rows)


def test_when_text_is_long_then_scan_stays_fast() -> None:
    import time

    text = ("word " * 2000 + "4" * 500 + " 1.2.3 " * 500 + "A" * 300) * 3
    start = time.perf_counter()
    scan(text)
    assert time.perf_counter() - start < 2.0
