"""Pieces every prompt shares: fences around inserted values, answer format, repair.

Every value a prompt quotes (the text, a model's reasoning, quotes, search
results, feedback lists) goes in as ``fence(name, value)``: on lines of its own
between ``<name>`` and ``</name>``, with every fence-like tag inside it defused,
so that no value can close its fence early or open another one. `fill` renders
a template: fenced values go in as they are and any other string is defused
too, so a template a user sets through ``Context`` gets the same protection.

Only the prompt's copy is escaped: `restore` undoes the escape in what a model
answers (the model layer applies it), so quotes and rewrites are located in,
and written back to, the stored text exactly as the author wrote it.
"""

from __future__ import annotations

import re

FENCE_NAMES: tuple[str, ...] = (
    "text",
    "original",
    "rewrite",
    "source",
    "edited",
    "template",
    "attributes",
    "attacker_reasoning",
    "leaks",
    "notes",
    "search_results",
    "inferences",
    "budgets",
    "edit_spans",
    "keep_spans",
    "overruns",
    "seeds",
    "scope",
    "profile",
    "utility",
    "truth",
    "guess",
    "schema",
    "pairs",
    "intents",
    "evidence_chains",
    "facts",
)
"""Every tag name a prompt fences a value in; these are defused inside values."""

# A fence-like tag starts with "<", maybe blanks, maybe "/", maybe blanks, then
# a fence name of any case that no word character continues: "</ TEXT >",
# "<text\n", "<Notes attr=1>" but not "<textarea>". Only blanks, "/" and name
# characters are looked at after the "<", and escaping changes none of them,
# so `restore` sees exactly the tags `neutralize` escaped.
_TAG_REST = r"(?=\s*/?\s*(?i:" + "|".join(FENCE_NAMES) + r")(?!\w))"
_TO_ESCAPE = re.compile(r"(?:<|&(?:amp;)*lt;)" + _TAG_REST)
_ESCAPED = re.compile(r"&((?:amp;)*)lt;" + _TAG_REST)


class Prompt(str):
    """Prompt text whose tags are ours (from `fence` or `fill`): inserted as is."""

    __slots__ = ()


def neutralize(value: str) -> str:
    """Defuse every fence-like tag in ``value``: its "<" becomes "&lt;".

    An "&lt;" (or "&amp;lt;", ...) already standing before a fence name gains
    one more "amp;", so `restore` gives back exactly ``value``.
    """
    return _TO_ESCAPE.sub(
        lambda m: "&lt;" if m.group(0) == "<" else "&amp;" + m.group(0)[1:], value
    )


def restore(value: str) -> str:
    """Undo `neutralize`: ``restore(neutralize(x)) == x`` for every string."""
    return _ESCAPED.sub(
        lambda m: "<" if not m.group(1) else "&" + m.group(1)[4:] + "lt;", value
    )


def fence(name: str, value: str) -> Prompt:
    """Put ``value`` between ``<name>`` and ``</name>`` lines, its tags defused.

    Raises:
        ValueError: ``name`` is not in `FENCE_NAMES` (values would not defuse it).

    """
    if name not in FENCE_NAMES:
        raise ValueError(f"fence {name!r} is not in FENCE_NAMES; add it there")
    return Prompt(f"<{name}>\n{neutralize(value)}\n</{name}>")


def fill(template: str, /, **slots: object) -> Prompt:
    """Fill ``template``'s ``str.format`` slots; strings not fenced are defused."""
    values = {
        name: neutralize(value)
        if isinstance(value, str) and not isinstance(value, Prompt)
        else value
        for name, value in slots.items()
    }
    return Prompt(template.format_map(values))


def one_line(value: str) -> str:
    """Join ``value``'s lines with spaces, so a list item cannot forge more items."""
    return " ".join(value.split())


ANSWER_FORMAT = """

Answer with a single JSON object, nothing before or after it, that follows this
JSON schema:
{schema}"""
"""Slot {schema}: fenced as ``schema``."""

REPAIR_REQUEST = """Your last answer could not be used: {error}
Answer again with only the JSON object, following the schema exactly."""

LOOP_REQUEST = " (do not repeat yourself)"
"""Added to the repair request's error when the last answer looped."""

JSON_HINT = """

Answer with a single JSON object."""

REWRITE_REFUSED = """

Your previous rewrite was refused and the text kept as it was, because:
{reasons}
Rewrite the text again: return the author's own text with only the listed
details made vaguer, in the author's voice, with nothing said about the task."""
