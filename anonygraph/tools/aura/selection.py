"""AURA's candidate rules: which candidates may be chosen, and which one wins."""

from __future__ import annotations

from anonygraph.state.aura import BlacklistSpan, Candidate, MaskTemplate
from anonygraph.tools.aura.mask_template import restored_spans, unfilled
from anonygraph.tools.spans import locate


def candidate_problems(
    template: MaskTemplate, values: dict[str, str], blacklist: list[BlacklistSpan]
) -> list[str]:
    """Say why a candidate's replacements may not be used; [] when they may."""
    problems = []
    missing = unfilled(template, values)
    if missing:
        problems.append(f"leaves {', '.join(missing)} unfilled")
    restored = restored_spans(template, values)
    if restored:
        problems.append(f"fills {', '.join(restored)} with the original words")
    for placeholder, value in values.items():
        for entry in blacklist:
            if locate(entry.quote, value) is not None:
                problems.append(
                    f"fills {placeholder} with blacklisted words ({entry.attribute})"
                )
    return problems


def select_candidate(
    candidates: list[Candidate], max_specific: int
) -> tuple[Candidate | None, str]:
    """Pick among scored valid candidates: privacy first, then utility.

    Among candidates with C <= ``max_specific`` the lowest (S, L) wins
    (rule ``within_c_max``); when there is none, the lowest (C, S, L)
    (``fewest_details``); ties go to the lower index.

    Returns:
        The winner (None when no candidate is valid and scored) and the rule.

    """
    scored = [c for c in candidates if c.scored]
    if not scored:
        return None, "no_valid_candidate"
    within = [
        c for c in scored if c.specific is not None and c.specific <= max_specific
    ]
    if within:
        return min(within, key=lambda c: (c.severity, c.loss, c.index)), "within_c_max"
    best = min(scored, key=lambda c: (c.specific, c.severity, c.loss, c.index))
    return best, "fewest_details"


def explain_choice(
    chosen: Candidate | None, rule: str, candidates: list[Candidate], max_specific: int
) -> str:
    """Say in words why ``chosen`` won, for Studio and the store."""
    if chosen is None:
        return (
            f"none of the {len(candidates)} candidates is valid; the converged "
            "text is kept"
        )
    scored = sum(c.scored for c in candidates)
    key = f"C={chosen.specific}, S={chosen.severity}, L={chosen.loss}"
    if rule == "within_c_max":
        return (
            f"candidate {chosen.index} ({key}) has the lowest (S, L) among the "
            f"valid candidates with C <= {max_specific} ({scored} valid in all)"
        )
    return (
        f"no valid candidate has C <= {max_specific}; candidate {chosen.index} "
        f"({key}) has the lowest (C, S, L) of {scored}"
    )
