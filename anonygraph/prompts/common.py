"""Pieces every structured prompt shares: the answer format and the repair request."""

ANSWER_FORMAT = """

Answer with a single JSON object, nothing before or after it, that follows this
JSON schema:
<schema>{schema}</schema>"""

REPAIR_REQUEST = """Your last answer could not be used: {error}
Answer again with only the JSON object, following the schema exactly."""

JSON_HINT = """

Answer with a single JSON object."""

REWRITE_REFUSED = """

Your previous rewrite was refused and the text kept as it was, because:
{reasons}
Rewrite the text again: return the author's own text with only the listed
details made vaguer, in the author's voice, with nothing said about the task."""
