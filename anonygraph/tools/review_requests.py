"""Build a review step's pause: LangChain's HITL request from a proposal."""

from __future__ import annotations

from typing import Any

from anonygraph.state.review import (
    ALLOWED_DECISIONS,
    ReviewDetails,
    ReviewRequest,
    ReviewResponse,
)


def build_request(
    details: ReviewDetails, args: dict[str, Any], response: type[ReviewResponse]
) -> ReviewRequest:
    """Wrap one proposal as a HITL request: one action, its config, our details.

    Args:
        details: the step, texts, inferences and full proposal.
        args: the action's arguments as an edit gives them back.
        response: the step's answer schema (its edit args give ``args_schema``).
    """
    action = response.action_name
    return ReviewRequest(
        action_requests=[
            {"name": action, "args": args, "description": describe(details)}
        ],
        review_configs=[
            {
                "action_name": action,
                "allowed_decisions": list(ALLOWED_DECISIONS),
                "args_schema": response.args_type.model_json_schema(),
            }
        ],
        details=details,
    )


def describe(details: ReviewDetails) -> str:
    """Render a pause in Markdown: the text, the attacker's guesses, the proposal."""
    lines = [
        f"**{details['step']}** after {details['round']} rewrite(s).",
        "",
        "Text:",
        "",
        *(f"> {line}" for line in details["text"].splitlines() or [""]),
        "",
        "Attacker's guesses:",
        "",
    ]
    guessed = [i for i in details["inferences"] if i.get("guesses")]
    for inference in guessed:
        lines.append(
            f"- {inference['attribute']}: {', '.join(inference['guesses'])} "
            f"(certainty {inference.get('certainty', '?')})"
        )
    if not guessed:
        lines.append("- (no guess)")
    proposal = proposal_lines(details["step"], details["proposal"])
    lines += ["", "Proposal:", "", "```", *proposal, "```"]
    lines += ["", ANSWER_HELP[details["step"]]]
    return "\n".join(lines)


ANSWER_HELP: dict[str, str] = {
    "review_policy": "Approve to rewrite with this policy, reject to keep the text "
    "as it is, or edit `policy` (attribute -> generalize, rephrase or address; "
    "leave one out to drop it).",
    "review_budgets": "Approve to rewrite within these budgets, reject to keep the "
    "text as it is, or edit `levels` (attribute -> L0 keeps ... BAN suppresses).",
    "review_selection": "Approve to use the starred candidate, reject to keep the "
    "text as it is, or edit `pick` (the index of another valid candidate).",
}
"""What each answer does, per review step."""


def proposal_lines(step: str, proposal: dict[str, Any]) -> list[str]:
    """Render a step's proposal, one line per item (terminal and Markdown alike)."""
    if step == "review_policy":
        return [
            f"  {p['attribute']}: {p['action']} ({p.get('concept', '')})"
            for p in proposal["policy"]
        ]
    if step == "review_budgets":
        lines = [
            f"  {b['attribute']}: {b['level']} (attacker certainty at most "
            f"{b['max_certainty']})"
            for b in proposal["budgets"]
        ]
        for chain in proposal["chains"]:
            lines += [
                f"    {s['action']} {s['quote']!r} ({chain['attribute']})"
                for s in chain["steps"]
            ]
        return lines
    chosen = proposal["choice"].get("index")
    lines = []
    for c in proposal["candidates"]:
        mark = "*" if c["index"] == chosen else " "
        state = (
            f"rejected: {'; '.join(c['rejected'])}"
            if c.get("rejected")
            else f"S={c.get('severity')} C={c.get('specific')} L={c.get('loss')}"
        )
        lines.append(f" {mark}{c['index']}: [{state}] {c.get('text', '')}")
    lines.append(f"  rule: {proposal['choice'].get('reason', '')}")
    return lines
