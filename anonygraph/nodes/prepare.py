"""First step of every anonymization graph: check the input, set the working text."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from anonygraph.inputs import check_text
from anonygraph.model_requests.inference import protected_attributes
from anonygraph.state.context import ModelContextT
from anonygraph.state.record import RecordInput, original_text


def prepare(state: RecordInput, runtime: Runtime[ModelContextT]) -> dict[str, Any]:
    """Check the input and set the working text.

    Raises:
        InputError: for an empty text or unknown attributes.

    """
    text = original_text(state)
    check_text(text, runtime.context.max_chars)
    return {
        "current": text,
        "attributes": protected_attributes(state.attributes, runtime.context),
    }
