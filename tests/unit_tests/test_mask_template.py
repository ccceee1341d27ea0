"""Properties of AURA's mask templates: exact restoration, exact coverage."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from anonygraph.tools.aura.mask_template import (
    TOKEN,
    build_template,
    fill_template,
    restore_original,
    restored_spans,
    unfilled,
)

SPACES = st.sampled_from([" ", "  ", "\n", "\n\n", "\t", " \n "])
ANY_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120
)


@st.composite
def rewrites(draw: st.DrawFn) -> tuple[str, str, set[int], list[str]]:
    """An original of distinct words and a rewrite that replaces some runs.

    Returns the original, the rewrite, the indices of the original words the
    rewrite changed, and the replacement of each changed run in order.
    """
    n = draw(st.integers(min_value=1, max_value=12))
    words = [f"w{i}" for i in range(n)]
    if draw(st.booleans()):
        words[-1] += draw(st.sampled_from([".", "!", ","]))
    gaps = [draw(SPACES) for _ in range(n - 1)]
    lead, tail = draw(st.sampled_from(["", " "])), draw(st.sampled_from(["", "\n"]))
    original = lead + "".join(w + g for w, g in zip(words, [*gaps, ""])) + tail
    changed = draw(st.sets(st.integers(min_value=0, max_value=n - 1)))
    out: list[str] = []
    seeds: list[str] = []
    fresh = iter(f"new{i}" for i in range(100))
    i = 0
    while i < n:
        if i not in changed:
            out.append(words[i])
            i += 1
            continue
        j = i
        while j < n and j in changed:
            j += 1
        size = draw(st.integers(min_value=0, max_value=3))
        replacement = " ".join(next(fresh) for _ in range(size))
        seeds.append(replacement)
        if replacement:
            out.append(replacement)
        i = j
    return original, " ".join(out), changed, seeds


def masked_tokens(original: str, converged: str) -> set[int]:
    """Indices of the original's tokens that fall inside a mask."""
    template = build_template(original, converged)
    tokens = list(TOKEN.finditer(original))
    return {
        k
        for k, token in enumerate(tokens)
        for m in template.masks
        if m.original_start <= token.start() and token.end() <= m.original_end
    }


@given(ANY_TEXT, ANY_TEXT)
@settings(max_examples=300)
def test_when_every_mask_gets_its_original_span_then_the_original_comes_back(
    original: str, converged: str
) -> None:
    template = build_template(original, converged)

    assert restore_original(template) == original
    assert template.mask_map == {m.placeholder: m.original for m in template.masks}
    assert [m.placeholder for m in template.masks] == [
        f"[MASK_{n}]" for n in range(1, len(template.masks) + 1)
    ]
    for mask in template.masks:
        assert template.text[mask.start : mask.end] == mask.placeholder
        assert original[mask.original_start : mask.original_end] == mask.original


@given(ANY_TEXT, ANY_TEXT)
@settings(max_examples=300)
def test_when_text_is_masked_then_what_is_left_is_unchanged_in_the_rewrite(
    original: str, converged: str
) -> None:
    template = build_template(original, converged)
    inside = masked_tokens(original, converged)
    kept = [
        t.group(0) for k, t in enumerate(TOKEN.finditer(original)) if k not in inside
    ]
    rewrite = iter(TOKEN.findall(converged))
    # The unmasked tokens appear in the rewrite, in order: nothing changed is
    # left unmasked.
    assert all(token in rewrite for token in kept)
    assert all(m.original.strip() for m in template.masks)


@given(rewrites())
@settings(max_examples=300)
def test_when_runs_of_words_are_replaced_then_masks_cover_exactly_those_runs(
    case: tuple[str, str, set[int], list[str]],
) -> None:
    original, converged, changed, seeds = case
    template = build_template(original, converged)

    words = [m.start() for m in re.finditer(r"\w+", original)]
    tokens = [t.start() for t in TOKEN.finditer(original)]
    changed_tokens = {
        k
        for k, start in enumerate(tokens)
        if start in words and words.index(start) in changed
    }
    word_masks = {k for k in masked_tokens(original, converged) if tokens[k] in words}
    assert word_masks == changed_tokens
    assert [m.seed for m in template.masks] == seeds
    assert restore_original(template) == original


def test_when_nothing_changed_but_spacing_then_the_template_has_no_masks() -> None:
    template = build_template("I live  in\nBoston.", "I live in Boston.")

    assert template.masks == [] and template.text == "I live  in\nBoston."


def test_when_words_are_replaced_and_dropped_then_seeds_say_what_came_instead() -> None:
    original = "One more night shift at St. Mungo's. My husband cooked."
    converged = "One more shift at the hospital. My partner cooked."

    template = build_template(original, converged)

    assert template.text == "One more [MASK_1] shift at [MASK_2]. My [MASK_3] cooked."
    assert template.mask_map == {
        "[MASK_1]": "night",
        "[MASK_2]": "St. Mungo's",
        "[MASK_3]": "husband",
    }
    assert template.seeds == {
        "[MASK_1]": "",
        "[MASK_2]": "the hospital",
        "[MASK_3]": "partner",
    }


def test_when_the_text_itself_holds_a_placeholder_then_filling_uses_offsets() -> None:
    original = "Literal [MASK_1] here, then Boston."
    template = build_template(original, "Literal [MASK_1] here, then a city.")

    assert fill_template(template, {"[MASK_1]": "a city"}) == (
        "Literal [MASK_1] here, then a city."
    )
    assert restore_original(template) == original


def test_when_a_blank_fills_a_dropped_span_then_squeeze_leaves_one_space() -> None:
    template = build_template("I live in Boston with my wife.", "I live with my wife.")

    assert fill_template(template, {"[MASK_1]": ""}, squeeze=True) == (
        "I live with my wife."
    )
    assert unfilled(template, {"[MASK_1]": ""}) == []


def test_when_a_filling_is_missing_blank_or_the_original_then_it_is_reported() -> None:
    template = build_template("I live in Boston with my wife.", "I live in a city.")

    assert unfilled(template, {}) == ["[MASK_1]"]
    assert unfilled(template, {"[MASK_1]": "  "}) == ["[MASK_1]"]
    assert unfilled(template, {"[MASK_1]": "[MASK_1]"}) == ["[MASK_1]"]
    assert restored_spans(template, {"[MASK_1]": "boston with my WIFE"}) == ["[MASK_1]"]
    assert restored_spans(template, {"[MASK_1]": "a city with family"}) == []
