"""First and last steps shared by the iterative graphs: prepare and finish."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph.inputs import check_text, split_comments
from anonygraph.nodes.anonymize import iteration_entry
from anonygraph.nodes.attack import protected_attributes
from anonygraph.state.domain import COMMENT_SEPARATOR


def prepare(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Check the input and set the working text.

    Raises:
        InputError: for an empty text or unknown attributes.

    """
    text = COMMENT_SEPARATOR.join(state.comments) if state.comments else state.text
    check_text(text, runtime.context.max_chars)
    return {
        "current": text,
        "attributes": protected_attributes(state, runtime.context),
    }


def finish(state: Any, runtime: Runtime[Any]) -> dict[str, Any]:
    """Publish the final text and why the loop stopped."""
    converged = state.round < runtime.context.max_iterations
    update: dict[str, Any] = {
        "anonymized": state.current,
        "anonymized_comments": split_comments(state.current, len(state.comments)),
        "status": "converged" if converged else "max_iterations",
    }
    if converged:
        update["iterations"] = [iteration_entry(state, rewritten=None)]
    return update
