"""First step of every anonymization graph: check the input, replace identifiers."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from anonygraph.inputs import check_text
from anonygraph.model_requests.inference import protected_attributes
from anonygraph.state.context import ModelContextT
from anonygraph.state.identifiers import IdentifierOptions
from anonygraph.state.record import RecordInput, original_text


def prepare(state: RecordInput, runtime: Runtime[ModelContextT]) -> dict[str, Any]:
    """Check the input, set the working text, and replace direct identifiers.

    In the product profile the identifier pre-pass runs here, before any model
    (local or remote) sees the text: every later step reads ``source`` or
    ``current``, never the input. The paper profile runs its paper's
    algorithm on the input as given.

    Raises:
        InputError: for an empty text or unknown attributes.

    """
    context = runtime.context
    text = original_text(state)
    check_text(text, context.max_chars)
    update: dict[str, Any] = {
        "current": text,
        "attributes": protected_attributes(state.attributes, context),
    }
    if not isinstance(context, IdentifierOptions) or context.paper:
        return update
    from anonygraph.identifiers.prepass import replace_identifiers, run_seed

    thread = str((get_config().get("configurable") or {}).get("thread_id") or "")
    seed = run_seed(context.identifier_seed, thread.rsplit(":", 1)[0])
    return update | replace_identifiers(
        text, context.identifiers, seed=seed, keep_mapping=context.keep_mapping
    )
