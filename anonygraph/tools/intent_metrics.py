"""IntentAnony's intent preservation (section 5.5): Intent Overlap and Stability F1.

The paper reports both (Figure 5) without defining them; these are our
definitions over the five intent weights (I1..I5) its D.1 step gives for
the original and for the rewrite:

- Intent Overlap: the weighted Jaccard of the two weight vectors,
  sum of min / sum of max (how much of the intent mass both share).
- Stability F1: F1 of the expressed intents (weight above 0) of the
  rewrite against those of the original (which intents survive, whatever
  their weight).

Both are 1 when neither text expresses an intent.
"""

from __future__ import annotations

from collections.abc import Mapping

INTENT_CODES = ("I1", "I2", "I3", "I4", "I5")


def intent_overlap(
    original: Mapping[str, float], rewrite: Mapping[str, float]
) -> float:
    """Return the weighted Jaccard of two intent-weight vectors (0-1)."""
    low = sum(min(original.get(c, 0.0), rewrite.get(c, 0.0)) for c in INTENT_CODES)
    high = sum(max(original.get(c, 0.0), rewrite.get(c, 0.0)) for c in INTENT_CODES)
    return low / high if high else 1.0


def stability_f1(original: Mapping[str, float], rewrite: Mapping[str, float]) -> float:
    """Return F1 of the rewrite's expressed intents against the original's (0-1)."""
    before = {c for c in INTENT_CODES if original.get(c, 0.0) > 0}
    after = {c for c in INTENT_CODES if rewrite.get(c, 0.0) > 0}
    if not before and not after:
        return 1.0
    kept = len(before & after)
    if not kept:
        return 0.0
    precision, recall = kept / len(after), kept / len(before)
    return 2 * precision * recall / (precision + recall)
