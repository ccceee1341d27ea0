"""DP-Embed's segmentation: placeholders, chunks, sentences, and stitching back."""

from __future__ import annotations

import pytest

from anonygraph.tools.dp_embed.pii import scan
from anonygraph.tools.dp_embed.segmentation import (
    Segment,
    segment,
    split_sentences,
    stitch,
)


def chunks_of(segments: list[Segment]) -> list[str]:
    return [s.text for s in segments if s.kind == "chunk"]


@pytest.mark.parametrize(
    ("text", "chunks"),
    [
        # The seed's two demo inputs: K=2 and K=4.
        ("Contact Jane Doe at jane@example.com.", ["Contact", "at"]),
        (
            "Contact Jane Doe at jane@example.com or call 415-555-0188 about the "
            "merger. Our office is downtown.",
            [
                "Contact",
                "at",
                "or call",
                "about the merger. Our office is downtown.",
            ],
        ),
        ("jane@example.com, 415-555-0188.", []),
        ("One comment.\n\nAnother, by Dr. Smith!", ["One comment.", "Another, by"]),
    ],
)
def test_when_text_is_segmented_then_chunks_lie_between_placeholders(
    text: str, chunks: list[str]
) -> None:
    segments = segment(text, scan(text))
    assert chunks_of(segments) == chunks
    assert "".join(s.text for s in segments) == text


def test_when_segments_are_stitched_then_filler_and_placeholders_stay() -> None:
    text = "Contact Jane Doe at jane@example.com."
    segments = segment(text, scan(text))
    assert stitch(segments, ["Reach", "via"]) == "Reach [PERSON_1] via [EMAIL_1]."
    with pytest.raises(ValueError, match="2 chunks"):
        stitch(segments, ["only one"])


def test_when_redaction_is_off_then_sentences_are_the_chunks() -> None:
    text = "Dr. Smith came at 5 p.m. today. Really?! Yes.\n\nNew comment"
    segments = split_sentences(text)
    assert chunks_of(segments) == [
        "Dr. Smith came at 5 p.m. today.",
        "Really?!",
        "Yes.",
        "New comment",
    ]
    assert "".join(s.text for s in segments) == text
