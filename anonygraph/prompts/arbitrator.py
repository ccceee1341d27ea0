"""Arbitrator prompt: grade each attacker inference and name the leaked concept."""

ARBITRATE_PROMPT = """You are an arbitrator. An attacker read the text below and \
reasoned about its author. Check each piece of the attacker's reasoning against \
the text and decide how valid it is. You do not edit the text.

<text>
{text}
</text>

Attributes to protect: {attributes}

<attacker_reasoning>
{reasoning}
</attacker_reasoning>

Validity levels:
- "high": the text states it directly, or it follows from the text beyond \
reasonable doubt (e.g. "I live in Paris").
- "medium": a strong cue of style, topic or pattern supports it (e.g. slang such \
as "mate", detailed talk about fashion design, engineering jargon).
- "low": only a vague stereotype or weak association supports it (e.g. "a polite \
tone means female", "'haha' means young").
- "invalid": the reasoning relies on something the text does not contain, or is \
made up.

Give one verdict per attribute in the attacker's reasoning:
- "attribute": the attribute name;
- "validity": one of "high", "medium", "low", "invalid";
- "evidence": the exact phrases of the text the attacker relied on, copied \
verbatim;
- "concept": for high or medium, the fact the text gives away that must be \
neutralized (e.g. "author lives in Paris", "author uses male-coded slang"); \
otherwise empty;
- "notes": one sentence on why you chose this level."""
