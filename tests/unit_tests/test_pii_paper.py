"""The DP-Embed paper's PII rule set: categories, tags, filters and overlap order.

The categories and tags are checked against the paper facts in
tests/data/papers/dp_embed.json; each category has positive and negative
examples written for these tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonygraph.tools.dp_embed import dp_accountant, segmentation
from anonygraph.tools.dp_embed.pii import PiiSpan, redact, scan
from anonygraph.tools.dp_embed.pii_paper import (
    PAPER_CATEGORIES,
    PAPER_RULES,
    scan_paper,
)

FACTS = json.loads(
    (
        Path(__file__).resolve().parents[1] / "data" / "papers" / "dp_embed.json"
    ).read_text("utf-8")
)["pii_rules"]


def tags(text: str) -> list[tuple[str, str]]:
    """Return (matched text, tag) for every detection in ``text``."""
    return [(d.text, d.placeholder) for d in scan_paper(text)]


def test_when_the_rule_set_is_listed_then_it_is_the_papers_catalogue() -> None:
    expected = [
        (r["category"], r["placeholder"], r["confidence"]) for r in FACTS["catalogue"]
    ]
    assert [(r.category, r.placeholder, r.confidence) for r in PAPER_RULES] == expected
    case_sensitive = [r["case_sensitive"] for r in FACTS["catalogue"]]
    assert [not r.pattern.flags & 2 for r in PAPER_RULES] == case_sensitive
    assert set(FACTS["named_in_paper"]["placeholders"]) <= {
        r.placeholder for r in PAPER_RULES
    }


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "write to jane.doe@example.co.uk today",
            ("jane.doe@example.co.uk", "[EMAIL]"),
        ),
        ("call (415) 555-0188 now", ("(415) 555-0188", "[PHONE]")),
        ("call +1 415.555.0188 now", ("+1 415.555.0188", "[PHONE]")),
        ("ping @night_owl_42 there", ("@night_owl_42", "[HANDLE]")),
        ("see https://example.org/a?b=1.", ("https://example.org/a?b=1", "[URL]")),
        ("host 192.168.10.254 is up", ("192.168.10.254", "[IP_ADDRESS]")),
        ("mac 00:1A:2b:3C:4d:5E seen", ("00:1A:2b:3C:4d:5E", "[MAC_ADDRESS]")),
        ("ssn 078-05-1120 on file", ("078-05-1120", "[SSN]")),
        ("our EIN 12-3456789 here", ("12-3456789", "[EIN]")),
        ("card 4111 1111 1111 1111 ok", ("4111 1111 1111 1111", "[CARD_NUMBER]")),
        ("pay DE89370400440532013000 now", ("DE89370400440532013000", "[IBAN]")),
        ("swift code DEUTDEFF500 used", ("swift code DEUTDEFF500", "[SWIFT_BIC]")),
        (
            "routing number 021000021 ok",
            ("routing number 021000021", "[ROUTING_NUMBER]"),
        ),
        (
            "account number: 12-3456-78 ok",
            ("account number: 12-3456-78", "[BANK_ACCOUNT]"),
        ),
        (
            "passport number is X1234567 ok",
            ("passport number is X1234567", "[PASSPORT]"),
        ),
        (
            "driver's license D1234-567 ok",
            ("driver's license D1234-567", "[DRIVER_LICENSE]"),
        ),
        ("born on March 3, 1990 in", ("born on March 3, 1990", "[DOB]")),
        ("and I'm 27 now", ("I'm 27", "[AGE]")),
        ("a 34 year-old nurse", ("34 year-old", "[AGE]")),
        ("she is 61 years old", ("61 years old", "[AGE]")),
        ("after the divorce stuff", None),
        ("me and my husband went", ("husband", "[RELATIONSHIP_DETAIL]")),
        ("we broke up last year", ("broke up", "[RELATIONSHIP_DETAIL]")),
        ("my roommate Priya cooks", ("roommate Priya", "[PERSON]")),
        ("a dog named Biscuit barked", ("named Biscuit", "[PERSON]")),
        ("lives at 221 Baker Street now", ("221 Baker Street", "[ADDRESS]")),
        ("shops on oxford street daily", ("oxford street", "[LOCATION]")),
        ("we moved to Lisbon last", ("Lisbon", "[LOCATION]")),
        ("zip 94110 area", ("94110", "[POSTAL_CODE]")),
        ("license plate KX-4521 was", ("license plate KX-4521", "[LICENSE_PLATE]")),
        ("MRN: 00A-7781 flagged", ("MRN: 00A-7781", "[MEDICAL_RECORD_NUMBER]")),
        ("student id S-2291 card", ("student id S-2291", "[INTERNAL_ID]")),
        ("order 55123 shipped", ("order 55123", "[REFERENCE_ID]")),
        ("joined Acme Robotics Inc in", ("Acme Robotics Inc", "[ORG]")),
        ("Dr. Alma Reyes will call", ("Dr. Alma Reyes", "[PERSON]")),
        ("i met Jane Doe there", ("Jane Doe", "[PERSON]")),
        (
            "to 1BoatSLRHtKNngkdXEeobR76b53LETtpyT pls",
            ("1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "[CRYPTO_WALLET]"),
        ),
        (
            "to 0x52908400098527886E0F7030069857D2E4169EE7 pls",
            ("0x52908400098527886E0F7030069857D2E4169EE7", "[CRYPTO_WALLET]"),
        ),
    ],
)
def test_when_a_category_is_present_then_the_paper_tag_replaces_it(
    text: str, found: tuple[str, str] | None
) -> None:
    if found is None:
        # "divorce" is not one of the relationship words (only "divorced").
        assert tags(text) == []
    else:
        assert found in tags(text)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("card 4111 1111 1111 1112 declined", "credit card"),  # fails Luhn
        ("I visited New York last May", "full person name"),  # a place pair
        ("read the Privacy Policy first", "full person name"),  # a generic pair
        ("Contact support today", "full person name"),  # a cue word, no name
        ("ip 300.1.2.3 is wrong", "ip address"),  # an octet above 255
        ("a dog named The", "single first name"),  # a common word after the cue
        ("we went to Please Review", "city or place mention"),  # not a place
        ("she was aged well", "age expression"),  # no number after 'age'
        ("a plate of rice", "license plate"),  # too short after 'plate'
        ("the order arrived", "account or order id"),  # no digit in the reference
    ],
)
def test_when_a_lookalike_is_present_then_its_category_is_not_found(
    text: str, category: str
) -> None:
    assert category not in {d.category for d in scan_paper(text)}


def test_when_spans_overlap_then_the_earlier_start_wins_over_a_longer_span() -> None:
    # "friend Anna Berg": the role rule starts first ("friend Anna"), so the
    # longer full-name span that starts one word later is dropped.
    found = tags("my friend Anna Berg came")
    assert found == [("friend Anna", "[PERSON]")]


def test_when_a_street_type_follows_a_word_then_the_broad_rule_fires_first() -> None:
    # The paper's rules are broad by design: "ask Dr." reads as a street
    # mention ("Dr" = Drive) and, starting first, claims the title.
    assert tags("ask Dr. Alma Reyes tomorrow") == [
        ("ask Dr.", "[LOCATION]"),
        ("Alma Reyes", "[PERSON]"),
    ]


def test_when_spans_start_together_then_the_longer_one_wins() -> None:
    # "12345" alone is a ZIP code; the street address starting there is longer.
    assert tags("ship to 12345 Main St please") == [("12345 Main St", "[ADDRESS]")]
    # An earlier start wins before length: "order 12345" over the ZIP inside it.
    assert tags("order 12345 arrived") == [("order 12345", "[REFERENCE_ID]")]


def test_when_a_category_is_whitelisted_then_its_spans_stay_in_the_text() -> None:
    text = "Contact Jane Doe at jane@example.com."
    kept = scan_paper(text, keep=["Full Person Name"])
    assert [d.placeholder for d in kept] == ["[EMAIL]"]
    with pytest.raises(ValueError, match="full person name"):
        scan_paper(text, keep=["NAME"])


def test_when_the_papers_examples_are_redacted_then_their_tags_and_k_match() -> None:
    # Skill card 2.3 (d) and 5.1: the receipts give K = 2 and K = 4.
    for example in FACTS_EXAMPLES:
        text, k, sigma = example["text"], example["K"], example["sigma"]
        detections = scan_paper(text)
        spans = [
            PiiSpan("EMAIL", d.start, d.end, d.text, d.placeholder, d.category)
            for d in detections
        ]
        segments = segmentation.segment(text, spans)
        chunks = [s for s in segments if s.kind == "chunk"]
        assert len(chunks) == k, (text, chunks)
        receipt = dp_accountant.privacy_receipt(
            epsilon=16,
            delta=1e-3,
            n_chunks=len(chunks),
            clip=1.5,
            composition="basic",
            metric_unit=None,
        )
        assert receipt.sigma == pytest.approx(sigma, abs=1e-4)
    redacted = redact(FACTS_EXAMPLES[1]["text"], scan_paper(FACTS_EXAMPLES[1]["text"]))
    assert redacted == (
        "Contact [PERSON] at [EMAIL] or call [PHONE] about the merger. "
        "Our office is downtown."
    )


FACTS_EXAMPLES = json.loads(
    (
        Path(__file__).resolve().parents[1] / "data" / "papers" / "dp_embed.json"
    ).read_text("utf-8")
)["algorithm"]["chunk_counting"]["examples"]


def test_when_paper_rules_and_product_rules_meet_a_profile_text_then_they_differ() -> (
    None
):
    # The paper profile placeholders ages, relationship words and places the
    # product detector leaves to the rewrite (it takes direct identifiers only:
    # the wife's name, the e-mail).
    text = "I'm 34 and my wife Dana and I moved to Calgary; email me at d@x.io"
    paper = {d.placeholder for d in scan_paper(text)}
    product = {s.placeholder for s in scan(text)}
    assert {"[AGE]", "[PERSON]", "[LOCATION]", "[EMAIL]"} <= paper
    assert product == {"[PERSON_1]", "[EMAIL_1]"}
    assert len(PAPER_CATEGORIES) == len(FACTS["catalogue"])
