"""Tell when a model's output has started looping, so decoding can stop early.

A small model (the embedded SmolLM2-135M) at temperature 0 can fall into a
loop: the same word, phrase or JSON fragment over and over until the token
limit. The tail of such an output is periodic. Stopping at the first sign of
it saves the rest of the budget, and a looping answer is not asked again
with a larger one: more tokens only buy more of the loop.
"""

from __future__ import annotations

REPETITION = "repetition"
"""The ``finish_reason`` of an answer stopped because it was looping."""

MAX_PERIOD = 120
"""The longest repeated unit looked for, in characters (a sentence or two)."""
MIN_REPEATS = 8
"""A unit must follow itself at least this many times in a row: the embedded
model sometimes repeats a phrase four or five times and then moves on to a
usable answer."""
MIN_SPAN = 400
"""...and the repeats must cover at least this many characters: a run of the
same character ("----", "0000", an indent) or a short refrain is ordinary
text. A runaway loop goes on to the token limit (512 tokens are about 2,000
characters), so most of the budget is still saved."""


def loop_unit(text: str) -> str | None:
    """Return the unit the end of ``text`` repeats, or None when it does not loop.

    The end of ``text`` loops when, for some period p (1 to `MAX_PERIOD`
    characters), its last ``p * n`` characters are one unit repeated n times,
    with n >= `MIN_REPEATS` and ``p * n`` >= `MIN_SPAN`. The shortest such
    unit is returned.
    """
    for period in range(1, MAX_PERIOD + 1):
        repeats = max(MIN_REPEATS, -(-MIN_SPAN // period))
        span = period * repeats
        if span > len(text):
            continue
        tail = text[-span:]
        # Periodic with period p: the tail equals itself shifted by p.
        if tail[period:] == tail[:-period]:
            return tail[-period:]
    return None


WINDOW = MAX_PERIOD * MIN_REPEATS + MIN_SPAN
"""Characters of the output's end that `loop_unit` needs to see."""


class RepetitionGuard:
    """Watches a streamed answer and tells when its end has started looping."""

    def __init__(self) -> None:
        """Start with an empty answer."""
        self.text = ""
        self.unit: str | None = None
        """The repeated unit once the answer looped; None while it has not."""

    def feed(self, piece: str) -> bool:
        """Add the next piece of the answer; return True once it loops."""
        self.text += piece
        if piece:
            self.unit = loop_unit(self.text[-WINDOW:])
        return self.unit is not None


def describe_loop(unit: str, tokens: int) -> str:
    """Say, for a record's error, what the looping answer repeated."""
    shown = unit if len(unit) <= 40 else unit[:37] + "..."
    return (
        f"the answer started repeating {shown!r} and was stopped after {tokens} tokens"
    )
