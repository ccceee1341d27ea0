"""Mask templates: a word-level diff of an original and its rewrite, and filling."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from anonygraph.state.aura import MaskSpan, MaskTemplate

TOKEN = re.compile(r"\w+|[^\w\s]")
"""Words and punctuation marks: the units the diff aligns; whitespace is not one."""

PLACEHOLDER = "[MASK_{n}]"
"""How the n-th masked span (from 1) appears in a template."""


def build_template(original: str, converged: str) -> MaskTemplate:
    """Mask every span of ``original`` that ``converged`` changed or dropped.

    Tokens the two texts share (the longest matching blocks of a word-level
    diff) stay as they are, with the original's spacing; each maximal run of
    original tokens that was replaced or deleted becomes one ``[MASK_i]``
    whose seed is what ``converged`` put there ('' for a deletion). Words
    ``converged`` only inserted replace nothing of the original and are not
    masked.

    Args:
        original: The text before the masking rounds.
        converged: The text they converged to.

    Returns:
        The template; with no changed span it is the original and has no masks.

    """
    old = list(TOKEN.finditer(original))
    new = list(TOKEN.finditer(converged))
    matcher = difflib.SequenceMatcher(
        None, [m.group(0) for m in old], [m.group(0) for m in new], autojunk=False
    )
    parts: list[str] = []
    masks: list[MaskSpan] = []
    cursor = 0  # how far into the original the template has copied
    length = 0  # length of the template built so far
    for tag, o1, o2, c1, c2 in matcher.get_opcodes():
        if tag in ("equal", "insert"):
            continue
        start, end = old[o1].start(), old[o2 - 1].end()
        seed = converged[new[c1].start() : new[c2 - 1].end()] if c2 > c1 else ""
        placeholder = PLACEHOLDER.format(n=len(masks) + 1)
        parts.append(original[cursor:start])
        length += start - cursor
        masks.append(
            MaskSpan(
                placeholder=placeholder,
                original=original[start:end],
                seed=seed,
                start=length,
                end=length + len(placeholder),
                original_start=start,
                original_end=end,
            )
        )
        parts.append(placeholder)
        length += len(placeholder)
        cursor = end
    parts.append(original[cursor:])
    return MaskTemplate(text="".join(parts), masks=masks)


def fill_template(
    template: MaskTemplate, values: Mapping[str, str], *, squeeze: bool = False
) -> str:
    """Put ``values[placeholder]`` in place of each placeholder of ``template``.

    Placeholders are found by their offsets, never by searching the text, so
    a text that itself contains "[MASK_1]" fills correctly. A placeholder
    without a value stays in the text.

    Args:
        template: The template to fill.
        values: Placeholder -> the words to put there.
        squeeze: Also drop the space before a blank filling that sits between
            a space and a space or punctuation ("my  shift" -> "my shift").

    """
    text = template.text
    for mask in reversed(template.masks):
        value = values.get(mask.placeholder, mask.placeholder)
        start = mask.start
        after = text[mask.end : mask.end + 1]
        joins_word = bool(after) and (after.isalnum() or after in "([{")
        if squeeze and not value and text[start - 1 : start] == " " and not joins_word:
            start -= 1
        text = text[:start] + value + text[mask.end :]
    return text


def restore_original(template: MaskTemplate) -> str:
    """Fill every placeholder with the span it hides: the original text."""
    return fill_template(template, template.mask_map)


def words(text: str) -> str:
    """Normalize ``text`` to its lower-cased words, for comparing fillings."""
    return " ".join(re.findall(r"\w+", text.casefold()))


def unfilled(template: MaskTemplate, values: Mapping[str, str]) -> list[str]:
    """Return the placeholders ``values`` leaves unfilled.

    A placeholder is unfilled when it has no value, when its value still holds
    a placeholder, or when its value is blank although the converged text put
    words there (a blank is a fair filling only where the rewrite dropped the
    span).
    """
    missing = []
    for mask in template.masks:
        value = values.get(mask.placeholder)
        if (
            value is None
            or "[MASK_" in value
            or (not value.strip() and mask.seed.strip())
        ):
            missing.append(mask.placeholder)
    return missing


def restored_spans(template: MaskTemplate, values: Mapping[str, str]) -> list[str]:
    """Return the placeholders ``values`` fills with the very span they hide."""
    return [
        mask.placeholder
        for mask in template.masks
        if words(mask.original)
        and words(values.get(mask.placeholder) or "") == words(mask.original)
    ]
